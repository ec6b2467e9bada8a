package repo_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/repo"
)

func TestRefresh(t *testing.T) {
	const patch = "--- a/f.txt\n+++ b/f.txt\n@@ -2,3 +2,3 @@\n two\n-three\n+THREE\n four\n"
	setup := func(t *testing.T) (string, *repo.Tree, []*edit.FilePlan) {
		t.Helper()
		dir := t.TempDir()
		writeFiles(t, dir, texts(map[string]string{"f.txt": "one\ntwo\nthree\nfour\nfive\n"}))
		tr := openTree(t, dir)
		p, err := edit.Parse(patch)
		if err != nil {
			t.Fatal(err)
		}
		plans, err := tr.Place(p)
		if err != nil {
			t.Fatal(err)
		}
		return dir, tr, plans
	}

	t.Run("unchanged", func(t *testing.T) {
		_, tr, plans := setup(t)
		before := plans[0]
		changed, err := tr.Refresh(plans)
		if err != nil || len(changed) != 0 || plans[0] != before {
			t.Errorf("Refresh: got %v, %v (plan replaced: %v), want nothing changed", changed, err, plans[0] != before)
		}
	})

	t.Run("changed elsewhere: placed again", func(t *testing.T) {
		dir, tr, plans := setup(t)
		if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("zero\none\ntwo\nthree\nfour\nfive\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		changed, err := tr.Refresh(plans)
		if err != nil || len(changed) != 1 || changed[0] != "f.txt" {
			t.Fatalf("Refresh: got %v, %v, want f.txt placed again", changed, err)
		}
		got, err := plans[0].Result(nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := "zero\none\ntwo\nTHREE\nfour\nfive\n"; got != want {
			t.Errorf("result after Refresh: got %q, want %q", got, want)
		}
	})

	t.Run("changed where the hunk goes: refused", func(t *testing.T) {
		dir, tr, plans := setup(t)
		if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("one\ntwo\n3\nfour\nfive\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := tr.Refresh(plans); !errors.Is(err, repo.ErrChanged) {
			t.Errorf("Refresh: got %v, want ErrChanged", err)
		}
	})

	t.Run("removed: refused", func(t *testing.T) {
		dir, tr, plans := setup(t)
		if err := os.Remove(filepath.Join(dir, "f.txt")); err != nil {
			t.Fatal(err)
		}
		if _, err := tr.Refresh(plans); !errors.Is(err, repo.ErrChanged) {
			t.Errorf("Refresh: got %v, want ErrChanged", err)
		}
	})
}

package repo

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/repo/repotest"
)

// TestPlaceWalksEachDirectoryOnce places a patch of many files in a few
// nested directories (one file created, one deleted, one renamed in a new
// directory) and checks that the placement opened each directory once
// and looked at each path once, however many files it holds: the walk's
// counters, not a timing.
func TestPlaceWalksEachDirectoryOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	repotest.Git(t, dir, "init", "-q")
	dirs := []string{"a", "a/b", "a/b/c", "d"}
	var patch strings.Builder
	var files []string
	for _, d := range dirs {
		for i := range 5 {
			name := fmt.Sprintf("%s/f%d.txt", d, i)
			files = append(files, name)
			full := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte("one\ntwo\nthree\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&patch, "--- a/%s\n+++ b/%s\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n", name, name)
		}
	}
	patch.WriteString("diff --git a/a/b/new.txt b/a/b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/a/b/new.txt\n@@ -0,0 +1 @@\n+new\n")
	patch.WriteString("diff --git a/d/gone.txt b/d/gone.txt\ndeleted file mode 100644\n--- a/d/gone.txt\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-one\n-two\n-three\n")
	// A file the patch deletes, and one it renames into a new directory,
	// e/f.
	for _, name := range []string{"d/gone.txt", "a/old.txt"} {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte("one\ntwo\nthree\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	patch.WriteString("diff --git a/a/old.txt b/e/f/moved.txt\nsimilarity index 100%\nrename from a/old.txt\nrename to e/f/moved.txt\n")
	p, err := edit.Parse(patch.String())
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	w := newDirWalk(tr)
	defer w.close()
	plans, err := tr.placeWith(p, Access{}, w)
	if err != nil {
		t.Fatal(err)
	}
	if len(plans) != len(files)+3 {
		t.Fatalf("got %d plans, want %d", len(plans), len(files)+3)
	}
	for _, pl := range plans {
		if len(pl.Errors) > 0 {
			t.Fatalf("%s: %v", pl.Path(), pl.Errors[0].Err)
		}
	}
	if w.opened != len(dirs) {
		t.Errorf("opened %d directories, want %d (each of %v once)", w.opened, len(dirs), dirs)
	}
	// Each path once: the files, the deleted, renamed and created ones,
	// the directories (a, a/b, a/b/c, d, e, and nothing under e, which is
	// missing) and each existing directory's .git.
	want := len(files) + 3 + len(dirs) + 1 + len(dirs)
	if w.lstats != want {
		var got []string
		for p := range w.stats {
			got = append(got, p)
		}
		t.Errorf("made %d lstat calls, want %d; paths looked at: %v", w.lstats, want, got)
	}
	for p := range w.stats {
		if path.Base(p) == ".git" && path.Dir(p) == "." {
			t.Errorf("looked at the tree's own .git as a nested repository")
		}
	}
}

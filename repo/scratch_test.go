package repo_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

// Sync lays out the working tree's files with the plans over them, keeps
// executable bits and links, writes only what differs, and takes away
// what it put there before and is gone now; the working tree is not
// touched.
func TestScratchSync(t *testing.T) {
	dir := repotest.Init(t, map[string]string{"a.txt": "one\ntwo\n", "run.sh": "echo hi\n", "d/f": "file\n", ".gitignore": "*.o\n"})
	if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.txt", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	repotest.WriteFiles(t, dir, map[string]string{"x.o": "ignored\n", "new.txt": "untracked\n"})
	before := snapshot(t, dir)
	tree := openTree(t, dir)
	s, err := tree.OpenScratch()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := tree.OpenScratch(); !errors.Is(err, repo.ErrScratchBusy) {
		t.Errorf("a second OpenScratch: got %v, want ErrScratchBusy", err)
	}
	p, err := edit.Parse("--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n")
	if err != nil {
		t.Fatal(err)
	}
	plans, err := tree.PlaceWith(p, repo.Access{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Sync(plans)
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != 6 || st.Written != 6 {
		t.Errorf("first sync: got %+v, want 6 files written", st)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(s.Dir, name))
		if err != nil {
			return "(" + err.Error() + ")"
		}
		return string(b)
	}
	if got := read("a.txt"); got != "one\nTWO\n" {
		t.Errorf("a.txt: got %q", got)
	}
	if fi, err := os.Stat(filepath.Join(s.Dir, "run.sh")); err != nil || fi.Mode()&0o111 == 0 {
		t.Errorf("run.sh lost its executable bit: %v %v", fi, err)
	}
	if target, err := os.Readlink(filepath.Join(s.Dir, "link")); err != nil || target != "a.txt" {
		t.Errorf("link: got %q %v", target, err)
	}
	if _, err := os.Lstat(filepath.Join(s.Dir, "x.o")); err == nil {
		t.Error("an ignored file is in the scratch tree")
	}
	if got := read("new.txt"); got != "untracked\n" {
		t.Errorf("new.txt: got %q", got)
	}
	sameSnapshot(t, "the working tree", snapshot(t, dir), before)

	// The person's tree changes: d/f becomes a folder's file d, new.txt
	// goes; the tests left a file of their own.
	repotest.WriteFile(t, s.Dir, "made-by-tests", "x")
	if err := os.RemoveAll(filepath.Join(dir, "d")); err != nil {
		t.Fatal(err)
	}
	repotest.WriteFile(t, dir, "d", "now a file\n")
	if err := os.Remove(filepath.Join(dir, "new.txt")); err != nil {
		t.Fatal(err)
	}
	if st, err = s.Sync(nil); err != nil {
		t.Fatal(err)
	}
	if st.Written != 2 || st.Removed != 1 {
		t.Errorf("second sync: got %+v, want a.txt and d written, new.txt removed", st)
	}
	if read("d") != "now a file\n" || read("a.txt") != "one\ntwo\n" || read("made-by-tests") != "x" {
		t.Errorf("second sync: d %q, a.txt %q, made-by-tests %q", read("d"), read("a.txt"), read("made-by-tests"))
	}
	if _, err := os.Lstat(filepath.Join(s.Dir, "new.txt")); err == nil {
		t.Error("new.txt stayed in the scratch tree")
	}
	// The scratch tree is no recovery for the next Open to report.
	s.Close()
	if _, err := repo.Open(dir); err != nil {
		t.Errorf("Open after a verify: %v", err)
	}
}

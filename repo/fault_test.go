//go:build unix

package repo

// The fault tests make the disk fill up, or the journal directory lie on
// another file system, at each step of Write in turn (the tree's fault
// hook), and check that the tree holds its old content or its new one,
// that no temporary file is left in it, and that the error says what
// happened and what is left.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// faults is a fault hook: from the fullAt-th write on (counted from 1; 0
// never), every write fails with ENOSPC, as on a full disk; with exdev,
// every rename out of the journal directory fails with EXDEV; with
// noRemove, pair's temporary files in the tree cannot be removed.
type faults struct {
	fullAt   int
	exdev    bool
	noRemove bool
	writes   int
}

func (f *faults) hook(op, name string) error {
	switch op {
	case "write":
		f.writes++
		if f.fullAt > 0 && f.writes >= f.fullAt {
			return syscall.ENOSPC
		}
	case "rename":
		if f.exdev {
			return syscall.EXDEV
		}
	case "remove":
		if f.noRemove {
			return syscall.EBUSY
		}
	}
	return nil
}

// pairTemps lists pair's temporary files under dir, .git aside.
func pairTemps(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for p := range treeState(t, dir) {
		if strings.HasPrefix(filepath.Base(p), ".pair-") {
			out = append(out, p)
		}
	}
	return out
}

// faultTree opens a crash test's tree (holding the old set) with the
// fault hook.
func faultTree(t *testing.T, git bool, f *faults) (string, *Tree) {
	t.Helper()
	dir := crashTree(t, git)
	tr, err := openTree(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	tr.disk.fault = f.hook
	return dir, tr
}

// checkNothingLeft checks that the tree holds the set want, with no
// temporary file and no journal left, and that the next Open has nothing
// to recover.
func checkNothingLeft(t *testing.T, dir string, want map[string]*crashFile, what string) {
	t.Helper()
	if got := treeState(t, dir); !sameState(got, wantState(want)) {
		t.Errorf("%s: the tree is not the set it should be:\n%v", what, got)
	}
	if tmps := pairTemps(t, dir); len(tmps) > 0 {
		t.Errorf("%s: temporary files left in the working tree: %q", what, tmps)
	}
	if _, err := os.Lstat(filepath.Join(dir, ".git", "pair", "journal")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s: the journal is left: %v", what, err)
	}
	tr, err := Open(dir)
	if err != nil {
		t.Fatalf("%s: Open: %v", what, err)
	}
	defer tr.Close()
	if tr.Recovery.Action != "" {
		t.Errorf("%s: the next Open recovered: %+v", what, tr.Recovery)
	}
}

// TestWriteDiskFull: the disk fills up at each write of a write set of
// several files in turn (copies of the old contents, the journal, the new
// contents): Write fails with ENOSPC, saying that nothing was changed,
// and the tree holds its old content, with no temporary file in it, even
// though the roll-back cannot record itself.
func TestWriteDiskFull(t *testing.T) {
	t.Parallel()
	for _, git := range []bool{true, false} {
		for _, exdev := range []bool{false, true} {
			for at := 1; ; at++ {
				f := &faults{fullAt: at, exdev: exdev}
				dir, tr := faultTree(t, git, f)
				what := fmt.Sprintf("git=%v, exdev=%v, disk full from write %d", git, exdev, at)
				err := tr.Write(changesTo(oldSet(), newSet()))
				if err == nil {
					if at < 8 {
						t.Errorf("%s: Write wrote only %d files", what, at-1)
					}
					checkNothingLeft(t, dir, newSet(), what)
					break
				}
				if strings.Contains(err.Error(), ".pair-") || strings.Contains(err.Error(), "new-") {
					t.Errorf("%s: the error names a temporary file: %v", what, err)
				}
				if exdev && strings.Contains(err.Error(), "rolling the write back failed too") {
					// Putting a replaced file back needs space too, across
					// file systems.
					rolledBackByOpen(t, dir, what)
				} else {
					if !errors.Is(err, syscall.ENOSPC) || !strings.HasSuffix(err.Error(), "no space left on device; nothing was changed") {
						t.Errorf("%s: Write = %v, want no space left on device; nothing was changed", what, err)
					}
					checkNothingLeft(t, dir, oldSet(), what)
				}
				if at > 100 {
					t.Fatal("Write never ran to its end")
				}
			}
		}
	}
}

// TestWriteOtherFileSystem: where the journal directory is on another
// file system (every rename out of it fails with EXDEV), Write copies each
// new content to a temporary file beside its target, renames it into
// place, and leaves none.
func TestWriteOtherFileSystem(t *testing.T) {
	t.Parallel()
	for _, git := range []bool{true, false} {
		dir, tr := faultTree(t, git, &faults{exdev: true})
		if err := tr.Write(changesTo(oldSet(), newSet())); err != nil {
			t.Fatal(err)
		}
		checkNothingLeft(t, dir, newSet(), fmt.Sprintf("git=%v, exdev", git))
	}
}

// TestWriteLeftNamed: where pair cannot remove its temporary file, or
// cannot roll the write back, the error names what is left, and the next
// Open rolls the rest back.
func TestWriteLeftNamed(t *testing.T) {
	t.Parallel()
	// Across file systems, the temporary file of the second file cannot
	// be written in full, nor removed.
	dir, tr := faultTree(t, true, &faults{})
	besides := 0
	tr.disk.fault = func(op, name string) error {
		switch {
		case op == "write" && strings.HasPrefix(filepath.Base(name), ".pair-"):
			if besides++; besides == 2 {
				return syscall.ENOSPC
			}
		case op == "rename":
			return syscall.EXDEV
		case op == "remove":
			return syscall.EBUSY
		}
		return nil
	}
	err := tr.Write(changesTo(oldSet(), newSet()))
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Write = %v, want ENOSPC", err)
	}
	t.Logf("Write: %v", err)
	tmps := pairTemps(t, dir)
	if len(tmps) == 0 {
		t.Fatal("no temporary file left: the test does not test")
	}
	for _, p := range tmps {
		if !strings.Contains(err.Error(), "pair's temporary files left in the working tree (remove them): ") || !strings.Contains(err.Error(), p) {
			t.Errorf("the error does not name %s: %v", p, err)
		}
	}
	for _, p := range tmps {
		if err := os.Remove(filepath.Join(dir, p)); err != nil {
			t.Fatal(err)
		}
	}
	if got := treeState(t, dir); !sameState(got, wantState(oldSet())) {
		t.Errorf("the tree is not the old set:\n%v", got)
	}

	// The disk fills up as the second file is put in place; putting the
	// first one back needs space too (a copy, across file systems), as
	// does the deleted file (deletions come first).
	dir, tr = faultTree(t, true, &faults{})
	besides = 0
	tr.disk.fault = func(op, name string) error {
		switch {
		case op == "write" && strings.HasPrefix(filepath.Base(name), ".pair-"):
			if besides++; besides >= 2 {
				return syscall.ENOSPC
			}
		case op == "rename":
			return syscall.EXDEV
		}
		return nil
	}
	err = tr.Write(changesTo(oldSet(), newSet()))
	want := "cannot write run.sh: no space left on device; rolling the write back failed too (put back the old flop/in.txt: cannot write flop/in.txt: no space left on device), and keep.txt, gone/deleted.txt, flip, flop/in.txt are not as they were: pair rolls the write back the next time it runs in this tree, from its journal in .git/pair/journal"
	if !errors.Is(err, syscall.ENOSPC) || err.Error() != want {
		t.Fatalf("Write = %v\nwant %s", err, want)
	}
	tr.Close()
	rolledBackByOpen(t, dir, "the roll-back failed")
}

// rolledBackByOpen checks that a write that could not be rolled back
// left no temporary file in the tree, and that the next Open rolls it
// back.
func rolledBackByOpen(t *testing.T, dir, what string) {
	t.Helper()
	if tmps := pairTemps(t, dir); len(tmps) > 0 {
		t.Errorf("%s: temporary files left in the working tree: %q", what, tmps)
	}
	tr, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Recovery.Action != "rolled back" {
		t.Errorf("%s: the next Open: %+v, want rolled back", what, tr.Recovery)
	}
	tr.Close()
	checkNothingLeft(t, dir, oldSet(), what+", after the next Open")
}

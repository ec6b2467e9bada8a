//go:build unix

package repo

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// linkTree makes a tree (not a git repository) holding the files and
// links given, links by a leading "->" in their content.
func linkTree(t *testing.T, files map[string]string) (string, *Tree) {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		var err error
		if target, ok := cutArrow(content); ok {
			err = os.Symlink(target, p)
		} else {
			err = os.WriteFile(p, []byte(content), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	tr, err := openTree(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return dir, tr
}

func cutArrow(s string) (string, bool) {
	if len(s) > 2 && s[:2] == "->" {
		return s[2:], true
	}
	return "", false
}

// checkLinkTree checks that dir holds exactly the files and links of
// want (same notation as linkTree) among the names of want and gone.
func checkLinkTree(t *testing.T, dir string, want map[string]string, gone ...string) {
	t.Helper()
	for name, content := range want {
		p := filepath.Join(dir, name)
		fi, err := os.Lstat(p)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if target, ok := cutArrow(content); ok {
			got, _ := os.Readlink(p)
			if fi.Mode()&os.ModeSymlink == 0 || got != target {
				t.Errorf("%s: got mode %v, target %q; want a link to %q", name, fi.Mode(), got, target)
			}
			continue
		}
		b, _ := os.ReadFile(p)
		if !fi.Mode().IsRegular() || string(b) != content || fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: got mode %v, %q; want a file of mode 0644 holding %q", name, fi.Mode(), b, content)
		}
	}
	for _, name := range gone {
		if _, err := os.Lstat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: got %v, want it gone", name, err)
		}
	}
}

var (
	linksBefore = map[string]string{"l": "->x", "d": "->y", "f": "file\n", "m": "->z", "z": "last\n"}
	linkChanges = []Change{
		{Path: "l", Content: []byte("x2"), Link: true, WasLink: true},
		{Path: "n", Content: []byte("../outside"), Link: true},
		{Path: "d", Delete: true, WasLink: true},
		{Path: "f", Content: []byte("z"), Link: true},
		{Path: "m", Content: []byte("now a file\n"), WasLink: true},
		{Path: "z", Content: []byte("changed\n")},
	}
	linksAfter = map[string]string{"l": "->x2", "n": "->../outside", "f": "->z", "m": "now a file\n", "z": "changed\n"}
)

func TestWriteLinks(t *testing.T) {
	dir, tr := linkTree(t, linksBefore)
	if err := tr.Write(append([]Change(nil), linkChanges...)); err != nil {
		t.Fatalf("Write: %v", err)
	}
	checkLinkTree(t, dir, linksAfter, "d")
}

// A write set with links is all or nothing: the last rename fails, and
// every link is put back as it was.
func TestWriteLinksRollBack(t *testing.T) {
	dir, tr := linkTree(t, linksBefore)
	tr.disk.fault = func(op, name string) error {
		if op == "rename" && name == "z" {
			return syscall.EIO
		}
		return nil
	}
	if err := tr.Write(append([]Change(nil), linkChanges...)); !errors.Is(err, syscall.EIO) {
		t.Fatalf("Write: got %v, want EIO", err)
	}
	checkLinkTree(t, dir, linksBefore, "n")
}

// Where the journal is on another file system, links are made beside
// their path and renamed, as files are.
func TestWriteLinksOtherFileSystem(t *testing.T) {
	dir, tr := linkTree(t, linksBefore)
	tr.disk.fault = (&faults{exdev: true}).hook
	if err := tr.Write(append([]Change(nil), linkChanges...)); err != nil {
		t.Fatalf("Write: %v", err)
	}
	checkLinkTree(t, dir, linksAfter, "d")
}

// A file system without links: refused clearly, nothing written.
func TestWriteNoSymlinks(t *testing.T) {
	dir, tr := linkTree(t, linksBefore)
	tr.disk.fault = func(op, name string) error {
		if op == "symlink" {
			return syscall.EPERM
		}
		return nil
	}
	err := tr.Write(append([]Change(nil), linkChanges...))
	if !errors.Is(err, ErrNoSymlinks) {
		t.Fatalf("Write: got %v, want ErrNoSymlinks", err)
	}
	checkLinkTree(t, dir, linksBefore, "n")
}

// A link where the change expects a file, or a file where it expects a
// link, is refused before anything is written.
func TestWriteLinkKinds(t *testing.T) {
	dir, tr := linkTree(t, linksBefore)
	if err := tr.Write([]Change{{Path: "z", Content: []byte("x")}, {Path: "l", Content: []byte("x")}}); err == nil {
		t.Errorf("Write over a link not declared: got no error")
	}
	if err := tr.Write([]Change{{Path: "f", Content: []byte("x"), Link: true, WasLink: true}}); err == nil {
		t.Errorf("Write of a file declared a link: got no error")
	}
	checkLinkTree(t, dir, linksBefore)
}

// crashed is the panic of a simulated crash.
type crashed struct{ step string }

// A write set with links, interrupted at each step of Write, is rolled
// back or forward by the next Open, links included, as a set of files is.
func TestCrashWriteLinks(t *testing.T) {
	for at := 1; ; at++ {
		dir, _ := linkTree(t, linksBefore)
		n := 0
		tr, err := openTree(dir, func(step string) {
			if strings.HasPrefix(step, "write: ") {
				if n++; n == at {
					panic(crashed{step})
				}
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		step := func() (step string) {
			defer func() {
				if c, ok := recover().(crashed); ok {
					step = c.step
				}
			}()
			if err := tr.Write(append([]Change(nil), linkChanges...)); err != nil {
				t.Fatalf("Write: %v", err)
			}
			return ""
		}()
		tr.Close()
		if step == "" {
			if at < 5 {
				t.Errorf("only %d crash points", at-1)
			}
			t.Logf("%d crash points", at-1)
			return
		}
		again, err := Open(dir)
		if err != nil {
			t.Fatalf("crash at %q: Open: %v", step, err)
		}
		set, action := wantAfter(step)
		if again.Recovery.Action != action {
			t.Errorf("crash at %q: got recovery %q, want %q", step, again.Recovery.Action, action)
		}
		if set == "old" {
			checkLinkTree(t, dir, linksBefore, "n")
		} else {
			checkLinkTree(t, dir, linksAfter, "d")
		}
		again.Close()
		if at > 50 {
			t.Fatal("Write never ran to its end")
		}
	}
}

package gitobj

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// TestFilesFindDiff: the files of a tree, one path, and two commits'
// difference are what git ls-tree -r and git diff-tree -r say.
func TestFilesFindDiff(t *testing.T) {
	dir := gitRepo(t)
	for name, content := range map[string]string{"a.b": "1\n", "a/x": "2\n", "a/y/z": "3\n", "a0": "4\n", "gone": "5\n", "d/f": "6\n", "mode": "7\n"} {
		writeFile(t, dir, name, content)
	}
	git(t, dir, "", "add", ".")
	git(t, dir, "", "commit", "-q", "-m", "one")
	writeFile(t, dir, "a/x", "changed\n")
	writeFile(t, dir, "new/deep/file", "8\n")
	if err := os.Remove(filepath.Join(dir, "gone")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "d")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "d", "now a file\n")
	if err := os.Chmod(filepath.Join(dir, "mode"), 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "", "add", "-A")
	git(t, dir, "", "commit", "-q", "-m", "two")

	st := storage(dir)
	head, err := ReadCommit(st, hash(t, git(t, dir, "", "rev-parse", "HEAD")))
	if err != nil {
		t.Fatal(err)
	}
	parent, err := ReadCommit(st, head.Parents()[0])
	if err != nil {
		t.Fatal(err)
	}
	ht, err := ReadTree(st, head.Tree())
	if err != nil {
		t.Fatal(err)
	}
	pt, err := ReadTree(st, parent.Tree())
	if err != nil {
		t.Fatal(err)
	}

	var got []string
	err = Files(st, ht, func(p string, e TreeEntry) error {
		got = append(got, fmt.Sprintf("%o %s\t%s", uint32(e.Mode), e.Hash, p))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := git(t, dir, "", "ls-tree", "-r", "--format=%(objectmode) %(objectname)\t%(path)", "HEAD")
	if strings.Join(got, "\n") != want {
		t.Errorf("Files:\n%s\nwant (git ls-tree -r):\n%s", strings.Join(got, "\n"), want)
	}

	e, err := Find(st, ht, "a/y/z")
	if err != nil || e.Hash.String() != git(t, dir, "", "rev-parse", "HEAD:a/y/z") {
		t.Errorf("Find a/y/z = %v, %v", e, err)
	}
	for _, p := range []string{"a/nope", "nope/x", "a.b/x", "d/f"} {
		if _, err := Find(st, ht, p); !errors.Is(err, ErrNotFound) {
			t.Errorf("Find %s: %v, want ErrNotFound", p, err)
		}
	}
	for _, p := range []string{"a/../a.b", ".git/config", "a//x", ""} {
		if _, err := Find(st, ht, p); !errors.Is(err, ErrUnsafeName) {
			t.Errorf("Find %q: %v, want ErrUnsafeName", p, err)
		}
	}

	changes, err := Diff(st, pt, ht)
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, c := range changes {
		status := "M"
		switch {
		case c.From == nil:
			status = "A"
		case c.To == nil:
			status = "D"
		}
		got = append(got, status+"\t"+c.Path)
	}
	want = git(t, dir, "", "diff-tree", "-r", "--no-renames", "--name-status", "HEAD^", "HEAD")
	if strings.Join(got, "\n") != want {
		t.Errorf("Diff:\n%s\nwant (git diff-tree -r):\n%s", strings.Join(got, "\n"), want)
	}
	if same, err := Diff(st, ht, ht); err != nil || len(same) != 0 {
		t.Errorf("Diff of a tree with itself: %v, %v", same, err)
	}
	all, err := Diff(st, nil, ht)
	if err != nil || len(all) != 7 {
		t.Errorf("Diff from nothing: %d changes, %v; want 7", len(all), err)
	}
}

// TestFilesRefusesUnsafeNames: a tree naming .git cannot be walked into
// a checkout.
func TestFilesRefusesUnsafeNames(t *testing.T) {
	dir := gitRepo(t)
	st := storage(dir)
	blob, err := WriteObject(st, plumbing.BlobObject, []byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{".git", ".GIT", "..", "."} {
		b, _ := EncodeTree([]TreeEntry{{Name: "ok", Mode: filemode.Regular, Hash: blob}})
		b = append(b, []byte(fmt.Sprintf("100644 %s\x00", name))...)
		b = append(b, blob[:]...)
		tr, err := DecodeTree(b)
		if err != nil {
			t.Fatal(err)
		}
		err = Files(st, tr, func(string, TreeEntry) error { return nil })
		if !errors.Is(err, ErrUnsafeName) {
			t.Errorf("Files with %q: %v, want ErrUnsafeName", name, err)
		}
		if _, err := Diff(st, nil, tr); !errors.Is(err, ErrUnsafeName) {
			t.Errorf("Diff with %q: %v, want ErrUnsafeName", name, err)
		}
	}
}

// TestByCommitTime: the history of branches merged with distinct commit
// times comes in git log's order; stopping early stops the walk.
func TestByCommitTime(t *testing.T) {
	dir := gitRepo(t)
	at := 1700000000
	commit := func(msg string) {
		at += 10
		t.Setenv("GIT_COMMITTER_DATE", fmt.Sprintf("%d +0000", at))
		git(t, dir, "", "commit", "-q", "--allow-empty", "-m", msg)
	}
	commit("root")
	git(t, dir, "", "checkout", "-q", "-b", "side")
	commit("side 1")
	git(t, dir, "", "checkout", "-q", "main")
	commit("main 1")
	git(t, dir, "", "checkout", "-q", "side")
	commit("side 2")
	git(t, dir, "", "checkout", "-q", "main")
	at += 10
	t.Setenv("GIT_COMMITTER_DATE", fmt.Sprintf("%d +0000", at))
	git(t, dir, "", "merge", "-q", "--no-ff", "-m", "merge", "side")
	commit("after")

	st := storage(dir)
	head, err := ReadCommit(st, hash(t, git(t, dir, "", "rev-parse", "HEAD")))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for c, err := range ByCommitTime(st, head) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, c.Hash.String())
	}
	if want := git(t, dir, "", "log", "--format=%H"); strings.Join(got, "\n") != want {
		t.Errorf("ByCommitTime:\n%s\nwant (git log):\n%s", strings.Join(got, "\n"), want)
	}
	n := 0
	for range ByCommitTime(st, head) {
		n++
		if n == 2 {
			break
		}
	}
	if n != 2 {
		t.Errorf("stopped after %d commits, want 2", n)
	}

	// A missing parent is an error, not the end of the history.
	orphan := NewCommit(head.Tree(), []plumbing.Hash{hash(t, strings.Repeat("ab", 20))}, head.Author(), head.Committer(), "x\n")
	orphan.Hash, err = WriteCommit(st, orphan)
	if err != nil {
		t.Fatal(err)
	}
	var last error
	for _, err := range ByCommitTime(st, orphan) {
		last = err
	}
	if !errors.Is(last, plumbing.ErrObjectNotFound) {
		t.Errorf("walk past a missing parent: %v, want ErrObjectNotFound", last)
	}
}

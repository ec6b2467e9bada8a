package gitobj

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// TestTreeOrderAsGit: entries whose names sort differently once a
// directory counts as "name/" are written in git's order: the tree is
// the one git mktree makes, passes fsck --strict, and reads back.
func TestTreeOrderAsGit(t *testing.T) {
	dir := gitRepo(t)
	st := storage(dir)
	blob, err := WriteObject(st, plumbing.BlobObject, []byte("x\n"))
	if err != nil {
		t.Fatal(err)
	}
	sub, err := WriteTree(st, []TreeEntry{{Name: "f", Mode: filemode.Regular, Hash: blob}})
	if err != nil {
		t.Fatal(err)
	}
	entries := []TreeEntry{
		{Name: "a0", Mode: filemode.Regular, Hash: blob},
		{Name: "a", Mode: filemode.Dir, Hash: sub},
		{Name: "a.b", Mode: filemode.Executable, Hash: blob},
		{Name: "a-", Mode: filemode.Symlink, Hash: blob},
		{Name: "b", Mode: filemode.Regular, Hash: blob},
	}
	got, err := WriteTree(st, entries)
	if err != nil {
		t.Fatal(err)
	}
	var in strings.Builder
	for _, e := range entries {
		typ := "blob"
		if e.Mode == filemode.Dir {
			typ = "tree"
		}
		fmt.Fprintf(&in, "%o %s %s\t%s\n", uint32(e.Mode), typ, e.Hash, e.Name)
	}
	if want := git(t, dir, in.String(), "mktree"); got.String() != want {
		t.Errorf("tree %s, git mktree %s", got, want)
	}
	wantOrder := "a-\na.b\na\na0\nb"
	if order := git(t, dir, "", "ls-tree", "--name-only", got.String()); order != wantOrder {
		t.Errorf("git ls-tree order %q, want %q", order, wantOrder)
	}
	tr, err := ReadTree(st, got)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range tr.Entries {
		names = append(names, e.Name)
	}
	if strings.Join(names, "\n") != wantOrder {
		t.Errorf("read back %q, want %q", names, wantOrder)
	}
	c := NewCommit(got, nil, ParseSignature("A <a@b> 1 +0000"), ParseSignature("A <a@b> 1 +0000"), "trees\n")
	ch, err := WriteCommit(st, c)
	if err != nil {
		t.Fatal(err)
	}
	git(t, dir, "", "update-ref", "refs/heads/main", ch.String())
	git(t, dir, "", "fsck", "--strict", "--no-dangling")
}

// TestTreeRoundTrip: trees git writes (with a subdirectory, an
// executable, a symbolic link and a submodule) read and encoded again
// are the same bytes.
func TestTreeRoundTrip(t *testing.T) {
	dir := gitRepo(t)
	writeFile(t, dir, "a.b", "1\n")
	writeFile(t, dir, "a/x", "2\n")
	writeFile(t, dir, "a0", "3\n")
	writeFile(t, dir, "run.sh", "4\n")
	if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.b", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "", "add", ".")
	git(t, dir, "", "update-index", "--add", "--cacheinfo", "160000,1111111111111111111111111111111111111111,mod")
	root := git(t, dir, "", "write-tree")
	st := storage(dir)
	for _, h := range []string{root, git(t, dir, "", "rev-parse", root+":a")} {
		tr, err := ReadTree(st, hash(t, h))
		if err != nil {
			t.Fatal(err)
		}
		got, err := EncodeTree(tr.Entries)
		if err != nil {
			t.Fatal(err)
		}
		if want := catFile(t, dir, "tree", h); !bytes.Equal(got, want) {
			t.Errorf("tree %s encodes as %q, want %q", h, got, want)
		}
	}
	tr, _ := ReadTree(st, hash(t, root))
	modes := map[string]filemode.FileMode{}
	for _, e := range tr.Entries {
		modes[e.Name] = e.Mode
	}
	want := map[string]filemode.FileMode{"a": filemode.Dir, "a.b": filemode.Regular, "a0": filemode.Regular,
		"run.sh": filemode.Executable, "link": filemode.Symlink, "mod": filemode.Submodule}
	for n, m := range want {
		if modes[n] != m {
			t.Errorf("%s mode %v, want %v", n, modes[n], m)
		}
	}
}

func TestTreeModesCanonical(t *testing.T) {
	var h plumbing.Hash
	raw := "100664 old\x00" + string(h[:]) + "040000 dir\x00" + string(h[:]) + "100775 x\x00" + string(h[:]) + "10 odd\x00" + string(h[:])
	tr, err := DecodeTree([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	want := []filemode.FileMode{filemode.Regular, filemode.Dir, filemode.Executable, filemode.Submodule}
	for i, e := range tr.Entries {
		if e.Mode != want[i] {
			t.Errorf("%s: mode %v, want %v", e.Name, e.Mode, want[i])
		}
	}
}

func TestTreeMalformed(t *testing.T) {
	var h plumbing.Hash
	for _, raw := range []string{
		"100644 a", "100644 a\x00" + string(h[:5]), "abc a\x00" + string(h[:]), " a\x00" + string(h[:]),
		"100644 \x00" + string(h[:]), "100644",
	} {
		if _, err := DecodeTree([]byte(raw)); !errors.Is(err, ErrMalformed) {
			t.Errorf("DecodeTree(%q) error %v, want ErrMalformed", raw, err)
		}
	}
	for _, es := range [][]TreeEntry{
		{{Name: "", Mode: filemode.Regular}},
		{{Name: "a/b", Mode: filemode.Regular}},
		{{Name: "a\x00", Mode: filemode.Regular}},
		{{Name: "a", Mode: filemode.Regular}, {Name: "a", Mode: filemode.Dir}},
	} {
		if _, err := EncodeTree(es); !errors.Is(err, ErrMalformed) {
			t.Errorf("EncodeTree(%v) error %v, want ErrMalformed", es, err)
		}
	}
}

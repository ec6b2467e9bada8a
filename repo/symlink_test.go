//go:build unix

package repo_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

// symlinkTree makes base/root (the tree) and base/outside, with links in
// the tree that point outside it, absolutely and relatively, to a file and
// to a directory, and links that stay inside.
func symlinkTree(t *testing.T) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root = filepath.Join(base, "root")
	outside = filepath.Join(base, "outside")
	writeFiles(t, base, texts(map[string]string{
		"outside/secret.txt": "secret\n",
		"root/in/real.txt":   "real\n",
	}))
	links := map[string]string{
		"root/abs-file":    filepath.Join(outside, "secret.txt"),
		"root/rel-file":    "../outside/secret.txt",
		"root/abs-dir":     outside,
		"root/rel-dir":     "../outside",
		"root/deep/rel":    "../../outside/secret.txt",
		"root/abs-missing": filepath.Join(outside, "missing.txt"),
		"root/rel-missing": "../outside/missing.txt",
		"root/in-file":     "in/real.txt",
		"root/in-dir":      "in",
		"root/in/up":       "../in/real.txt",
	}
	for name, target := range links {
		p := filepath.Join(base, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	return root, outside
}

func TestSymlinkEscapeRead(t *testing.T) {
	t.Parallel()
	root, _ := symlinkTree(t)
	tr := openTree(t, root)
	for _, p := range []string{
		"abs-file", "rel-file", "deep/rel",
		"abs-dir/secret.txt", "rel-dir/secret.txt",
		"abs-missing", "rel-missing", "rel-dir/missing.txt",
	} {
		// Clean does not look at the disk: the path is fine as a name.
		if c, err := tr.Clean(p); err != nil || c != p {
			t.Errorf("Clean(%q) = %q, %v, want %q, nil", p, c, err, p)
		}
		if got, err := tr.ReadFile(p); !errors.Is(err, repo.ErrOutsideRepo) {
			t.Errorf("ReadFile(%q) through a link outside = %q, %v, want an error wrapping ErrOutsideRepo", p, got, err)
		}
		if fi, err := tr.Stat(p); !errors.Is(err, repo.ErrOutsideRepo) {
			t.Errorf("Stat(%q) through a link outside = %v, %v, want an error wrapping ErrOutsideRepo", p, fi, err)
		}
	}
}

// TestSymlinkInsideRead: a link to a file inside the tree is read; a file
// beyond a linked folder is not, even inside the tree, as git reads none.
func TestSymlinkInsideRead(t *testing.T) {
	t.Parallel()
	root, _ := symlinkTree(t)
	tr := openTree(t, root)
	for _, p := range []string{"in-dir/real.txt", "in-dir/up"} {
		if got, err := tr.ReadFile(p); !errors.Is(err, repo.ErrBeyondLink) {
			t.Errorf("ReadFile(%q) beyond a linked folder = %q, %v, want an error wrapping ErrBeyondLink", p, got, err)
		}
		if fi, err := tr.Stat(p); !errors.Is(err, repo.ErrBeyondLink) {
			t.Errorf("Stat(%q) beyond a linked folder = %v, %v, want an error wrapping ErrBeyondLink", p, fi, err)
		}
	}
	for _, p := range []string{"in-file", "in/up"} {
		got, err := tr.ReadFile(p)
		if err != nil || string(got) != "real\n" {
			t.Errorf("ReadFile(%q) through a link inside = %q, %v, want %q, nil", p, got, err, "real\n")
		}
		fi, err := tr.Stat(p)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() != 5 {
			t.Errorf("Stat(%q) through a link inside = %v, %v, want the 5-byte regular file", p, fi, err)
		}
	}
}

// TestSymlinkEscapeWrite: a write set that goes through a link to a
// directory outside the tree fails as a whole, wrapping ErrOutsideRepo,
// and writes nothing anywhere. (Links to a file outside are in
// bugs_test.go.)
func TestSymlinkEscapeWrite(t *testing.T) {
	t.Parallel()
	for _, p := range []string{
		"abs-dir/secret.txt", "rel-dir/secret.txt",
		"abs-dir/new.txt", "rel-dir/new.txt",
		"rel-dir/newdir/new.txt", "abs-dir/newdir/new.txt",
	} {
		for _, del := range []bool{false, true} {
			root, outside := symlinkTree(t)
			tr := openTree(t, root)
			beforeIn, beforeOut := snapshot(t, root), snapshot(t, outside)
			err := tr.Write([]repo.Change{
				{Path: "in/real.txt", Content: []byte("changed\n")},
				{Path: "fresh.txt", Content: []byte("fresh\n")},
				{Path: p, Content: []byte("pwned\n"), Delete: del},
			})
			if !errors.Is(err, repo.ErrOutsideRepo) {
				t.Errorf("Write(%q, delete=%v) through a link outside: got %v, want an error wrapping ErrOutsideRepo", p, del, err)
			}
			sameSnapshot(t, "tree after Write("+p+")", snapshot(t, root), beforeIn)
			sameSnapshot(t, "outside after Write("+p+")", snapshot(t, outside), beforeOut)
		}
	}
}

// TestSymlinkFileWriteTouchesNothingOutside: writing to a path that is
// itself a link fails without changing the link's target, inside or out.
func TestSymlinkFileWriteTouchesNothingOutside(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"abs-file", "rel-file", "deep/rel", "abs-missing", "rel-missing", "in-file"} {
		for _, del := range []bool{false, true} {
			root, outside := symlinkTree(t)
			tr := openTree(t, root)
			beforeIn, beforeOut := snapshot(t, root), snapshot(t, outside)
			err := tr.Write([]repo.Change{{Path: p, Content: []byte("pwned\n"), Delete: del}})
			if err == nil {
				t.Errorf("Write(%q, delete=%v) to a link: got no error, want one", p, del)
			}
			sameSnapshot(t, "tree after Write("+p+")", snapshot(t, root), beforeIn)
			sameSnapshot(t, "outside after Write("+p+")", snapshot(t, outside), beforeOut)
		}
	}
}

// TestSymlinkTrackedFolderReplaced: a tracked folder replaced by a link
// (to a folder of the tree or out of it) leaves its files deleted, as git
// status says, and the model's status and diff read nothing through the
// link.
func TestSymlinkTrackedFolderReplaced(t *testing.T) {
	t.Parallel()
	for _, target := range []string{"src", "../outside"} {
		base := t.TempDir()
		dir := filepath.Join(base, "root")
		writeFiles(t, base, texts(map[string]string{
			"root/lib/x.go":      "package x\n",
			"root/src/x.go":      "package x // only-in-src\n",
			"outside/x.go":       "package x // only-outside\n",
			"root/src/other.txt": "other\n",
		}))
		gitInit(t, dir)
		repotest.Git(t, dir, "add", ".")
		repotest.Git(t, dir, "commit", "-q", "-m", "initial")
		if err := os.RemoveAll(filepath.Join(dir, "lib")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(dir, "lib")); err != nil {
			t.Fatal(err)
		}
		tr := openTree(t, dir)
		st, err := tr.Status()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range st {
			got = append(got, string([]byte{e.Staged, e.Worktree})+" "+e.Path)
		}
		want := strings.TrimRight(repotest.Git(t, dir, "-c", "status.renames=false", "status", "--porcelain", "--untracked-files=all"), "\n")
		if g := strings.Join(got, "\n"); g != want {
			t.Errorf("lib -> %s: Status:\n%s\nwant, as git status:\n%s", target, g, want)
		}
		diff, err := tr.WorkDiff(repo.Access{})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(diff, "only-") {
			t.Errorf("lib -> %s: WorkDiff read through the link:\n%s", target, diff)
		}
	}
}

package repo_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

func TestOpenGitTop(t *testing.T) {
	t.Parallel()
	top := t.TempDir()
	gitInit(t, top)
	writeFiles(t, top, texts(map[string]string{
		"README":        "top\n",
		"sub/dir/x.txt": "x\n",
	}))
	if err := os.MkdirAll(filepath.Join(top, "sub", "dir", "deeper", "still"), 0o755); err != nil {
		t.Fatal(err)
	}
	// git's own answer, to check ours against.
	gitTop := strings.TrimSpace(repotest.Git(t, filepath.Join(top, "sub", "dir"), "rev-parse", "--show-toplevel"))

	for _, start := range []string{
		top,
		filepath.Join(top, "sub"),
		filepath.Join(top, "sub", "dir"),
		filepath.Join(top, "sub", "dir", "deeper", "still"),
		filepath.Join(top, "sub", "dir", "..", "dir"),
	} {
		tr := openTree(t, start)
		if tr.Dir != top {
			t.Errorf("Open(%q).Dir = %q, want %q", start, tr.Dir, top)
		}
		if !tr.Git {
			t.Errorf("Open(%q).Git = false, want true", start)
		}
		if !filepath.IsAbs(tr.Dir) {
			t.Errorf("Open(%q).Dir = %q, want an absolute path", start, tr.Dir)
		}
		got, err := tr.ReadFile("README")
		if err != nil || string(got) != "top\n" {
			t.Errorf("Open(%q).ReadFile(README) = %q, %v, want %q, nil", start, got, err, "top\n")
		}
	}
	if same, err := sameDir(gitTop, top); err != nil || !same {
		t.Errorf("git rev-parse --show-toplevel = %q, want the same directory as %q (%v)", gitTop, top, err)
	}
}

func sameDir(a, b string) (bool, error) {
	fa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(fa, fb), nil
}

// TestOpenRelative opens "." and a relative path from a subdirectory: Dir
// is still the absolute top. It changes the working directory, so it does
// not run in parallel.
func TestOpenRelative(t *testing.T) {
	top := t.TempDir()
	gitInit(t, top)
	sub := filepath.Join(top, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(sub)
	for _, dir := range []string{".", "..", "../b", ""} {
		tr, err := repo.Open(dir)
		if err != nil {
			t.Errorf("Open(%q) from %s: %v", dir, sub, err)
			continue
		}
		if tr.Dir != top || !tr.Git {
			t.Errorf("Open(%q) from %s = {Dir: %q, Git: %v}, want {Dir: %q, Git: true}", dir, sub, tr.Dir, tr.Git, top)
		}
		tr.Close()
	}
}

func TestOpenPlainDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, texts(map[string]string{"a.txt": "a\n", "sub/b.txt": "b\n"}))
	for _, start := range []string{dir, filepath.Join(dir, "sub")} {
		tr := openTree(t, start)
		if tr.Dir != start || tr.Git {
			t.Errorf("Open(%q) = {Dir: %q, Git: %v}, want {Dir: %q, Git: false}", start, tr.Dir, tr.Git, start)
		}
	}
	tr := openTree(t, filepath.Join(dir, "sub"))
	got, err := tr.ReadFile("b.txt")
	if err != nil || string(got) != "b\n" {
		t.Errorf("ReadFile(b.txt) in the plain sub directory = %q, %v, want %q, nil", got, err, "b\n")
	}
	// The parent is outside the tree opened at sub.
	if _, err := tr.Clean("../a.txt"); err == nil {
		t.Errorf("Clean(../a.txt) in a tree opened at sub: got no error, want one")
	}
}

// TestOpenGitFile: a ".git" file (a linked worktree or a submodule)
// marks the top just as a .git directory does.
func TestOpenGitFile(t *testing.T) {
	t.Parallel()
	top := t.TempDir()
	writeFiles(t, top, texts(map[string]string{
		".git":           "gitdir: /elsewhere/.git/worktrees/x\n",
		"pkg/inner/f.go": "package inner\n",
	}))
	tr := openTree(t, filepath.Join(top, "pkg", "inner"))
	if tr.Dir != top || !tr.Git {
		t.Errorf("Open(pkg/inner) with a .git file at the top = {Dir: %q, Git: %v}, want {Dir: %q, Git: true}", tr.Dir, tr.Git, top)
	}
}

// TestOpenWorktree uses a real linked worktree made by git.
func TestOpenWorktree(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	mainDir := filepath.Join(base, "main")
	if err := os.Mkdir(mainDir, 0o755); err != nil {
		t.Fatal(err)
	}
	gitInit(t, mainDir)
	writeFiles(t, mainDir, texts(map[string]string{"d/f.txt": "f\n"}))
	repotest.Git(t, mainDir, "add", "-A")
	repotest.Git(t, mainDir, "commit", "-q", "-m", "init")
	wt := filepath.Join(base, "wt")
	repotest.Git(t, mainDir, "worktree", "add", "-q", "-b", "other", wt)
	if fi, err := os.Lstat(filepath.Join(wt, ".git")); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("git worktree add made no .git file in %s: %v, %v", wt, fi, err)
	}

	tr := openTree(t, filepath.Join(wt, "d"))
	if tr.Dir != wt || !tr.Git {
		t.Errorf("Open(worktree/d) = {Dir: %q, Git: %v}, want {Dir: %q, Git: true}", tr.Dir, tr.Git, wt)
	}
	if got, err := tr.ReadFile("d/f.txt"); err != nil || string(got) != "f\n" {
		t.Errorf("ReadFile(d/f.txt) in the worktree = %q, %v, want %q, nil", got, err, "f\n")
	}
}

// TestOpenNested: the nearest repository wins.
func TestOpenNested(t *testing.T) {
	t.Parallel()
	outer := t.TempDir()
	gitInit(t, outer)
	inner := filepath.Join(outer, "vendor", "lib")
	if err := os.MkdirAll(filepath.Join(inner, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	gitInit(t, inner)
	tr := openTree(t, filepath.Join(inner, "src"))
	if tr.Dir != inner || !tr.Git {
		t.Errorf("Open(inner/src) = {Dir: %q, Git: %v}, want {Dir: %q, Git: true}", tr.Dir, tr.Git, inner)
	}
	tr = openTree(t, filepath.Join(outer, "vendor"))
	if tr.Dir != outer || !tr.Git {
		t.Errorf("Open(outer/vendor) = {Dir: %q, Git: %v}, want {Dir: %q, Git: true}", tr.Dir, tr.Git, outer)
	}
}

func TestOpenMissingDirectory(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "nope")
	if tr, err := repo.Open(dir); err == nil {
		tr.Close()
		t.Errorf("Open(%q) of a missing plain directory: got no error, want one", dir)
	}
}

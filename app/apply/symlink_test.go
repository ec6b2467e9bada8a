package apply

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

// symlink makes the link name of dir pointing at target.
func symlink(t *testing.T, dir, target, name string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	os.Remove(p)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

func remove(t *testing.T, dir, name string) {
	t.Helper()
	if err := os.Remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
		t.Fatal(err)
	}
}

func TestApplySymlinkSameAsGit(t *testing.T) {
	for _, c := range []gitCase{
		{name: "create, retarget, delete", setup: func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"docs/y": "y\n", "z": "z\n"})
			symlink(t, dir, "../z", "docs/x")
			symlink(t, dir, "y", "docs/gone")
		}, change: func(t *testing.T, dir string) {
			symlink(t, dir, "y", "docs/x")
			remove(t, dir, "docs/gone")
			symlink(t, dir, "docs/y", "new")
			symlink(t, dir, "/nowhere/outside", "dangling")
		}},
		{name: "file to link and link to file", setup: func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"f": "content\n", "target": "t\n"})
			symlink(t, dir, "target", "l")
		}, change: func(t *testing.T, dir string) {
			remove(t, dir, "f")
			symlink(t, dir, "target", "f")
			remove(t, dir, "l")
			writeFiles(t, dir, map[string]string{"l": "now a file\n"})
		}},
		{name: "renamed", setup: func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"target": "t\n"})
			symlink(t, dir, "target", "l")
		}, change: func(t *testing.T, dir string) {
			remove(t, dir, "l")
			symlink(t, dir, "target", "sub/l2")
		}},
		// The link deleted, a folder of its name made: nothing is read or
		// written through the link, wherever it leads.
		{name: "link to nowhere becomes a folder", setup: func(t *testing.T, dir string) {
			symlink(t, dir, "missing.txt", "l")
		}, change: func(t *testing.T, dir string) {
			remove(t, dir, "l")
			writeFiles(t, dir, map[string]string{"l/a": "a\n"})
		}},
		{name: "link to a file becomes a folder", setup: func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"target": "t\n"})
			symlink(t, dir, "target", "l")
		}, change: func(t *testing.T, dir string) {
			remove(t, dir, "l")
			writeFiles(t, dir, map[string]string{"l/a": "a\n"})
		}},
		{name: "link to a folder becomes a folder", setup: func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"d/a": "in d\n", "d/.gitignore": "a\n"})
			symlink(t, dir, "d", "l")
		}, change: func(t *testing.T, dir string) {
			remove(t, dir, "l")
			writeFiles(t, dir, map[string]string{"l/a": "a\n"})
		}},
		{name: "link out of the tree becomes a folder", setup: func(t *testing.T, dir string) {
			outside := t.TempDir()
			writeFiles(t, outside, map[string]string{"a": "outside\n", ".gitignore": "*\n"})
			symlink(t, dir, outside, "l")
		}, change: func(t *testing.T, dir string) {
			remove(t, dir, "l")
			writeFiles(t, dir, map[string]string{"l/a": "a\n"})
		}},
		{name: "link to an executable", setup: func(t *testing.T, dir string) {
			symlink(t, dir, "run.sh", "x")
		}, change: func(t *testing.T, dir string) {
			remove(t, dir, "x")
			writeFiles(t, dir, map[string]string{"x": "#!/bin/sh\n"})
			if err := os.Chmod(filepath.Join(dir, "x"), 0o755); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) { sameAsGit(t, c) })
	}
}

// A link's change writes the link, never through it: the file the link
// points at stays as it was.
func TestApplySymlinkNotThrough(t *testing.T) {
	dir := gitRepo(t)
	outside := filepath.Join(t.TempDir(), "outside.txt")
	writeFiles(t, filepath.Dir(outside), map[string]string{"outside.txt": "keep\n"})
	symlink(t, dir, outside, "out")
	writeFiles(t, dir, map[string]string{"inside.txt": "elsewhere\n"})
	symlink(t, dir, "inside.txt", "in")
	repotest.Git(t, dir, "add", "-A")
	repotest.Git(t, dir, "commit", "-q", "-m", "initial")
	patch := "diff --git a/out b/out\nindex 1111111..2222222 120000\n--- a/out\n+++ b/out\n@@ -1 +1 @@\n-" + outside + "\n\\ No newline at end of file\n+elsewhere\n\\ No newline at end of file\n"
	out, err := applyPatch(t, dir, patch, yes)
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out)
	}
	if got, _ := os.Readlink(filepath.Join(dir, "out")); got != "elsewhere" {
		t.Errorf("the link points at %q, want elsewhere", got)
	}
	if b, _ := os.ReadFile(outside); string(b) != "keep\n" {
		t.Errorf("the file the link pointed at holds %q, want it untouched", b)
	}
	if !strings.Contains(out, "link out -> elsewhere (was "+outside+")") {
		t.Errorf("got output\n%s\nwant the link's change described", out)
	}

	// A text diff of the path, as if the link were a file, is refused.
	patch = "diff --git a/in b/in\n--- a/in\n+++ b/in\n@@ -1 +1 @@\n-elsewhere\n+x\n"
	if out, err := applyPatch(t, dir, patch, yes); !errors.Is(err, repo.ErrIsLink) || !strings.HasPrefix(err.Error(), "apply: in: ") {
		t.Errorf("a text diff of a link: got %v (%s), want ErrIsLink for in", err, out)
	}
	// A link diff of a path that is a file is refused.
	patch = "diff --git a/f b/f\nindex 1111111..2222222 120000\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n"
	writeFiles(t, dir, map[string]string{"f": "a"})
	if out, err := applyPatch(t, dir, patch, yes); !errors.Is(err, repo.ErrNotLink) || !strings.HasPrefix(err.Error(), "apply: f: ") {
		t.Errorf("a link diff of a file: got %v (%s), want ErrNotLink for f", err, out)
	}
}

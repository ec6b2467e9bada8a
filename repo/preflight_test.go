//go:build unix

package repo_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/pair-cli/pair/repo"
)

// TestWriteRefusesGitThroughLinks: a write set never lands in a .git
// directory, whatever link leads there, nor anywhere beyond a linked
// folder, and writes nothing when one of its files would.
func TestWriteRefusesGitThroughLinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gitInit(t, dir)
	writeFiles(t, dir, texts(map[string]string{"a.txt": "a\n", "nested/.git/config": "[core]\n"}))
	for name, target := range map[string]string{
		"docs":        ".git",
		"hop":         "docs",
		"abs":         filepath.Join(dir, ".git"),
		"deep/up":     "../.git/hooks",
		"into-nested": "nested/.git",
		"loop":        "loop",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	tr := openTree(t, dir)
	for _, tc := range []struct {
		path string
		want error
	}{
		{"docs/hooks/pre-commit", repo.ErrGitInternal},
		{"docs/config", repo.ErrGitInternal},
		{"hop/hooks/pre-commit", repo.ErrGitInternal},
		{"abs/hooks/pre-commit", repo.ErrGitInternal},
		{"deep/up/pre-commit", repo.ErrGitInternal},
		{"deep/up/new/dir/pre-commit", repo.ErrGitInternal},
		{"into-nested/config", repo.ErrGitInternal},
		{"nested/file.txt", repo.ErrSubmodule},
		{"loop/x", repo.ErrBeyondLink},
	} {
		err := tr.Write([]repo.Change{
			{Path: "a.txt", Content: []byte("changed\n")},
			{Path: tc.path, Content: []byte("#!/bin/sh\n"), Mode: 0o755},
		})
		if !errors.Is(err, tc.want) {
			t.Errorf("Write %s: got %v, want %v", tc.path, err, tc.want)
		}
		if tc.want != repo.ErrSubmodule && !errors.Is(err, repo.ErrBeyondLink) {
			t.Errorf("Write %s: got %v, want an error wrapping ErrBeyondLink too", tc.path, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "a\n" {
		t.Errorf("a.txt = %q after refused writes, want it unchanged", b)
	}
	for _, p := range []string{".git/hooks/pre-commit", ".git/config.new", "nested/file.txt"} {
		if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s was written", p)
		}
	}
	// Nor through links inside the tree that lead to plain directories,
	// as git refuses: "affected file ... is beyond a symbolic link".
	if err := os.Symlink("sub", filepath.Join(dir, "alias")); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, texts(map[string]string{"sub/keep.txt": "keep\n"}))
	err := tr.Write([]repo.Change{{Path: "alias/new.txt", Content: []byte("new\n")}})
	if want := "affected file 'alias/new.txt' is beyond a symbolic link (alias is a symbolic link to sub; the file there is sub/new.txt)"; !errors.Is(err, repo.ErrBeyondLink) || err.Error() != want {
		t.Errorf("write through a link inside the tree: got %v, want %q", err, want)
	}
	if _, err := os.Lstat(filepath.Join(dir, "sub/new.txt")); err == nil {
		t.Errorf("sub/new.txt was written through the link")
	}
}

//go:build unix

package repo_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo"
)

// TestWriteRefusesGitThroughLinks: a write set never lands in a .git
// directory, whatever link leads there, and writes nothing when one of
// its files would.
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
		{"abs/hooks/pre-commit", repo.ErrOutsideRepo}, // os.Root follows no absolute link
		{"deep/up/pre-commit", repo.ErrGitInternal},
		{"deep/up/new/dir/pre-commit", repo.ErrGitInternal},
		{"into-nested/config", repo.ErrGitInternal},
		{"nested/file.txt", repo.ErrSubmodule},
		{"loop/x", repo.ErrBadPath},
	} {
		err := tr.Write([]repo.Change{
			{Path: "a.txt", Content: []byte("changed\n")},
			{Path: tc.path, Content: []byte("#!/bin/sh\n"), Mode: 0o755},
		})
		if !errors.Is(err, tc.want) {
			t.Errorf("Write %s: got %v, want %v", tc.path, err, tc.want)
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
	// Links inside the tree that lead to plain directories are fine.
	if err := os.Symlink("sub", filepath.Join(dir, "alias")); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, texts(map[string]string{"sub/keep.txt": "keep\n"}))
	if err := tr.Write([]repo.Change{{Path: "alias/new.txt", Content: []byte("new\n")}}); err != nil {
		t.Fatalf("write through a link inside the tree: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "sub/new.txt")); !strings.Contains(string(b), "new") {
		t.Errorf("sub/new.txt = %q", b)
	}
}

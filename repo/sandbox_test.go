package repo_test

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

func TestIsSecret(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{".env", true}, {".env.local", true}, {"app/.env.production", true}, {".envrc", true},
		{"server.pem", true}, {"tls/server.KEY", true}, {"cert.p12", true},
		{"id_rsa", true}, {".ssh/id_ed25519", true}, {"id_rsa.pub", false}, {"id_ed25519.pub", false},
		{".netrc", true}, {".git-credentials", true}, {".aws/credentials", true}, {".npmrc", true},
		{"main.go", false}, {"environment.go", false}, {"docs/keys.md", false}, {"monkey.py", false},
		{"README", false}, {"keyboard.key.go", false},
	}
	for _, tt := range tests {
		if got := repo.IsSecret(tt.path); got != tt.want {
			t.Errorf("IsSecret(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

// TestIgnoredMatchesGit checks Ignored against git check-ignore on the
// same repository: root and nested .gitignore files, negation, directory
// patterns, .git/info/exclude, and a tracked file that a pattern matches
// (tracked files are not ignored).
func TestIgnoredMatchesGit(t *testing.T) {
	t.Setenv("HOME", t.TempDir()) // no user-wide excludes
	dir := t.TempDir()
	gitInit(t, dir)
	writeFiles(t, dir, texts(map[string]string{
		".gitignore":          "*.log\nbuild/\n/top-only.txt\n!keep.log\n",
		"sub/.gitignore":      "local.*\n!local.go\n",
		"tracked.log":         "tracked\n",
		"main.go":             "package main\n",
		".git/info/exclude":   "secret-notes/\n",
		"sub/local.txt":       "x\n",
		"sub/local.go":        "x\n",
		"sub/top-only.txt":    "x\n",
		"top-only.txt":        "x\n",
		"build/out.bin":       "x\n",
		"a/build/deep.txt":    "x\n",
		"keep.log":            "x\n",
		"debug.log":           "x\n",
		"secret-notes/n.md":   "x\n",
		"docs/build.md":       "x\n",
		"sub/deeper/local.md": "x\n",
	}))
	repotest.Git(t, dir, "add", "-f", "tracked.log", "main.go")
	repotest.Git(t, dir, "commit", "-qm", "init")
	tr := openTree(t, dir)
	for _, p := range []string{
		"tracked.log", "main.go", "sub/local.txt", "sub/local.go", "sub/top-only.txt",
		"top-only.txt", "build/out.bin", "a/build/deep.txt", "keep.log", "debug.log",
		"secret-notes/n.md", "docs/build.md", "sub/deeper/local.md", "new/file.go",
	} {
		got, err := tr.Ignored(p)
		if err != nil {
			t.Fatalf("Ignored(%q): %v", p, err)
		}
		cmd := exec.Command("git", "check-ignore", "-q", p)
		cmd.Dir = dir
		cmd.Env = append(cmd.Environ(), "GIT_CONFIG_NOSYSTEM=1")
		want := cmd.Run() == nil
		if got != want {
			t.Errorf("Ignored(%q) = %v, git check-ignore says %v", p, got, want)
		}
	}
}

func TestPlaceGuardsSecretsAndIgnoredFiles(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	dir := t.TempDir()
	gitInit(t, dir)
	writeFiles(t, dir, texts(map[string]string{
		".gitignore":     "generated/\n",
		".env":           "TOKEN=abc\n",
		"generated/x.go": "package x\n",
		"main.go":        "package main\n",
	}))
	tr := openTree(t, dir)
	patch := func(name, old, nw string) *edit.Patch {
		t.Helper()
		p, err := edit.Parse("--- a/" + name + "\n+++ b/" + name + "\n@@ -1 +1 @@\n-" + old + "\n+" + nw + "\n")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if _, err := tr.Place(patch(".env", "TOKEN=abc", "TOKEN=xyz")); !errors.Is(err, repo.ErrSecret) {
		t.Errorf("Place(.env): got %v, want ErrSecret", err)
	}
	if _, err := tr.Place(patch("generated/x.go", "package x", "package y")); !errors.Is(err, repo.ErrIgnored) {
		t.Errorf("Place(generated/x.go): got %v, want ErrIgnored", err)
	}
	if _, err := tr.Place(patch("main.go", "package main", "package app")); err != nil {
		t.Errorf("Place(main.go): got %v, want no error", err)
	}
	if _, err := tr.PlaceWith(patch(".env", "TOKEN=abc", "TOKEN=xyz"), repo.Access{Secrets: true}); err != nil {
		t.Errorf("PlaceWith(.env, secrets allowed): got %v, want no error", err)
	}
	if _, err := tr.PlaceWith(patch("generated/x.go", "package x", "package y"), repo.Access{Ignored: true}); err != nil {
		t.Errorf("PlaceWith(generated/x.go, ignored allowed): got %v, want no error", err)
	}
	// A created secret is refused too.
	p, err := edit.Parse("--- /dev/null\n+++ b/keys/deploy.pem\n@@ -0,0 +1 @@\n+-----BEGIN KEY-----\n")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Place(p); !errors.Is(err, repo.ErrSecret) || !strings.Contains(err.Error(), filepath.ToSlash("keys/deploy.pem")) {
		t.Errorf("Place(new keys/deploy.pem): got %v, want ErrSecret naming the file", err)
	}
}

package console

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// editorEnv sets a hermetic git environment for the editor tests: no
// system configuration, a global one at cfg, and none of the editor
// variables but those given.
func editorEnv(t *testing.T, cfg string, vars map[string]string) {
	t.Helper()
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", cfg)
	t.Setenv("HOME", t.TempDir())
	for _, v := range []string{"GIT_EDITOR", "VISUAL", "EDITOR", "TERM"} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
	for k, v := range vars {
		t.Setenv(k, v)
	}
}

// TestEditorIsGits: the editor is the one git would open for a commit
// message, core.editor included (a person with only core.editor=nano
// gets nano, not vi).
func TestEditorIsGits(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("git is needed: %v", err)
	}
	cfg := filepath.Join(t.TempDir(), "gitconfig")
	if err := os.WriteFile(cfg, []byte("[core]\n\teditor = nano -w\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	for _, tt := range []struct {
		vars map[string]string
		want string
	}{
		{map[string]string{"TERM": "xterm"}, "nano -w"},
		{map[string]string{"TERM": "xterm", "EDITOR": "ed", "VISUAL": "vim"}, "nano -w"},
		{map[string]string{"TERM": "xterm", "GIT_EDITOR": "emacs"}, "emacs"},
	} {
		editorEnv(t, cfg, tt.vars)
		if got := editorCommand(context.Background()); got != tt.want {
			t.Errorf("with %v and core.editor: editor %q, want %q", tt.vars, got, tt.want)
		}
	}
}

// TestEditorFromEnvMatchesGit: without git's answer, the variables are
// read in git's order; real git (with no core.editor) is the reference.
// With none of them set, git's default is its build's (Debian's is
// "editor"), so that case is not compared: the fallback says vi, git's
// own default.
func TestEditorFromEnvMatchesGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("git is needed: %v", err)
	}
	cfg := filepath.Join(t.TempDir(), "gitconfig")
	if err := os.WriteFile(cfg, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	for _, vars := range []map[string]string{
		{"TERM": "xterm", "EDITOR": "ed"},
		{"TERM": "xterm", "VISUAL": "vim"},
		{"TERM": "xterm", "EDITOR": "ed", "VISUAL": "vim"},
		{"TERM": "xterm", "EDITOR": "ed", "VISUAL": "vim", "GIT_EDITOR": "emacs"},
		{"TERM": "dumb", "EDITOR": "ed", "VISUAL": "vim"},
	} {
		editorEnv(t, cfg, vars)
		out, err := exec.Command("git", "var", "GIT_EDITOR").Output()
		if err != nil {
			t.Fatalf("git var GIT_EDITOR with %v: %v", vars, err)
		}
		if got, want := editorFromEnv(os.Getenv), strings.TrimSpace(string(out)); got != want {
			t.Errorf("with %v: editor %q, git's %q", vars, got, want)
		}
	}
}

package repotest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo/repotest"
)

// TestGitIsHermetic: git run through the kit ignores the person's global
// configuration, the repository that GIT_DIR names and the identity in
// the environment, and commits as Name at Date.
func TestGitIsHermetic(t *testing.T) {
	home := t.TempDir()
	global := filepath.Join(home, ".gitconfig")
	if err := os.WriteFile(global, []byte("[user]\n\tname = Person\n\temail = person@example.com\n[commit]\n\tgpgSign = true\n[core]\n\thooksPath = /nonexistent\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_GLOBAL", global)
	t.Setenv("GIT_DIR", filepath.Join(home, "elsewhere"))
	t.Setenv("GIT_AUTHOR_NAME", "Someone")
	t.Setenv("LC_ALL", "fr_FR.UTF-8")

	dir := repotest.Init(t, map[string]string{"a.txt": "a\n", "sub/b.txt": "b\n"})
	got := repotest.Git(t, dir, "log", "-1", "--format=%an <%ae> %aI|%cn <%ce> %cI|%s")
	want := "Test <test@example.com> 2024-01-01T00:00:00Z|Test <test@example.com> 2024-01-01T00:00:00Z|initial\n"
	if strings.ReplaceAll(got, "+00:00", "Z") != want {
		t.Errorf("the first commit: got %q, want %q", got, want)
	}
	if out, err := repotest.Cmd(t, dir, "config", "--get-all", "user.name").Output(); err == nil {
		t.Errorf("git config user.name = %q; want none (the global file is ignored)", out)
	}
	if got := repotest.Git(t, dir, "ls-files"); got != "a.txt\nsub/b.txt\n" {
		t.Errorf("ls-files: got %q", got)
	}
	if got := repotest.Git(t, dir, "rev-parse", "--abbrev-ref", "HEAD"); got != "main\n" {
		t.Errorf("branch: got %q, want main", got)
	}
	if h := repotest.Head(t, dir); len(h) != 40 {
		t.Errorf("Head = %q, want a full hash", h)
	}
}

// TestHelpers: the file helpers and Status agree with git.
func TestHelpers(t *testing.T) {
	dir := repotest.Init(t, map[string]string{"a.txt": "a\n"})
	if got := repotest.Status(t, dir); got != "" {
		t.Errorf("Status of a new repository: %q, want clean", got)
	}
	repotest.WriteFile(t, dir, "a.txt", "changed\n")
	repotest.WriteFiles(t, dir, map[string]string{"new/c.txt": "c\n"})
	if got := repotest.ReadFile(t, dir, "a.txt"); got != "changed\n" {
		t.Errorf("ReadFile: got %q", got)
	}
	if got, want := repotest.Status(t, dir), " M a.txt\n?? new/\n"; got != want {
		t.Errorf("Status: got %q, want %q", got, want)
	}
	empty := repotest.Init(t, nil)
	if got := repotest.Git(t, empty, "rev-list", "--all"); got != "" {
		t.Errorf("Init(nil) made commits: %q", got)
	}
}

// TestFailure: a failing git fails the test, with git's words.
func TestFailure(t *testing.T) {
	var ft fakeT
	ft.TB = t
	dir := t.TempDir()
	func() {
		defer func() { recover() }()
		repotest.Git(&ft, dir, "rev-parse", "HEAD")
	}()
	if !strings.Contains(ft.msg, "not a git repository") {
		t.Errorf("Git outside a repository: got %q, want git's error", ft.msg)
	}
}

// fakeT records Fatalf instead of ending the test.
type fakeT struct {
	testing.TB
	msg string
}

func (f *fakeT) Helper() {}

func (f *fakeT) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	panic("fatal")
}

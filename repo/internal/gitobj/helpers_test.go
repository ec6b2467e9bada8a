package gitobj

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// gitRepo makes an empty repository for the real git, with a fixed
// identity and no configuration of the person running the tests.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_AUTHOR_NAME", "Ann Author")
	t.Setenv("GIT_AUTHOR_EMAIL", "ann@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "Carl Committer")
	t.Setenv("GIT_COMMITTER_EMAIL", "carl@example.com")
	t.Setenv("GIT_AUTHOR_DATE", "1700000000 +0100")
	t.Setenv("GIT_COMMITTER_DATE", "1700000100 -0530")
	dir := t.TempDir()
	git(t, dir, "", "init", "-q", "-b", "main")
	return dir
}

// git runs git in dir with stdin and returns its output, trimmed.
func git(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, msg)
	}
	return strings.TrimSpace(string(out))
}

// catFile returns an object's content exactly, as git stores it.
func catFile(t *testing.T, dir, typ, h string) []byte {
	t.Helper()
	cmd := exec.Command("git", "cat-file", typ, h)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git cat-file %s %s: %v", typ, h, err)
	}
	return out
}

func storage(dir string) *filesystem.Storage {
	return filesystem.NewStorage(osfs.New(filepath.Join(dir, ".git")), cache.NewObjectLRUDefault())
}

func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func hash(t *testing.T, s string) plumbing.Hash {
	t.Helper()
	h, ok := parseHash(s)
	if !ok {
		t.Fatalf("not a hash: %q", s)
	}
	return h
}

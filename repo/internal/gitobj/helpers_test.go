package gitobj

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/pair-cli/pair/repo/repotest"
)

// gitRepo makes an empty repository for the real git, with a fixed
// identity and no configuration of the person running the tests.
func gitRepo(t *testing.T) string {
	t.Helper()
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

// git runs git in dir through repotest, with stdin and the identity and
// dates the test set (gitRepo's, and the commit times walk_test moves
// on), and returns its output, trimmed.
func git(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	cmd := repotest.Cmd(t, dir, args...)
	cmd.Stdin = strings.NewReader(stdin)
	for _, k := range []string{
		"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE",
		"GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE",
	} {
		cmd.Env = append(cmd.Env, k+"="+os.Getenv(k))
	}
	return strings.TrimSpace(repotest.Output(t, cmd))
}

// catFile returns an object's content exactly, as git stores it.
func catFile(t *testing.T, dir, typ, h string) []byte {
	t.Helper()
	return []byte(repotest.Git(t, dir, "cat-file", typ, h))
}

func storage(dir string) *filesystem.Storage {
	return filesystem.NewStorage(osfs.New(filepath.Join(dir, ".git")), cache.NewObjectLRUDefault())
}

func hash(t *testing.T, s string) plumbing.Hash {
	t.Helper()
	h, ok := parseHash(s)
	if !ok {
		t.Fatalf("not a hash: %q", s)
	}
	return h
}

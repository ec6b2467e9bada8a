package repo_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

func TestBranch(t *testing.T) {
	dir := t.TempDir()
	gitInit(t, dir)
	check := func(wantName string, wantUnborn bool) {
		t.Helper()
		name, unborn, err := openTree(t, dir).Branch()
		if err != nil || name != wantName || unborn != wantUnborn {
			t.Errorf("Branch: got %q, unborn %v, %v; want %q, unborn %v", name, unborn, err, wantName, wantUnborn)
		}
	}
	check("main", true)
	writeFiles(t, dir, texts(map[string]string{"a.txt": "a\n"}))
	repotest.Git(t, dir, "add", ".")
	repotest.Git(t, dir, "commit", "-q", "-m", "initial")
	check("main", false)
	repotest.Git(t, dir, "checkout", "-q", "-b", "feature/x")
	repotest.Git(t, dir, "pack-refs", "--all") // the branch only in packed-refs
	check("feature/x", false)
	repotest.Git(t, dir, "checkout", "-q", "--detach")
	check("", false)
	if got := strings.TrimSpace(repotest.Git(t, dir, "branch", "--show-current")); got != "" {
		t.Fatalf("git says HEAD is on %q, want detached", got)
	}

	if _, _, err := openTree(t, t.TempDir()).Branch(); !errors.Is(err, repo.ErrNotGit) {
		t.Errorf("Branch outside a repository: got %v, want ErrNotGit", err)
	}
}

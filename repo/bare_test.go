package repo_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

// TestOpenRefusesGitDirs: a bare repository, and any directory inside a
// git directory, are refused before anything is read or written.
func TestOpenRefusesGitDirs(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	bare := filepath.Join(base, "bare.git")
	repotest.Git(t, base, "init", "-q", "--bare", bare)
	work := filepath.Join(base, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	gitInit(t, work)
	for _, c := range []struct {
		dir    string
		inTree bool // inside a working tree's .git
	}{
		{bare, false},
		{filepath.Join(bare, "hooks"), false},
		{filepath.Join(work, ".git"), true},
		{filepath.Join(work, ".git", "refs", "heads"), true},
	} {
		tr, err := repo.Open(c.dir)
		if !errors.Is(err, repo.ErrBare) {
			if tr != nil {
				tr.Close()
			}
			t.Errorf("Open(%s): got %v, want %v", c.dir, err, repo.ErrBare)
		}
		// Inside a working tree's .git, the error names that tree.
		var in *repo.GitDirError
		switch got := errors.As(err, &in); {
		case got != c.inTree:
			t.Errorf("Open(%s): got a GitDirError %v, want %v", c.dir, got, c.inTree)
		case got && in.Top() != work:
			t.Errorf("Open(%s): GitDirError.Top() = %s, want %s", c.dir, in.Top(), work)
		}
	}
	// The working tree itself is fine.
	tr, err := repo.Open(work)
	if err != nil {
		t.Fatal(err)
	}
	tr.Close()
}

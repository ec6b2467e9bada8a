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
	for _, dir := range []string{
		bare,
		filepath.Join(bare, "hooks"),
		filepath.Join(work, ".git"),
		filepath.Join(work, ".git", "refs", "heads"),
	} {
		tr, err := repo.Open(dir)
		if !errors.Is(err, repo.ErrBare) {
			if tr != nil {
				tr.Close()
			}
			t.Errorf("Open(%s): got %v, want %v", dir, err, repo.ErrBare)
		}
	}
	// The working tree itself is fine.
	tr, err := repo.Open(work)
	if err != nil {
		t.Fatal(err)
	}
	tr.Close()
}

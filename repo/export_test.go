package repo

import (
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/pair-cli/pair/repo/internal/gitobj"
)

// ErrPatternFileSize is the refusal of an ignore or attributes file too
// large for git to read.
var ErrPatternFileSize = errPatternFileSize

// RecordCommit records the commit id as one this pair made, as Commit
// does for its own, for tests that make pair commits with git.
func RecordCommit(t *Tree, id string) error {
	st, err := t.repo.gitStorage()
	if err != nil {
		return err
	}
	c, err := gitobj.ReadCommit(st, plumbing.NewHash(id))
	if err != nil {
		return err
	}
	return t.repo.recordCommit(id, c.Message)
}

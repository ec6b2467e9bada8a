// branch.go: Branch, the name of the branch HEAD is on, or none when detached.

package repo

import (
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
)

// Branch returns the branch HEAD is on, as git status names it ("main",
// "feature/x"), or "" when HEAD is detached; unborn reports a branch
// without a commit yet. It reads git with go-git and is ErrNotGit outside
// a repository.
func (t *Tree) Branch() (name string, unborn bool, err error) {
	st, err := t.repo.gitStorage()
	if err != nil {
		return "", false, err
	}
	head, err := st.Reference(plumbing.HEAD)
	if err != nil {
		return "", false, fmt.Errorf("read HEAD: %w", err)
	}
	if head.Type() != plumbing.SymbolicReference {
		return "", false, nil
	}
	_, err = st.Reference(head.Target())
	switch {
	case errors.Is(err, plumbing.ErrReferenceNotFound):
		unborn = true
	case err != nil:
		return "", false, fmt.Errorf("read %s: %w", head.Target(), err)
	}
	return head.Target().Short(), unborn, nil
}

package repo

import (
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/pair-cli/pair/internal/gitobj"
)

// HeadText returns the content of the file p as HEAD commits it (the blob,
// as git stores it). ok is false when HEAD has no regular file at p: no
// repository, no commit yet, or no such file.
func (t *Tree) HeadText(p string) (text string, ok bool, err error) {
	if !t.Git {
		return "", false, nil
	}
	st, err := t.gitStorage()
	if err != nil {
		return "", false, err
	}
	c, err := headCommit(st)
	if err != nil || c == nil {
		return "", false, err
	}
	root, err := gitobj.ReadTree(st, c.Tree())
	if err != nil {
		return "", false, fmt.Errorf("read HEAD's tree: %w", err)
	}
	f, err := gitobj.Find(st, root, p)
	switch {
	case errors.Is(err, gitobj.ErrNotFound):
		return "", false, nil
	case err != nil:
		return "", false, err
	case f.Mode != filemode.Regular && f.Mode != filemode.Executable:
		return "", false, nil
	}
	b, err := gitobj.ReadBlob(st, f.Hash)
	if err != nil {
		return "", false, fmt.Errorf("read %s at HEAD: %w", p, err)
	}
	return string(b), true, nil
}

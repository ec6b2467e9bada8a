// headtext.go: HeadText and DeletionLoss, a file as HEAD commits it and what deleting it would lose.

package repo

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/repo/internal/gitobj"
)

// HeadText returns the content of the file p as HEAD commits it (the blob,
// as git stores it; a link's target; a submodule's "Subproject commit"
// line). ok is false when HEAD has no such file at p: no repository, no
// commit yet, or no such file.
func (t *Tree) HeadText(p string) (text string, ok bool, err error) {
	if !t.Git {
		return "", false, nil
	}
	st, err := t.repo.gitStorage()
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
	case f.Mode == filemode.Submodule:
		return gitlinkText(f.Hash.String()), true, nil
	case f.Mode != filemode.Regular && f.Mode != filemode.Executable && f.Mode != filemode.Symlink:
		return "", false, nil
	}
	b, err := gitobj.ReadBlob(st, f.Hash)
	if err != nil {
		return "", false, fmt.Errorf("read %s at HEAD: %w", p, err)
	}
	return string(b), true, nil
}

// DeletionLoss says, for a person, what deleting the file p, whose content
// is now, would lose that HEAD does not have: "" when HEAD commits p with
// that content.
func (t *Tree) DeletionLoss(p, now string) string {
	head, ok, err := t.HeadText(p)
	switch {
	case err != nil:
		return "git's copy of it cannot be read (" + err.Error() + "): deleting it may lose its content"
	case !ok && now == "":
		return ""
	case !ok:
		n := strings.Count(now, "\n")
		if !strings.HasSuffix(now, "\n") {
			n++
		}
		return fmt.Sprintf("it is not committed: deleting it would lose all of its %d %s", n, output.Plural(n, "line"))
	case head == now:
		return ""
	}
	lost := edit.Lost(head, now)
	if len(lost) == 0 {
		return "it has changes that are not committed: lines were deleted"
	}
	return fmt.Sprintf("deleting it would lose %d uncommitted %s (%s)", len(lost), output.Plural(len(lost), "line"), edit.LineList(lost))
}

// binary.go: binary patches placed: the old file checked against the patch's blob ids, the new one made.

package repo

import (
	"fmt"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/repo/internal/gitobj"
)

// checkBinary refuses a binary diff without data before anything is
// looked at, naming the file as git does.
func checkBinary(fd *edit.FileDiff) error {
	if fd.Binary && fd.BinaryPatch == nil {
		return fmt.Errorf("%s: %w", fd.Path(), edit.ErrBinaryNoData)
	}
	return nil
}

// withFullIndexBlob gives a binary diff without data ("Binary files
// differ") the postimage its index line names, when the line names both
// blobs in full and the object database has the postimage, as git apply
// takes it from there; fd is left as it was, and returned otherwise.
func (t *Tree) withFullIndexBlob(fd *edit.FileDiff) *edit.FileDiff {
	if !fd.Binary || fd.BinaryPatch != nil || !t.Git || len(fd.OldID) != len(fd.NewID) || len(fd.NewID) != 40 && len(fd.NewID) != 64 {
		return fd
	}
	st, err := t.repo.gitStorage()
	if err != nil {
		return fd
	}
	h, ok := findBlob(st, fd.NewID)
	if !ok {
		return fd
	}
	b, err := gitobj.ReadBlob(st, h)
	if err != nil {
		return fd
	}
	c := *fd
	c.BinaryPatch = &edit.BinaryPatch{Forward: &edit.BinaryHunk{Data: b}}
	return &c
}

// checkBinaryPlans applies the binary patches of placed plans to the
// content they were placed against, so that a patch for other content
// (its index line names another blob) is refused when it is placed, by
// --check too, and not only when it is written.
func checkBinaryPlans(plans []*edit.FilePlan) error {
	for _, p := range plans {
		if p.Diff == nil || !p.Diff.Binary {
			continue
		}
		if _, err := p.Diff.ApplyBinary(p.Old); err != nil {
			return err
		}
	}
	return nil
}

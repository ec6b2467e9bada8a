// binary.go: binary patches placed: the old file checked against the patch's blob ids, the new one made.

package repo

import (
	"fmt"

	"github.com/pair-cli/pair/edit"
)

// checkBinary refuses a binary diff without data before anything is
// looked at, naming the file as git does.
func checkBinary(fd *edit.FileDiff) error {
	if fd.Binary && fd.BinaryPatch == nil {
		return fmt.Errorf("%s: %w", fd.Path(), edit.ErrBinaryNoData)
	}
	return nil
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

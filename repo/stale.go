// stale.go: Refresh and ContentHash, ErrChanged when a file changed since its patch was placed.

package repo

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"

	"github.com/pair-cli/pair/edit"
)

// ErrChanged is returned when a file changed after its hunks were placed
// and they no longer place cleanly on its new content.
var ErrChanged = errors.New("file changed since the patch was placed")

// ContentHash is the hash by which a proposal remembers the content its
// hunks were placed against (hex SHA-256).
func ContentHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// Refresh compares each plan's file with the content the plan was placed
// against. A file that changed since is placed again against its new
// content: if every hunk that was placed places again (a tolerant pass is
// fine, a failure is not), the new plan replaces the old one and its path
// is reported in changed; otherwise Refresh fails with ErrChanged, naming
// the file. Nothing is ever applied to content it was not placed against.
func (t *Tree) Refresh(plans []*edit.FilePlan) (changed []string, err error) {
	return t.refresh(plans, nil)
}

// refresh is Refresh where other plans delete the paths of deleted: a
// plan that creates one of them (a file turned into a submodule) finds
// it taken away.
func (t *Tree) refresh(plans []*edit.FilePlan, deleted map[string]bool) (changed []string, err error) {
	for i, p := range plans {
		cur := ""
		if p.OldPath != "" {
			b, err := t.currentSource(p.OldPath, p.Diff)
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return changed, fmt.Errorf("%s: %w: it was removed", p.OldPath, ErrChanged)
				}
				return changed, err
			}
			cur = string(b)
		} else if deleted[p.NewPath] {
			// Taken away by another plan first.
		} else if gitlinkResult(p.Diff) && t.fileAt(p.NewPath) {
			return changed, fmt.Errorf("%s: %w: the patch adds a submodule there, but a file is in the way that the patch does not delete, or whose deletion was not approved", p.NewPath, ErrChanged)
		} else if b, err := t.ReadFile(p.NewPath); err == nil && len(b) > 0 {
			return changed, fmt.Errorf("%s: %w: the patch creates it, but it exists now", p.NewPath, ErrChanged)
		}
		if ContentHash(cur) == ContentHash(p.Old) {
			continue
		}
		np := edit.PlanFile(p.OldPath, p.NewPath, cur, p.Diff)
		if len(np.Errors) > len(p.Errors) || len(np.Hunks) != len(p.Hunks) {
			return changed, fmt.Errorf("%s: %w, and its hunks no longer place cleanly", p.Path(), ErrChanged)
		}
		plans[i] = np
		changed = append(changed, p.Path())
	}
	return changed, nil
}

// deletedPaths are the paths plans delete.
func deletedPaths(plans []*edit.FilePlan) map[string]bool {
	out := map[string]bool{}
	for _, p := range plans {
		if p.OldPath != "" && p.NewPath == "" {
			out[p.OldPath] = true
		}
	}
	return out
}

// fileAt reports whether p is on disk, and not a folder.
func (t *Tree) fileAt(p string) bool {
	fi, err := t.root.Lstat(p)
	return err == nil && !fi.IsDir()
}

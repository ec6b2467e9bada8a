// commitindex.go: CommitIndex, what the index holds committed as git commit commits it (pair am --continue after a conflict the person resolved).

package repo

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/pair-cli/pair/repo/internal/gitobj"
)

// ErrNothingStaged is returned by CommitIndex when the index holds what
// HEAD holds: nothing was staged.
var ErrNothingStaged = errors.New("the index holds no change from HEAD")

// CommitIndex commits what the index holds, as git commit does with no
// path given: the person's staged resolution of a conflict that pair left
// (pair am --continue). Every path must be merged (a conflict left in the
// index is refused, as by Commit), and something must differ from HEAD
// (ErrNothingStaged). The hooks, the signing, the author and pair's
// record are Commit's; the index is left as it is, unless the pre-commit
// hook changes what is committed.
func (t *Tree) CommitIndex(opts CommitOptions) (*CommitResult, error) {
	return t.commit(opts, func(c *commitRun, res *CommitResult) error {
		var err error
		if c.changes, err = c.indexChanges(); err != nil {
			return err
		}
		if c.tree, err = buildTree(c.st, c.base, c.changes); err != nil {
			return err
		}
		if c.tree == c.baseHash {
			return ErrNothingStaged
		}
		c.committed = committedPaths(c.st, c.base, c.changes)
		res.Committed = slices.Sorted(maps.Keys(c.committed))
		c.next = c.idx // the index holds what is committed
		return nil
	})
}

// indexChanges are the paths where the index differs from HEAD, as
// changes to HEAD's tree.
func (c *commitRun) indexChanges() (map[string]*treeChange, error) {
	staged := map[string]*index.Entry{}
	for _, e := range c.idx.Entries {
		staged[e.Name] = e
	}
	changes := map[string]*treeChange{}
	if c.base != nil {
		err := gitobj.Files(c.st, c.base, func(p string, e gitobj.TreeEntry) error {
			if _, ok := staged[p]; !ok {
				changes[p] = &treeChange{path: p, delete: true}
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("read HEAD tree: %w", err)
		}
	}
	for p, e := range staged {
		ch := &treeChange{path: p, blob: e.Hash, mode: e.Mode}
		if !changedEntry(c.st, c.base, p, ch) {
			continue
		}
		if e.Mode.IsFile() {
			b, err := readBlob(c.st, e.Hash)
			if err != nil {
				return nil, fmt.Errorf("read %s from the index: %w", p, err)
			}
			ch.content = string(b)
		}
		changes[p] = ch
	}
	return changes, nil
}

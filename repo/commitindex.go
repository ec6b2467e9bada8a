package repo

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
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
	c, err := t.startCommit(opts)
	if err != nil {
		return nil, err
	}
	lock, err := lockIndex(filepath.Join(t.gitDir, "index"))
	if err != nil {
		return nil, err
	}
	defer lock.release()
	if c.idx, c.idxTime, err = readIndex(filepath.Join(t.gitDir, "index")); err != nil {
		return nil, err
	}
	if err := checkConflicts(c.idx.Entries); err != nil {
		return nil, err
	}
	if err := c.readHead(); err != nil {
		return nil, err
	}
	if c.changes, err = c.indexChanges(); err != nil {
		return nil, err
	}
	if c.tree, err = buildTree(c.st, c.base, c.changes); err != nil {
		return nil, err
	}
	if c.tree == c.baseHash {
		return nil, ErrNothingStaged
	}
	res := &CommitResult{}
	c.committed = committedPaths(c.st, c.base, c.changes)
	res.Committed = slices.Sorted(maps.Keys(c.committed))
	c.next = c.idx
	var hooks *commitHooks
	if !opts.NoVerify {
		if hooks, err = c.startHooks(opts.HookOutput); err != nil {
			return nil, err
		}
		defer hooks.close()
		if err := c.preCommit(hooks, res); err != nil {
			return nil, err
		}
		if c.tree == c.baseHash { // the hook took every change back
			return res, nil
		}
	}
	msg, err := c.message(hooks, res)
	if err != nil {
		return nil, err
	}
	if err := c.write(msg, res); err != nil {
		return nil, err
	}
	if c.next != c.idx { // the pre-commit hook changed what is committed
		if err := writeIndex(lock, c.next); err != nil {
			return res, fmt.Errorf("commit %s made, but the index was not updated: %w", res.Hash[:12], err)
		}
	}
	return res, nil
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

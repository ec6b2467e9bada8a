package gitobj

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// ErrNotFound is returned by Find for a path the tree does not hold.
var ErrNotFound = errors.New("path not in the tree")

// ErrUnsafeName is returned for a tree entry whose name no checkout may
// write: empty, ".", "..", ".git" (in any case) or holding a "/".
var ErrUnsafeName = errors.New("unsafe name in a tree")

// maxDepth bounds how deep the walks go into subtrees.
const maxDepth = 1024

func checkName(name string) error {
	if name == "" || name == "." || name == ".." || strings.EqualFold(name, ".git") || strings.ContainsAny(name, "/\x00") {
		return fmt.Errorf("%w: %q", ErrUnsafeName, name)
	}
	return nil
}

// Files calls fn with every entry of t that is not a subtree (files,
// symbolic links, submodules), by path ("dir/file"), in git's order,
// which is also the index's order of the paths.
func Files(s storer.EncodedObjectStorer, t *Tree, fn func(path string, e TreeEntry) error) error {
	return files(s, t, "", 0, fn)
}

func files(s storer.EncodedObjectStorer, t *Tree, prefix string, depth int, fn func(string, TreeEntry) error) error {
	if depth > maxDepth {
		return fmt.Errorf("%w: trees nested deeper than %d", ErrMalformed, maxDepth)
	}
	entries := slices.Clone(t.Entries)
	slices.SortStableFunc(entries, compareEntries)
	for _, e := range entries {
		if err := checkName(e.Name); err != nil {
			return err
		}
		p := prefix + e.Name
		if e.Mode != filemode.Dir {
			if err := fn(p, e); err != nil {
				return err
			}
			continue
		}
		sub, err := ReadTree(s, e.Hash)
		if err != nil {
			return fmt.Errorf("read tree %s: %w", p, err)
		}
		if err := files(s, sub, p+"/", depth+1, fn); err != nil {
			return err
		}
	}
	return nil
}

// Find returns the entry at path ("dir/file") under t; ErrNotFound when
// a part of the path is missing or is not a directory.
func Find(s storer.EncodedObjectStorer, t *Tree, path string) (TreeEntry, error) {
	parts := strings.Split(path, "/")
	for i, name := range parts {
		if err := checkName(name); err != nil {
			return TreeEntry{}, err
		}
		e, ok := t.Entry(name)
		if !ok {
			return TreeEntry{}, fmt.Errorf("%s: %w", path, ErrNotFound)
		}
		if i == len(parts)-1 {
			return e, nil
		}
		if e.Mode != filemode.Dir {
			return TreeEntry{}, fmt.Errorf("%s: %w", path, ErrNotFound)
		}
		sub, err := ReadTree(s, e.Hash)
		if err != nil {
			return TreeEntry{}, fmt.Errorf("read tree %s: %w", strings.Join(parts[:i+1], "/"), err)
		}
		t = sub
	}
	return TreeEntry{}, fmt.Errorf("%s: %w", path, ErrNotFound)
}

// Change is a path that two trees hold differently: From is its entry in
// the first (nil when it is added), To in the second (nil when it is
// removed). Only files, symbolic links and submodules are changes, never
// subtrees.
type Change struct {
	Path     string
	From, To *TreeEntry
}

// Diff returns what changed from tree a to tree b (either may be nil for
// an empty tree), sorted by path. An entry that changes only its mode is
// a change; renames are a removal and an addition.
func Diff(s storer.EncodedObjectStorer, a, b *Tree) ([]Change, error) {
	var out []Change
	if err := diff(s, a, b, "", 0, &out); err != nil {
		return nil, err
	}
	slices.SortStableFunc(out, func(x, y Change) int { return strings.Compare(x.Path, y.Path) })
	return out, nil
}

func diff(s storer.EncodedObjectStorer, a, b *Tree, prefix string, depth int, out *[]Change) error {
	if depth > maxDepth {
		return fmt.Errorf("%w: trees nested deeper than %d", ErrMalformed, maxDepth)
	}
	if a != nil && b != nil && a.Hash == b.Hash && !a.Hash.IsZero() {
		return nil
	}
	from, to := entryMap(a), entryMap(b)
	names := make([]string, 0, len(from)+len(to))
	for n := range from {
		names = append(names, n)
	}
	for n := range to {
		if _, ok := from[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		if err := checkName(name); err != nil {
			return err
		}
		p := prefix + name
		fe, inA := from[name]
		te, inB := to[name]
		if inA && inB && fe.Hash == te.Hash && fe.Mode == te.Mode {
			continue
		}
		var fromTree, toTree *Tree
		var fromLeaf, toLeaf *TreeEntry
		var err error
		if inA {
			if fe.Mode == filemode.Dir {
				if fromTree, err = ReadTree(s, fe.Hash); err != nil {
					return fmt.Errorf("read tree %s: %w", p, err)
				}
			} else {
				fromLeaf = &fe
			}
		}
		if inB {
			if te.Mode == filemode.Dir {
				if toTree, err = ReadTree(s, te.Hash); err != nil {
					return fmt.Errorf("read tree %s: %w", p, err)
				}
			} else {
				toLeaf = &te
			}
		}
		if fromLeaf != nil || toLeaf != nil {
			*out = append(*out, Change{Path: p, From: fromLeaf, To: toLeaf})
		}
		if fromTree != nil || toTree != nil {
			if err := diff(s, fromTree, toTree, p+"/", depth+1, out); err != nil {
				return err
			}
		}
	}
	return nil
}

func entryMap(t *Tree) map[string]TreeEntry {
	m := map[string]TreeEntry{}
	if t != nil {
		for _, e := range t.Entries {
			m[e.Name] = e
		}
	}
	return m
}

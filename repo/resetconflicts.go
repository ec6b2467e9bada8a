// resetconflicts.go: ResetConflicts, the files a stopped git am -3 style merge left conflicted put back as HEAD has them, unless the person changed them since.

package repo

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"syscall"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/pair-cli/pair/repo/internal/gitobj"
)

// ErrChangedSinceConflict is wrapped by the refusal of ResetConflicts: a
// file it would put back holds work the person did after the conflict
// was left.
var ErrChangedSinceConflict = errors.New("changed since the conflict was left")

// ChangedSinceConflict is the refusal of ResetConflicts: the files, and
// for each where it changed ("working tree", "index"). Nothing was
// changed.
type ChangedSinceConflict struct {
	Files []string
	Where []string // Where[i] is where Files[i] changed
}

func (e *ChangedSinceConflict) Error() string {
	parts := make([]string, len(e.Files))
	for i, f := range e.Files {
		parts[i] = fmt.Sprintf("%s (%s)", f, e.Where[i])
	}
	return fmt.Sprintf("%s %s", strings.Join(parts, ", "), ErrChangedSinceConflict)
}

func (e *ChangedSinceConflict) Unwrap() error { return ErrChangedSinceConflict }

// WorkHashes returns, for each path, the git hash of its working file's
// bytes as they are (no conversion), "" for a path with no regular file:
// what ResetConflicts compares the files with later.
func (t *Tree) WorkHashes(paths []string) (map[string]string, error) {
	out := map[string]string{}
	for _, p := range paths {
		b, ok, err := t.workBytes(p)
		if err != nil {
			return nil, err
		}
		if ok {
			out[p] = plumbing.ComputeHash(plumbing.BlobObject, b).String()
		}
	}
	return out, nil
}

// workBytes reads the regular working file p; ok is false when there is
// none (absent, or something else at p).
func (t *Tree) workBytes(p string) (b []byte, ok bool, err error) {
	fi, err := t.root.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		return nil, false, nil
	case err != nil:
		return nil, false, wrapEscape(p, err)
	case !fi.Mode().IsRegular():
		return nil, false, nil
	}
	b, err = t.root.ReadFile(p)
	return b, err == nil, wrapEscape(p, err)
}

// ResetConflicts puts each of paths back as HEAD has it, as git am
// --skip and --abort do with the files a mail left conflicted: the index
// holds HEAD's entry alone at stage 0 (none when HEAD has no such file),
// and the working file HEAD's content as git checkout writes it (through
// the content filter and line-ending conversion its attributes name),
// with HEAD's mode; a file HEAD lacks is removed. Other paths are left as
// they are.
//
// written maps each path to its WorkHashes when the conflict was left.
// Unlike git, which resets them whatever they hold, ResetConflicts
// refuses with a *ChangedSinceConflict, changing nothing, when a working
// file holds neither that nor HEAD's content, or the index holds for the
// path neither the conflict's stages, HEAD's entry nor the working file:
// the person's work since. ctx stops the filters it runs.
func (t *Tree) ResetConflicts(ctx context.Context, paths []string, written map[string]string) error {
	if len(paths) == 0 {
		return nil
	}
	st, err := t.repo.gitStorage()
	if err != nil {
		return err
	}
	lock, idx, _, err := t.lockedIndex()
	if err != nil {
		return err
	}
	defer lock.release()
	c, err := headCommit(st)
	if err != nil {
		return err
	}
	var root *gitobj.Tree
	if c != nil {
		if root, err = gitobj.ReadTree(st, c.Tree()); err != nil {
			return fmt.Errorf("read HEAD's tree: %w", err)
		}
	}
	cfg, err := t.repo.loadConfig()
	if err != nil {
		return err
	}
	fl := t.newFilters(ctx, cfg)
	refusal := &ChangedSinceConflict{}
	var changes []Change
	heads := map[string]*gitobj.TreeEntry{}
	for _, p := range paths {
		var head *gitobj.TreeEntry
		if root != nil {
			e, err := gitobj.Find(st, root, p)
			switch {
			case errors.Is(err, gitobj.ErrNotFound):
			case err != nil:
				return err
			case e.Mode != filemode.Regular && e.Mode != filemode.Executable:
				return fmt.Errorf("%s: HEAD has no regular file there (mode %s): put it back with git", p, e.Mode)
			default:
				head = &e
			}
		}
		heads[p] = head
		var where []string
		b, ok, err := t.workBytes(p)
		if err != nil {
			return err
		}
		asWritten := ok && plumbing.ComputeHash(plumbing.BlobObject, b).String() == written[p]
		var staged plumbing.Hash // the blob git add would store for the working file
		if ok {
			mode := filemode.Regular
			if head != nil {
				mode = head.Mode
			}
			if staged, err = t.addBlob(nil, p, b, mode); err != nil {
				return err
			}
			if !asWritten && (head == nil || staged != head.Hash) {
				where = append(where, "working tree")
			}
		}
		if !conflictIndexKept(idx.Entries, p, head, staged, asWritten) {
			where = append(where, "index")
		}
		if len(where) > 0 {
			refusal.Files = append(refusal.Files, p)
			refusal.Where = append(refusal.Where, strings.Join(where, ", "))
			continue
		}
		ch := Change{Path: p, Delete: head == nil}
		if head != nil {
			if ch.Content, err = fl.checkout(p, head.Hash); err != nil {
				return err
			}
			ch.Mode = 0o644
			if head.Mode == filemode.Executable {
				ch.Mode = 0o755
			}
		}
		changes = append(changes, ch)
	}
	if len(refusal.Files) > 0 {
		return refusal
	}
	if err := t.Write(changes); err != nil {
		return fmt.Errorf("put back the conflicted files: %w", err)
	}
	idx.Entries = slices.DeleteFunc(idx.Entries, func(e *index.Entry) bool { return slices.Contains(paths, e.Name) })
	for _, p := range paths {
		head := heads[p]
		if head == nil {
			continue
		}
		e := &index.Entry{Name: p, Hash: head.Hash, Mode: head.Mode}
		if fi, err := t.root.Lstat(p); err == nil {
			statEntry(e, fi)
		}
		idx.Entries = append(idx.Entries, e)
	}
	sortEntries(idx.Entries)
	idx.Cache, idx.ResolveUndo, idx.EndOfIndexEntry = nil, nil, nil
	if err := writeIndex(lock, idx); err != nil {
		return fmt.Errorf("the conflicted files are put back, but not the index: %w", err)
	}
	return nil
}

// conflictIndexKept reports whether the index entries of p hold nothing
// the person did since the conflict: its unmerged stages alone, HEAD's
// entry (none when head is nil), or, when the working file is as the
// conflict left it, that file as git add stores it (staged).
func conflictIndexKept(entries []*index.Entry, p string, head *gitobj.TreeEntry, staged plumbing.Hash, asWritten bool) bool {
	var mine []*index.Entry
	for _, e := range entries {
		if e.Name == p {
			mine = append(mine, e)
		}
	}
	if len(mine) == 0 {
		return head == nil
	}
	if !slices.ContainsFunc(mine, func(e *index.Entry) bool { return e.Stage == 0 }) {
		return true // unmerged, as the conflict left it
	}
	if len(mine) != 1 || mine[0].IntentToAdd {
		return false
	}
	e := mine[0]
	return head != nil && e.Hash == head.Hash && e.Mode == head.Mode || asWritten && e.Hash == staged
}

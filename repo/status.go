// status.go: Status, git status read with go-git from the index, HEAD and the files.

package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/pair-cli/pair/repo/internal/gitobj"
	"github.com/pair-cli/pair/repo/internal/gitstore"
)

// StatusEntry is a path that git status shows, with the two letters of
// git status --porcelain: Staged compares the index with HEAD, Worktree
// the working tree with the index. The letters are ' ' (unchanged), 'M'
// (modified), 'A' (added), 'D' (deleted), 'T' (type changed: a file
// became a link or the other way), 'U' (unmerged), and '?' in both for an
// untracked file.
type StatusEntry struct {
	Path             string
	Staged, Worktree byte
}

// Status returns the changes of the tree as git status --porcelain
// --untracked-files=all -c status.renames=false shows them: the tracked
// paths that differ from HEAD or the index, sorted, then the untracked
// files (not ignored), sorted. It reads git with go-git and never runs
// git. Renames are shown as a deletion and an addition, untracked files
// one by one (no "dir/" entries), nested repositories not at all; content
// filters and line-ending conversions (.gitattributes, core.autocrlf) are
// not applied.
func (t *Tree) Status() ([]StatusEntry, error) {
	gs, err := t.loadGitState()
	if err != nil {
		return nil, err
	}
	var out []StatusEntry
	for _, p := range gs.paths() {
		e := StatusEntry{Path: p, Staged: ' ', Worktree: ' '}
		h, inHead := gs.head[p]
		ie, inIndex := gs.index[p]
		switch {
		case gs.unmerged[p]:
			e.Staged, e.Worktree = 'U', 'U'
		case !inIndex:
			e.Staged = 'D'
		default:
			switch {
			case ie.IntentToAdd:
				e.Worktree = 'A'
			case !inHead:
				e.Staged = 'A'
			case isLinkMode(h.mode) != isLinkMode(ie.Mode):
				e.Staged = 'T'
			case h.hash != ie.Hash || h.mode != ie.Mode:
				e.Staged = 'M'
			}
			if e.Worktree == ' ' {
				wt, err := t.worktreeState(ie, gs)
				if err != nil {
					return nil, err
				}
				e.Worktree = wt
			}
		}
		if e.Staged != ' ' || e.Worktree != ' ' {
			out = append(out, e)
		}
	}
	files, err := t.walkFiles(nil, Access{})
	if err != nil {
		return nil, err
	}
	for _, p := range files {
		if !gs.tracked[p] {
			out = append(out, StatusEntry{Path: p, Staged: '?', Worktree: '?'})
		}
	}
	return out, nil
}

// headEntry is a file of HEAD's tree.
type headEntry struct {
	hash plumbing.Hash
	mode filemode.FileMode
}

// gitState is what Status and WorkDiff compare: HEAD's files, the index
// and when it was written.
type gitState struct {
	st        *gitstore.Store
	head      map[string]headEntry
	index     map[string]*index.Entry // stage 0 entries
	unmerged  map[string]bool         // paths with conflict stages
	tracked   map[string]bool         // every path of the index
	indexTime time.Time
	// lstat is the tree's, remembering the folders it looked at (see
	// worktreeState).
	lstat func(string) (fs.FileInfo, error)
}

func (t *Tree) loadGitState() (*gitState, error) {
	st, err := t.repo.gitStorage()
	if err != nil {
		return nil, err
	}
	gs := &gitState{st: st, head: map[string]headEntry{}, index: map[string]*index.Entry{},
		unmerged: map[string]bool{}, tracked: map[string]bool{}, lstat: cachedLstat(t.root.Lstat)}
	c, err := headCommit(st)
	if err != nil {
		return nil, err
	}
	if c != nil { // without a commit, HEAD has no files
		tree, err := gitobj.ReadTree(st, c.Tree())
		if err != nil {
			return nil, fmt.Errorf("read HEAD tree: %w", err)
		}
		err = gitobj.Files(st, tree, func(name string, e gitobj.TreeEntry) error {
			gs.head[name] = headEntry{e.Hash, e.Mode}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("read HEAD tree: %w", err)
		}
	}
	idx, when, err := t.repo.readIndex()
	if err != nil {
		return nil, err
	}
	gs.indexTime = when
	for _, e := range idx.Entries {
		gs.tracked[e.Name] = true
		if e.Stage != 0 { // (go-git's index.Merged is 1, but a merged entry's stage is 0)
			gs.unmerged[e.Name] = true
			continue
		}
		gs.index[e.Name] = e
	}
	return gs, nil
}

// paths returns every path of HEAD and the index, sorted.
func (gs *gitState) paths() []string {
	var ps []string
	for p := range gs.head {
		ps = append(ps, p)
	}
	for p := range gs.tracked {
		if _, ok := gs.head[p]; !ok {
			ps = append(ps, p)
		}
	}
	sort.Strings(ps)
	return ps
}

func isLinkMode(m filemode.FileMode) bool { return m == filemode.Symlink }

// worktreeState compares a file of the working tree with its index entry:
// ' ' unchanged, 'M' modified, 'D' deleted, 'T' type changed. As git
// does, a file whose size and modification time are those the index
// recorded is taken as unchanged, unless it was modified as late as the
// index was written (then it is hashed). A file beyond a symbolic link
// (a folder of its path is one) is deleted, as git sees it: its folder is
// gone, and what the link leads to is not read.
func (t *Tree) worktreeState(e *index.Entry, gs *gitState) (byte, error) {
	if e.Mode == filemode.Submodule || e.SkipWorktree {
		return ' ', nil
	}
	if err := t.links.checkPatchLinks(e.Name, LinkRead, patchLinks{}, gs.lstat); errors.Is(err, ErrBeyondLink) {
		return 'D', nil
	}
	indexTime := gs.indexTime
	fi, err := t.root.Lstat(e.Name)
	if err != nil {
		if gone(err) {
			return 'D', nil
		}
		return 0, wrapEscape(e.Name, err)
	}
	link := fi.Mode()&fs.ModeSymlink != 0
	switch {
	case fi.IsDir():
		return 'D', nil
	case !link && !fi.Mode().IsRegular():
		return 'T', nil
	case link != isLinkMode(e.Mode):
		return 'T', nil
	}
	if !link && (fi.Mode()&0o111 != 0) != (e.Mode == filemode.Executable) {
		return 'M', nil
	}
	if int64(e.Size) == fi.Size()&0xffffffff && e.ModifiedAt.Equal(fi.ModTime()) && fi.ModTime().Before(indexTime) {
		return ' ', nil
	}
	b, err := t.worktreeBlob(e.Name, link)
	if err != nil {
		if gone(err) {
			return 'D', nil
		}
		return 0, err
	}
	if plumbing.ComputeHash(plumbing.BlobObject, b) != e.Hash {
		return 'M', nil
	}
	return ' ', nil
}

// worktreeBlob is what git would store for a file of the working tree:
// its content, or a link's target.
func (t *Tree) worktreeBlob(p string, link bool) ([]byte, error) {
	if link {
		target, err := t.root.Readlink(p)
		return []byte(filepath.ToSlash(target)), wrapEscape(p, err)
	}
	b, err := t.root.ReadFile(p)
	return b, wrapEscape(p, err)
}

// gone reports whether a working tree path is missing: the file, or a
// directory on its way.
func gone(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// scratch.go: the scratch tree of pair verify, the candidate tree laid out in the git directory.

package repo

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pair-cli/pair/edit"
)

// verifyDir is the folder of pair's state directory (see StateDir) that
// holds the scratch tree (verifyTree), the list of the files pair put
// there (verifyFiles) and the lock of its user (verifyLock).
const (
	verifyDir   = "verify"
	verifyTree  = "tree"
	verifyFiles = "files"
	verifyLock  = "lock"
)

// ErrScratchBusy is returned by OpenScratch when another pair process is
// verifying in the same repository.
var ErrScratchBusy = errors.New("another pair is verifying in this repository; try again when it is done")

// ErrScratchNoGit is returned by OpenScratch outside a git repository:
// the scratch tree lives in the git directory.
var ErrScratchNoGit = errors.New("verifying needs a git repository")

// Scratch is the scratch tree of a repository, held by one process: a
// plain folder of the git directory (not a git worktree: git knows
// nothing of it) where the candidate tree is laid out and the tests run.
// It is kept between runs, and Sync writes only the files that differ, so
// that a build cache keyed by content or time stamps (go's, Python's
// __pycache__) finds its work done. Close releases it.
type Scratch struct {
	// Dir is the folder the tests run in.
	Dir  string
	home string
	lock *os.File
	t    *Tree
}

// OpenScratch takes the repository's scratch tree for this process,
// creating it when needed: <git dir>/pair/verify/tree. It fails with
// ErrScratchBusy when another process holds it. The lock is a flock on
// <git dir>/pair/verify/lock, which the system releases when the process
// ends however it ends: a killed verify leaves no lock that stops the
// next one.
func (t *Tree) OpenScratch() (*Scratch, error) {
	if !t.Git {
		return nil, ErrScratchNoGit
	}
	home := filepath.Join(t.StateDir(), verifyDir)
	dir := filepath.Join(home, verifyTree)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("scratch tree: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(home, verifyLock), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("scratch tree: %w", err)
	}
	ok, err := tryFlock(f)
	if err != nil || !ok {
		f.Close()
		if err == nil {
			err = ErrScratchBusy
		}
		return nil, err
	}
	return &Scratch{Dir: dir, home: home, lock: f, t: t}, nil
}

// Close releases the scratch tree; the files stay for the next run.
func (s *Scratch) Close() error {
	if s.lock == nil {
		return nil
	}
	_ = funlock(s.lock)
	err := s.lock.Close()
	s.lock = nil
	return err
}

// SyncStats says what Sync did.
type SyncStats struct {
	// Files is the number of files of the candidate tree; Written and
	// Removed those Sync had to write or remove.
	Files, Written, Removed int
}

// Sync lays out the candidate tree of plans in the scratch tree: the
// files of the working tree that git tracks or would track (untracked
// files that are not ignored count: they are the person's work too;
// ignored files, such as build outputs, dependencies and .env, do not),
// as they are on disk, with the write set of plans (what ApplyPlans would
// write, see finalState) laid over them. Only files that differ are
// written, with their executable bit; symbolic links are made as links.
// Files pair put there before that are no longer in the candidate are
// removed; files the tests made are left alone. Submodules are left out.
//
// Nothing of the working tree, the index or git's files is written:
// plans are placed again in memory only, where their files changed
// since they were placed (the plans are updated in place, as ApplyPlans
// updates them).
func (s *Scratch) Sync(plans []*edit.FilePlan) (SyncStats, error) {
	var st SyncStats
	changes, _, _, err := s.t.finalState(plans)
	if err != nil {
		return st, err
	}
	over := map[string]Change{}
	for _, c := range changes {
		over[c.Path] = c
	}
	files, _, err := s.t.ListFiles("", Access{}, 0)
	if err != nil {
		return st, err
	}
	want := map[string]bool{}
	for _, p := range files {
		want[p] = true
	}
	for _, c := range changes {
		want[c.Path] = !c.Delete
	}
	root, err := os.OpenRoot(s.Dir)
	if err != nil {
		return st, fmt.Errorf("scratch tree: %w", err)
	}
	defer root.Close()
	var paths []string
	for p, ok := range want {
		if ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		f, ok, err := s.source(p, over)
		if err != nil {
			return st, err
		}
		if !ok {
			continue // a submodule, or gone since it was listed
		}
		st.Files++
		wrote, err := f.put(root, p)
		if err != nil {
			return st, fmt.Errorf("scratch tree: %s: %w", p, err)
		}
		if wrote {
			st.Written++
		}
	}
	// What pair put there before and is no longer wanted goes.
	prev, _ := os.ReadFile(filepath.Join(s.home, verifyFiles))
	for _, p := range strings.Split(string(prev), "\x00") {
		if p == "" || !fs.ValidPath(p) || slices.Contains(paths, p) {
			continue
		}
		if err := root.Remove(p); err == nil {
			st.Removed++
			for d := path.Dir(p); d != "."; d = path.Dir(d) {
				if root.Remove(d) != nil { // only an empty folder goes
					break
				}
			}
		}
	}
	list := strings.Join(paths, "\x00")
	if err := os.WriteFile(filepath.Join(s.home, verifyFiles), []byte(list), 0o644); err != nil {
		return st, fmt.Errorf("scratch tree: %w", err)
	}
	return st, nil
}

// scratchFile is one file of the candidate tree.
type scratchFile struct {
	content []byte
	exec    bool
	link    bool
}

// source is the candidate's file p: the change of the write set, else
// the working tree's file. ok is false for what is not a file to copy
// (a submodule's folder, a file gone since it was listed).
func (s *Scratch) source(p string, over map[string]Change) (f scratchFile, ok bool, err error) {
	fi, lerr := s.t.root.Lstat(p)
	if c, changed := over[p]; changed {
		f = scratchFile{content: c.Content, link: c.Link}
		switch {
		case c.Mode != 0:
			f.exec = c.Mode&0o111 != 0
		case lerr == nil:
			f.exec = fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
		}
		return f, true, nil
	}
	if lerr != nil {
		if errors.Is(lerr, fs.ErrNotExist) {
			return f, false, nil
		}
		return f, false, lerr
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := s.t.root.Readlink(p)
		if err != nil {
			return f, false, err
		}
		return scratchFile{content: []byte(target), link: true}, true, nil
	case !fi.Mode().IsRegular():
		return f, false, nil
	}
	b, err := s.t.root.ReadFile(p)
	if err != nil {
		return f, false, err
	}
	return scratchFile{content: b, exec: fi.Mode()&0o111 != 0}, true, nil
}

// put writes f at p in root unless it is there already, and reports
// whether it wrote. Whatever stands in the way (a file where a folder is
// needed, a folder or a link where a file goes) is removed.
func (f scratchFile) put(root *os.Root, p string) (bool, error) {
	fi, err := root.Lstat(p)
	if err == nil {
		if f.same(root, p, fi) {
			return false, nil
		}
		if err := root.RemoveAll(p); err != nil {
			return false, err
		}
	}
	if err := clearParents(root, path.Dir(p)); err != nil {
		return false, err
	}
	if f.link {
		return true, root.Symlink(string(f.content), p)
	}
	mode := fs.FileMode(0o644)
	if f.exec {
		mode = 0o755
	}
	// Written to a new file and renamed: a test still running from the
	// last run never reads half a file.
	tmp := p + ".pair-tmp"
	if err := root.WriteFile(tmp, f.content, mode); err != nil {
		return false, err
	}
	if err := root.Chmod(tmp, mode); err != nil { // the umask does not decide
		return false, err
	}
	return true, root.Rename(tmp, p)
}

// same reports whether p in root, as fi describes it, is f already.
func (f scratchFile) same(root *os.Root, p string, fi fs.FileInfo) bool {
	if f.link {
		target, err := root.Readlink(p)
		return fi.Mode()&fs.ModeSymlink != 0 && err == nil && target == string(f.content)
	}
	if !fi.Mode().IsRegular() || fi.Size() != int64(len(f.content)) || (fi.Mode()&0o111 != 0) != f.exec {
		return false
	}
	b, err := root.ReadFile(p)
	return err == nil && bytes.Equal(b, f.content)
}

// clearParents makes dir a folder in root: a file or a link in its way
// is removed.
func clearParents(root *os.Root, dir string) error {
	if dir == "." {
		return nil
	}
	fi, err := root.Lstat(dir)
	switch {
	case err == nil && fi.IsDir():
		return nil
	case err == nil:
		if err := root.Remove(dir); err != nil {
			return err
		}
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	if err := clearParents(root, path.Dir(dir)); err != nil {
		return err
	}
	return root.Mkdir(dir, 0o755)
}

// disk.go: disk, the tree's files as stored: writes made durable, directories made and removed, a write set's contents moved in.

package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"syscall"
)

// disk is the working tree's files as stored, through the tree's root:
// a file written and synced, a directory made or removed, the content a
// file holds now, a copy in the journal directory moved onto its target.
// Write and the journal's recovery go through it.
type disk struct {
	root *os.Root
	// top is the tree's root directory, journal the journal directory
	// (see journalHome), by their full paths.
	top, journal string
	// fault is the fault tests' hook (see faultAt).
	fault func(op, name string) error
}

// missingDirs returns dir and those of its parents that neither exist nor
// are planned already, parents first, and adds them to planned.
// A file the set deletes (deleted) is missing too: the directory takes its
// place.
func (dk *disk) missingDirs(dir string, planned, deleted map[string]bool) ([]string, error) {
	if dir == "." || dir == "" || planned[dir] {
		return nil, nil
	}
	fi, err := dk.root.Stat(dir)
	if deleted[dir] || err != nil && notExist(err) {
		err = fs.ErrNotExist
	}
	if err == nil {
		if !fi.IsDir() {
			return nil, fmt.Errorf("%s: not a directory", dir)
		}
		return nil, nil
	}
	if werr := wrapEscape(dir, err); errors.Is(werr, ErrOutsideRepo) {
		return nil, werr
	}
	missing, err := dk.missingDirs(path.Dir(dir), planned, deleted)
	if err != nil {
		return nil, err
	}
	planned[dir] = true
	return append(missing, dir), nil
}

// removeEmptyDirs removes dir and its parents while they are empty, as
// git does when a file's deletion leaves its directory empty. A symbolic
// link is never removed: it is no directory of the deleted file's.
func (dk *disk) removeEmptyDirs(dir string) {
	for dir != "." && dir != "" && dir != "/" {
		if fi, err := dk.root.Lstat(dir); err != nil || !fi.IsDir() {
			return
		}
		if dk.root.Remove(dir) != nil { // fails unless empty
			return
		}
		dir = path.Dir(dir)
	}
}

// mkdirs creates dir and its missing parents, returning those it created.
func (dk *disk) mkdirs(dir string) ([]string, error) {
	if dir == "." || dir == "" {
		return nil, nil
	}
	if fi, err := dk.root.Stat(dir); err == nil {
		if !fi.IsDir() {
			return nil, fmt.Errorf("%s: not a directory", dir)
		}
		return nil, nil
	}
	made, err := dk.mkdirs(path.Dir(dir))
	if err != nil {
		return made, err
	}
	if err := dk.root.Mkdir(dir, 0o755); err != nil {
		return made, wrapEscape(dir, err)
	}
	return append(made, dir), nil
}

// writeIn writes the file name of r (the tree's root, or the journal
// directory), with mode exactly, and syncs it to disk.
func (dk *disk) writeIn(r *os.Root, name string, content []byte, mode fs.FileMode) error {
	f, err := r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if ferr := dk.faultAt("write", name); ferr != nil {
		// As a full disk does: part of the content is written.
		_, _ = f.Write(content[:len(content)/2])
		f.Close()
		return &fs.PathError{Op: "write", Path: f.Name(), Err: ferr}
	}
	// OpenFile's mode is filtered by the umask and ignored for an existing
	// file: set it exactly, before the sync that makes it durable.
	return writeDurably(f, content, &mode)
}

// faultAt calls the tree's fault hook, if any, before an operation (op
// "write", "rename" or "remove") on name; the error it returns is the
// operation's (a "remove" of a temporary file is then not done).
// Only the fault tests set one, to make a disk full or a rename cross
// file systems.
func (dk *disk) faultAt(op, name string) error {
	if dk.fault == nil {
		return nil
	}
	return dk.fault(op, name)
}

// writeDurably writes content to f, sets its mode when mode is not nil,
// syncs it to disk and closes it; f is closed whatever happens.
func writeDurably(f *os.File, content []byte, mode *fs.FileMode) error {
	if _, err := f.Write(content); err != nil {
		f.Close()
		return err
	}
	if mode != nil {
		if err := f.Chmod(*mode); err != nil {
			f.Close()
			return err
		}
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func (dk *disk) stateOf(p string) (fileState, error) {
	return stateIn(dk.root, p)
}

// moveIn renames the file name of the journal directory dir onto the
// tree's path target. Where the two are on different file systems, it
// copies the file to the temporary file beside (a path of the tree) and
// renames that; beside is removed on every way out (or, if it cannot be,
// named by the roll-back).
func (dk *disk) moveIn(dir *os.Root, name, target, beside string) error {
	err := dk.renameInto(dir, name, target)
	if err == nil || !errors.Is(err, syscall.EXDEV) {
		return wrapEscape(target, err)
	}
	fi, err := dir.Lstat(name)
	if err != nil {
		return wrapEscape(target, err)
	}
	b, link, err := dk.readCopy(dir, name)
	if err != nil {
		return wrapEscape(target, err)
	}
	err = dk.writeCopy(dk.root, beside, b, fi.Mode().Perm(), link)
	if err == nil {
		err = dk.root.Rename(beside, target)
	}
	if err != nil {
		// What cannot be removed, the roll-back names (see abandon).
		dk.removeTemp(beside)
		return wrapEscape(target, err)
	}
	_ = dir.Remove(name)
	return nil
}

func (dk *disk) removeTemp(p string) {
	if p != "" && dk.faultAt("remove", p) == nil {
		_ = dk.root.Remove(p)
	}
}

// syncDirs flushes the directories of a write set's files to disk.
func (dk *disk) syncDirs(j *journal) {
	dirs := map[string]bool{".": true}
	for _, e := range j.Changes {
		dirs[path.Dir(e.Path)] = true
	}
	for _, d := range j.Dirs {
		dirs[path.Dir(d)] = true
	}
	for d := range dirs {
		_ = syncDir(dk.root, d) // a directory a deletion removed is gone
	}
}

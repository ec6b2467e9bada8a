// symlink.go: symbolic links as content, read and written as links, never through one.

package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"syscall"

	"github.com/pair-cli/pair/edit"
)

// Symbolic links as content (mode 120000): the blob is the link's
// target, written as one line without a newline. pair reads a link's
// target and writes the link itself, never through it; a path beyond a
// link stays refused (see links.go).

// ErrNoSymlinks is returned when the file system does not let pair make
// a symbolic link that the patch makes.
var ErrNoSymlinks = errors.New("the file system does not support symbolic links")

// ErrNotLink is wrapped by the refusal of a link diff (mode 120000) whose
// source on disk is not a symbolic link.
var ErrNotLink = errors.New("the patch changes a symbolic link, but it is not one")

// ErrIsLink is wrapped by the refusal of a path that is itself a symbolic
// link where pair writes or reads a file: a patched path that is a link
// (pair does not write through links), and the commit record or its
// folder (pair does not follow them).
var ErrIsLink = errors.New("is a symbolic link")

// linkSource reports whether the diff reads a symbolic link: it changes,
// deletes, renames or turns into a file a link.
func linkSource(fd *edit.FileDiff) bool {
	return fd.OldMode == linkMode && !fd.New
}

// linkResult reports whether the diff writes a symbolic link.
func linkResult(fd *edit.FileDiff) bool {
	return fd.NewMode == linkMode && !fd.Deleted
}

// checkLinkSource checks that the source of a link diff is a link on
// disk, as fi (from lstat) says.
func checkLinkSource(p string, fi fs.FileInfo) error {
	if fi.Mode()&fs.ModeSymlink == 0 {
		return fmt.Errorf("%s: %w", p, ErrNotLink)
	}
	return nil
}

// readSource reads what the hunks of fd apply to at p: a link's target,
// or a file's content.
func (w *dirWalk) readSource(p string, fd *edit.FileDiff) (string, error) {
	if w.cached {
		// The index's content, placed on again by FromIndex.
		return w.t.indexContent(w.entries[p])
	}
	if gitlinkSource(fd) {
		return w.t.submodules.readGitlink(p)
	}
	if linkSource(fd) {
		target, err := w.t.root.Readlink(p)
		return target, wrapEscape(p, err)
	}
	return w.readString(p)
}

// currentSource is readSource for Refresh: what p holds now.
func (t *Tree) currentSource(p string, fd *edit.FileDiff) ([]byte, error) {
	if fd != nil && gitlinkSource(fd) {
		s, err := t.submodules.readGitlink(p)
		return []byte(s), err
	}
	if fd != nil && linkSource(fd) {
		if err := t.links.checkLinks(p, LinkRead); err != nil {
			return nil, err
		}
		target, err := t.root.Readlink(p)
		return []byte(target), wrapEscape(p, err)
	}
	return t.ReadFile(p)
}

// linkChanges is the write set of a placed link diff whose result is
// content: a link (Link) or a file replacing one (WasLink).
func linkChange(p *edit.FilePlan, content string) Change {
	c := Change{Path: p.NewPath, Content: []byte(content), Link: linkResult(p.Diff), WasLink: linkSource(p.Diff) && p.OldPath == p.NewPath}
	if !c.Link && p.Diff.NewMode == "100755" {
		c.Mode = 0o755
	}
	return c
}

// makeSymlink makes the link name of r pointing at target, saying so
// clearly where the file system has none.
func makeSymlink(r *os.Root, target, name string) error {
	return noSymlinks(r.Symlink(target, name))
}

// noSymlinks words the error of a file system without symbolic links.
func noSymlinks(err error) error {
	if errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.ENOTSUP) || errors.Is(err, syscall.ENOSYS) || errors.Is(err, errors.ErrUnsupported) {
		return fmt.Errorf("%w (%v)", ErrNoSymlinks, err)
	}
	return err
}

// readOld reads the old state of a write set's path: a link's target
// (link true) or a file's content.
func (dk *disk) readOld(p string, fi fs.FileInfo) (content []byte, link bool, err error) {
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := dk.root.Readlink(p)
		return []byte(target), true, wrapEscape(p, err)
	}
	b, err := dk.root.ReadFile(p)
	return b, false, wrapEscape(p, err)
}

// writeCopy writes a journal copy: a link to content, or a file of it.
func (dk *disk) writeCopy(r *os.Root, name string, content []byte, mode fs.FileMode, link bool) error {
	if link {
		if err := dk.faultAt("symlink", name); err != nil {
			return noSymlinks(err)
		}
		return makeSymlink(r, string(content), name)
	}
	return dk.writeIn(r, name, content, mode)
}

// readCopy reads a journal copy: a link's target, or a file's content.
func (dk *disk) readCopy(r *os.Root, name string) (content []byte, link bool, err error) {
	fi, err := r.Lstat(name)
	if err != nil {
		return nil, false, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := r.Readlink(name)
		return []byte(target), true, err
	}
	b, err := r.ReadFile(name)
	return b, false, err
}

// linkFolder returns the path whose links decide where p lands: p, or,
// when p is a link that the patch reads as content (self), its folder.
func linkFolder(p string, self bool) string {
	if self {
		return path.Dir(p)
	}
	return p
}

// withLinkModes returns fd with mode 120000 on both sides when it renames
// or copies, without naming modes or changing content, a path that is a
// symbolic link on disk: git writes such a section without an index line,
// and git apply takes the mode from the file it finds.
func (t *Tree) withLinkModes(fd *edit.FileDiff, w *dirWalk) *edit.FileDiff {
	if !(fd.Renamed || fd.Copied) || fd.OldMode != "" || fd.NewMode != "" || len(fd.Hunks) > 0 || fd.OldPath == "" {
		return fd
	}
	cp, err := t.Clean(fd.OldPath)
	if err != nil {
		return fd
	}
	if fi, err := w.lstat(cp); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return fd
	}
	c := *fd
	c.OldMode, c.NewMode = linkMode, linkMode
	return &c
}

// links.go: paths beyond a symbolic link: the link rule in git's words, LinkError and ErrBeyondLink.

package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/pair-cli/pair/edit"
)

// ErrBeyondLink is wrapped by the error for a path any of whose leading
// folders is a symbolic link, in the tree or made by the same patch: pair,
// as git, never reads, writes or deletes a file through one (see
// *LinkError).
var ErrBeyondLink = errors.New("path beyond a symbolic link")

// linkMode is git's mode of a symbolic link.
const linkMode = "120000"

// LinkOp says what was asked of a path beyond a symbolic link; it chooses
// git's wording of the refusal.
type LinkOp int

const (
	// LinkWrite: the path is written (git's "affected file").
	LinkWrite LinkOp = iota
	// LinkRead: the path is only read, or deleted (git's "reading
	// from").
	LinkRead
	// LinkPathspec: the path is a glob of the read tools (git's
	// "pathspec").
	LinkPathspec
)

// LinkError refuses a path any of whose leading folders is a symbolic
// link. Its message is git's, followed by what the link is and, when it
// leads to a folder of the tree, the path there.
type LinkError struct {
	// Path is the clean path that was named.
	Path string
	// Link is its leading folder that is a symbolic link.
	Link string
	// Target is the link's text, "" when the patch makes the link.
	Target string
	// There is Path where the link leads, followed to its end, when that
	// is in the tree; "" otherwise.
	There string
	// Op chooses the wording.
	Op LinkOp
	// out says the link leads out of the tree, git says it leads into
	// .git: the error wraps ErrOutsideRepo or ErrGitInternal too.
	out, git bool
	// made says the same patch makes Link a symbolic link; nowhere says
	// the link is broken.
	made, nowhere bool
}

func (e *LinkError) Error() string {
	var b strings.Builder
	switch e.Op {
	case LinkRead:
		fmt.Fprintf(&b, "reading from '%s' beyond a symbolic link", e.Path)
	case LinkPathspec:
		fmt.Fprintf(&b, "pathspec '%s' is beyond a symbolic link", e.Path)
	default:
		fmt.Fprintf(&b, "affected file '%s' is beyond a symbolic link", e.Path)
	}
	switch {
	case e.made:
		fmt.Fprintf(&b, " (the patch makes %s a symbolic link)", e.Link)
	case e.out:
		fmt.Fprintf(&b, " (%s is a symbolic link out of the tree)", e.Link)
	case e.git:
		fmt.Fprintf(&b, " (%s is a symbolic link into the git directory)", e.Link)
	case e.nowhere:
		fmt.Fprintf(&b, " (%s is a symbolic link that leads nowhere)", e.Link)
	case e.There != "" && e.Op == LinkPathspec:
		fmt.Fprintf(&b, " (%s is a symbolic link to %s; use %s)", e.Link, e.Target, e.There)
	case e.There != "":
		fmt.Fprintf(&b, " (%s is a symbolic link to %s; the file there is %s)", e.Link, e.Target, e.There)
	default:
		fmt.Fprintf(&b, " (%s is a symbolic link)", e.Link)
	}
	return b.String()
}

// Unwrap returns ErrBeyondLink and, for a link that leads out of the tree
// or into .git, ErrOutsideRepo or ErrGitInternal.
func (e *LinkError) Unwrap() []error {
	errs := []error{ErrBeyondLink}
	if e.out {
		errs = append(errs, ErrOutsideRepo)
	}
	if e.git {
		errs = append(errs, ErrGitInternal)
	}
	return errs
}

// linkCheck finds the symbolic links among a path's leading folders, which
// git never reads, writes or deletes through, and says where they lead.
type linkCheck struct {
	root *os.Root
	top  string // the tree's root directory
}

// checkLinks refuses the clean path p when one of its leading folders is
// a symbolic link in the tree, with a *LinkError worded for op.
func (lk *linkCheck) checkLinks(p string, op LinkOp) error {
	return lk.checkPatchLinks(p, op, patchLinks{}, lk.root.Lstat)
}

// cachedLstat is lstat remembering what it found, for a look at many paths
// in few folders.
func cachedLstat(lstat func(string) (fs.FileInfo, error)) func(string) (fs.FileInfo, error) {
	seen := map[string]lstatResult{}
	return func(p string) (fs.FileInfo, error) {
		if s, ok := seen[p]; ok {
			return s.fi, s.err
		}
		fi, err := lstat(p)
		seen[p] = lstatResult{fi, err}
		return fi, err
	}
}

// linkError describes the link at the leading folder link of p: where
// it leads, followed to its end, and p there when that is in the tree.
func (lk *linkCheck) linkError(p, link string, op LinkOp) *LinkError {
	e := &LinkError{Path: p, Link: link, Op: op}
	full := filepath.Join(lk.top, filepath.FromSlash(link))
	target, err := os.Readlink(full)
	if err != nil {
		return e
	}
	e.Target = target
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		e.nowhere = true
		return e
	}
	top, err := filepath.EvalSymlinks(lk.top)
	if err != nil {
		return e
	}
	rel, err := filepath.Rel(top, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		e.out = true
		return e
	}
	to := filepath.ToSlash(rel)
	for _, part := range strings.Split(to, "/") {
		if isDotGit(part) {
			e.git = true
			return e
		}
	}
	e.There = path.Join(to, strings.TrimPrefix(p, link+"/"))
	return e
}

// beyondLink reports whether a leading folder of the clean path p is a
// symbolic link on disk: git never reads a file there, so for git the
// path is not in the tree (a link the patch takes away leaves room for a
// folder of that name).
func beyondLink(root *os.Root, p string) bool {
	for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
		if fi, err := root.Lstat(d); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return true
		}
	}
	return false
}

// patchLinks holds the symbolic links that a patch makes and those it
// takes away (deletes, renames or turns into a file), by clean path.
type patchLinks struct {
	made, gone map[string]bool
}

// linksOf finds the symbolic links a patch makes or takes away. Paths that
// do not clean are left to the placement, which refuses them.
func (t *Tree) linksOf(p *edit.Patch) patchLinks {
	pl := patchLinks{}
	add := func(m *map[string]bool, name string) {
		c, err := t.Clean(name)
		if err != nil {
			return
		}
		if *m == nil {
			*m = map[string]bool{}
		}
		(*m)[c] = true
	}
	for _, fd := range p.Files {
		if fd.NewMode == linkMode && fd.NewPath != "" {
			add(&pl.made, fd.NewPath)
		}
		if fd.OldMode == linkMode && fd.OldPath != "" && (fd.Deleted || fd.NewMode != linkMode || fd.Renamed) {
			add(&pl.gone, fd.OldPath)
		}
	}
	return pl
}

// checkPatchLinks refuses the clean path p of a patch when one of its
// leading folders is a symbolic link: one the patch makes, or one on disk
// that the patch does not take away. The folders are looked at from the
// top, each once those above it are known to be real folders, so lstat
// never follows a link. Below a missing folder, or a link the patch takes
// away, only the links the patch makes count: nothing below them exists
// on disk.
func (lk *linkCheck) checkPatchLinks(p string, op LinkOp, pl patchLinks, lstat func(string) (fs.FileInfo, error)) error {
	onDisk := true
	for i := 0; ; {
		j := strings.IndexByte(p[i:], '/')
		if j < 0 {
			return nil
		}
		d := p[:i+j]
		i += j + 1
		if pl.made[d] {
			return &LinkError{Path: p, Link: d, Op: op, made: true}
		}
		if pl.gone[d] {
			onDisk = false
		}
		if !onDisk {
			continue
		}
		fi, err := lstat(d)
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, errNotDir):
			onDisk = false
		case err != nil:
			return pathErr("read", d, err)
		case fi.Mode()&fs.ModeSymlink != 0:
			return lk.linkError(p, d, op)
		case !fi.IsDir():
			onDisk = false
		}
	}
}

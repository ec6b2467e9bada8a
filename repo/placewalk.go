// placewalk.go: one placement's walk of the tree: each directory checked and opened once, through the tree's root.

package repo

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// dirWalk looks at the paths of one placement (see PlaceWith) through
// handles on their directories, so that a patch of many files in few
// directories walks each directory once, not once per file and per look
// (a Stat, a read, the .gitignore, the .git of a nested repository).
//
// A directory gets a handle only when lstat, through its parent's handle,
// finds it a real directory: never through a symbolic link, which the
// callers judge on the tree's root as before. Every handle is an os.Root,
// so a directory swapped for a link meanwhile is followed only inside the
// directory above it, inside the tree; the write checks every path again
// under the writer lock (see checkWritePath). What the walk finds is kept
// for the placement only: it is a snapshot of one moment, like a check.
type dirWalk struct {
	t *Tree
	// dirs holds each directory looked at: its handle, or nil if it is no
	// real directory (missing, a link, a file) or its parent has none.
	dirs map[string]*os.Root
	// stats holds what lstat found for each path looked at.
	stats map[string]lstatResult
	// opened and lstats count the directories opened and the lstat calls
	// made, for the tests.
	opened, lstats int
	// buf is readString's buffer, reused from file to file.
	buf []byte
	// cached says the placement is read again from the index (see
	// PlaceCached): the working files' binary content is not checked,
	// and the patch's paths are looked for in the index only (entries
	// at stage 0, and the unmerged paths), as git apply --cached looks.
	cached   bool
	entries  map[string]*index.Entry
	unmerged map[string]bool
}

// inIndex reports whether the index of a --cached placement has p: an
// entry at stage 0, or unmerged ones.
func (w *dirWalk) inIndex(p string) bool {
	return w.entries[p] != nil || w.unmerged[p]
}

type lstatResult struct {
	fi  fs.FileInfo
	err error
}

func newDirWalk(t *Tree) *dirWalk {
	return &dirWalk{t: t, dirs: map[string]*os.Root{".": t.root}, stats: map[string]lstatResult{}}
}

// close releases the handles of the walk (not the tree's root).
func (w *dirWalk) close() {
	for d, r := range w.dirs {
		if r != nil && d != "." {
			r.Close()
		}
	}
}

// dir returns the handle of directory d of the tree (clean, "." for the
// root), or nil if d or a directory above it is not a real directory.
func (w *dirWalk) dir(d string) *os.Root {
	if r, ok := w.dirs[d]; ok {
		return r
	}
	var r *os.Root
	if parent := w.dir(path.Dir(d)); parent != nil {
		if fi, err := w.lstat(d); err == nil && fi.IsDir() {
			if sub, err := parent.OpenRoot(path.Base(d)); err == nil {
				r = sub
				w.opened++
			}
		}
	}
	w.dirs[d] = r
	return r
}

// lstat is os.Lstat of a clean path of the tree, once per path: through
// the handle of its directory when it has one, else by its full name.
func (w *dirWalk) lstat(p string) (fs.FileInfo, error) {
	if s, ok := w.stats[p]; ok {
		return s.fi, s.err
	}
	var s lstatResult
	if parent := w.dir(path.Dir(p)); parent != nil {
		w.lstats++
		s.fi, s.err = parent.Lstat(path.Base(p))
	} else if w.missing(path.Dir(p)) {
		s.err = &fs.PathError{Op: "lstat", Path: p, Err: fs.ErrNotExist}
	} else {
		w.lstats++
		s.fi, s.err = os.Lstat(filepath.Join(w.t.Dir, filepath.FromSlash(p)))
	}
	w.stats[p] = s
	return s.fi, s.err
}

// missing reports whether lstat found d or a directory above it missing:
// then nothing below it exists either.
func (w *dirWalk) missing(d string) bool {
	for ; d != "." && d != "/" && d != ""; d = path.Dir(d) {
		if s, ok := w.stats[d]; ok && errors.Is(s.err, fs.ErrNotExist) {
			return true
		}
	}
	return false
}

// stat is Tree.Stat: a regular file that lstat found through its
// directory's handle is one for Stat too, and a name missing from a real
// directory, or below a missing one, is missing; anything else (a link, a
// directory, a path through a link) is asked of the tree's root, as Stat
// does.
func (w *dirWalk) stat(p string) (fs.FileInfo, error) {
	if w.dir(path.Dir(p)) != nil || w.missing(path.Dir(p)) {
		fi, err := w.lstat(p)
		switch {
		case err == nil && fi.Mode().IsRegular():
			return fi, nil
		case errors.Is(err, fs.ErrNotExist):
			return nil, wrapEscape(p, err)
		}
	}
	return w.t.Stat(p)
}

// readString reads a file of the tree through the handle of its
// directory, as lstat does, for its content as a string. The file is
// read into a buffer that the walk reuses and copied once into the
// string, where reading it into a new slice and converting that would
// copy it twice.
func (w *dirWalk) readString(p string) (string, error) {
	var f *os.File
	var err error
	if d := w.dir(path.Dir(p)); d != nil {
		f, err = d.OpenFile(path.Base(p), readFlags, 0)
	}
	if f == nil && (err == nil || !errors.Is(err, fs.ErrNotExist)) {
		f, err = w.t.root.OpenFile(p, readFlags, 0)
	}
	if err != nil {
		return "", err
	}
	defer f.Close()
	// The size lstat found, or the open file's: only the buffer's size
	// depends on it, as the file is read to its end.
	size := 0
	fi, err := w.lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		fi, err = f.Stat()
	}
	if err == nil && fi.Size() < 1<<30 {
		size = int(fi.Size())
	}
	// One byte more than the size, to see the end at once.
	if cap(w.buf) < size+1 {
		w.buf = make([]byte, 0, max(size+1, 2*cap(w.buf), 512))
	}
	b := w.buf[:0]
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
	}
	w.buf = b[:0]
	return string(b), nil
}

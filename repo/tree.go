package repo

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// ErrOutsideRepo is returned for a path that leaves the repository root:
// an absolute path, a ".." escape, or a symlink pointing outside.
var ErrOutsideRepo = errors.New("path outside repository")

// ErrGitInternal is returned for a path inside the .git directory.
var ErrGitInternal = errors.New("path inside .git")

// Tree is the working tree pair works in: the top of the git repository
// that holds the starting directory, or that directory itself when it is
// not in a repository.
type Tree struct {
	// Dir is the absolute path of the tree's root.
	Dir string
	// Git reports whether Dir is the top of a git working tree.
	Git  bool
	root *os.Root
	// ignores caches the gitignore patterns (see Ignored).
	ignores ignores
}

// Open finds the tree that holds dir and opens it.
func Open(dir string) (*Tree, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	top, git := abs, false
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			top, git = d, true
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	r, err := os.OpenRoot(top)
	if err != nil {
		return nil, err
	}
	return &Tree{Dir: top, Git: git, root: r}, nil
}

// Close releases the tree.
func (t *Tree) Close() error { return t.root.Close() }

// Clean checks a slash-separated path named by a patch, a person or a
// model and returns it cleaned and relative to the root.
func (t *Tree) Clean(p string) (string, error) {
	if p == "" {
		return "", fmt.Errorf("empty path: %w", ErrOutsideRepo)
	}
	if path.IsAbs(p) || filepath.IsAbs(p) {
		rel, err := filepath.Rel(t.Dir, filepath.Clean(p))
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			return "", fmt.Errorf("%s: %w", p, ErrOutsideRepo)
		}
		p = filepath.ToSlash(rel)
	}
	c := path.Clean(p)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("%s: %w", p, ErrOutsideRepo)
	}
	if c == "." {
		return "", fmt.Errorf("%s: not a file: %w", p, ErrOutsideRepo)
	}
	for _, part := range strings.Split(c, "/") {
		// A .git anywhere is a repository's internals (a nested repository
		// or a submodule's), as git apply holds too.
		if strings.EqualFold(part, ".git") {
			return "", fmt.Errorf("%s: %w", p, ErrGitInternal)
		}
	}
	return c, nil
}

// Stat returns information about a file of the tree; the path must be
// clean (see Clean).
func (t *Tree) Stat(p string) (fs.FileInfo, error) {
	fi, err := t.root.Stat(p)
	return fi, wrapEscape(p, err)
}

// ReadFile reads a file of the tree.
func (t *Tree) ReadFile(p string) ([]byte, error) {
	b, err := t.root.ReadFile(p)
	return b, wrapEscape(p, err)
}

// wrapEscape turns os.Root's escape error into ErrOutsideRepo.
func wrapEscape(p string, err error) error {
	if err != nil && strings.Contains(err.Error(), "path escapes from parent") {
		return fmt.Errorf("%s: %w", p, ErrOutsideRepo)
	}
	return err
}

// Change is one file of a write set.
type Change struct {
	Path    string // clean, slash-separated, relative to the root
	Content []byte
	// Mode is the permission bits to give the file; 0 keeps the current
	// mode, or 0644 for a new file.
	Mode fs.FileMode
	// Delete removes the file instead of writing it.
	Delete bool
}

// Write applies a set of changes all together or not at all: every new
// content goes to a temporary file next to its target first, then each is
// renamed into place; if anything fails, the files already replaced get
// their old content back and the temporary files are removed.
func (t *Tree) Write(changes []Change) (err error) {
	type undo struct {
		path    string
		existed bool
		content []byte
		mode    fs.FileMode
		done    bool
	}
	undos := make([]undo, len(changes))
	temps := make([]string, len(changes))
	var madeDirs []string
	defer func() {
		if err == nil {
			return
		}
		for _, tmp := range temps {
			if tmp != "" {
				_ = t.root.Remove(tmp)
			}
		}
		for i := len(undos) - 1; i >= 0; i-- {
			u := undos[i]
			if !u.done {
				continue
			}
			if u.existed {
				if tmp, err := t.tempFile(u.path, u.content, u.mode); err == nil {
					if t.root.Rename(tmp, u.path) != nil {
						_ = t.root.Remove(tmp)
					}
				}
			} else {
				_ = t.root.Remove(u.path)
			}
		}
		for i := len(madeDirs) - 1; i >= 0; i-- {
			_ = t.root.Remove(madeDirs[i])
		}
	}()

	for i := range changes {
		cp, cerr := t.Clean(changes[i].Path)
		if cerr != nil {
			return cerr
		}
		changes[i].Path = cp
	}
	for i, c := range changes {
		u := undo{path: c.Path}
		if fi, serr := t.root.Lstat(c.Path); serr == nil {
			if fi.Mode()&fs.ModeSymlink != 0 {
				if _, err := t.root.Stat(c.Path); err != nil {
					if werr := wrapEscape(c.Path, err); errors.Is(werr, ErrOutsideRepo) {
						return werr
					}
				}
				return fmt.Errorf("%s: is a symbolic link; pair does not write through links", c.Path)
			}
			if !fi.Mode().IsRegular() {
				return fmt.Errorf("%s: not a regular file", c.Path)
			}
			if u.content, err = t.root.ReadFile(c.Path); err != nil {
				return wrapEscape(c.Path, err)
			}
			u.existed, u.mode = true, fi.Mode().Perm()
		} else if !errors.Is(serr, fs.ErrNotExist) {
			return wrapEscape(c.Path, serr)
		} else if c.Delete {
			return fmt.Errorf("%s: cannot delete: %w", c.Path, fs.ErrNotExist)
		}
		undos[i] = u
		if c.Delete {
			continue
		}
		mode := c.Mode
		if mode == 0 {
			mode = 0o644
			if u.existed {
				mode = u.mode
			}
		}
		dirs, derr := t.mkdirs(path.Dir(c.Path))
		madeDirs = append(madeDirs, dirs...)
		if derr != nil {
			return derr
		}
		tmp, terr := t.tempFile(c.Path, c.Content, mode)
		if terr != nil {
			return terr
		}
		temps[i] = tmp
	}
	for i, c := range changes {
		if c.Delete {
			err = t.root.Remove(c.Path)
		} else {
			err = t.root.Rename(temps[i], c.Path)
		}
		if err != nil {
			return wrapEscape(c.Path, err)
		}
		temps[i] = ""
		undos[i].done = true
	}
	for _, c := range changes {
		if c.Delete {
			t.removeEmptyDirs(path.Dir(c.Path))
		}
	}
	return nil
}

// removeEmptyDirs removes dir and its parents while they are empty, as
// git does when a file's deletion leaves its directory empty.
func (t *Tree) removeEmptyDirs(dir string) {
	for dir != "." && dir != "" && dir != "/" {
		if t.root.Remove(dir) != nil { // fails unless empty
			return
		}
		dir = path.Dir(dir)
	}
}

// mkdirs creates dir and its missing parents, returning those it created.
func (t *Tree) mkdirs(dir string) ([]string, error) {
	if dir == "." || dir == "" {
		return nil, nil
	}
	if fi, err := t.root.Stat(dir); err == nil {
		if !fi.IsDir() {
			return nil, fmt.Errorf("%s: not a directory", dir)
		}
		return nil, nil
	}
	made, err := t.mkdirs(path.Dir(dir))
	if err != nil {
		return made, err
	}
	if err := t.root.Mkdir(dir, 0o755); err != nil {
		return made, wrapEscape(dir, err)
	}
	return append(made, dir), nil
}

// tempFile writes content to a new temporary file beside target.
func (t *Tree) tempFile(target string, content []byte, mode fs.FileMode) (string, error) {
	var rnd [6]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return "", err
	}
	tmp := path.Join(path.Dir(target), ".pair-"+hex.EncodeToString(rnd[:])+".tmp")
	if err := t.writeFile(tmp, content, mode); err != nil {
		_ = t.root.Remove(tmp)
		return "", err
	}
	return tmp, nil
}

func (t *Tree) writeFile(p string, content []byte, mode fs.FileMode) error {
	f, err := t.root.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return wrapEscape(p, err)
	}
	if _, err := f.Write(content); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	// OpenFile's mode is filtered by the umask and ignored for an existing
	// file: set it exactly.
	return t.root.Chmod(p, mode)
}

// tree.go: Tree, Open, Clean and Write: the working tree, its paths kept inside it, and all-or-nothing writes.

package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ErrOutsideRepo is returned for a path that leaves the repository root:
// an absolute path, a ".." escape, or a symlink pointing outside.
var ErrOutsideRepo = errors.New("path outside repository")

// ErrGitInternal is returned for a path inside the .git directory.
var ErrGitInternal = errors.New("path inside .git")

// ErrPairInternal is returned for a path inside pair's own state
// directory (.pair at the root of a tree that is not a git repository).
var ErrPairInternal = errors.New("path inside pair's own .pair directory")

// ErrBare is returned by Open in a bare repository or inside a git
// directory: there is no working tree there to write, and its files are
// git's own.
var ErrBare = errors.New("pair works in a repository's working tree, and there is none here")

// GitDirError is returned by Open for a directory inside the git
// directory of a working tree; it is an ErrBare.
type GitDirError struct {
	Dir    string // the directory given, absolute
	GitDir string // the git directory that holds it
}

func (e *GitDirError) Error() string {
	return fmt.Sprintf("%s is inside the git directory %s: %v; run pair in the working tree, %s", e.Dir, e.GitDir, ErrBare, e.Top())
}

func (e *GitDirError) Unwrap() error { return ErrBare }

// Top is the working tree whose git directory it is.
func (e *GitDirError) Top() string { return filepath.Dir(e.GitDir) }

// isGitDir reports whether dir is a git directory, as git judges one: a
// HEAD file, and objects and refs directories.
func isGitDir(dir string) bool {
	if fi, err := os.Stat(filepath.Join(dir, "HEAD")); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(dir, sub)); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// Tree is the working tree pair works in: the top of the git repository
// that holds the starting directory, or that directory itself when it is
// not in a repository.
type Tree struct {
	// Dir is the absolute path of the tree's root.
	Dir string
	// Git reports whether Dir is the top of a git working tree.
	Git  bool
	root *os.Root
	// Recovery says what Open did with a write set that a crash had
	// interrupted (see Recover).
	Recovery RecoveryReport
	// gitDir is the git directory (HEAD, the index), commonDir the
	// directory of the objects, refs, config and hooks; they differ in a
	// linked worktree. Both are "" outside a repository (see gitDirs).
	gitDir, commonDir string
	// LockWait bounds how long a write waits for another pair process
	// writing the same tree (0: ten seconds); then it fails with a
	// *BusyError.
	LockWait time.Duration
	// mapCache keeps what the repository map read of each file (see
	// Map).
	mapCache sync.Map

	// The concerns of a tree, each a type of its own, made by Open from
	// the fields above:
	repo       gitRepo      // the repository in the git directory (gitdir.go)
	disk       disk         // the files as stored: durable writes (disk.go)
	journal    crashJournal // the write journal and its recovery (journal.go)
	writer     writerLock   // one writer process at a time (writelock.go)
	links      linkCheck    // symbolic links among a path's folders (links.go)
	submodules submodules   // the index's submodules (submodule.go)
	preflight  preflight    // a write set's paths checked first (preflight.go)
	ignores    ignores      // the gitignore rules, loaded when needed (ignore.go)
	undo       undoSteps    // Undo's checks of the files, its index and reflog (undo.go)
}

// Open finds the tree that holds dir and opens it. If a write that pair
// was making there was interrupted, Open finishes it or rolls it back
// first, and says what it did in Tree.Recovery.
func Open(dir string) (*Tree, error) {
	return openTree(dir, nil)
}

// openTree is Open with a hook called at each step of a write or a
// recovery that a crash could interrupt (for the crash tests).
func openTree(dir string, crashPoint func(step string)) (*Tree, error) {
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
		// As git looks: a directory that is a git directory itself is a
		// bare repository, or the .git of a working tree we are inside.
		if isGitDir(d) {
			if isDotGit(filepath.Base(d)) {
				return nil, &GitDirError{Dir: abs, GitDir: d}
			}
			return nil, fmt.Errorf("%s is a bare git repository: %w", d, ErrBare)
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	var gitDir, commonDir string
	var gitErr error
	if git {
		if gitDir, commonDir, gitErr = gitDirs(top); gitErr != nil {
			// A .git that leads to no git directory still marks the top,
			// as for git; every git operation then fails with gitErr, and
			// a write fails to find the git directory.
			gitDir = filepath.Join(top, ".git")
			commonDir = gitDir
		}
	}
	r, err := os.OpenRoot(top)
	if err != nil {
		return nil, err
	}
	t := &Tree{Dir: top, Git: git, root: r, gitDir: gitDir, commonDir: commonDir}
	t.repo = gitRepo{git: git, top: top, gitDir: gitDir, commonDir: commonDir, gitErr: gitErr}
	t.journal = crashJournal{root: r, disk: &t.disk, git: git, top: top, gitDir: gitDir, crashPoint: crashPoint, differ: t.differFromHead}
	home, name := t.journal.journalHome()
	t.disk = disk{root: r, top: top, journal: filepath.Join(home, name)}
	t.writer = writerLock{git: git, top: top, gitDir: gitDir, home: home}
	t.links = linkCheck{root: r, top: top}
	t.submodules = submodules{git: git, gitDir: gitDir, commonDir: commonDir}
	t.preflight = preflight{root: r, git: git, top: top, gitDir: gitDir, links: &t.links, submodules: &t.submodules}
	t.ignores.repo, t.ignores.disk = &t.repo, &t.disk
	t.undo = undoSteps{root: r, repo: &t.repo}
	if t.journal.hasJournal() {
		// A journal that another pair process holds the writer lock over
		// is that process's write, going on: not ours to recover.
		release, err := t.writer.lock(0)
		if errors.Is(err, ErrBusy) {
			return t, nil
		}
		if err != nil {
			r.Close()
			return nil, err
		}
		t.Recovery, err = t.Recover()
		release()
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("recover the write that pair was making in %s: %w", top, err)
		}
	}
	return t, nil
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
	// Outside a repository, pair keeps its state (the write journal) in
	// .pair at the root: that is pair's, not the patch's.
	if first, _, _ := strings.Cut(c, "/"); !t.Git && strings.EqualFold(first, ".pair") {
		return "", fmt.Errorf("%s: %w", p, ErrPairInternal)
	}
	return c, nil
}

// Stat returns information about a file of the tree; the path must be
// clean (see Clean), and none of its folders a symbolic link (see
// LinkError).
func (t *Tree) Stat(p string) (fs.FileInfo, error) {
	if err := t.links.checkLinks(p, LinkRead); err != nil {
		return nil, err
	}
	fi, err := t.root.Stat(p)
	return fi, wrapEscape(p, err)
}

// ReadFile reads a file of the tree, none of whose folders may be a
// symbolic link.
func (t *Tree) ReadFile(p string) ([]byte, error) {
	if err := t.links.checkLinks(p, LinkRead); err != nil {
		return nil, err
	}
	b, err := t.root.ReadFile(p)
	return b, wrapEscape(p, err)
}

// wrapEscape words an error of os.Root for a person, naming the tree's
// path p (see pathErr); its escape error becomes ErrOutsideRepo.
func wrapEscape(p string, err error) error {
	if err == nil {
		return nil
	}
	op := ""
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		op = pe.Op
	case errors.As(err, &le):
		op = le.Op
	}
	return pathErr(verbOf(op), p, err)
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
	// Link writes a symbolic link whose target is Content; WasLink says
	// that the path is a symbolic link now, which the change replaces or
	// deletes (any other link at the path is refused).
	Link, WasLink bool
}

// Write applies a set of changes all together or not at all: every new
// content goes to a file of the journal directory first (in the git
// directory, never in the working tree), then each is renamed into place;
// if anything fails (a full disk, say), the files already replaced get
// their old content back and the new copies are removed, and the error
// says so, or names what is left. A journal (see journal.go) records the
// set before any file is touched, so that the next Open rolls back or
// finishes a set that a crash interrupted.
func (t *Tree) Write(changes []Change) (err error) {
	return t.write(changes, false)
}

// write is Write. With keep, the journal stays once the set is written,
// in the state "written", until forgetWritten: a crash before then (in
// the commit that follows) is reported by the next Open.
func (t *Tree) write(changes []Change, keep bool) (err error) {
	if len(changes) == 0 {
		return nil
	}
	release, err := t.lockWrites()
	if err != nil {
		return err
	}
	defer release()
	j, olds, news, err := t.planWrite(changes)
	if err != nil {
		return err
	}
	l, err := t.journal.lock()
	if err != nil {
		return err
	}
	defer l.unlock()
	// A set interrupted since this tree was opened (or whose recovery
	// failed then) comes first.
	if rep, err := t.journal.recoverLocked(l.dir); err != nil {
		return err
	} else if rep.Action != "" {
		t.Recovery = rep
	}
	if err := clearJournal(l.dir); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	defer func() {
		if err != nil {
			err = t.journal.abandon(l.dir, j, err)
		}
	}()
	for i, e := range j.Changes {
		if e.Existed {
			if err := t.disk.writeCopy(l.dir, e.OldCopy, olds[i], 0o600, e.OldLink); err != nil {
				return fmt.Errorf("journal: copy of %s: %w", e.Path, err)
			}
		}
	}
	j.State = statePrepared
	if err := t.journal.saveJournal(l.dir, j); err != nil {
		return err
	}
	t.journal.crash("write: prepared")

	for i, e := range j.Changes {
		if e.Delete {
			continue
		}
		if err := t.disk.writeCopy(l.dir, e.NewCopy, news[i], e.NewMode, e.NewLink); err != nil {
			// Named by the user's file, not the journal's copy.
			return pathErr("write", e.Path, err)
		}
		t.journal.crash("write: temp " + strconv.Itoa(i))
	}
	j.State = stateCommitting
	if err := t.journal.saveJournal(l.dir, j); err != nil {
		return err
	}
	t.journal.crash("write: committing")
	// Deletions first, then the directories, then the new files, as git
	// writes a patch's result: a file may become a directory, and the
	// reverse.
	for i, e := range j.Changes {
		if e.Delete {
			if err := wrapEscape(e.Path, t.root.Remove(e.Path)); err != nil {
				return err
			}
			t.journal.crash("write: rename " + strconv.Itoa(i))
		}
	}
	if err := t.disk.makeRoom(j); err != nil {
		return err
	}
	for i, e := range j.Changes {
		if !e.Delete {
			if err := t.journal.placeNew(l.dir, e); err != nil {
				return err
			}
			t.journal.crash("write: rename " + strconv.Itoa(i))
		}
	}
	for _, e := range j.Changes {
		if e.Delete {
			t.disk.removeEmptyDirs(path.Dir(e.Path))
		}
	}
	t.disk.syncDirs(j)
	t.journal.crash("write: done")
	if keep {
		j.State = stateWritten
		if t.journal.saveJournal(l.dir, j) == nil {
			for _, e := range j.Changes {
				if e.OldCopy != "" {
					_ = l.dir.Remove(e.OldCopy)
				}
			}
			return nil
		}
	}
	// The set is written. Should the journal stay, the next Open finds
	// every file new and rolls forward, changing nothing.
	_ = clearJournal(l.dir)
	return nil
}

// deletedLinks are the symbolic links that a write set deletes, by clean
// path, each in real folders of the tree: what the set writes below one
// goes into a folder made after the deletion, not through the link.
func (t *Tree) deletedLinks(changes []Change) map[string]bool {
	var gone map[string]bool
	for _, c := range changes {
		if !c.Delete {
			continue
		}
		cp, err := t.Clean(c.Path)
		if err != nil || t.links.checkLinks(cp, LinkWrite) != nil {
			continue
		}
		if fi, err := t.root.Lstat(cp); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			if gone == nil {
				gone = map[string]bool{}
			}
			gone[cp] = true
		}
	}
	return gone
}

// planWrite checks a write set and makes its journal, with the old and
// new content of each change. It touches nothing.
func (t *Tree) planWrite(changes []Change) (j *journal, olds, news [][]byte, err error) {
	j = &journal{}
	olds = make([][]byte, len(changes))
	news = make([][]byte, len(changes))
	planned := map[string]bool{}
	seen := map[string]bool{}
	t.submodules.gitlinks = nil // read the index afresh
	gone := t.deletedLinks(changes)
	for i := range changes {
		cp, cerr := t.Clean(changes[i].Path)
		if cerr != nil {
			return nil, nil, nil, cerr
		}
		if !t.Git && (cp == ".pair" || strings.HasPrefix(cp, ".pair/")) {
			return nil, nil, nil, fmt.Errorf("%s: pair keeps its journal there outside a repository", cp)
		}
		// Every check before anything is written: all or nothing.
		if err := t.preflight.checkSetPath(cp, gone); err != nil {
			return nil, nil, nil, err
		}
		if seen[cp] {
			return nil, nil, nil, fmt.Errorf("%s: %w: the write set changes it twice", cp, ErrConflict)
		}
		seen[cp] = true
		changes[i].Path = cp
	}
	deleted := map[string]bool{}
	for _, c := range changes {
		if c.Delete {
			deleted[c.Path] = true
		}
	}
	for cp := range seen {
		for d := path.Dir(cp); d != "."; d = path.Dir(d) {
			// A file deleted where a directory's files go, or the files of
			// a directory deleted where a file goes, is no conflict.
			if seen[d] && !deleted[d] && !deleted[cp] {
				return nil, nil, nil, fmt.Errorf("%s: %w: the write set makes it a file and a directory (of %s)", d, ErrConflict, cp)
			}
		}
	}
	for i, c := range changes {
		e := journalEntry{Path: c.Path, Delete: c.Delete, Restore: tempName(c.Path)}
		fi, serr := t.root.Lstat(c.Path)
		if belowAny(c.Path, gone) {
			serr = fs.ErrNotExist // in a folder made where a link was
		}
		if serr == nil && fi.IsDir() && !c.Delete && deletesUnder(deleted, c.Path) {
			// A directory whose files the set deletes becomes the file:
			// nothing of it to keep.
			serr = fs.ErrNotExist
		}
		if serr == nil {
			if c.WasLink {
				if err := checkLinkSource(c.Path, fi); err != nil {
					return nil, nil, nil, err
				}
			} else if fi.Mode()&fs.ModeSymlink != 0 {
				if _, err := t.root.Stat(c.Path); err != nil {
					if werr := wrapEscape(c.Path, err); errors.Is(werr, ErrOutsideRepo) {
						return nil, nil, nil, werr
					}
				}
				return nil, nil, nil, fmt.Errorf("%s: is a symbolic link; pair does not write through links", c.Path)
			}
			if !fi.Mode().IsRegular() && !c.WasLink {
				return nil, nil, nil, fmt.Errorf("%s: not a regular file", c.Path)
			}
			if olds[i], e.OldLink, err = t.disk.readOld(c.Path, fi); err != nil {
				return nil, nil, nil, err
			}
			e.Existed, e.OldMode, e.OldHash = true, fi.Mode().Perm(), hashOf(olds[i])
			e.OldCopy = "old-" + strconv.Itoa(i)
		} else if !notExist(serr) {
			return nil, nil, nil, wrapEscape(c.Path, serr)
		} else if c.Delete {
			return nil, nil, nil, fmt.Errorf("%s: cannot delete: %w", c.Path, fs.ErrNotExist)
		}
		if !c.Delete {
			e.NewMode = c.Mode.Perm()
			if e.NewMode == 0 {
				e.NewMode = 0o644
				if e.Existed && !e.OldLink { // a link's mode is no file's
					e.NewMode = e.OldMode
				}
			}
			news[i] = c.Content
			e.NewLink = c.Link
			e.NewHash = hashOf(c.Content)
			e.NewCopy = "new-" + strconv.Itoa(i)
			e.Temp = tempName(c.Path)
			dirs, err := t.disk.missingDirs(path.Dir(c.Path), planned, deleted)
			if err != nil {
				return nil, nil, nil, err
			}
			j.Dirs = append(j.Dirs, dirs...)
		}
		j.Changes = append(j.Changes, e)
	}
	return j, olds, news, nil
}

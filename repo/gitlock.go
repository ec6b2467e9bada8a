// gitlock.go: git's <file>.lock, and the index read and written under it.

package repo

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// gitLock is git's lock on one of its files (the index, a ref): the file
// "<path>.lock", created exclusively. commit replaces the file with new
// content through the lock; release removes the lock unless commit did.
// Until commit, the lock holds pair's process id (lockOwnerPrefix), so
// that a lock left by a pair that was killed is known as one (see
// indexLockError).
type gitLock struct {
	path string
	f    *os.File
	done bool
}

// lockGitFile takes git's lock on the file at path. When the lock exists
// already, the error wraps fs.ErrExist.
func lockGitFile(path string) (*gitLock, error) {
	f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("%s.lock exists: another git process seems to be running; if not, remove the file: %w", path, fs.ErrExist)
	}
	if err != nil {
		return nil, err
	}
	l := &gitLock{path: path, f: f}
	if _, err := fmt.Fprintf(f, "%s%d\n", lockOwnerPrefix, os.Getpid()); err != nil {
		l.release()
		return nil, fmt.Errorf("write %s.lock: %w", path, err)
	}
	return l, nil
}

// lockIndex takes git's lock on the index file at path; when the lock
// exists already, the error is indexLockError's.
func lockIndex(path string) (*gitLock, error) {
	l, err := lockGitFile(path)
	if errors.Is(err, fs.ErrExist) {
		b, _ := os.ReadFile(path + ".lock")
		return nil, indexLockError(path+".lock", b)
	}
	return l, err
}

// lockedIndex takes git's lock on the tree's index and reads it, with
// its modification time: what a change of the index starts with. The
// caller releases the lock (or commits through it); on an error it is
// released here.
func (t *Tree) lockedIndex() (*gitLock, *index.Index, time.Time, error) {
	path := filepath.Join(t.gitDir, "index")
	lock, err := lockIndex(path)
	if err != nil {
		return nil, nil, time.Time{}, err
	}
	idx, mtime, err := readIndex(path)
	if err != nil {
		lock.release()
		return nil, nil, time.Time{}, err
	}
	return lock, idx, mtime, nil
}

// commit writes b to the lock file, in place of what it held, syncs it
// and renames it over the file. On an error the lock is released.
func (l *gitLock) commit(b []byte) error {
	if l.done {
		return errors.New("lock already released")
	}
	_, err := l.f.Seek(0, io.SeekStart)
	if err == nil {
		err = l.f.Truncate(0)
	}
	if err == nil {
		err = writeDurably(l.f, b, nil)
	}
	if err == nil {
		err = os.Rename(l.path+".lock", l.path)
	}
	if err != nil {
		l.release()
		return err
	}
	l.done = true
	return nil
}

// release removes the lock file unless commit renamed it.
func (l *gitLock) release() {
	if l.done {
		return
	}
	l.done = true
	l.f.Close()
	os.Remove(l.path + ".lock")
}

// writeIndex replaces the index with idx through its lock l.
func writeIndex(l *gitLock, idx *index.Index) error {
	b, err := encodeIndex(idx)
	if err != nil {
		l.release()
		return err
	}
	return l.commit(b)
}

// encodeIndex returns idx in git's index format.
func encodeIndex(idx *index.Index) ([]byte, error) {
	var b bytes.Buffer
	err := index.NewEncoder(&b).Encode(idx)
	return b.Bytes(), err
}

// readIndex reads the index and its modification time (zero when there
// is no index yet).
func readIndex(p string) (*index.Index, time.Time, error) {
	idx := &index.Index{Version: 2}
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return idx, time.Time{}, nil
	}
	if err != nil {
		return nil, time.Time{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, time.Time{}, err
	}
	if err := index.NewDecoder(f).Decode(idx); err != nil {
		return nil, time.Time{}, fmt.Errorf("read the git index: %w", err)
	}
	return idx, fi.ModTime(), nil
}

// writelock.go: the writer lock: one pair process writes a tree at a time, BusyError for the others.

package repo

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// applyLockFile is the lock file in pair's state directory of a
// repository (see StateDir) that one writer at a time holds. It is never
// removed: a lock on a file that can be removed and created again does
// not exclude anyone.
const applyLockFile = "apply.lock"

// BusyError is returned when another pair process keeps writing the
// tree (placing again, writing, committing) for longer than pair waits.
// It is ErrBusy.
type BusyError struct {
	PID int // the other process, 0 when unknown
}

func (e *BusyError) Error() string {
	if e.PID > 0 {
		return fmt.Sprintf("another pair is applying in this repository (pid %d); try again when it is done", e.PID)
	}
	return "another pair is applying in this repository; try again when it is done"
}

func (e *BusyError) Is(target error) bool { return target == ErrBusy }

// writerLock is the tree's writer lock as this Tree holds it: one pair
// process writes a tree at a time. In a repository the lock is an
// exclusive lock (flock on Unix) on a file of pair's state directory,
// which names the pid of the holder; outside one, it is a lock on the
// tree's root directory, which nothing else of pair's is needed for.
type writerLock struct {
	// git says whether the tree is a repository's; top is its root,
	// gitDir its git directory and home pair's state directory in it.
	git               bool
	top, gitDir, home string
	f                 *os.File
	depth             int
}

// lockWrites makes this Tree the one writer of its working tree until the
// returned release is called, waiting up to LockWait (default lockWait)
// for another pair process to finish. It is reentrant: ApplyPlans holds
// it from the re-check of the files to the commit, and Write, which it
// calls, takes it again.
func (t *Tree) lockWrites() (release func(), err error) {
	wait := lockWait
	if t.LockWait > 0 {
		wait = t.LockWait
	}
	return t.writer.lock(wait)
}

// lock is lockWrites with a bound on the wait: 0 tries once.
func (w *writerLock) lock(wait time.Duration) (release func(), err error) {
	if w.depth > 0 {
		w.depth++
		return w.release, nil
	}
	name, err := w.path()
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(wait)
	for {
		f, err := openLockFile(name, w.git)
		if err != nil {
			return nil, fmt.Errorf("lock the tree for writing: %w", err)
		}
		ok, err := tryFlock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock the tree for writing: %w", err)
		}
		if ok {
			if w.git {
				// Who holds it, for the message of those who wait.
				_ = f.Truncate(0)
				_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
			}
			w.f, w.depth = f, 1
			return w.release, nil
		}
		f.Close()
		if !time.Now().Before(deadline) {
			return nil, &BusyError{PID: w.holder(name)}
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// release undoes one lock.
func (w *writerLock) release() {
	if w.depth == 0 {
		return
	}
	w.depth--
	if w.depth == 0 {
		if w.git {
			_ = w.f.Truncate(0)
		}
		_ = funlock(w.f)
		w.f.Close()
		w.f = nil
	}
}

// path returns the file (or, outside a repository, the directory)
// that the writer lock is taken on, creating its directory if needed.
func (w *writerLock) path() (string, error) {
	if !w.git {
		return w.top, nil
	}
	if fi, err := os.Stat(w.gitDir); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("git directory %s: not found", w.gitDir)
	}
	if err := os.MkdirAll(w.home, 0o755); err != nil {
		return "", fmt.Errorf("pair's directory: %w", err)
	}
	return filepath.Join(w.home, applyLockFile), nil
}

func openLockFile(name string, file bool) (*os.File, error) {
	if !file {
		return os.Open(name) // a directory
	}
	return os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
}

// holder reads the pid of the writer lock's holder, or 0.
func (w *writerLock) holder(name string) int {
	if !w.git {
		return 0
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return 0
	}
	return pid
}

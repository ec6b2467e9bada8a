// precommit.go: CheckCommit, what would stop a commit, checked before any file is written.

package repo

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/pair-cli/pair/internal/proc"
)

// ErrIndexLocked is returned when the git index is locked by another
// process (its .git/index.lock exists).
var ErrIndexLocked = errors.New("the git index is locked")

// ErrOperationInProgress is returned when a merge, cherry-pick or revert
// is in progress: git commit would conclude it, and a pair commit would
// not.
var ErrOperationInProgress = errors.New("a git operation is in progress")

// CheckCommit checks everything that would stop Commit, so that a caller
// can refuse before it writes any file: the git identity, a locked index,
// a merge (cherry-pick, revert) in progress, unresolved conflicts in the
// index, and the signing configuration when commit.gpgsign is set. Hooks
// may still refuse the commit; they run only at commit time.
func (t *Tree) CheckCommit() error { return t.checkCommit(true) }

// CheckCommitSettings is CheckCommit without the index lock, which may be
// held for a moment by another pair or git that is committing: for a check
// before a review, when the writer lock is not taken yet. ApplyPlans checks
// everything again under that lock.
func (t *Tree) CheckCommitSettings() error { return t.checkCommit(false) }

func (t *Tree) checkCommit(indexLock bool) error {
	if err := t.repo.needGit(); err != nil {
		return err
	}
	gitDir := t.gitDir
	cfg, err := t.repo.loadConfig()
	if err != nil {
		return err
	}
	if _, _, err := cfg.ident("AUTHOR", "author"); err != nil {
		return err
	}
	cName, cEmail, err := cfg.ident("COMMITTER", "committer")
	if err != nil {
		return err
	}
	if err := checkInProgress(gitDir); err != nil {
		return err
	}
	indexPath := filepath.Join(gitDir, "index")
	if indexLock {
		if err := checkIndexLock(indexPath + ".lock"); err != nil {
			return err
		}
	}
	idx, _, err := readIndex(indexPath)
	if err != nil {
		return err
	}
	if err := checkConflicts(idx.Entries); err != nil {
		return err
	}
	s, err := cfg.signer(cName, cEmail)
	if err != nil {
		return err
	}
	if s != nil {
		return s.check()
	}
	return nil
}

// checkInProgress refuses a merge, cherry-pick or revert in progress.
func checkInProgress(gitDir string) error {
	for _, op := range []struct{ file, what, finish string }{
		{"MERGE_HEAD", "a merge", "git commit (or git merge --abort)"},
		{"CHERRY_PICK_HEAD", "a cherry-pick", "git cherry-pick --continue (or --abort)"},
		{"REVERT_HEAD", "a revert", "git revert --continue (or --abort)"},
	} {
		if _, err := os.Lstat(filepath.Join(gitDir, op.file)); err == nil {
			return fmt.Errorf("%w: %s is in progress (%s exists): a pair commit would not conclude it; finish it with %s first; nothing was written",
				ErrOperationInProgress, op.what, op.file, op.finish)
		}
	}
	return nil
}

// lockOwnerPrefix starts the content pair writes into its index lock
// until it writes the new index there, so that a lock left by a pair
// process that was killed can be recognised.
const lockOwnerPrefix = "pair pid "

// checkIndexLock refuses an existing index lock, naming the pair process
// that left it when it was one.
func checkIndexLock(lockPath string) error {
	b, err := os.ReadFile(lockPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil && !errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("check %s: %w", lockPath, err)
	}
	return indexLockError(lockPath, b)
}

func indexLockError(lockPath string, content []byte) error {
	if rest, ok := bytes.CutPrefix(content, []byte(lockOwnerPrefix)); ok {
		line, _, _ := bytes.Cut(rest, []byte("\n"))
		if pid, err := strconv.Atoi(strings.TrimSpace(string(line))); err == nil {
			if !proc.Alive(pid) {
				return fmt.Errorf("%w: %s was left by a pair process (pid %d) that is no longer running; remove it (rm %s) and run again; nothing was written",
					ErrIndexLocked, lockPath, pid, lockPath)
			}
			return fmt.Errorf("%w: another pair (pid %d) is committing in this repository (%s exists); nothing was written", ErrIndexLocked, pid, lockPath)
		}
	}
	return fmt.Errorf("%w (%s exists): another git process may be running; if none is, remove the file; nothing was written", ErrIndexLocked, lockPath)
}

// checkConflicts refuses an index with unresolved conflicts.
func checkConflicts(entries []*index.Entry) error {
	var paths []string
	for _, e := range entries {
		if e.Stage != 0 && (len(paths) == 0 || paths[len(paths)-1] != e.Name) { // go-git's index.Merged is 1, but git writes 0
			paths = append(paths, e.Name)
		}
	}
	if len(paths) > 0 {
		return fmt.Errorf("the index has unresolved conflicts (%s): resolve them before pair commits; nothing was written", strings.Join(paths, ", "))
	}
	return nil
}

//go:build unix

package repo

import (
	"errors"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pair-cli/pair/repo/repotest"
)

func TestGitDir(t *testing.T) {
	t.Parallel()
	plain := t.TempDir()
	main := crashTree(t, true)
	repotest.Git(t, main, "add", "-A")
	repotest.Git(t, main, "-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-q", "-m", "init")
	wt := filepath.Join(t.TempDir(), "wt")
	repotest.Git(t, main, "worktree", "add", "-q", "-b", "other", wt)
	wtGitDir := strings.TrimSpace(repotest.Git(t, wt, "rev-parse", "--absolute-git-dir"))
	for _, tt := range []struct{ dir, want string }{
		{plain, ""},
		{main, filepath.Join(main, ".git")},
		{wt, wtGitDir},
	} {
		tr, err := Open(tt.dir)
		if err != nil {
			t.Fatal(err)
		}
		if got := tr.GitDir(); got != tt.want {
			t.Errorf("Open(%s).GitDir() = %q, want %q", tt.dir, got, tt.want)
		}
		tr.Close()
	}

	// A write in the worktree keeps its journal in the worktree's git
	// directory, and removes it afterwards.
	tr, err := Open(wt)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if err := tr.Write(changesTo(oldSet(), newSet())); err != nil {
		t.Fatal(err)
	}
	// (Its writer lock stays in the worktree's git directory.)
	for _, p := range []string{filepath.Join(wtGitDir, "pair", "journal"), filepath.Join(main, ".git", "pair"), filepath.Join(wt, ".pair")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s left after Write", p)
		}
	}
}

// writeLock puts a lock file held by pid in the tree's journal directory.
func writeLock(t *testing.T, dir string, pid int) string {
	t.Helper()
	jdir := filepath.Join(dir, ".git", "pair", "journal")
	if err := os.MkdirAll(jdir, 0o755); err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(jdir, lockFile)
	if err := os.WriteFile(lock, []byte(strconv.Itoa(pid)+" 0123456789ab\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return lock
}

// TestWriteStaleLock: a lock left by a process that is gone does not stop
// Write, nor does an empty one left by a process killed as it made it.
func TestWriteStaleLock(t *testing.T) {
	t.Parallel()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range []int{gone.Process.Pid, os.Getpid(), -1} {
		dir := crashTree(t, true)
		lock := writeLock(t, dir, pid)
		if pid == -1 {
			if err := os.WriteFile(lock, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			old := time.Now().Add(-time.Minute)
			if err := os.Chtimes(lock, old, old); err != nil {
				t.Fatal(err)
			}
		}
		tr, err := Open(dir) // a journal directory is there: recovers
		if err != nil {
			t.Fatalf("Open with a stale lock (pid %d): %v", pid, err)
		}
		if err := tr.Write(changesTo(oldSet(), newSet())); err != nil {
			t.Errorf("Write with a stale lock (pid %d): %v", pid, err)
		}
		tr.Close()
		if got := treeState(t, dir); !sameState(got, wantState(newSet())) {
			t.Errorf("after Write with a stale lock (pid %d): the tree is not the new set", pid)
		}
		if _, err := os.Lstat(filepath.Join(dir, ".git", "pair", "journal")); err == nil {
			t.Errorf("stale lock (pid %d): .git/pair/journal left after Write", pid)
		}
	}
}

// TestWriteWaitsForLock: while another live process holds the lock, Write
// writes nothing; once it is released, Write goes on.
func TestWriteWaitsForLock(t *testing.T) {
	t.Parallel()
	holder := exec.Command("sleep", "60")
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		holder.Process.Kill()
		holder.Wait()
	}()
	dir := crashTree(t, true)
	tr, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	lock := writeLock(t, dir, holder.Process.Pid)
	done := make(chan error)
	go func() { done <- tr.Write(changesTo(oldSet(), newSet())) }()
	time.Sleep(200 * time.Millisecond)
	if got := treeState(t, dir); !sameState(got, wantState(oldSet())) {
		t.Errorf("Write changed the tree while another process held the lock")
	}
	if err := os.Remove(lock); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("Write after the lock was released: %v", err)
	}
	if got := treeState(t, dir); !sameState(got, wantState(newSet())) {
		t.Errorf("after Write: the tree is not the new set")
	}
}

// TestRecoverKeepsLaterEdits: a file of the set that someone changed
// between the crash and the next Open is left as they made it and
// reported, whichever way the rest of the set goes.
func TestRecoverKeepsLaterEdits(t *testing.T) {
	t.Parallel()
	points := writePoints(t)
	for _, tt := range []struct {
		step, action string
		want         map[string]*crashFile
	}{
		{"write: temp 2", "rolled back", oldSet()},
		{"write: committing", "rolled forward", newSet()},
		{"write: rename 4", "rolled forward", newSet()},
	} {
		dir := crashTree(t, true)
		if runChild(t, "write", dir, points[tt.step]) != tt.step {
			t.Fatalf("child not killed at %q", tt.step)
		}
		mine := []byte("my own edit\n")
		if err := os.WriteFile(filepath.Join(dir, "run.sh"), mine, 0o755); err != nil {
			t.Fatal(err)
		}
		tr, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		rep := tr.Recovery
		tr.Close()
		if rep.Action != tt.action || !slices.Equal(rep.Conflicts, []string{"run.sh"}) {
			t.Errorf("crash at %q: recovery %q with conflicts %q, want %q with [run.sh]", tt.step, rep.Action, rep.Conflicts, tt.action)
		}
		want := wantState(tt.want)
		want["run.sh"] = "file -rwxr-xr-x " + hashOf(mine)
		if got := treeState(t, dir); !sameState(got, want) {
			t.Errorf("crash at %q: after recovery\n%v\nwant\n%v", tt.step, got, want)
		}
	}
}

// TestOpenDamagedJournal: a journal that cannot be read stops Open, and
// nothing is touched.
func TestOpenDamagedJournal(t *testing.T) {
	t.Parallel()
	dir := crashTree(t, true)
	jdir := filepath.Join(dir, ".git", "pair", "journal")
	if err := os.MkdirAll(jdir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(jdir, journalFile), []byte(`{"state": "committ`), 0o600); err != nil {
		t.Fatal(err)
	}
	tr, err := Open(dir)
	if err == nil {
		tr.Close()
		t.Fatal("Open with a damaged journal: got no error, want one")
	}
	if _, err := os.Stat(filepath.Join(jdir, journalFile)); err != nil {
		t.Errorf("the damaged journal is gone: %v", err)
	}
	if got := treeState(t, dir); !sameState(got, wantState(oldSet())) {
		t.Errorf("Open with a damaged journal changed the tree")
	}
}

// TestWriteRecoversFirst: a tree opened before another process crashed
// writing it recovers that write before its own.
func TestWriteRecoversFirst(t *testing.T) {
	t.Parallel()
	dir := crashTree(t, false)
	tr, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if step := runChild(t, "write", dir, 1); step != "write: prepared" {
		t.Fatalf("child killed at %q, want write: prepared", step)
	}
	err = tr.Write([]Change{{Path: "keep.txt", Content: []byte("x\n")}})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Recovery.Action != "rolled back" {
		t.Errorf("Recovery.Action = %q, want rolled back", tr.Recovery.Action)
	}
	want := wantState(oldSet())
	want["keep.txt"] = "file -rw-r--r-- " + hashOf([]byte("x\n"))
	if got := treeState(t, dir); !sameState(got, want) {
		t.Errorf("after Write: %v, want %v", got, want)
	}
	if _, err := os.Lstat(filepath.Join(dir, ".pair")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf(".pair left in a plain directory: %v", err)
	}
}

// TestRecoverOlderJournal: a journal written by a pair that kept the new
// content in a temporary file beside the target (no new copy) is still
// rolled forward from there, and the temporary file is gone.
func TestRecoverOlderJournal(t *testing.T) {
	t.Parallel()
	dir := crashTree(t, true)
	jdir := filepath.Join(dir, ".git", "pair", "journal")
	if err := os.MkdirAll(jdir, 0o755); err != nil {
		t.Fatal(err)
	}
	old, nw := oldSet()["keep.txt"].content, newSet()["keep.txt"].content
	if err := os.WriteFile(filepath.Join(jdir, "old-0"), old, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".pair-0123456789ab.tmp"), nw, 0o644); err != nil {
		t.Fatal(err)
	}
	j := `{"state": "committing", "changes": [{"path": "keep.txt", "existed": true, "old_mode": 420, "old_hash": "` + hashOf(old) +
		`", "old_copy": "old-0", "new_mode": 420, "new_hash": "` + hashOf(nw) + `", "temp": ".pair-0123456789ab.tmp", "restore": ".pair-ba9876543210.tmp"}]}`
	if err := os.WriteFile(filepath.Join(jdir, journalFile), []byte(j), 0o600); err != nil {
		t.Fatal(err)
	}
	tr, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	tr.Close()
	if tr.Recovery.Action != "rolled forward" {
		t.Errorf("Recovery = %+v, want rolled forward", tr.Recovery)
	}
	want := wantState(oldSet())
	want["keep.txt"] = "file -rw-r--r-- " + hashOf(nw)
	if got := treeState(t, dir); !sameState(got, want) {
		t.Errorf("after recovery:\n%v\nwant\n%v", got, want)
	}
}

// TestNoJournalBesideState: pair's own state beside the journal (the
// sessions, the record of its commits, the trust store of .pair.yml) is
// no write to recover, so Open takes no lock for it; anything else is.
func TestNoJournalBesideState(t *testing.T) {
	dir := t.TempDir()
	repotest.Git(t, dir, "init", "-q")
	home := filepath.Join(dir, ".git", "pair")
	if err := os.MkdirAll(filepath.Join(home, "sessions"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{recordFile, "trusted-config"} {
		if err := os.WriteFile(filepath.Join(home, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tr, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if tr.journal.hasJournal() {
		t.Errorf("sessions, %s and trusted-config read as a journal to recover", recordFile)
	}
	if err := os.Mkdir(filepath.Join(home, "journal"), 0o755); err != nil {
		t.Fatal(err)
	}
	if !tr.journal.hasJournal() {
		t.Errorf("a journal directory is not seen")
	}
}

// TestTempNameLen: the constant that the length checks use is the length
// of the names tempName makes.
func TestTempNameLen(t *testing.T) {
	if got := len(path.Base(tempName("dir/file.go"))); got != tempNameLen {
		t.Errorf("tempName makes names of %d bytes, tempNameLen is %d", got, tempNameLen)
	}
}

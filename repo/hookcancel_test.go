//go:build unix

package repo_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// waitFile waits for a file to hold a line, and returns its content.
func waitFile(t *testing.T, p string) string {
	t.Helper()
	for i := 0; i < 3000; i++ {
		if b, err := os.ReadFile(p); err == nil && strings.HasSuffix(string(b), "\n") {
			return string(b)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s never appeared", p)
	return ""
}

// processLive reports whether a process runs (a zombie does not).
func processLive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) == 0 || f[0] != "Z"
}

// TestCommitCancelStopsHook: cancelling the context while pre-commit
// runs kills the hook and the processes it started, commits nothing, and
// leaves no lock.
func TestCommitCancelStopsHook(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
	pids := filepath.Join(t.TempDir(), "pids")
	cmHook(t, filepath.Join(dir, ".git", "hooks"), "pre-commit",
		"sleep 1000 &\necho $$ $! > "+pids+"\nwait\n")
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	head, index := cmHead(t, dir), cmRead(t, dir, ".git/index")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := cmOptions(recs)
	opts.Context = ctx
	done := make(chan error, 1)
	go func() {
		_, err := tr.Commit(fcs, opts)
		done <- err
	}()
	var live []int
	for _, f := range strings.Fields(waitFile(t, pids)) {
		pid, _ := strconv.Atoi(f)
		live = append(live, pid)
	}
	cancel()
	err := <-done
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Commit error = %v, want context.Canceled", err)
	}
	cmUnchanged(t, dir, head, index)
	for _, pid := range live {
		if processLive(pid) {
			t.Errorf("hook process %d survived the cancel", pid)
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

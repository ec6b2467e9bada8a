//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pair-cli/pair/repo/repotest"
)

// TestSignalDuringHook: Ctrl-C (SIGINT to the process group, as a
// terminal sends it) or SIGTERM while the pre-commit hook runs stops the
// hook and every process it started, commits nothing, leaves no
// .git/index.lock, and exits 130.
func TestSignalDuringHook(t *testing.T) {
	bin, err := exec.LookPath("pair")
	if err != nil {
		t.Fatalf("pair is not on PATH (TestMain puts it there): %v", err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			home := t.TempDir()
			env := []string{
				"HOME=" + home, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1",
				"GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@example.com",
				"GIT_COMMITTER_NAME=A", "GIT_COMMITTER_EMAIL=a@example.com", "NO_COLOR=1",
				"GORACE=" + strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"),
			}
			if d := os.Getenv("GOCOVERDIR"); d != "" {
				env = append(env, "GOCOVERDIR="+d)
			}
			write := func(name, content string, mode os.FileMode) {
				t.Helper()
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), mode); err != nil {
					t.Fatal(err)
				}
			}
			write("a.txt", "one\ntwo\nthree\n", 0o644)
			repotest.Git(t, dir, "init", "-q")
			repotest.Git(t, dir, "add", "a.txt")
			repotest.Git(t, dir, "commit", "-q", "-m", "initial")
			head := repotest.Git(t, dir, "rev-parse", "HEAD")
			pids := filepath.Join(t.TempDir(), "pids")
			write(".git/hooks/pre-commit", "#!/bin/sh\nsleep 1000 &\necho $$ $! > "+pids+"\nwait\n", 0o755)
			write("fix.diff", "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n", 0o644)

			cmd := exec.Command(bin, "apply", "--yes", "fix.diff")
			cmd.Dir, cmd.Env = dir, env
			var out strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &out
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var hookPids []int
			for i := 0; ; i++ {
				b, err := os.ReadFile(pids)
				if err == nil && strings.HasSuffix(string(b), "\n") {
					for _, f := range strings.Fields(string(b)) {
						p, _ := strconv.Atoi(f)
						hookPids = append(hookPids, p)
					}
					break
				}
				if i == 3000 {
					t.Fatalf("the hook never ran; pair said:\n%s", out.String())
				}
				time.Sleep(10 * time.Millisecond)
			}
			target := cmd.Process.Pid
			if sig == syscall.SIGINT {
				target = -target // the process group, as the terminal does
			}
			if err := syscall.Kill(target, sig); err != nil {
				t.Fatal(err)
			}
			waited := make(chan error, 1)
			go func() { waited <- cmd.Wait() }()
			var err error
			select {
			case err = <-waited:
			case <-time.After(time.Minute): // a bound, not a measure: pair ignored the signal
				for _, p := range hookPids {
					syscall.Kill(p, syscall.SIGKILL)
				}
				cmd.Process.Kill()
				<-waited
				t.Fatalf("pair did not stop on %v while the hook ran; it said:\n%s", sig, out.String())
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 130 {
				t.Errorf("pair exited with %v, want exit status 130; it said:\n%s", err, out.String())
			}
			if got := repotest.Git(t, dir, "rev-parse", "HEAD"); got != head {
				t.Errorf("pair committed after %v", sig)
			}
			if _, err := os.Stat(filepath.Join(dir, ".git", "index.lock")); err == nil {
				t.Errorf(".git/index.lock left behind")
			}
			for _, p := range hookPids {
				if hookLive(p) {
					t.Errorf("hook process %d survived", p)
					syscall.Kill(p, syscall.SIGKILL)
				}
			}
			if !strings.Contains(out.String(), "interrupted") {
				t.Errorf("pair did not say it was interrupted:\n%s", out.String())
			}
		})
	}
}

// hookLive reports whether a process runs (a zombie does not).
func hookLive(pid int) bool {
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

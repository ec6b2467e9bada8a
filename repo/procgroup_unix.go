//go:build unix

package repo

import (
	"os/exec"
	"syscall"
)

// ownGroup makes cmd start in a process group of its own, so that a
// cancel stops it and every process it started: Ctrl-C at the terminal
// reaches pair, not the hook, and pair ends the group.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// processGone reports whether no process has the given id (on this
// machine); false when it cannot tell.
func processGone(pid int) bool {
	return pid > 0 && syscall.Kill(pid, 0) == syscall.ESRCH
}

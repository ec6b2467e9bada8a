//go:build unix

package proc

import (
	"os/exec"
	"syscall"
)

// OwnGroup makes cmd start in a process group of its own, so that a
// cancel stops it and every process it started: Ctrl-C at the terminal
// reaches pair alone, which decides what it stops, and pair ends the
// group.
func OwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

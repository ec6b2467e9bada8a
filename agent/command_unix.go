//go:build unix

package agent

import (
	"os/exec"
	"syscall"
)

// ownGroup runs a command in a process group of its own: Ctrl-C in the
// terminal reaches pair alone, which decides what it stops (a request of
// the chat, or the whole command), and a stopped command is killed with
// everything it started.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

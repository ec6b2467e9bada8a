//go:build unix

package mcp

import (
	"os"
	"os/exec"
	"syscall"
)

// ownGroup starts the server in a process group of its own: Ctrl-C in
// the terminal does not reach it (pair stops it), and killGroup can stop
// whatever it started.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills what is left of a stdio server's process group.
func (s *Server) killGroup() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
}

// terminate asks a process to stop (SIGTERM).
func terminate(p *os.Process) { _ = p.Signal(syscall.SIGTERM) }

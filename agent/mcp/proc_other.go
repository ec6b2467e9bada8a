//go:build !unix

package mcp

import (
	"os"
	"os/exec"
)

// ownGroup does nothing where there are no process groups.
func ownGroup(*exec.Cmd) {}

// killGroup does nothing where there are no process groups: the SDK's
// Close stops the server itself.
func (s *Server) killGroup() {}

// terminate stops a process: without signals, it is killed.
func terminate(p *os.Process) { _ = p.Kill() }

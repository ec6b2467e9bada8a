//go:build !unix

package mcp

import "os/exec"

// ownGroup does nothing where there are no process groups.
func ownGroup(*exec.Cmd) {}

// killGroup does nothing where there are no process groups: the SDK's
// Close stops the server itself.
func (s *Server) killGroup() {}

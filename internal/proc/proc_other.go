//go:build !unix

package proc

import "os/exec"

// OwnGroup leaves cmd as it is: without process groups, a cancel kills
// the command alone (exec.CommandContext's default).
func OwnGroup(*exec.Cmd) {}

//go:build !unix

package repo

import "os/exec"

// ownGroup leaves cmd as it is: without process groups, a cancel kills
// the hook alone (exec.CommandContext's default).
func ownGroup(cmd *exec.Cmd) {}

// processGone cannot tell on this system.
func processGone(pid int) bool { return false }

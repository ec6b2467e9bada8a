//go:build unix

package main

import "syscall"

// detachTerminal starts a new session for pair run by a script, so that
// it has no controlling terminal (/dev/tty) even when go test runs in
// one: the scripts are the runs without a terminal. pair started on a
// pseudo-terminal by the interactive tests leads its session already, so
// Setsid fails and its terminal stays.
func detachTerminal() { _, _ = syscall.Setsid() }

//go:build !unix

package main

// detachTerminal does nothing where there is no /dev/tty.
func detachTerminal() {}

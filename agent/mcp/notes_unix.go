//go:build unix

package mcp

import (
	"errors"
	"syscall"
)

// openNoFollow opens a file without following a symbolic link, and
// without blocking on a FIFO put in its place.
const openNoFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// isLinkLoop reports the error of opening a link with openNoFollow.
func isLinkLoop(err error) bool { return errors.Is(err, syscall.ELOOP) }

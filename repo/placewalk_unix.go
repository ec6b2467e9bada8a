// placewalk_unix.go: readFlags, non-blocking so that a FIFO in the tree does not hang a read.

//go:build unix

package repo

import (
	"os"
	"syscall"
)

// readFlags opens a file to read it whole. Opened non-blocking, a regular
// file is left so: os would otherwise set the flag to try the poller,
// which takes no regular file, and clear it again (four fcntl calls a
// file), and a regular file reads the same either way.
const readFlags = os.O_RDONLY | syscall.O_NONBLOCK

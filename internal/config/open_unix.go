//go:build unix

package config

import "syscall"

// openFlags open a FIFO without waiting for a writer, so that it is
// refused rather than waited for.
const openFlags = syscall.O_NONBLOCK

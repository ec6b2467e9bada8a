// record_unix.go: recordNoFollow, so that the commit record is never a symbolic link.

//go:build unix

package repo

import "syscall"

// recordNoFollow opens the record of pair's commits only if it is not a
// symbolic link.
const recordNoFollow = syscall.O_NOFOLLOW

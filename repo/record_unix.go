//go:build unix

package repo

import "syscall"

// recordNoFollow opens the record of pair's commits only if it is not a
// symbolic link.
const recordNoFollow = syscall.O_NOFOLLOW

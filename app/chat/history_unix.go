//go:build unix

package chat

import "syscall"

// historyNoFollow opens the history file only if it is not a link.
const historyNoFollow = syscall.O_NOFOLLOW

package proc

import (
	"errors"
	"os"
	"syscall"
)

// Alive reports whether the process pid may still be running; true when
// it cannot tell. This process's own pid counts as not running: a lock
// or a file that names it was left by an earlier process that had the
// same pid (as the first process of a container has).
func Alive(pid int) bool {
	if pid <= 0 || pid == os.Getpid() {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || !errors.Is(err, os.ErrProcessDone) && !errors.Is(err, syscall.ESRCH)
}

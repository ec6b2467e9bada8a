// fileerr.go: file-system errors worded for a person: the verb, the path and what went wrong.

package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"
)

// errNotDir is the error for a path whose directory is a file.
var errNotDir = syscall.ENOTDIR

// pathErr words a file system error for a person, naming the tree's path
// p (not a temporary file's, not the system call's): "cannot read x/y.go:
// permission denied". A path that os.Root finds leading out of the tree
// is ErrOutsideRepo. The error wraps the system's, so that errors.Is
// finds fs.ErrNotExist and the like.
func pathErr(verb, p string, err error) error {
	if err == nil {
		return nil
	}
	if strings.Contains(err.Error(), "path escapes from parent") {
		return fmt.Errorf("%s: %w", p, ErrOutsideRepo)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	return fmt.Errorf("cannot %s %s: %w", verb, p, err)
}

// verbOf names the operation of a system call as pathErr words it.
func verbOf(op string) string {
	switch strings.TrimSuffix(op, "at") {
	case "open":
		return "open"
	case "stat", "lstat", "fstat", "fstatat", "read", "readlink":
		return "read"
	case "mkdir":
		return "create the directory"
	case "rename", "link", "write":
		return "write"
	case "unlink", "remove", "rmdir":
		return "remove"
	case "chmod", "fchmod":
		return "set the mode of"
	}
	return "use"
}

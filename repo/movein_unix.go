// movein_unix.go: renameInto, a temporary file moved into its place through the directory's root.

//go:build unix

package repo

import (
	"os"
	"path"

	"golang.org/x/sys/unix"
)

// renameInto renames the file name of the journal directory dir onto the
// tree's path target, with renameat between the two open directories:
// the target's directory is opened through the tree's root, so that the
// rename cannot leave the tree.
func (dk *disk) renameInto(dir *os.Root, name, target string) error {
	if err := dk.faultAt("rename", target); err != nil {
		return &os.LinkError{Op: "rename", Old: name, New: target, Err: err}
	}
	from, err := dir.Open(".")
	if err != nil {
		return err
	}
	defer from.Close()
	to, err := dk.root.Open(path.Dir(target))
	if err != nil {
		return err
	}
	defer to.Close()
	if err := unix.Renameat(int(from.Fd()), name, int(to.Fd()), path.Base(target)); err != nil {
		return &os.LinkError{Op: "rename", Old: name, New: target, Err: err}
	}
	return nil
}

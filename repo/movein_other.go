// movein_other.go: renameInto where no directory root can rename: by the full paths.

//go:build !unix

package repo

import (
	"os"
	"path/filepath"
)

// renameInto renames the file name of the journal directory onto the
// tree's path target (see movein_unix.go), by their full paths.
func (t *Tree) renameInto(_ *os.Root, name, target string) error {
	if err := t.faultAt("rename", target); err != nil {
		return &os.LinkError{Op: "rename", Old: name, New: target, Err: err}
	}
	home, jname := t.journalHome()
	return os.Rename(filepath.Join(home, jname, name), filepath.Join(t.Dir, filepath.FromSlash(target)))
}

// movein_other.go: renameInto where no directory root can rename: by the full paths.

//go:build !unix

package repo

import (
	"os"
	"path/filepath"
)

// renameInto renames the file name of the journal directory onto the
// tree's path target (see movein_unix.go), by their full paths.
func (dk *disk) renameInto(_ *os.Root, name, target string) error {
	if err := dk.faultAt("rename", target); err != nil {
		return &os.LinkError{Op: "rename", Old: name, New: target, Err: err}
	}
	return os.Rename(filepath.Join(dk.journal, name), filepath.Join(dk.top, filepath.FromSlash(target)))
}

// indexstat_other.go: statEntry where the stat data beyond time and size is not read.

//go:build !linux

package repo

import (
	"io/fs"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// statEntry gives e the modification time and size of fi, the working
// file that holds exactly e's blob; git compares the content of an entry
// whose other stat data differ (see indexstat_linux.go).
func statEntry(e *index.Entry, fi fs.FileInfo) {
	e.ModifiedAt, e.Size = fi.ModTime(), uint32(fi.Size())
}

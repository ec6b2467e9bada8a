// indexstat_linux.go: statEntry, an index entry's stat data as git records it, so that git sees a staged file as clean without reading it.

//go:build linux

package repo

import (
	"io/fs"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// statEntry gives e the stat data of fi, the working file that holds
// exactly e's blob, as git add records it.
func statEntry(e *index.Entry, fi fs.FileInfo) {
	e.ModifiedAt, e.Size = fi.ModTime(), uint32(fi.Size())
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	e.CreatedAt = time.Unix(int64(st.Ctim.Sec), int64(st.Ctim.Nsec))
	e.Dev, e.Inode = uint32(st.Dev), uint32(st.Ino)
	e.UID, e.GID = st.Uid, st.Gid
}

// writelock_other.go: tryFlock and funlock where there is no file lock: the journal lock alone keeps writers apart.

//go:build !unix

package repo

import "os"

// tryFlock has no file lock to take here: the writer lock excludes no
// one, and Write's journal lock (see lock) alone keeps two write sets
// apart.
func tryFlock(f *os.File) (bool, error) { return true, nil }

func funlock(f *os.File) error { return nil }

// record_other.go: recordNoFollow where opening a file cannot refuse a link.

//go:build !unix

package repo

// recordNoFollow: the record's Lstat check stands alone here (see
// record_unix.go).
const recordNoFollow = 0

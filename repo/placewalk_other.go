// placewalk_other.go: readFlags where reads cannot be non-blocking.

//go:build !unix

package repo

import "os"

// readFlags opens a file to read it whole (see placewalk_unix.go).
const readFlags = os.O_RDONLY

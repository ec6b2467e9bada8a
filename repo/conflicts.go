// conflicts.go: ErrConflict, the check that a set of file operations does not contradict itself.

package repo

import "errors"

// ErrConflict is returned for a patch or a write set whose operations on
// one file contradict each other: creating it twice, changing it after
// deleting it, renaming onto a path another section creates (see
// sequence).
var ErrConflict = errors.New("contradictory changes")

package repo

import "errors"

// ErrConflict is returned for a patch or a write set whose operations on
// one file contradict each other: creating it twice, deleting and
// changing it, renaming onto a path another section creates.
var ErrConflict = errors.New("contradictory changes")

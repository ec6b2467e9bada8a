// conflicts.go: ErrConflict, the check that a set of file operations does not contradict itself.

package repo

import (
	"errors"
	"fmt"
	"path"
	"sort"
)

// ErrConflict is returned for a patch or a write set whose operations on
// one file contradict each other: creating it twice, deleting and
// changing it, renaming onto a path another section creates.
var ErrConflict = errors.New("contradictory changes")

// fileOp is what one file section of a patch does: it reads oldPath ("":
// creates) and writes newPath ("": deletes); a rename also removes
// oldPath.
type fileOp struct {
	oldPath, newPath string
	renamed          bool
}

// removes returns the path the operation takes away, or "".
func (o fileOp) removes() string {
	switch {
	case o.newPath == "":
		return o.oldPath
	case o.renamed && o.oldPath != o.newPath:
		return o.oldPath
	}
	return ""
}

// checkOps refuses file operations of one patch that contradict each
// other: each path is written by one section at most, a path that a
// section deletes or renames away is neither written nor read by another,
// and no path is made both a file and a directory. The sections that
// change one file in the same way are merged before (see PlaceWith).
func checkOps(ops []fileOp) error {
	writers := map[string]int{} // path -> how many sections write it
	creates := map[string]int{}
	removers := map[string]int{}
	readers := map[string]int{}
	for _, o := range ops {
		if o.newPath != "" {
			writers[o.newPath]++
			if o.oldPath == "" {
				creates[o.newPath]++
			}
		}
		if r := o.removes(); r != "" {
			removers[r]++
		} else if o.oldPath != "" {
			readers[o.oldPath]++
		}
	}
	type problem struct{ path, why string }
	var problems []problem
	fail := func(p, why string) { problems = append(problems, problem{p, why}) }
	for p, n := range writers {
		switch {
		case creates[p] == n && n > 1:
			fail(p, "the patch creates it twice")
		case n > 1:
			fail(p, "two sections of the patch write it (a rename or copy onto it, and another change)")
		}
	}
	for p, n := range removers {
		switch {
		case n > 1:
			fail(p, "the patch deletes or renames it away twice")
		case writers[p] > 0:
			fail(p, "the patch both deletes (or renames away) and writes it")
		case readers[p] > 0:
			fail(p, "the patch both deletes (or renames away) and changes or copies it")
		}
	}
	for p := range writers {
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			if writers[d] > 0 {
				fail(d, "the patch makes it both a file and the directory of "+p)
			}
		}
	}
	if len(problems) == 0 {
		return nil
	}
	sort.Slice(problems, func(i, j int) bool {
		return problems[i].path < problems[j].path || problems[i].path == problems[j].path && problems[i].why < problems[j].why
	})
	why := problems[0].why
	if len(problems) > 1 {
		why += fmt.Sprintf(" (and %d more %s)", len(problems)-1, map[bool]string{true: "contradiction", false: "contradictions"}[len(problems) == 2])
	}
	return fmt.Errorf("%s: %w: %s", problems[0].path, ErrConflict, why)
}

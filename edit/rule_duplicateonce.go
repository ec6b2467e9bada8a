package edit

import "slices"

// ruleDuplicateOnce is the rule of that id; see its Statement.
var ruleDuplicateOnce = Rule{
	ID:        "duplicateOnce",
	Stage:     StageCandidates,
	Verdicts:  []Verdict{Certain},
	Statement: "A hunk that repeats an earlier hunk of the file line for line, and fits letter for letter at one place only, is applied once: the repeat is skipped and reported.",
}

// repeats returns the earlier hunk of hunks that hunk i repeats line for
// line, or -1.
func repeats(hunks []*Hunk, i int) int {
	for k := range i {
		if slices.Equal(hunks[k].Lines, hunks[i].Lines) {
			return k
		}
	}
	return -1
}

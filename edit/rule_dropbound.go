// rule_dropbound.go: the rule dropBound, one rule of the placement table.

package edit

import (
	"fmt"
	"slices"
)

// ruleDropBound is the rule of that id; see its Statement.
var ruleDropBound = Rule{
	ID:        "dropBound",
	Stage:     StageFile,
	Verdicts:  []Verdict{Refuse},
	Statement: "A hunk whose place was chosen by a neighbour's place is refused when that neighbour is refused.",
}

// dropBound refuses the hunks chosen among several places by the places
// of neighbours that have been refused since (see choose), and removes
// every refused hunk from rs: such a hunk stands or falls with them.
func (fp *filePlaces) dropBound(rs []Resolved) []Resolved {
	failed := map[int]bool{}
	for _, e := range fp.errs {
		failed[e.Hunk] = !e.Skip // a skipped hunk keeps its place
	}
	for again := true; again; {
		again = false
		for i, hp := range fp.hunks {
			c := hp.chosen
			if c == nil || failed[i] {
				continue
			}
			for _, j := range c.boundBy {
				if failed[j] && !failed[i] {
					failed[i], again = true, true
					fp.fail(i, ruleDropBound.ID, ErrAmbiguous, fmt.Sprintf("it fits more than one place, and hunk %d, whose place chose among them, could not be placed", j+1), fp.pl.nearest(fp.hunks[i].h))
				}
			}
		}
	}
	return slices.DeleteFunc(rs, func(r Resolved) bool { return failed[r.Hunk] })
}

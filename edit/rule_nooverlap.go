// rule_nooverlap.go: the rule noOverlap, one rule of the placement table.

package edit

import (
	"fmt"
	"slices"
)

// ruleNoOverlap is the rule of that id; see its Statement.
var ruleNoOverlap = Rule{
	ID:        "noOverlap",
	Stage:     StageFile,
	Verdicts:  []Verdict{Refuse},
	Statement: "Two hunks that change the same lines, or where one deletes a line the other keeps, are both refused.",
}

// noOverlap refuses the hunks of out (sorted by start) that change lines
// another hunk changes, or delete a line another keeps as context: they
// would disagree about the file. Which of two disagreeing hunks is wrong
// is unknown: both fail, with every part of a fused hunk. It returns the
// rest.
func (fp *filePlaces) noOverlap(out []Resolved) []Resolved {
	bad := map[int]int{} // hunk -> start line of the clash
	edits := make([][]edit, len(out))
	for i := range out {
		edits[i] = out[i].edits()
	}
	for i := range out {
		// Sorted by start: a hunk that starts past the end of this one's
		// lines cannot touch them, nor can any after it.
		end := out[i].Start + out[i].OldCount()
		for j := i + 1; j < len(out) && out[j].Start <= end; j++ {
			a, b := out[i], out[j]
			if a.Hunk == b.Hunk {
				continue
			}
			if conflict(edits[i], edits[j]) || deletesContext(a, b) || deletesContext(b, a) {
				bad[a.Hunk], bad[b.Hunk] = b.Start, a.Start
			}
		}
	}
	kept := out[:0]
	for _, r := range out {
		if at, ok := bad[r.Hunk]; ok {
			if r.Part == 0 || !slices.ContainsFunc(fp.errs, func(e *PlacementError) bool { return e.Hunk == r.Hunk }) {
				fp.failTraced(r.Hunk, traced(r.Rules, ruleNoOverlap.ID), ErrOverlap, fmt.Sprintf("it changes lines near line %d that another hunk also changes or keeps", at+1), nil)
			}
			continue
		}
		kept = append(kept, r)
	}
	return kept
}

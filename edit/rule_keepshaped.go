// rule_keepshaped.go: the rule keepShaped, one rule of the placement table.

package edit

import "fmt"

// ruleKeepShaped is the rule of that id; see its Statement.
var ruleKeepShaped = Rule{
	ID:        "keepShaped",
	Stage:     StageCandidates,
	Verdicts:  []Verdict{Certain},
	Statement: "Of several loose fits that change the file differently, those that break git's shape give way to the one that keeps it.",
}

// keepShaped drops, of several loose fits of a hunk of a git diff, those
// whose reading checkShape refuses, where others pass it: a blank line
// lost from a run of blank lines next to added lines, read on the side
// git wrote in full, leaves the other side short, and is no reading of
// git's hunk.
func (pl *placer) keepShaped(lines []Line, cs []candidate) []candidate {
	if pl.context == 0 || len(cs) < 2 {
		return cs
	}
	var kept []candidate
	for _, c := range cs {
		if r, err := pl.resolveLines(lines, c.align, &c); err != nil && r.Lines != nil && pl.shapeDeficit(r) > 0 {
			continue
		}
		kept = append(kept, c)
	}
	if len(kept) == 0 || len(kept) == len(cs) {
		return cs
	}
	for i := range kept {
		kept[i].notes = append(kept[i].notes, fmt.Sprintf("%d loose fits; chose the one whose lost line leaves git's %d lines of context on each side", len(cs), pl.context))
	}
	return kept
}

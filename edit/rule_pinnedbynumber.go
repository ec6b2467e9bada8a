// rule_pinnedbynumber.go: the rule pinnedByNumber, one rule of the placement table.

package edit

import "slices"

// rulePinnedByNumber is the rule of that id; see its Statement.
var rulePinnedByNumber = Rule{
	ID:        "pinnedByNumber",
	Stage:     StageChoice,
	Verdicts:  []Verdict{Certain},
	Statement: "A loose fit on lines common in the file is kept when the header's line number names its first line, it loses one line at most, no other fit overlaps it, and the file's other hunks sit at their own numbers (or git made the diff).",
}

// numbersHold reports whether the hunks' line numbers describe the file
// as it is, and by what: every hunk placed by a strict pass sits where
// its header says (a file changed since the diff was made, or numbers a
// model made up, shift them), and some hunk was so placed, or git made
// the diff (its "index" line) and no hunk says otherwise. A loose fit
// that rests on lines common in the file may then be pinned by its
// number.
func numbersHold(chosen []*candidate, hunks []*Hunk, gitMade bool) (bool, string) {
	seen := false
	for i, c := range chosen {
		if c == nil || c.pass == PassFuzzy || c.pass == PassFused {
			continue
		}
		if h := hunks[i]; !h.HasNumbers || h.OldStart-1 != c.start {
			return false, ""
		}
		seen = true
	}
	switch {
	case seen:
		return true, "as the numbers of the file's other hunks name theirs"
	case gitMade:
		return true, "and git made the diff, whose numbers name the file as it was"
	}
	return false, ""
}

// pinnedByNumber reports whether the header's line number pins a loose
// fit c of a hunk whose lines are common in the file (see distinctive):
// it names the fit's first line, the fit is off by one line at most (one
// context line lost or changed), and no other fit of the hunk (cs)
// overlaps it. In text made of a few lines repeated ("}", "if err != nil
// {"), the number may say where the hunk starts but not which of the like
// lines inside it were lost: a fit that loses more, or that another fit
// overlaps, is still refused.
func pinnedByNumber(h *Hunk, c *candidate, cs []candidate) bool {
	// A leading line the fit leaves out as absent from the file would sit
	// where the number says the hunk starts: the number contradicts it
	// (and the line may be an added one in disguise).
	if !h.HasNumbers || h.OldStart-1 != c.first() || c.cost >= 2*unit || slices.Contains(c.align, -1) {
		return false
	}
	for _, o := range cs {
		if o.start != c.start && o.start < c.end() && c.start < o.end() {
			return false
		}
	}
	return true
}

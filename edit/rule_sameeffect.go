// rule_sameeffect.go: the rule sameEffect, one rule of the placement table.

package edit

import (
	"fmt"
	"slices"
)

// ruleSameEffect is the rule of that id; see its Statement.
var ruleSameEffect = Rule{
	ID:        "sameEffect",
	Stage:     StageCandidates,
	Verdicts:  []Verdict{Certain},
	Statement: "Of loose fits that change the file the same way, one is kept: the one that keeps git's shape and uses most of the hunk's lines.",
}

// sameEffect merges candidates that change the file in the same way (say,
// one that treats a context line as slightly changed and one that drops
// it from the hunk's edge): they are one place, not an ambiguity. Of each
// group it keeps the candidate that uses the most lines of the hunk.
func (pl *placer) sameEffect(lines []Line, cs []candidate) []candidate {
	if len(cs) < 2 {
		return cs
	}
	var out []candidate
	var sigs []string
	var sound []bool // out[i] resolves without a refusal
	for _, c := range cs {
		sig := fmt.Sprint(c.align)
		// A reading refused only by the checks of its shape (see
		// checkShape) still says what it would change; one that is only
		// likely (an uncertain reading, an order the syntax check may
		// choose) does not: its other readings change the file otherwise.
		r, err := pl.resolveLines(lines, c.align, &c)
		if err == nil || r.Lines != nil && err.doubted == nil && err.order == nil {
			sig = fmt.Sprint(r.edits())
		}
		if i := slices.Index(sigs, sig); i >= 0 {
			// One trustworthy reading of the same change is enough, and
			// one that keeps git's shape is enough to trust the change:
			// a context line taken as changed, where the file has it
			// whole after a lost line, needs a second line lost for the
			// hunk's shape, the lost-line reading none.
			suspect := c.suspect && out[i].suspect
			if (err == nil && !sound[i]) || (err == nil) == sound[i] && used(c.align) > used(out[i].align) {
				out[i], sound[i] = c, err == nil
			}
			out[i].suspect = suspect
			continue
		}
		sigs = append(sigs, sig)
		out = append(out, c)
		sound = append(sound, err == nil)
	}
	return out
}

func used(align []int) int {
	n := 0
	for _, a := range align {
		if a >= 0 {
			n++
		}
	}
	return n
}

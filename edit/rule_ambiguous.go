// rule_ambiguous.go: the rule ambiguous, one rule of the placement table.

package edit

import (
	"fmt"
	"slices"
	"strings"
)

// ruleAmbiguous is the rule of that id; see its Statement.
var ruleAmbiguous = Rule{
	ID:        "ambiguous",
	Stage:     StageChoice,
	Verdicts:  []Verdict{Refuse},
	Statement: "A hunk that fits two or more places, or one place in ways that change the file differently, with nothing to choose between them, is refused rather than guessed.",
}

// choose picks among the candidates of hunk i, first keeping those that
// respect the order of the hunks already placed, then the one clearly
// nearest to the line the header names. It returns nil and the reason
// when the choice would be a guess, with the id of the rule that chose
// or refused.
func choose(i int, cs []candidate, chosen []*candidate, hunks []*Hunk) (*candidate, RuleID, string) {
	h := hunks[i]
	lo, hi, by, ordered := orderBounds(i, chosen, hunks)
	if ordered {
		var in []candidate
		for _, c := range cs {
			if c.start >= lo && c.end() <= hi {
				in = append(in, c)
			}
		}
		if len(in) == 1 {
			c := in[0]
			c.notes = append(c.notes, fmt.Sprintf("%d places matched; chose the one between the neighbouring hunks", len(cs)))
			c.boundBy = by
			return &c, ruleBetweenNeighbours.ID, ""
		}
		if len(in) > 1 {
			cs = in
		}
	}
	where := fitsAt(cs)
	if !slices.ContainsFunc(cs, func(c candidate) bool { return c.start != cs[0].start }) {
		// One place, read in ways that change the file differently: no
		// line number chooses among them.
		return nil, ruleAmbiguous.ID, "it fits at " + where
	}
	if !h.HasNumbers || h.OldStart == 0 {
		return nil, ruleAmbiguous.ID, "it fits at " + where + " and the header has no line number to choose by"
	}
	hint := h.OldStart - 1
	sorted := slices.Clone(cs)
	slices.SortStableFunc(sorted, func(a, b candidate) int { return abs(a.first()-hint) - abs(b.first()-hint) })
	d1, d2 := abs(sorted[0].first()-hint), abs(sorted[1].first()-hint)
	if 2*d1 >= d2 {
		return nil, ruleAmbiguous.ID, fmt.Sprintf("it fits at %s and none is clearly nearest to line %d", where, h.OldStart)
	}
	c := sorted[0]
	c.notes = append(c.notes, fmt.Sprintf("%d places matched; chose the one nearest line %d", len(cs), h.OldStart))
	return &c, ruleNearestHeader.ID, ""
}

// fitsAt names the lines where candidates start, with how many ways each
// reads the hunk there when more than one does: "lines 12, 40", "line 3
// in 2 ways that change the file differently".
func fitsAt(cs []candidate) string {
	var starts []int
	ways := map[int]int{}
	for _, c := range cs {
		if ways[c.start] == 0 {
			starts = append(starts, c.start)
		}
		ways[c.start]++
	}
	parts := make([]string, len(starts))
	for i, s := range starts {
		parts[i] = fmt.Sprint(s + 1)
		if ways[s] > 1 {
			parts[i] += fmt.Sprintf(" (in %d ways)", ways[s])
		}
	}
	if len(starts) == 1 {
		return fmt.Sprintf("line %d in %d ways that change the file differently", starts[0]+1, ways[starts[0]])
	}
	return "lines " + strings.Join(parts, ", ")
}

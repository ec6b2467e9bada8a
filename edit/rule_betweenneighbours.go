// rule_betweenneighbours.go: the rule betweenNeighbours, one rule of the placement table.

package edit

// ruleBetweenNeighbours is the rule of that id; see its Statement.
var ruleBetweenNeighbours = Rule{
	ID:        "betweenNeighbours",
	Stage:     StageChoice,
	Verdicts:  []Verdict{Certain},
	Statement: "Of several places, the hunk takes the only one between the places of the hunks before and after it, when the patch lists its hunks in file order.",
}

// orderBounds returns the interval of old lines that hunk i must fall in
// if the patch lists its hunks in file order: after the nearest placed
// hunk before it and before the nearest placed hunk after it. ordered is
// false when the patch is not in file order: the placed hunks, or the
// line numbers of the hunk headers, go backwards.
func orderBounds(i int, chosen []*candidate, hunks []*Hunk) (lo, hi int, by []int, ordered bool) {
	// Evidence of order: two header line numbers, or two placed hunks,
	// in increasing order, and none going backwards.
	last, seen := -1, 0
	for _, h := range hunks {
		if h.HasNumbers && h.OldStart > 0 {
			if h.OldStart < last {
				return 0, 0, nil, false
			}
			last = h.OldStart
			seen++
		}
	}
	numbered := seen >= 2
	// Twins placed without header numbers took their places in the
	// order the patch lists them, which is what is in question here:
	// their places say nothing of the patch's order.
	placed := func(c *candidate) bool { return c != nil && (numbered || len(c.twins) == 0) }
	last, seen = -1, 0
	for _, c := range chosen {
		if !placed(c) {
			continue
		}
		if c.start < last {
			return 0, 0, nil, false
		}
		last = c.start
		seen++
	}
	if !numbered && seen < 2 {
		return 0, 0, nil, false
	}
	lo, hi = 0, 1<<62
	for j := i - 1; j >= 0; j-- {
		if placed(chosen[j]) {
			lo = chosen[j].end()
			by = append(by, j)
			break
		}
	}
	for j := i + 1; j < len(chosen); j++ {
		if placed(chosen[j]) {
			hi = chosen[j].start
			by = append(by, j)
			break
		}
	}
	return lo, hi, by, true
}

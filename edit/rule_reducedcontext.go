// rule_reducedcontext.go: the rule reducedContext, one rule of the placement table.

package edit

import (
	"fmt"
	"slices"
)

// ruleReducedContext is the rule of that id; see its Statement.
var ruleReducedContext = Rule{
	ID:        "reducedContext",
	Stage:     StageCandidates,
	Verdicts:  []Verdict{Certain},
	Statement: "With git apply -C<n>, a hunk whose lines fit nowhere as written fits with its outermost context lines left out as git leaves them out, the longer side first, down to n lines on each side.",
}

// reducedContext is git apply -C<n> (PlaceOptions.Context): when h fits
// nowhere letter for letter (or by a strict level), it leaves out its
// outermost context lines as git apply does: from the side with more,
// or from both when they have as many, until a shorter hunk fits or
// both sides are down to n lines. It returns the shorter hunk and its
// places, or nil. A hunk that fits as written, or whose every line
// would go, is not shortened.
func (pl *placer) reducedContext(h *Hunk) (*Hunk, []candidate) {
	if !pl.opts.ContextGiven || len(pl.strictPlaces(h.Lines)) > 0 {
		return nil, nil
	}
	n := max(pl.opts.Context, 0)
	sh := hunkShape(h.Lines)
	if sh.lastChange < 0 {
		return nil, nil
	}
	lines := h.Lines
	lead, trail, dropped := sh.lead, sh.trail, 0
	for lead > n || trail > n {
		if lead >= trail {
			lines, lead, dropped = lines[1:], lead-1, dropped+1
		}
		if trail > lead {
			lines, trail = lines[:len(lines)-1], trail-1
		}
		if !slices.ContainsFunc(lines, func(l Line) bool { return l.Kind != Add }) {
			return nil, nil // no line left to find it by
		}
		if cs := pl.strictPlaces(lines); len(cs) > 0 {
			short := *h
			short.Lines = lines
			if short.OldStart > 0 {
				short.OldStart += dropped
			}
			for k := range cs {
				cs[k].asGit = true
				cs[k].notes = append(cs[k].notes, fmt.Sprintf("placed with %d of its context lines left out (git apply -C%d)", len(h.Lines)-len(lines), pl.opts.Context))
			}
			return &short, cs
		}
	}
	return nil, nil
}

// strictPlaces returns the places lines fit at the strictest level that
// finds any, without the tolerant passes.
func (pl *placer) strictPlaces(lines []Line) []candidate {
	pre := pl.preOf(lines)
	if len(pre) == 0 {
		return nil
	}
	for lv := pl.firstLevel(); lv < numLevels; lv++ {
		starts := pl.exact(preKeys(pre, lv), lv)
		if len(starts) == 0 {
			continue
		}
		cs := exactCandidates(starts, len(pre), lv)
		pl.ignoreWhitespace(cs, pre)
		return cs
	}
	return nil
}

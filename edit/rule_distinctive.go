// rule_distinctive.go: the rule distinctive, one rule of the placement table.

package edit

import (
	"slices"
	"strings"
)

// ruleDistinctive is the rule of that id; see its Statement.
var ruleDistinctive = Rule{
	ID:        "distinctive",
	Stage:     StageChoice,
	Verdicts:  []Verdict{Refuse},
	Statement: "A loose fit that rests only on lines common in the file is refused, unless the header's line number pins it (pinnedByNumber).",
}

// distinctMaxOcc is how often a line may occur in the file and still
// anchor a fuzzy placement.
const distinctMaxOcc = 2

// distinctive reports whether a fuzzy alignment is pinned to its place:
// some run of its lines equal to consecutive file lines (at the loosest
// level, not all blank, none next to a changed line) occurs nowhere else
// in the file, or a line it
// takes as changed is similar to a line rare in the file while its own
// text is nowhere in the file. Lines like "}" or "return nil" prove
// nothing: in repetitive code a tolerant pass would find them anywhere.
func (fx *fileIndex) distinctive(pre []preLine, pk []string, align []int) bool {
	// Equality as the fuzzy pass counts it: up to trailing whitespace.
	tk := preKeys(pre, levelTrailing)
	tidx := fx.indexAt(levelTrailing)
	tfk := fx.keysAt(levelTrailing)
	idx := fx.indexAt(levelLookalike)
	fk := fx.keysAt(levelLookalike)
	informative := -1 // computed once, when first needed
	for j := 0; j < len(align); {
		fi := align[j]
		if fi < 0 {
			j++
			continue
		}
		if tk[j] != tfk[fi] || pre[j].nearAdd {
			if tk[j] != tfk[fi] && !pre[j].nearAdd && pk[j] != "" && fk[fi] != "" && len(idx[fk[fi]]) <= distinctMaxOcc && len(idx[pk[j]]) == 0 {
				return true
			}
			j++
			continue
		}
		// The run of equal lines from j. Lines next to changed lines do
		// not count: one of them may be an added line written as context.
		e := j + 1
		for e < len(align) && align[e] == align[e-1]+1 && tk[e] == tfk[align[e]] && !pre[e].nearAdd {
			e++
		}
		run := tk[j:e]
		if slices.ContainsFunc(run, func(k string) bool { return strings.TrimSpace(k) != "" }) &&
			len(fx.exact(run, levelTrailing)) == 1 {
			if informative < 0 {
				informative = fx.informative(tk, tidx, tfk, align)
			}
			if informative >= 2 {
				return true
			}
		}
		j = e
	}
	return false
}

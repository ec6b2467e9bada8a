// rule_lostatedge.go: the rule lostAtEdge, one rule of the placement table.

package edit

import "slices"

// ruleLostAtEdge is the rule of that id; see its Statement.
var ruleLostAtEdge = Rule{
	ID:        "lostAtEdge",
	Stage:     StageCheck,
	Verdicts:  []Verdict{Certain},
	Statement: "A git hunk one context line short, that fits letter for letter at one place only, lost the outermost line of its short side.",
}

// lostAtEdge reports, for a hunk placed as r one context line short of
// git's shape on one side, on lines the file has letter for letter in a
// row, that the line it lost can only be the outermost of that side:
// nowhere in the file do its lines fit with one more line among the
// context of that side, or between it and the added lines, that would
// put the added lines elsewhere or indent them otherwise. A changelog's
// new entry before an old one's heading and one blank line, where git
// wrote two blank lines, is the case.
func (pl *placer) lostAtEdge(pre []preLine, align []int, r Resolved) bool {
	if pl.shapeDeficit(r) != 1 || len(align) == 0 {
		return false
	}
	for j, a := range align {
		if a < 0 || a != align[0]+j || pre[j].text != pl.file[a] {
			return false // lines lost or changed inside already
		}
	}
	sh := hunkShape(r.Lines)
	for _, l := range r.Lines[sh.firstChange : sh.lastChange+1] {
		if l.Kind != Add {
			return false // one group of added lines only
		}
	}
	pk := preKeys(pre, levelLookalike)
	if len(pl.exact(pk, levelLookalike)) != 1 {
		return false
	}
	fk := pl.keysAt(levelLookalike)
	lead := sh.lead // the pre-image index the added lines go before
	at := align[0] + lead
	// Where a line lost before pre[k] puts the added lines, at a place
	// where pre[:k], one more line and pre[k:] are the file's.
	// The short side must keep a line: else its outermost line is next
	// to the added lines, and their order unknown.
	var ks []int
	if after := len(pl.file) - (r.Start + r.OldCount()); sh.trail < min(pl.context, after) {
		if sh.trail == 0 {
			return false
		}
		for k := lead; k < len(pk); k++ {
			ks = append(ks, k)
		}
	} else {
		if lead == 0 {
			return false
		}
		for k := 1; k <= lead; k++ {
			ks = append(ks, k)
		}
	}
	for _, k := range ks {
		var starts []int
		if k > 0 {
			starts = pl.exact(pk[:k], levelLookalike)
		} else {
			// The lost line first: any line before the hunk's lines.
			for _, e := range pl.exact(pk, levelLookalike) {
				if e > 0 {
					starts = append(starts, e-1)
				}
			}
		}
		for _, s := range starts {
			if s+len(pk)+1 > len(fk) || !slices.Equal(fk[s+k+1:s+len(pk)+1], pk[k:]) {
				continue
			}
			// The added lines go before pre[lead], the lost line before
			// pre[k]: both orders where the two meet.
			alt := s + lead
			if k <= lead {
				alt++
			}
			if alt != at || k == lead {
				return false
			}
			// The same place for the added lines, but a reading that
			// re-indents them otherwise, unless its lines are the
			// patch's letter for letter too.
			for j := range pre {
				if i := s + j + min(1, max(0, j-k+1)); pre[j].text != pl.file[i] {
					return false
				}
			}
		}
	}
	return true
}

// rule_atedge.go: the rule atEdge, one rule of the placement table.

package edit

// ruleAtEdge is the rule of that id; see its Statement.
var ruleAtEdge = Rule{
	ID:        "atEdge",
	Stage:     StageCandidates,
	Verdicts:  []Verdict{Certain},
	Statement: "A git hunk too short to search loosely, with no context on one side, goes at that end of the file when its lines are the file's there but for one line the patch lost.",
}

// atEdge places a git hunk with no context on one side at that end of the
// file, where git puts it (it writes context wherever the file goes on),
// when its context lines are the file's first (or last) lines but for one
// line the patch left out between them: a hunk too short for the fuzzy
// pass, adding lines at the top of a changelog, say. Its first context
// line must be the file's first line (its last, the last): the end of the
// file, not a search, gives the place. It must fit in exactly one way.
// A hunk with no context on either side is the whole file: its lines
// must be the file's, less one line between two of them (a blank line
// between two replaced lines of a three-line module).
func (pl *placer) atEdge(h *Hunk, pre []preLine) []candidate {
	sh := hunkShape(h.Lines)
	if pl.context == 0 || len(pre) < 2 || len(pre)+1 > len(pl.file) || sh.lead > 0 && sh.trail > 0 {
		return nil
	}
	if sh.lead == 0 && sh.trail == 0 && len(pre)+1 != len(pl.file) {
		return nil // no context at all: the hunk is the whole file, less the line it lost
	}
	pk := preKeys(pre, levelTrailing)
	fk := pl.keysAt(levelTrailing)
	var found []candidate
	// skip is the index of the pre-image line before which one file line
	// is left out; from the start, line j sits on file line j (or j+1
	// after the skip), from the end on the mirror of that.
	for skip := 1; skip < len(pre); skip++ {
		align := make([]int, len(pre))
		ok := true
		for j := range pre {
			fi := j
			if j >= skip {
				fi++
			}
			if sh.trail == 0 {
				fi = len(pl.file) - len(pre) - 1 + fi
			}
			if pk[j] != fk[fi] {
				ok = false
				break
			}
			align[j] = fi
		}
		if ok {
			c := newCandidate(align, PassFuzzy, levelTrailing, unit)
			c.distinct = true
			found = append(found, c)
		}
	}
	if len(found) != 1 {
		return nil
	}
	return found
}

// rule_addedinstead.go: the rule addedInstead, one rule of the placement table.

package edit

import (
	"fmt"
	"slices"
)

// ruleAddedInstead is the rule of that id; see its Statement.
var ruleAddedInstead = Rule{
	ID:        "addedInstead",
	Stage:     StageCandidates,
	Verdicts:  []Verdict{Refuse},
	Statement: "A loose fit that needs file lines missing from the patch is refused when the hunk fits exactly with one context line read as an added line that lost its '+'.",
}

// addedInstead refuses loose fits that leave out file lines when the
// hunk has another reading as good: one of its context lines is an added
// line the patch wrote as context, and without it the hunk fits exactly.
// A lost line is a guess the fuzzy pass makes; the exact fit of the rest
// needs none. A patch's added line has context on both sides, but where
// the file begins or ends: the hunk's first and last lines are tried only
// in a diff git made, whose shape says where the file ends, and every
// reading must keep git's shape there (see gitShaped).
func (pl *placer) addedInstead(lines []Line, pre []preLine, cs []candidate) error {
	if !slices.ContainsFunc(cs, func(c candidate) bool { return gaps(c.align) }) {
		return nil
	}
	pk := preKeys(pre, levelLookalike)
	for k, p := range pre {
		if p.kind != Context || ((k == 0 || k == len(pre)-1) && pl.gitLines() == 0) {
			continue
		}
		rest := slices.Concat(pk[:k], pk[k+1:])
		for _, at := range pl.exact(rest, levelLookalike) {
			if pl.gitShaped(lines, p.at, at, at+len(rest)) {
				return fmt.Errorf("%w: it fits only if file lines are missing from the patch, while without its context line %q, taken as an added line written as context, it fits exactly at line %d", ErrAmbiguous, p.text, at+k+1)
			}
		}
	}
	return nil
}

// addedReading reports whether hunk line jj, which alignment al takes as
// a changed copy of its file line, could as well be an added line written
// as context: the hunk without it fits the file here (the lines after it
// one line earlier, or those before it one line later), or fits exactly
// somewhere.
func (pl *placer) addedReading(lines []Line, body []preLine, bk, fk []string, al []int, jj int) bool {
	shifted := func(from, to, by int) bool {
		for k := from; k < to; k++ {
			if i := al[k] + by; i < 0 || i >= len(fk) || fk[i] != bk[k] {
				return false
			}
		}
		return true
	}
	last := len(al) - 1
	// The hunk's other lines after jj one line earlier, or those before it
	// one line later: [start, end) is where they lie.
	if shifted(jj+1, len(al), -1) {
		start, end := al[0], al[last]
		if jj == 0 {
			start = al[1] - 1
		}
		if jj == last {
			end = al[jj-1] + 1
		}
		if pl.gitShaped(lines, body[jj].at, start, end) {
			return true
		}
	}
	if shifted(0, jj, 1) {
		start, end := al[0]+1, al[last]+1
		if jj == 0 {
			start = al[1]
		}
		if jj == last {
			end = al[jj-1] + 2
		}
		if pl.gitShaped(lines, body[jj].at, start, end) {
			return true
		}
	}
	rest := append(slices.Clone(bk[:jj]), bk[jj+1:]...)
	for _, at := range pl.exact(rest, levelLookalike) {
		if pl.gitShaped(lines, body[jj].at, at, at+len(rest)) {
			return true
		}
	}
	return false
}

// gitShaped reports whether the current hunk, with its line at taken as
// an added line and its other old lines on file lines [start, end), has
// the shape git gives hunks: as many context lines on each side as git
// wrote elsewhere in the diff, unless the file begins or ends there. A
// hunk of a diff git did not make has any shape.
func (pl *placer) gitShaped(lines []Line, at, start, end int) bool {
	n := pl.gitLines()
	if n == 0 || lines == nil {
		return true
	}
	sh := hunkShape(lines)
	lead := min(sh.firstChange, at)
	trail := len(lines) - 1 - max(sh.lastChange, at)
	return (lead >= n || start <= 0) && (trail >= n || end >= len(pl.file))
}

// gitLines is the number of context lines git wrote on each side of the
// hunks, for the readings that rest on it: 0 unless git made the diff
// and some hunk shows that many (see gitCtx). Refusals (see checkShape)
// use the number as it is.
func (pl *placer) gitLines() int {
	if !pl.contextShown {
		return 0
	}
	return pl.context
}

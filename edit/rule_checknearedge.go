// rule_checknearedge.go: the rule checkNearEdge, one rule of the placement table.

package edit

import (
	"fmt"
	"slices"
	"strings"
)

// ruleCheckNearEdge is the rule of that id; see its Statement.
var ruleCheckNearEdge = Rule{
	ID:        "checkNearEdge",
	Stage:     StageCheck,
	Verdicts:  []Verdict{Refuse},
	Statement: "A hunk placed one line from the start or end of the file, short of context on that side, where that line read as a lost context line would change the result, is refused; the reading at the edge is offered for review.",
}

// checkNearEdge refuses a hunk placed one file line away from the start
// (or the end) of the file, on a side with fewer context lines than git
// writes, where reading that line as a context line the patch lost puts
// the hunk at the file's edge and changes the result. git writes short
// context only at an edge of the file, so such a hunk most likely lost a
// line inside it: three added lines of a licence header and then "",
// "import (" fit letter for letter after a Go file's "package" line, but
// the header belongs before it. The reading at the edge, when there is
// one only that keeps the added lines together, is offered for review.
func (pl *placer) checkNearEdge(r Resolved) *resolveErr {
	sh := hunkShape(r.Lines)
	if sh.lastChange < 0 {
		return nil
	}
	c := pl.gitLines()
	if c == 0 {
		c = 3 // git's default: what a diff without its shape would show
	}
	n, end := len(pl.file), r.Start+r.OldCount()
	var x, outside int // the file line the patch may have lost, and where r leaves it
	switch {
	case r.Start == 1 && sh.lead < c:
		x, outside = 0, 0
	case end == n-1 && sh.trail < c:
		x, outside = n-1, len(r.Lines)
	default:
		return nil
	}
	from, to := min(r.Start, x), max(end, x+1) // the file lines of a reading at the edge
	lost := Line{Kind: Context, Text: pl.file[x]}
	base := newSide(slices.Insert(slices.Clone(r.Lines), outside, lost))
	seen := map[string]bool{strings.Join(base, "\n"): true}
	var doubted *Resolved
	offers := 0
	for q := 1; q < len(r.Lines); q++ {
		if r.Lines[q-1].Kind != Context && r.Lines[q].Kind != Context {
			continue // git writes a change group's lines together
		}
		ls := slices.Concat(r.Lines[:q], []Line{lost}, r.Lines[q:])
		if !slices.Equal(oldSide(ls), pl.file[from:to]) {
			continue
		}
		res := strings.Join(newSide(ls), "\n")
		if seen[res] {
			continue
		}
		seen[res] = true
		if offers++; offers == 1 {
			d := r
			d.Start, d.Lines = from, ls
			d.Notes = append(slices.Clone(r.Notes), fmt.Sprintf("file line %d read as a context line the patch lost", x+1))
			d.Pass = max(d.Pass, PassFuzzy)
			doubted = &d
		}
	}
	if len(seen) == 1 {
		return nil // every reading at the edge changes the file as r does
	}
	where, side, have := "after the first line of the file", "before", sh.lead
	if x != 0 {
		where, side, have = "before the last line of the file", "after", sh.trail
	}
	err := &resolveErr{err: ErrAmbiguous, rule: ruleCheckNearEdge.ID, detail: fmt.Sprintf(
		"the hunk fits %s with %d context line(s) %s its changes, where git writes %d except at an edge of the file: it probably lost a context line, and file line %d may belong inside it, which would change where its lines go",
		where, have, side, c, x+1)}
	if offers == 1 {
		err.doubted = doubted
	}
	return err
}

// rule_checkshape.go: the rule checkShape, one rule of the placement table.

package edit

import "fmt"

// ruleCheckShape is the rule of that id; see its Statement.
var ruleCheckShape = Rule{
	ID:        "checkShape",
	Stage:     StageCheck,
	Verdicts:  []Verdict{Refuse},
	Statement: "A git hunk with fewer context lines next to its added lines than git writes lost a context line there: where its added lines go is unknown, and it is refused.",
}

// checkShape refuses a resolved hunk of a git-made diff whose context is
// shorter on one side than git would have written, where the change group
// on that side only adds lines: a context line was lost there, and whether
// the added lines go before or after it is unknown.
func (pl *placer) checkShape(r Resolved) *resolveErr {
	if pl.shapeDeficit(r) > 0 {
		return &resolveErr{err: ErrAmbiguous, rule: ruleCheckShape.ID, detail: fmt.Sprintf(
			"the hunk has fewer context lines next to its added lines than the rest of this git diff (%d), so a context line is probably missing and where the added lines go is uncertain", pl.context)}
	}
	return nil
}

// shapeDeficit counts the context lines a hunk placed as r lacks beside
// a group of added lines only, by git's count, where the file goes on:
// the fewest lines the patch must have lost for r to be git's hunk.
func (pl *placer) shapeDeficit(r Resolved) int {
	sh := hunkShape(r.Lines)
	if pl.context == 0 || sh.lastChange < 0 {
		return 0
	}
	insertion := func(from, step int) bool { // the change group from index from
		for i := from; i >= 0 && i < len(r.Lines) && r.Lines[i].Kind != Context; i += step {
			if r.Lines[i].Kind == Delete {
				return false
			}
		}
		return true
	}
	before := r.Start + sh.lead // file lines before the first change
	after := len(pl.file) - (r.Start + r.OldCount())
	n := 0
	if want := min(pl.context, before); sh.lead < want && insertion(sh.firstChange, 1) {
		n += want - sh.lead
	}
	if want := min(pl.context, after); sh.trail < want && insertion(sh.lastChange, -1) {
		n += want - sh.trail
	}
	return n
}

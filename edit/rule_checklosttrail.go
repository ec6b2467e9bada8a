// rule_checklosttrail.go: the rule checkLostTrail, one rule of the placement table.

package edit

import (
	"fmt"
	"slices"
	"strings"
)

// ruleCheckLostTrail is the rule of that id; see its Statement.
var ruleCheckLostTrail = Rule{
	ID:        "checkLostTrail",
	Stage:     StageCheck,
	Verdicts:  []Verdict{Likely},
	Statement: "A hunk that ends with added lines leaving an indented block the file goes on with, and no context after them, probably lost its trailing context: its place is only likely.",
}

// checkLostTrail refuses a hunk that ends with added lines, no context
// after them, where the file goes on with an indented block and the added
// lines leave that block (a new function after a statement of another,
// say). Its trailing context was most likely lost:
// inserted there, the added lines would take the rest of the block with
// them (the rest of a test's assertions, moved into the new function).
func (pl *placer) checkLostTrail(r Resolved) *resolveErr {
	sh := hunkShape(r.Lines)
	if sh.lastChange < 0 || sh.trail > 0 || sh.lead == 0 {
		return nil
	}
	// The last change group, which must only add lines.
	first := sh.lastChange
	for first > 0 && r.Lines[first-1].Kind != Context {
		first--
	}
	added := r.Lines[first:]
	if slices.ContainsFunc(added, func(l Line) bool { return l.Kind == Delete }) {
		return nil
	}
	at := r.Start + r.OldCount() // the file line the added lines go before
	next := -1                   // the first non-blank line after them
	for i := at; i < len(pl.file); i++ {
		if strings.TrimSpace(pl.file[i]) != "" {
			next = i
			break
		}
	}
	if next < 0 {
		return nil
	}
	var add string // the first non-blank added line
	for _, l := range added {
		if strings.TrimSpace(l.Text) != "" {
			add = l.Text
			break
		}
	}
	in := indentWidth(pl.file[next])
	if in == 0 || add == "" || indentWidth(add) >= in {
		return nil
	}
	return &resolveErr{err: ErrAmbiguous, rule: ruleCheckLostTrail.ID, detail: fmt.Sprintf(
		"the hunk ends with added lines that leave the indented block which the file continues at line %d, with no context after them: its trailing context was probably lost, and those lines may belong after the block", next+1)}
}

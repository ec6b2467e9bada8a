// rule_completeedge.go: the rule completeEdge, one rule of the placement table.

package edit

import (
	"fmt"
	"slices"
)

// ruleCompleteEdge is the rule of that id; see its Statement.
var ruleCompleteEdge = Rule{
	ID:        "completeEdge",
	Stage:     StageCheck,
	Verdicts:  []Verdict{Certain},
	Statement: "A git hunk that only inserts lines, short of context on one side, whose lines up to that end of the file are what it lacks, ends (or starts) the file.",
}

// completeEdge reads a git hunk that only inserts lines, with no context
// on one side and too little on the other, as an insertion at the end (or
// the start) of the file, when the file lines between its context and
// that end are exactly the lines its short side lacks. git writes context
// after added lines whenever the file goes on: a hunk with none ends the
// file, and the lines after its context are context lines the patch lost.
// The other reading, the added lines right after the context and the file
// going on, would have lost those lines as trailing context and still have
// too short a side (the hunk does not start the file): more was lost.
func (pl *placer) completeEdge(r *Resolved) {
	sh := hunkShape(r.Lines)
	n := pl.gitLines()
	if n == 0 || sh.lastChange < 0 {
		return
	}
	for _, l := range r.Lines[sh.firstChange : sh.lastChange+1] {
		if l.Kind != Add {
			return // not one group of added lines
		}
	}
	end := r.Start + r.OldCount()
	note := func(from, to int, edge string) {
		r.Notes = append(r.Notes, fmt.Sprintf("file line(s) %d-%d missing from the patch kept as context: git writes context wherever the file goes on, so the added lines %s the file", from+1, to, edge))
		// Lines the patch lost make it a tolerant reading, whatever pass
		// found the lines it has.
		r.Pass = max(r.Pass, PassFuzzy)
		r.Rules = append(r.Rules, ruleCompleteEdge.ID)
	}
	switch k := len(pl.file) - end; {
	case sh.trail == 0 && sh.lead > 0 && k > 0 && sh.lead+k == n && r.Start > 0:
		out := slices.Concat(r.Lines[:sh.firstChange], pl.contextLines(end, len(pl.file)), r.Lines[sh.firstChange:])
		note(end, len(pl.file), "end")
		r.Lines = out
	case sh.lead == 0 && sh.trail > 0 && r.Start > 0 && sh.trail+r.Start == n && k > 0:
		out := slices.Concat(r.Lines[:sh.lastChange+1], pl.contextLines(0, r.Start), r.Lines[sh.lastChange+1:])
		note(0, r.Start, "start")
		r.Lines, r.Start = out, 0
	}
}

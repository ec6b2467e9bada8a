// rule_blankedge.go: the rule blankEdge, one rule of the placement table.

package edit

import (
	"slices"
	"strings"
)

// ruleBlankEdge is the rule of that id; see its Statement.
var ruleBlankEdge = Rule{
	ID:        "blankEdge",
	Stage:     StageCandidates,
	Verdicts:  []Verdict{Certain},
	Statement: "A hunk without line numbers (a SEARCH block) that fits nowhere, whose first or last line is a blank line it deletes, is read without that line where the rest fits strictly: the block's blank edge line is no line of the file.",
}

// blankEdge returns h without its blank deleted first (or last) line,
// and the candidates of what is left, when h has no line numbers, what
// is left has other lines to delete, and it fits without a loose pass.
func (pl *placer) blankEdge(h *Hunk) (*Hunk, []candidate) {
	if h.HasNumbers || len(h.Lines) < 2 {
		return nil, nil
	}
	blankDel := func(l Line) bool { return l.Kind == Delete && strings.TrimSpace(l.Text) == "" }
	lines := h.Lines
	if blankDel(lines[0]) {
		lines = lines[1:]
	}
	if len(lines) > 1 && blankDel(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == len(h.Lines) || !slices.ContainsFunc(lines, func(l Line) bool { return l.Kind == Delete }) {
		return nil, nil
	}
	nh := *h
	nh.Lines = lines
	cs, _, err := pl.candidates(&nh)
	if err != nil || len(cs) == 0 || slices.ContainsFunc(cs, func(c candidate) bool { return c.pass >= PassFuzzy }) {
		return nil, nil
	}
	return &nh, cs
}

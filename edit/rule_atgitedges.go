// rule_atgitedges.go: the rule atGitEdges, one rule of the placement table.

package edit

import (
	"fmt"
	"slices"
)

// ruleAtGitEdges is the rule of that id; see its Statement.
var ruleAtGitEdges = Rule{
	ID:        "atGitEdges",
	Stage:     StageCandidates,
	Verdicts:  []Verdict{Certain},
	Statement: "Of several places, a git hunk short of context on one side takes the one at that end of the file, where git stops writing context.",
}

// atGitEdges keeps, of several places a git hunk fits, those at the end
// of the file its shape asks for: git writes as many context lines on
// each side of a hunk as everywhere in its diff wherever the file goes
// on, so a side with fewer puts the hunk at that end of the file (a
// README's closing lines, repeated further up, then the lines it
// appends). When no candidate, or every one, is at those ends, it returns
// them all.
//
// A hunk of a diff git did not make has any shape, even three lines on
// one side and none on the other: a model that adds a function after
// one of two test methods that end alike, and stops, means the one it
// read, and the end of the file is only one of them (FuzzPythonIndent).
func (pl *placer) atGitEdges(h *Hunk, cs []candidate) []candidate {
	n := pl.gitLines()
	// A loose fit's sides are not the hunk's as written: lines the patch
	// lost may lie on them.
	if n == 0 || slices.ContainsFunc(cs, func(c candidate) bool { return c.pass >= PassFuzzy }) {
		return cs
	}
	sh := hunkShape(h.Lines)
	if sh.lastChange < 0 || (sh.lead >= n && sh.trail >= n) {
		return cs
	}
	var at []candidate
	for _, c := range cs {
		if (sh.lead >= n || c.start == 0) && (sh.trail >= n || c.end() == len(pl.file)) {
			at = append(at, c)
		}
	}
	if len(at) == 0 || len(at) == len(cs) {
		return cs
	}
	edge := "end"
	if sh.lead < n {
		edge = "start"
	}
	for i := range at {
		at[i].notes = append(at[i].notes, fmt.Sprintf("%d places matched; chose the one at the %s of the file, where git's %d lines of context stop short", len(cs), edge, n))
	}
	return at
}

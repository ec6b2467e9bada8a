// rule_noopascontext.go: the rule noOpAsContext, one rule of the placement table.

package edit

import "slices"

// ruleNoOpAsContext is the rule of that id; see its Statement.
var ruleNoOpAsContext = Rule{
	ID:        "noOpAsContext",
	Stage:     StageCheck,
	Verdicts:  []Verdict{Likely},
	Statement: "A hunk whose only changes delete lines and add them back unchanged (-} +}) is read, for an interpretation, with those lines as context: the model likely wrote its fix into a context line (applied only on request, --interpret).",
}

// noOpAsContext returns h with each change group that adds back exactly
// the lines it deletes written as those lines in context, when every
// change group of h is such a pair.
func noOpAsContext(h *Hunk) (*Hunk, bool) {
	var lines []Line
	for i := 0; i < len(h.Lines); {
		if h.Lines[i].Kind == Context {
			lines = append(lines, h.Lines[i])
			i++
			continue
		}
		j := i
		for j < len(h.Lines) && h.Lines[j].Kind != Context {
			j++
		}
		group := h.Lines[i:j]
		del, add := side(group, Add), side(group, Delete)
		if len(del) == 0 || !slices.Equal(del, add) {
			return nil, false
		}
		for _, t := range del {
			lines = append(lines, Line{Kind: Context, Text: t})
		}
		i = j
	}
	nh := *h
	nh.Lines = lines
	return &nh, true
}

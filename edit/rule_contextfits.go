// rule_contextfits.go: the rule contextFits, one rule of the placement table.

package edit

// ruleContextFits is the rule of that id; see its Statement.
var ruleContextFits = Rule{
	ID:        "contextFits",
	Stage:     StageCheck,
	Verdicts:  []Verdict{Refuse},
	Statement: "A hunk of context lines only that fits the file exactly changes nothing there: no reading shifted to another place, where one of its lines differs, is offered for it.",
}

// contextFits reports whether h has no changes and its lines fit the
// file exactly, at some place: then it says the file is as it is, and an
// interpretation of it elsewhere (a window shifted by a line, one of its
// lines a small edit of the file's) would change a line it never marked.
func (fx *fileIndex) contextFits(h *Hunk, pre []preLine) bool {
	return !h.Changes() && len(fx.exact(preKeys(pre, levelExact), levelExact)) > 0
}

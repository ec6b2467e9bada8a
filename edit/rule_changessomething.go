// rule_changessomething.go: the rule changesSomething, one rule of the placement table.

package edit

// ruleChangesSomething is the rule of that id; see its Statement.
var ruleChangesSomething = Rule{
	ID:        "changesSomething",
	Stage:     StageCandidates,
	Verdicts:  []Verdict{Refuse},
	Statement: "A hunk that adds and deletes nothing, or adds back exactly the lines it deletes, changes nothing and is refused.",
}

// changes reports whether a resolved hunk changes the file: its lines, or
// the file's final newline.
func (fx *fileIndex) changes(r Resolved) bool {
	return changes(r.Lines) ||
		(r.FinalNewline == NewlineAdd && !fx.finalNewline) ||
		(r.FinalNewline == NewlineRemove && fx.finalNewline)
}

// changes reports whether lines change anything: their old side differs
// from their new side, in a line's text or in its ending where the patch
// gives endings.
func changes(lines []Line) bool {
	// Walk both sides at once: i on the old side, j on the new.
	next := func(k int, skip Kind) int {
		for k < len(lines) && lines[k].Kind == skip {
			k++
		}
		return k
	}
	i, j := next(0, Add), next(0, Delete)
	for i < len(lines) && j < len(lines) {
		if lines[i].Text != lines[j].Text || lines[i].EOL != lines[j].EOL {
			return true
		}
		i, j = next(i+1, Add), next(j+1, Delete)
	}
	return i < len(lines) || j < len(lines)
}

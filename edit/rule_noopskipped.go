// rule_noopskipped.go: the rule noOpSkipped, one rule of the placement table.

package edit

// ruleNoOpSkipped is the rule of that id; see its Statement.
var ruleNoOpSkipped = Rule{
	ID:        "noOpSkipped",
	Stage:     StageFile,
	Verdicts:  []Verdict{Certain},
	Statement: "A hunk that deletes lines and adds them back unchanged, and fits letter for letter at one place only, changes nothing: it is skipped and reported, not refused, unless the patch's other hunks change the file's indentation (then the pair likely lost a difference: unchangedPair).",
}

// strictFit reports whether candidate c fits letter for letter, every
// line where the hunk has it.
func strictFit(c candidate) bool {
	return c.level == levelExact && c.pass == PassExact && c.split == 0
}

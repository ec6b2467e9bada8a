// rule_readingsyntax.go: the rule readingSyntax, one rule of the placement table.

package edit

import "slices"

// ruleReadingSyntax is the rule of that id; see its Statement.
var ruleReadingSyntax = Rule{
	ID:        "readingSyntax",
	Stage:     StageFile,
	Verdicts:  []Verdict{Refuse},
	Statement: "An interpreted or uncertain reading that would make a file which passed its syntax check fail it is not taken, even on request (--interpret): the hunk stays refused, saying why (but for the reading of a hunk the syntax check refused: guard).",
}

// readingBreaks returns why the file old, with hunks and the reading r
// applied, fails the syntax check sc, or "" if it passes.
func readingBreaks(old string, hunks []Resolved, r Resolved, sc syntaxCheck) string {
	all := append(slices.Clone(hunks), r)
	slices.SortStableFunc(all, func(a, b Resolved) int { return a.Start - b.Start })
	out, err := Apply(old, all)
	if err != nil {
		return "the hunks do not apply: " + err.Error()
	}
	return sc.check(out)
}

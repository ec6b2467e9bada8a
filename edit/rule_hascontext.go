// rule_hascontext.go: the rule hasContext, one rule of the placement table.

package edit

// ruleHasContext is the rule of that id; see its Statement.
var ruleHasContext = Rule{
	ID:        "hasContext",
	Stage:     StageCandidates,
	Verdicts:  []Verdict{Refuse},
	Statement: "A hunk with no context or deleted lines has nothing to find its place by: it is placed only in an empty file.",
}

// rule_oneplace.go: the rule onePlace, one rule of the placement table.

package edit

// ruleOnePlace is the rule of that id; see its Statement.
var ruleOnePlace = Rule{
	ID:        "onePlace",
	Stage:     StageChoice,
	Verdicts:  []Verdict{Certain},
	Statement: "A hunk that fits exactly one place takes it.",
}

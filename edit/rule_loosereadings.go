// rule_loosereadings.go: the rule looseReadings, one rule of the placement table.

package edit

// ruleLooseReadings is the rule of that id; see its Statement.
var ruleLooseReadings = Rule{
	ID:        "looseReadings",
	Stage:     StageCandidates,
	Verdicts:  []Verdict{Refuse},
	Statement: "A hunk that fits only loosely, in more than one way or on lines too common to search, is refused.",
}

// rule_fitssomewhere.go: the rule fitsSomewhere, one rule of the placement table.

package edit

// ruleFitsSomewhere is the rule of that id; see its Statement.
var ruleFitsSomewhere = Rule{
	ID:        "fitsSomewhere",
	Stage:     StageCandidates,
	Verdicts:  []Verdict{Refuse},
	Statement: "A hunk whose lines fit nowhere in the file, even loosely, is refused.",
}

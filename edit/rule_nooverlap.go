package edit

// ruleNoOverlap is the rule of that id; see its Statement.
var ruleNoOverlap = Rule{
	ID:        "noOverlap",
	Stage:     StageFile,
	Verdicts:  []Verdict{Refuse},
	Statement: "Two hunks that change the same lines, or where one deletes a line the other keeps, are both refused.",
}

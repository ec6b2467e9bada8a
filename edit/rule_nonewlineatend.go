package edit

// ruleNoNewlineAtEnd is the rule of that id; see its Statement.
var ruleNoNewlineAtEnd = Rule{
	ID:        "noNewlineAtEnd",
	Stage:     StageCandidates,
	Verdicts:  []Verdict{Certain},
	Statement: "A hunk whose old side ends without a final newline goes at the end of the file.",
}

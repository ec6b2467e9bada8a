// rule_interpreted.go: the rule interpreted, one rule of the placement table.

package edit

// ruleInterpreted is the rule of that id; see its Statement.
var ruleInterpreted = Rule{
	ID:        "interpreted",
	Stage:     StageCheck,
	Verdicts:  []Verdict{Likely},
	Statement: "A hunk that fits nowhere as written, but fits where one of its context lines differs from the file, is read as changing that line: offered as interpreted, applied only on request (--interpret).",
}

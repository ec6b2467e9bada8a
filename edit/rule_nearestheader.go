// rule_nearestheader.go: the rule nearestHeader, one rule of the placement table.

package edit

// ruleNearestHeader is the rule of that id; see its Statement.
var ruleNearestHeader = Rule{
	ID:        "nearestHeader",
	Stage:     StageChoice,
	Verdicts:  []Verdict{Certain},
	Statement: "Of several places, the hunk takes the one clearly nearest the line its header names (nearer by more than a factor of two).",
}

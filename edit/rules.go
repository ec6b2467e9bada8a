// rules.go: the table of placement rules: ids, stages, verdicts and statements.

package edit

import "slices"

// RuleID names a rule of placement. The trace of a placed or refused
// hunk (Resolved.Rules, PlacementError.Rules) lists the ids of the rules
// that decided it, in the order they did.
type RuleID string

// Stage is the step of placement a rule belongs to (see doc.go).
type Stage int

// The stages of placement, in the order they run.
const (
	// StageCandidates finds the places a hunk might go.
	StageCandidates Stage = iota
	// StageChoice chooses one place among a hunk's candidates.
	StageChoice
	// StageReading resolves the chosen place into the lines to write: the
	// indentation of the added lines and the order of lost lines.
	StageReading
	// StageCheck judges one hunk's reading.
	StageCheck
	// StageFile judges the readings of a file's hunks together.
	StageFile
)

var stageNames = [...]string{"candidates", "choice", "reading", "check", "file"}

func (s Stage) String() string { return stageNames[s] }

// Verdict is what a rule says of a hunk: it is certain of a place or a
// reading, finds it only likely (offered for review, never applied by
// --yes), or refuses the hunk.
type Verdict int

// The verdicts a rule gives.
const (
	Certain Verdict = iota
	Likely
	Refuse
)

var verdictNames = [...]string{"certain", "likely", "refuse"}

func (v Verdict) String() string { return verdictNames[v] }

// Rule is one rule of placement: its id, the stage it runs in, the
// verdicts it can give, and what it says, in one sentence for a person.
type Rule struct {
	ID        RuleID
	Stage     Stage
	Verdicts  []Verdict
	Statement string
}

// rules is the table of rules, in the order of the stages. Each rule is
// declared in its own file, rule_<id>.go, beside its test; the
// indentation readings and the orders of lost lines are tables of their
// own (indentCases, orderCases), listed here too.
func rules() []*Rule {
	rs := []*Rule{
		&ruleHasContext, &ruleZeroContext, &ruleReducedContext, &ruleIgnoreWhitespace, &ruleChangesSomething, &ruleAlreadyApplied, &ruleAppliedSkipped, &ruleFitsSomewhere, &ruleDuplicateOnce,
		&ruleLooseReadings, &ruleAddedInstead, &ruleSameEffect, &ruleKeepShaped, &ruleFused,
		&ruleAtEdge, &ruleBlankEdge, &ruleBlankRunLength, &ruleNoNewlineAtEnd, &ruleAtGitEdges, &ruleContextAsGit, &rulePinnedEdge,
		&ruleOnePlace, &ruleAssignTwins, &ruleBetweenNeighbours, &ruleNearestHeader,
		&ruleAmbiguous, &ruleDistinctive, &rulePinnedByNumber,
	}
	seen := map[RuleID]bool{ruleChooseOrders.ID: true} // a case of orderCases, listed with the file's rules
	for _, c := range indentCases() {
		rs = append(rs, &c.Rule)
	}
	for _, c := range orderCases() {
		if !seen[c.ID] {
			seen[c.ID] = true
			rs = append(rs, &c.Rule)
		}
	}
	return append(rs,
		&ruleCompleteEdge, &ruleCheckShape, &ruleLostAtEdge, &ruleCheckLostTrail, &ruleCheckNearEdge, &ruleInterpreted, &ruleNoOpAsContext, &ruleContextFits,
		&ruleNoOpSkipped, &ruleNothingToApply, &ruleReadingSyntax, &ruleDropTwins, &ruleDropBound, &ruleNoOverlap, &ruleGuard, &ruleChooseOrders,
	)
}

// Rules returns the rules of placement, in the order of their stages.
func Rules() []Rule {
	var out []Rule
	for _, r := range rules() {
		out = append(out, *r)
	}
	return out
}

// RuleByID returns the rule with the given id.
func RuleByID(id RuleID) (Rule, bool) {
	i := slices.IndexFunc(rules(), func(r *Rule) bool { return r.ID == id })
	if i < 0 {
		return Rule{}, false
	}
	return *rules()[i], true
}

// traced returns trace with ids appended, without sharing trace's array.
func traced(trace []RuleID, ids ...RuleID) []RuleID {
	return append(slices.Clip(trace), ids...)
}

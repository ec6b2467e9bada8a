// rule_nothingtoapply.go: the rule nothingToApply, one rule of the placement table.

package edit

import "fmt"

// ruleNothingToApply is the rule of that id; see its Statement.
var ruleNothingToApply = Rule{
	ID:        "nothingToApply",
	Stage:     StageFile,
	Verdicts:  []Verdict{Refuse},
	Statement: "A patch whose every hunk would be skipped (it changes nothing, is applied already, or repeats another) changes nothing at all: its hunks are refused, saying so.",
}

// nothingToApply refuses the skipped hunks of plans when the patch
// changes nothing else: no hunk placed or refused, no file created,
// deleted, renamed or given a mode.
func nothingToApply(plans []*FilePlan) {
	skipped := 0
	for _, p := range plans {
		if len(p.Hunks) > 0 || len(p.Errors) > 0 || p.OldPath != p.NewPath || p.Diff.ModeChange() {
			return
		}
		skipped += len(p.Skipped)
	}
	if skipped == 0 {
		return
	}
	for _, p := range plans {
		for _, e := range p.Skipped {
			e.Skip = false
			e.Rules = traced(e.Rules, ruleNothingToApply.ID)
			e.Detail = fmt.Sprintf("%s; the patch changes nothing else, so there is nothing to apply", e.Detail)
		}
		p.Errors, p.Skipped = p.Skipped, nil
	}
}

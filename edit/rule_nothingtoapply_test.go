package edit_test

import (
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// TestRuleNothingToApply: a patch whose only hunk would be skipped
// changes nothing at all: it is refused, saying so.
func TestRuleNothingToApply(t *testing.T) {
	patch := "--- a/f\n+++ b/f\n" + appliedHunk
	p := edit.PlanFile("f", "f", appliedOld, onlyFile(t, patch))
	if len(p.Errors) != 1 || len(p.Skipped) != 0 || len(p.Hunks) != 0 {
		t.Fatalf("placed %d, refused %v, skipped %v; want the hunk refused", len(p.Hunks), p.Errors, p.Skipped)
	}
	e := p.Errors[0]
	if e.Skip || lastRule(e) != "nothingToApply" || !strings.Contains(e.Detail, "nothing to apply") {
		t.Errorf("refused %v (rules %v), want it refused by nothingToApply, saying so", e, e.Rules)
	}
}

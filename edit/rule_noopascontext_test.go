package edit_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// TestRuleNoOpAsContext: a real model's habit: the fix written into a
// context line, and a "-}" "+}" pair that changes nothing added after
// it. Before, the hunk was refused as changing nothing, with no reading;
// now its interpreted reading makes the fix, and leaves the "}" alone.
func TestRuleNoOpAsContext(t *testing.T) {
	old := text("int f(int x) {", "    int y = x * 2;", "    return y;", "}")
	patch := text("--- a/f.c", "+++ b/f.c", "@@ -1,4 +1,4 @@",
		" int f(int x) {", "     int y = x * 3;", "     return y;", "-}", "+}")
	_, errs := edit.Place(old, onlyFile(t, patch))
	if len(errs) != 1 || !errors.Is(errs[0], edit.ErrNoOp) || errs[0].Interpreted == nil {
		t.Fatalf("errors %v, want the hunk refused as changing nothing, with an interpreted reading", errs)
	}
	r := *errs[0].Interpreted
	if !slices.Contains(r.Rules, "noOpAsContext") || r.Pass != edit.PassInterpreted {
		t.Errorf("reading %s with rules %v, want an interpreted one traced to noOpAsContext", r.Label(), r.Rules)
	}
	for _, l := range r.Lines {
		if l.Kind != edit.Context && l.Text == "}" {
			t.Errorf("reading %s: it marks %q, want the no-op pair read as context", describe([]edit.Resolved{r}), l.Text)
		}
	}
	wantApplied(t, old, []edit.Resolved{r}, text("int f(int x) {", "    int y = x * 3;", "    return y;", "}"))
}

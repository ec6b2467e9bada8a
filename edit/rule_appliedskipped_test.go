package edit_test

import (
	"errors"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// appliedOld holds the result of appliedHunk already, at one place.
var appliedOld = text("one", "two", "three", "NEW", "four", "five", "six", "seven", "eight", "nine", "ten")

const appliedHunk = "@@ -1,6 +1,7 @@\n one\n two\n three\n+NEW\n four\n five\n six\n"

// TestRuleAppliedSkipped: a hunk whose result is in the file at one place
// only, and its old lines nowhere, is skipped and reported; the patch's
// other hunks apply (before, it was refused and took the patch with it).
func TestRuleAppliedSkipped(t *testing.T) {
	patch := "--- a/f\n+++ b/f\n" + appliedHunk + "@@ -9,2 +10,2 @@\n nine\n-ten\n+TEN\n"
	plans := edit.PlanFiles([]edit.PlanInput{{OldPath: "f", NewPath: "f", Old: appliedOld, Diff: onlyFile(t, patch)}})
	p := plans[0]
	if len(p.Errors) != 0 || len(p.Skipped) != 1 || len(p.Hunks) != 1 {
		t.Fatalf("placed %d, refused %v, skipped %v; want one placed and one skipped", len(p.Hunks), p.Errors, p.Skipped)
	}
	if s := p.Skipped[0]; !s.Skip || s.Hunk != 0 || !errors.Is(s, edit.ErrAlreadyApplied) || lastRule(s) != "appliedSkipped" {
		t.Errorf("skipped %v (rules %v), want hunk 1 skipped by appliedSkipped", s, s.Rules)
	}
	got, err := p.Result(nil)
	if want := text("one", "two", "three", "NEW", "four", "five", "six", "seven", "eight", "nine", "TEN"); err != nil || got != want {
		t.Errorf("Result: got %q, %v, want %q", got, err, want)
	}
}

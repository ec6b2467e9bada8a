package edit_test

import (
	"testing"

	"github.com/pair-cli/pair/edit"
)

// TestRuleDuplicateOnce: a patch that repeats a hunk line for line, the
// hunk fitting at one place only, applies it once and reports the repeat
// as skipped (before, the two were refused as overlapping).
func TestRuleDuplicateOnce(t *testing.T) {
	old := text("a", "b", "c", "d", "e", "f", "g")
	hunk := "@@ -2,3 +2,3 @@\n b\n-c\n+C\n d\n"
	plans := edit.PlanFiles([]edit.PlanInput{{OldPath: "f", NewPath: "f", Old: old, Diff: onlyFile(t, "--- a/f\n+++ b/f\n"+hunk+hunk)}})
	p := plans[0]
	if len(p.Errors) != 0 || len(p.Skipped) != 1 || len(p.Hunks) != 1 {
		t.Fatalf("placed %d, refused %v, skipped %v; want one placed and one skipped", len(p.Hunks), p.Errors, p.Skipped)
	}
	if s := p.Skipped[0]; s.Hunk != 1 || lastRule(s) != "duplicateOnce" {
		t.Errorf("skipped %v (rules %v), want hunk 2 skipped by duplicateOnce", s, s.Rules)
	}
	if got, err := p.Result(nil); err != nil || got != text("a", "b", "C", "d", "e", "f", "g") {
		t.Errorf("Result: got %q, %v", got, err)
	}
}

package edit_test

import (
	"errors"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// TestRuleNoOpSkipped: a real model's patch fixes a line, then adds a hunk
// whose "-}" and "+}" are the same line, its context fitting letter for
// letter at one place only. The no-op hunk is skipped and reported; the
// fix applies (before, the no-op hunk was refused and took the patch
// with it).
func TestRuleNoOpSkipped(t *testing.T) {
	old := text(
		"int sum(int *xs, int n) {",
		"    int total = 0;",
		"    for (int i = 0; i < n; i++) {",
		"        total += xs[i];",
		"    }",
		"    return total;",
		"}",
	)
	patch := text(
		"--- a/sum.c",
		"+++ b/sum.c",
		"@@ -1,3 +1,3 @@",
		"-int sum(int *xs, int n) {",
		"+long sum(int *xs, int n) {",
		"     int total = 0;",
		"     for (int i = 0; i < n; i++) {",
		"@@ -5,3 +5,3 @@",
		"     }",
		"     return total;",
		"-}",
		"+}",
	)
	plans := edit.PlanFiles([]edit.PlanInput{{OldPath: "sum.c", NewPath: "sum.c", Old: old, Diff: onlyFile(t, patch)}})
	p := plans[0]
	if len(p.Errors) != 0 || len(p.Skipped) != 1 || len(p.Hunks) != 1 {
		t.Fatalf("placed %d, refused %v, skipped %v; want one placed and one skipped", len(p.Hunks), p.Errors, p.Skipped)
	}
	if s := p.Skipped[0]; s.Hunk != 1 || !errors.Is(s, edit.ErrNoOp) || lastRule(s) != "noOpSkipped" {
		t.Errorf("skipped %v (rules %v), want hunk 2 skipped by noOpSkipped", s, s.Rules)
	}
	got, err := p.Result(nil)
	if want := "long" + old[3:]; err != nil || got != want {
		t.Errorf("Result: got %q, %v, want %q", got, err, want)
	}
}

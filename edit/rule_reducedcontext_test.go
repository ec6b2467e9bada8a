package edit_test

import (
	"testing"

	"github.com/pair-cli/pair/edit"
)

// TestRuleReducedContext: with -C1, a hunk whose two outer context lines
// on each side changed since fits with them left out, as git apply -C1
// applies it; without it, pair refuses a hunk that many lines off, and
// with -C2 git does not apply it either.
func TestRuleReducedContext(t *testing.T) {
	requireGit(t)
	old := text("q", "A", "B", "c", "x", "e", "F", "G", "r")
	patch := text("--- a/f", "+++ b/f", "@@ -2,7 +2,7 @@", " a", " b", " c", "-x", "+y", " e", " f", " g")
	want, ok := gitApplied(t, old, patch, "-C1")
	if !ok {
		t.Fatal("git apply -C1 refuses the patch")
	}
	got, errs := pairApplied(t, old, patch, edit.PlaceOptions{ContextGiven: true, Context: 1})
	if errs != "" || got != want {
		t.Errorf("-C1: got %q (errors %s), want git's %q", got, errs, want)
	}
	wantTrace(t, old, patch, "fitsSomewhere")
	if _, ok := gitApplied(t, old, patch, "-C2"); ok {
		t.Fatal("git apply -C2 applies the patch")
	}
	if got, errs := pairApplied(t, old, patch, edit.PlaceOptions{ContextGiven: true, Context: 2}); errs == "" {
		t.Errorf("-C2: got %q, want a refusal", got)
	}
}

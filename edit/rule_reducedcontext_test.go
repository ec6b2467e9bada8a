package edit_test

import (
	"slices"
	"strings"
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

// TestReducedContextLabel: a hunk placed by -C<n> with context lines left
// out is labelled "reduced", with a note saying how many, not "exact":
// the lines left out do not match the file. The same hunk whose context
// all matches is exact, -C<n> or not.
func TestReducedContextLabel(t *testing.T) {
	patch := text("--- a/f", "+++ b/f", "@@ -2,7 +2,7 @@", " a", " b", " c", "-x", "+y", " e", " f", " g")
	for _, c := range []struct {
		name, old, label string
	}{
		{"context changed", text("q", "A", "B", "c", "x", "e", "F", "G", "r"), "reduced"},
		{"context as written", text("q", "a", "b", "c", "x", "e", "f", "g", "r"), "exact"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := mustParse(t, patch)
			p.SetPlacing(edit.PlaceOptions{ContextGiven: true, Context: 1})
			rs, errs := edit.Place(c.old, p.Files[0])
			if len(errs) > 0 || len(rs) != 1 {
				t.Fatalf("Place: %d placed, errors %v", len(rs), errs)
			}
			if got := rs[0].Label(); got != c.label {
				t.Errorf("Label() = %q, want %q (notes %q, rules %v)", got, c.label, rs[0].Notes, rs[0].Rules)
			}
			reduced := slices.ContainsFunc(rs[0].Notes, func(n string) bool { return strings.Contains(n, "4 of its context lines left out (git apply -C1)") })
			if reduced != (c.label == "reduced") {
				t.Errorf("notes %q: want the lines left out named only when reduced", rs[0].Notes)
			}
		})
	}
}

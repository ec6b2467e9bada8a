package edit_test

import (
	"testing"

	"github.com/pair-cli/pair/edit"
)

// TestRuleIgnoreWhitespace: with --ignore-whitespace, a place whose lines
// differ in whitespace only is as good as one that matches letter for
// letter, so the header's number chooses (git takes the place nearest
// to it), and the added lines are written as the patch has them; pair
// alone takes the exact place, or re-indents the added line.
func TestRuleIgnoreWhitespace(t *testing.T) {
	requireGit(t)
	tests := []struct{ name, old, patch, alone string }{{
		name:  "the numbered place differs in whitespace",
		old:   text("a", "if x {", "  y()", "}", "b", "c", "d", "e", "f", "g", "if x {", "\ty()", "}"),
		patch: text("--- a/f", "+++ b/f", "@@ -2,3 +2,4 @@", " if x {", " \ty()", "+\tz()", " }"),
		alone: text("a", "if x {", "  y()", "}", "b", "c", "d", "e", "f", "g", "if x {", "\ty()", "\tz()", "}"),
	}, {
		name:  "added lines as written",
		old:   text("func f() {", "\tx := 1", "\treturn x", "}"),
		patch: text("--- a/f", "+++ b/f", "@@ -1,4 +1,5 @@", " func f() {", "     x := 1", "+    x++", "     return x", " }"),
		alone: text("func f() {", "\tx := 1", "\tx++", "\treturn x", "}"),
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, ok := gitApplied(t, tt.old, tt.patch, "--ignore-whitespace")
			if !ok {
				t.Fatal("git apply --ignore-whitespace refuses the patch")
			}
			got, errs := pairApplied(t, tt.old, tt.patch, edit.PlaceOptions{IgnoreWhitespace: true})
			if errs != "" || got != want {
				t.Errorf("--ignore-whitespace: got %q (errors %s), want git's %q", got, errs, want)
			}
			if got, _ := pairApplied(t, tt.old, tt.patch, edit.PlaceOptions{}); got != tt.alone {
				t.Errorf("without it: got %q, want pair's own reading %q", got, tt.alone)
			}
		})
	}
}

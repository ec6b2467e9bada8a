package edit_test

import (
	"errors"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// TestRulePinnedEdge: git's t4113. A hunk with no trailing context ends
// the file, and one from line 1 with no leading context starts it; a
// file that has the hunk's result at that edge had it applied already,
// and placing the hunk after (or before) its context would write its
// line a second time. git apply refuses both; so does pair.
func TestRulePinnedEdge(t *testing.T) {
	requireGit(t)
	tests := []struct{ name, old, patch string }{
		{"at the end", text("a", "b", "c"), text("diff --git a/f b/f", "--- a/f", "+++ b/f", "@@ -1,2 +1,3 @@", " a", " b", "+c")},
		{"at the beginning", text("a", "b", "c"), text("diff a/f b/f", "--- a/f", "+++ b/f", "@@ -1,2 +1,3 @@", "+a", " b", " c")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, ok := gitApplied(t, tt.old, tt.patch); ok {
				t.Fatalf("git apply: got %q, want a refusal", got)
			}
			_, errs := edit.Place(tt.old, onlyFile(t, tt.patch))
			if len(errs) != 1 || !errors.Is(errs[0], edit.ErrAlreadyApplied) || lastRule(errs[0]) != "pinnedEdge" {
				t.Fatalf("Place: got errors %v, want one: already applied, by pinnedEdge", errs)
			}
		})
	}
}

// TestRulePinnedEdgeChooses: of two places, a hunk without trailing
// context takes the one at the end of the file, as git does, in a diff
// git did not make too.
func TestRulePinnedEdgeChooses(t *testing.T) {
	old := text("x", "y", "mid", "x", "y")
	patch := text("--- a/f", "+++ b/f", "@@ -2,2 +2,3 @@", " x", " y", "+z")
	requireGit(t)
	want, ok := gitApplied(t, old, patch)
	if !ok || want != text("x", "y", "mid", "x", "y", "z") {
		t.Fatalf("git apply: got %q (applied %v), want the line at the end", want, ok)
	}
	rs := mustPlace(t, old, patch)
	wantApplied(t, old, rs, want)
	wantTrace(t, old, patch, "pinnedEdge")
}

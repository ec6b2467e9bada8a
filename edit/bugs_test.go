package edit_test

// Tests for bugs found in the edit package and not fixed yet. Each fails
// until its bug is fixed, then belongs with the other tests of its kind.

import (
	"testing"

	"github.com/pair-cli/pair/edit"
)

// Found by FuzzPlace (testdata/fuzz/FuzzPlace/b29cebff3d518662). In a
// file with mixed line endings, Render writes a CRLF line that it shows as
// deleted and added again as "-b\r" / "+b\r" (right for git apply), but
// Parse strips a trailing "\r" from every patch line, so the rendered
// diff, read back (as after an "e" edit in review), gives the line the
// file's dominant ending: what is approved is not what Apply writes.
func TestBugRenderedMixedEndingsDoNotReadBack(t *testing.T) {
	old := "a\nb\r\nc"
	rs := mustPlace(t, old, "--- a/f\n+++ b/f\n"+text("@@ -2,2 +2,1 @@", " b", "-c", `\ No newline at end of file`))
	want := mustApply(t, old, rs)
	diff, err := edit.Render("f", "f", "", old, rs)
	if err != nil {
		t.Fatal(err)
	}
	if got := mustApply(t, old, mustPlace(t, old, diff)); got != want {
		t.Errorf("Apply(Place(Render)): got %q, want %q (Apply's result)\ndiff:\n%q", got, want, diff)
	}
}

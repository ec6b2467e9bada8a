package edit_test

import (
	"slices"
	"testing"
)

// TestRuleNoNewlineAtEnd: the hunk's old side fits twice, but its "\ No
// newline at end of file" marker puts it at the end of the file.
func TestRuleNoNewlineAtEnd(t *testing.T) {
	old := "a\nb\nc\na\nb"
	patch := text(
		"--- a/f",
		"+++ b/f",
		"@@ @@",
		" a",
		"-b",
		`\ No newline at end of file`,
		"+d",
		`\ No newline at end of file`,
	)
	placed, refusedBy, _ := traces(t, old, patch)
	if len(placed) != 1 || len(refusedBy) != 0 || !slices.Contains(placed[0], "noNewlineAtEnd") {
		t.Errorf("placed %v, refused %v; want one placed hunk traced to noNewlineAtEnd", placed, refusedBy)
	}
	wantApplied(t, old, mustPlace(t, old, patch), "a\nb\nc\na\nd")
}

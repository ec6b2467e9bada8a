package edit_test

import (
	"testing"
)

// TestRuleNoOverlap: the rule noOverlap refuses this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleNoOverlap(t *testing.T) {
	old := changesSomethingOld
	patch := text(
		"--- a/x",
		"+++ b/x",
		"@@ -1,3 +1,3 @@",
		" a",
		"-b",
		"+B",
		" c",
		"@@ -2,2 +2,2 @@",
		"-b",
		"+beta",
		" c",
	)
	wantRefused(t, old, patch, "noOverlap")
}

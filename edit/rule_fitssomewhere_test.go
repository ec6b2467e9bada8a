package edit_test

import (
	"testing"
)

// TestRuleFitsSomewhere: the rule fitsSomewhere refuses this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleFitsSomewhere(t *testing.T) {
	old := text(
		"alpha",
		"beta",
		"gamma",
	)
	patch := text(
		"--- a/x",
		"+++ b/x",
		"@@ -1,2 +1,2 @@",
		" one",
		"-two",
		"+three",
	)
	wantRefused(t, old, patch, "fitsSomewhere")
}

package edit_test

import (
	"testing"
)

// TestRuleAmbiguous: the rule ambiguous refuses this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleAmbiguous(t *testing.T) {
	old := text(
		"x",
		"y",
		"x",
	)
	patch := text(
		"--- a/a.go",
		"+++ b/a.go",
		"@@ @@",
		"-x",
		"+z",
	)
	wantRefused(t, old, patch, "ambiguous")
}

package edit_test

import (
	"testing"
)

// TestRuleAlreadyApplied: the rule alreadyApplied refuses this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleAlreadyApplied(t *testing.T) {
	old := text(
		"one",
		"two",
		"three",
		"NEW",
		"four",
		"five",
		"six",
	)
	patch := text(
		"--- a/f",
		"+++ b/f",
		"@@ -1,6 +1,7 @@",
		" one",
		" two",
		" three",
		"+NEW",
		" four",
		" five",
		" six",
	)
	wantRefused(t, old, patch, "alreadyApplied")
}

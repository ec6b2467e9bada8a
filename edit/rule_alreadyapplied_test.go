package edit_test

import (
	"testing"
)

// TestRuleAlreadyApplied: the hunk's result is in the file twice and its
// old lines nowhere: refused (at one place only, it would be skipped:
// appliedSkipped).
func TestRuleAlreadyApplied(t *testing.T) {
	old := text(
		"one",
		"two",
		"three",
		"NEW",
		"four",
		"five",
		"six",
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

package edit_test

import (
	"testing"
)

// TestRuleLooseReadings: the rule looseReadings refuses this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleLooseReadings(t *testing.T) {
	old := text(
		"\treturn nil",
		"}",
		"}",
		"\treturn nil",
	)
	patch := text(
		"--- a/f",
		"+++ b/f",
		"@@ -1,4 +1,4 @@",
		" \treturn nil",
		" }",
		"+x := compute(1, 2, 4)",
		"-\treturn nil",
	)
	wantRefused(t, old, patch, "looseReadings")
}

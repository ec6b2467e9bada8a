package edit_test

import (
	"testing"
)

// TestRuleOnePlace: the rule onePlace decides this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleOnePlace(t *testing.T) {
	old := text(
		"a",
	)
	patch := text(
		"--- a/f",
		"+++ b/f",
		"@@ -1,1 +1,2 @@",
		" a",
		"+",
	)
	wantTrace(t, old, patch, "onePlace")
}

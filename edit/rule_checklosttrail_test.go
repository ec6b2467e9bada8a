package edit_test

import (
	"testing"
)

// TestRuleCheckLostTrail: the rule checkLostTrail decides this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleCheckLostTrail(t *testing.T) {
	old := text(
		"func f() {",
		"\ta()",
		"\tb()",
		"}",
	)
	patch := text(
		"--- a/f",
		"+++ b/f",
		"@@ @@",
		" func f() {",
		" \ta()",
		"+}",
		"+",
		"+func g() {",
	)
	wantTrace(t, old, patch, "checkLostTrail")
}

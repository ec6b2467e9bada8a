package edit_test

import (
	"testing"
)

// TestRuleHasContext: the rule hasContext refuses this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleHasContext(t *testing.T) {
	old := text(
		"x",
	)
	patch := text(
		"--- a/a.go",
		"+++ b/a.go",
		"@@ @@",
		"+hello",
	)
	wantRefused(t, old, patch, "hasContext")
}

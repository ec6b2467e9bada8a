package edit_test

import (
	"testing"
)

// TestRuleCheckShape: the rule checkShape refuses this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleCheckShape(t *testing.T) {
	old := text(
		"}",
		"    return nil",
		"\treturn nil",
		"    return nil",
		"",
	)
	patch := text(
		"diff --git a/f b/f",
		"index 1111111..2222222 100644",
		"--- a/f",
		"+++ b/f",
		"@@ -3,3 +3,4 @@",
		" \treturn nil",
		" ",
		"+\treturn nil",
	)
	wantRefused(t, old, patch, "checkShape")
}

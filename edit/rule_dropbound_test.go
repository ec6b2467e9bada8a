package edit_test

import (
	"testing"
)

// TestRuleDropBound: the rule dropBound refuses this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleDropBound(t *testing.T) {
	old := text(
		"}",
		"}",
		"}",
		"}",
		"}",
		"}",
		"}",
		"    return nil",
		"}",
		"\treturn nil",
		"}",
	)
	patch := text(
		"--- a/f",
		"+++ b/f",
		"@@ -2,6 +2,7 @@",
		" }",
		" }",
		" }",
		"+\treturn nil",
		" }",
		" }",
		" }",
		"@@ -9,3 +10,5 @@",
		" }",
		" \treturn nil",
		" }",
		"+}",
		"     return nil",
	)
	wantRefused(t, old, patch, "dropBound")
}

package edit_test

import (
	"testing"
)

// TestRuleSameEffect: the rule sameEffect decides this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleSameEffect(t *testing.T) {
	old := nearestHeaderOld
	patch := text(
		"--- a/f",
		"+++ b/f",
		"@@ @@",
		" If err != nil {",
		" ",
		" }",
		"+}",
	)
	wantTrace(t, old, patch, "sameEffect")
}

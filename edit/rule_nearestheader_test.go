package edit_test

import (
	"testing"
)

// TestRuleNearestHeader: the rule nearestHeader decides this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleNearestHeader(t *testing.T) {
	old := nearestHeaderOld
	patch := text(
		"--- a/f",
		"+++ b/f",
		"@@ -6,3 +6,4 @@",
		" If err != nil {",
		" ",
		" }",
		"+}",
	)
	wantTrace(t, old, patch, "nearestHeader")
}

// nearestHeaderOld is the file of TestRuleNearestHeader, which TestRuleSameEffect shares.
var nearestHeaderOld = text(
	"if err != nil {",
	"",
	"}",
	"}",
	"}",
	"if err != nil {",
	"",
	"}",
)

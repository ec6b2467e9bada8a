package edit_test

import (
	"testing"
)

// TestRuleBetweenNeighbours: the rule betweenNeighbours decides this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleBetweenNeighbours(t *testing.T) {
	wantTrace(t, betweenNeighboursOld, betweenNeighboursPatch, "betweenNeighbours")
}

// betweenNeighboursOld and betweenNeighboursPatch are the case of TestRuleBetweenNeighbours, which TestRuleDropBound shares.
var (
	betweenNeighboursOld = text(
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
	betweenNeighboursPatch = text(
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
)

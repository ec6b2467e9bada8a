package edit_test

import (
	"testing"
)

// TestRuleDropBound: the rule dropBound refuses this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleDropBound(t *testing.T) {
	wantRefused(t, betweenNeighboursOld, betweenNeighboursPatch, "dropBound")
}

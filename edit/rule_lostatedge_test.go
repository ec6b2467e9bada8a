package edit_test

import (
	"testing"
)

// TestRuleLostAtEdge: the rule lostAtEdge decides this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleLostAtEdge(t *testing.T) {
	old := text(
		"alpha",
		"beta",
		"gamma",
		"delta",
		"epsilon",
	)
	patch := text(
		"diff --git a/f.txt b/f.txt",
		"index 1111111..2222222 100644",
		"--- a/f.txt",
		"+++ b/f.txt",
		"@@ -1,2 +1,3 @@",
		"+zeta",
		" alpha",
		" beta",
	)
	wantTrace(t, old, patch, "lostAtEdge")
}

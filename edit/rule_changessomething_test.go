package edit_test

import (
	"testing"
)

// TestRuleChangesSomething: the rule changesSomething refuses this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleChangesSomething(t *testing.T) {
	old := changesSomethingOld
	patch := text(
		"--- a/x",
		"+++ b/x",
		"@@ -1,2 +1,2 @@",
		" nothing",
		"-here",
		"+there",
		"@@ -2,3 +2,3 @@",
		" a",
		"-b",
		"+B",
		" c",
		"@@ -5,1 +5,1 @@",
		" c",
	)
	wantRefused(t, old, patch, "changesSomething")
}

// changesSomethingOld is the file of TestRuleChangesSomething, which TestRuleNoOverlap shares.
var changesSomethingOld = text(
	"a",
	"b",
	"c",
	"d",
)

package edit_test

import (
	"testing"
)

// TestRuleAssignTwins: the rule assignTwins decides this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleAssignTwins(t *testing.T) {
	old := assignTwinsOld
	patch := text(
		"--- a/s_test.go",
		"+++ b/s_test.go",
		"@@ @@",
		"     req := newRequest()",
		"-\trsp = NewRecorder()",
		" \t// Get a session.",
		" \tcheck(req)",
		"@@ @@",
		" \treq := newRequest()",
		"-\trsp = NewRecorder()",
		" \t// Get a session.",
		" \tcheck(req)",
	)
	wantTrace(t, old, patch, "assignTwins")
}

// assignTwinsOld is the file of TestRuleAssignTwins, which TestRuleDropTwins shares.
var assignTwinsOld = text(
	"func TestA(t *testing.T) {",
	"\treq := newRequest()",
	"\trsp = NewRecorder()",
	"\t// Get a session.",
	"\tcheck(req)",
	"",
	"}",
	"",
	"func TestB(t *testing.T) {",
	"\treq := newRequest()",
	"\trsp = NewRecorder()",
	"\t// Get a session.",
	"\tcheck(req)",
	"",
	"}",
)

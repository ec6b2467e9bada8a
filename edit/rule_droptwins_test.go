package edit_test

import (
	"testing"
)

// TestRuleDropTwins: the rule dropTwins refuses this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleDropTwins(t *testing.T) {
	old := assignTwinsOld
	patch := text(
		"--- a/s_test.go",
		"+++ b/s_test.go",
		"@@ @@",
		"     req := newRequest()",
		"-    rsp = NewRecorder()",
		"+    rsp = a()",
		"     // Get a session.",
		"     check(req)",
		"@@ @@",
		" \treq := newRequest()",
		"-\trsp = NewRecorder()",
		"+    rsp = a()",
		" \t// Get a session.",
		" \tcheck(req)",
	)
	wantRefused(t, old, patch, "dropTwins")
}

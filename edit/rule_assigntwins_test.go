package edit_test

import (
	"slices"
	"testing"

	"github.com/pair-cli/pair/edit"
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

// TestRuleAssignTwinsByHeader: twins listed out of file order, each
// header naming its own place, take the places their headers name: the
// file is the same either way, but a review that rejects one hunk must
// keep the change the other one's header names (found by
// FuzzApplyRoundTrip).
func TestRuleAssignTwinsByHeader(t *testing.T) {
	patch := text(
		"--- a/s_test.go",
		"+++ b/s_test.go",
		"@@ -10,4 +10,3 @@",
		" \treq := newRequest()",
		"-\trsp = NewRecorder()",
		" \t// Get a session.",
		" \tcheck(req)",
		"@@ -2,4 +2,3 @@",
		" \treq := newRequest()",
		"-\trsp = NewRecorder()",
		" \t// Get a session.",
		" \tcheck(req)",
	)
	rs, errs := edit.Place(assignTwinsOld, onlyFile(t, patch))
	if len(errs) != 0 || len(rs) != 2 {
		t.Fatalf("got hunks %s, errors %v, want both placed", describe(rs), errs)
	}
	for _, r := range rs {
		if want := map[int]int{0: 9, 1: 1}[r.Hunk]; r.Start != want || !slices.Contains(r.Rules, "assignTwins") {
			t.Errorf("hunk %d: got start %d, trace %v, want start %d by assignTwins", r.Hunk, r.Start, r.Rules, want)
		}
	}
}

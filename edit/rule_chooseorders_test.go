package edit_test

import (
	"testing"
)

// TestRuleChooseOrders: the rule chooseOrders decides this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleChooseOrders(t *testing.T) {
	old := text(
		"package p",
		"",
		"func f() {",
		"\ta(1)",
		"}",
		"",
		"func g() {}",
	)
	patch := text(
		"--- a/p.go",
		"+++ b/p.go",
		"@@ @@",
		" func f() {",
		"-\ta(1)",
		"+\ta(2)",
		" ",
		" func g() {}",
	)
	wantTrace(t, old, patch, "chooseOrders")
}

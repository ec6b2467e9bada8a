package edit_test

import (
	"testing"
)

// TestRuleFused: the rule fused decides this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleFused(t *testing.T) {
	old := text(
		"package p",
		"",
		"var x = []t{",
		"\t{a: 1},",
		"\t{a: 2},",
		"\t{a: 3},",
		"}",
		"",
		"func B() {",
		"\ty := 1",
		"\tlog(y)",
		"\tcheck(y)",
		"\tdone()",
		"}",
		"",
		"func C() {",
		"\tz := 2",
		"\tlog(y)",
		"\tcheck(y)",
		"\tdone()",
		"}",
	)
	patch := text(
		"--- a/p.go",
		"+++ b/p.go",
		"@@ -4,9 +4,10 @@",
		" \t{a: 1},",
		"+\t{a: 15},",
		" \t{a: 2},",
		" \t{a: 3},",
		" \ty := 1",
		" \tlog(y)",
		"-\tcheck(y)",
		"+\tcheck2(y)",
		" \tdone()",
		" }",
	)
	wantTrace(t, old, patch, "fused")
}

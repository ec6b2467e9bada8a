package edit_test

import (
	"testing"
)

// TestRuleGuard: the rule guard refuses this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleGuard(t *testing.T) {
	old := text(
		"int f(int x) {",
		"\tif (x < 0) {",
		"\t\treturn 0;",
		"\t}",
		"\treturn x * 2 + 1;",
		"}",
	)
	patch := text(
		"--- a/f.c",
		"+++ b/f.c",
		"@@ @@",
		" \tif (x <= 0) {",
		" \t\treturn 0;",
		" \t}",
		"-\treturn x * 2 + 1;",
		"+\tif (x > 9) {",
		"+\t\treturn x;",
	)
	wantRefused(t, old, patch, "guard")
}

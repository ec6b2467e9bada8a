package edit_test

import (
	"testing"
)

// TestRuleDistinctive: the rule distinctive refuses this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleDistinctive(t *testing.T) {
	old := text(
		"#include <stdio.h>",
		"",
		"int sum(const int *xs, int n) {",
		"    int total = 0;",
		"    for (int i = 0; i < n; i++) {",
		"        total += xs[i];",
		"    }",
		"    return total;",
		"}",
		"",
		"int main(void) {",
		"    int xs[] = {1, 2, 3};",
		"    printf(\"%d\\n\", sum(xs, 3));",
		"    return 0;",
		"}",
	)
	patch := text(
		"--- a/",
		"+++ b/",
		"@@ -1,3 +1,3 @@",
		" #include <stdlib.h>",
		"-",
		"+/* sum */",
		" int sum(const int *xs, int n) {",
	)
	wantRefused(t, old, patch, "distinctive")
}

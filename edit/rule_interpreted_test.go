package edit_test

import "testing"

// TestRuleInterpreted: a hunk whose context line holds the change the
// model meant fits nowhere as written; its interpreted reading, offered
// on the refusal, is traced to the rule.
func TestRuleInterpreted(t *testing.T) {
	old := text(
		"long sum(const int *xs, int n) {",
		"    int total = 0;",
		"    for (int i = 0; i < n; i++) {",
		"        total += xs[i];",
		"    }",
		"    return total;",
		"}",
	)
	patch := text(
		"--- a/sum.c",
		"+++ b/sum.c",
		"@@ -2,5 +2,5 @@",
		"-    int total = 0;",
		"+    long total = 0;",
		"     for (int i = 0; i < n; i++) {",
		"         total += (long)xs[i];",
		"     }",
		"     return total;",
	)
	_, refusedBy, offered := traces(t, old, patch)
	if len(refusedBy) != 1 || len(offered) != 1 || lastOf(offered[0]) != "interpreted" {
		t.Errorf("refused %v, offered %v; want one refusal offering a reading traced to interpreted", refusedBy, offered)
	}
}

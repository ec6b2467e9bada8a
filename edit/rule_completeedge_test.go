package edit_test

import (
	"testing"
)

// TestRuleCompleteEdge: the rule completeEdge decides this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleCompleteEdge(t *testing.T) {
	old := text(
		"class Cache:",
		"    def get(self, key):",
		"        return self.data.get(key)",
		"",
		"    def delete(self, key):",
		"        with self.lock:",
		"            if key in self.data:",
		"                self.data.pop(key)",
	)
	patch := text(
		"diff --git a/c.py b/c.py",
		"index 1111111..2222222 100644",
		"--- a/c.py",
		"+++ b/c.py",
		"@@ -6,2 +6,6 @@",
		"         with self.lock:",
		"             if key in self.data:",
		"+",
		"+",
		"+class Other(Cache):",
		"+    pass",
	)
	wantTrace(t, old, patch, "completeEdge")
}

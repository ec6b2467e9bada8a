package edit_test

import (
	"testing"
)

// TestRuleKeepShaped: the rule keepShaped decides this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleKeepShaped(t *testing.T) {
	old := addedInsteadOld
	patch := text(
		"diff --git a/c.py b/c.py",
		"index 1111111..2222222 100644",
		"--- a/c.py",
		"+++ b/c.py",
		"@@ -3,5 +3,7 @@",
		" ",
		" from tkinter.commondialog import Dialog",
		"+__all__ = [\"Chooser\"]",
		"+",
		" ",
		" class Chooser(Dialog):",
		"     \"\"\"A dialog.\"\"\"",
	)
	wantTrace(t, old, patch, "keepShaped")
}

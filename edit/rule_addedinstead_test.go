package edit_test

import (
	"testing"
)

// TestRuleAddedInstead: the rule addedInstead refuses this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleAddedInstead(t *testing.T) {
	old := text(
		"# Copyright",
		"#",
		"",
		"from tkinter.commondialog import Dialog",
		"",
		"",
		"class Chooser(Dialog):",
		"    \"\"\"A dialog.\"\"\"",
		"",
		"    def show(self):",
		"        pass",
	)
	patch := text(
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
	wantRefused(t, old, patch, "addedInstead")
}

package edit_test

import (
	"testing"
)

// TestRuleAddedInstead: the rule addedInstead refuses this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleAddedInstead(t *testing.T) {
	old := addedInsteadOld
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

// addedInsteadOld is the file of TestRuleAddedInstead, which TestRuleKeepShaped shares.
var addedInsteadOld = text(
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

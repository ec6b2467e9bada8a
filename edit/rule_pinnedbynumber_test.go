package edit_test

import (
	"testing"
)

// TestRulePinnedByNumber: the rule pinnedByNumber decides this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRulePinnedByNumber(t *testing.T) {
	old := text(
		"# Changelog",
		"",
		"## [1.5.0] (2023-12-12)",
		"",
		"",
		"### Features",
		"",
		"* add a thing",
		"",
		"# Changelog",
		"",
		"Older entries.",
		"## [1.5.0] (2023-12-12)",
		"",
		"* the rest",
	)
	patch := text(
		"diff --git a/CHANGELOG.md b/CHANGELOG.md",
		"index 1111111..2222222 100644",
		"--- a/CHANGELOG.md",
		"+++ b/CHANGELOG.md",
		"@@ -1,4 +1,6 @@",
		" # Changelog",
		" ",
		"+## [1.6.0] (2024-01-16)",
		"+",
		" ## [1.5.0] (2023-12-12)",
		" ",
	)
	wantTrace(t, old, patch, "pinnedByNumber")
}

package edit_test

import (
	"testing"
)

// TestRuleAtEdge: the rule atEdge decides this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleAtEdge(t *testing.T) {
	old := text(
		"package m",
		"",
		"import \"testing\"",
		"",
		"// A tests a.",
		"func TestA(t *testing.T) {",
		"\tassertEqual(t, 11, w.N())",
		"}",
		"",
		"func TestB(t *testing.T) {",
		"\tt.Run(\"x\", func(t *testing.T) {",
		"\t\tassertEqual(t, 11, w.N())",
		"\t})",
		"}",
	)
	patch := text(
		"diff --git a/m_test.go b/m_test.go",
		"index 1111111..2222222 100644",
		"--- a/m_test.go",
		"+++ b/m_test.go",
		"@@ -2,7 +2,7 @@",
		" ",
		" import \"testing\"",
		" ",
		"-// A tests a.",
		"+// TestA tests a.",
		" func TestA(t *testing.T) {",
		" \tassertEqual(t, 11, w.N())",
		" }",
		"@@ -12,2 +12,6 @@",
		" \t\tassertEqual(t, 11, w.N())",
		" }",
		"+",
		"+func TestC(t *testing.T) {",
		"+\tt.Skip()",
		"+}",
	)
	wantTrace(t, old, patch, "atEdge")
}

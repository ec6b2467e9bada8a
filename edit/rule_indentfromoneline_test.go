package edit_test

import (
	"slices"
	"strings"
	"testing"
)

// oneLineFile is a Go file whose one rare line is indented by two tabs.
var oneLineFile = text(
	"package p",
	"",
	"func f(x bool) {",
	"\tif x {",
	"\t\tdoSomethingSpecial()",
	"\t}",
	"\treturn",
	"}",
)

// TestRuleIndentFromOneLine: a hunk whose one context line lost its
// indentation, with its added line written at the same level, is
// offered as uncertain, re-indented by what the context line lost; --yes
// writes nothing.
func TestRuleIndentFromOneLine(t *testing.T) {
	patch := text(
		"--- a/f.go",
		"+++ b/f.go",
		"@@ -5 +5,2 @@",
		" doSomethingSpecial()",
		"+doMore()",
	)
	want := strings.Replace(oneLineFile, "\t\tdoSomethingSpecial()\n", "\t\tdoSomethingSpecial()\n\t\tdoMore()\n", 1)
	wantOffered(t, "f.go", oneLineFile, patch, "indentFromOneLine", want)

	// Lost in part: the added line, one level in, keeps that level.
	patch = text(
		"--- a/f.go",
		"+++ b/f.go",
		"@@ -4 +4,2 @@",
		" if x {",
		"+\tdoFirst()",
	)
	want = strings.Replace(oneLineFile, "\tif x {\n", "\tif x {\n\t\tdoFirst()\n", 1)
	wantOffered(t, "f.go", oneLineFile, patch, "indentFromOneLine", want)
}

// TestRuleIndentFromOneLineNotCertain: the rule takes only what no
// certain case decides. A context line written with spaces for the
// file's tabs, where the added line as written would be indented as the
// file never indents, is re-indented for certain (unanimousFit); three
// context lines that lost their indentation say how the patch indents
// (indentLearnt).
func TestRuleIndentFromOneLineNotCertain(t *testing.T) {
	spaces := text(
		"--- a/f.go",
		"+++ b/f.go",
		"@@ -5,1 +5,2 @@",
		"     doSomethingSpecial()",
		"+    doMore()",
	)
	placed, refused, _ := traces(t, oneLineFile, spaces)
	if len(refused) != 0 || len(placed) != 1 || lastOf(placed[0]) != "unanimousFit" {
		t.Errorf("spaces: got placed %v, refused %v, want one hunk placed by unanimousFit", placed, refused)
	}
	three := text(
		"--- a/f.go",
		"+++ b/f.go",
		"@@ -4,3 +4,4 @@",
		" if x {",
		" \tdoSomethingSpecial()",
		"+\tdoMore()",
		" }",
	)
	placed, refused, _ = traces(t, oneLineFile, three)
	if len(refused) != 0 || len(placed) != 1 || !slices.Contains(placed[0], "indentLearnt") {
		t.Errorf("three lines: got placed %v, refused %v, want one hunk placed by indentLearnt", placed, refused)
	}
}

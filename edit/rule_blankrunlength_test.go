package edit_test

import (
	"slices"
	"strings"
	"testing"
)

// twoFuncs is a Go file of two functions, one blank line between them.
var twoFuncs = text(
	"package p",
	"",
	`import "fmt"`,
	"",
	"func a() {",
	`	fmt.Println("a")`,
	"}",
	"",
	"func b() {",
	`	fmt.Println("b")`,
	"}",
)

// TestRuleBlankRunLength: a hunk that fits letter for letter but for a
// run of blank lines longer in the patch than in the file is offered as
// uncertain, read with the file's run; --yes writes nothing.
func TestRuleBlankRunLength(t *testing.T) {
	patch := text(
		"--- a/f.go",
		"+++ b/f.go",
		"@@ -5,7 +5,8 @@",
		" func a() {",
		` 	fmt.Println("a")`,
		" }",
		" ",
		" ",
		" func b() {",
		`+	fmt.Println("c")`,
		` 	fmt.Println("b")`,
	)
	want := strings.Replace(twoFuncs, "func b() {\n", "func b() {\n\tfmt.Println(\"c\")\n", 1)
	wantOffered(t, "f.go", twoFuncs, patch, "blankRunLength", want)
}

// TestRuleBlankRunLengthShorter: a run shorter in the patch than in the
// file by more than the fuzzy pass forgives (two blank lines of three)
// is read with the file's run, its extra lines kept away from the added
// lines after it.
func TestRuleBlankRunLengthShorter(t *testing.T) {
	old := text(
		"import os",
		"",
		"",
		"",
		"def main():",
		"    run()",
	)
	patch := text(
		"--- a/m.py",
		"+++ b/m.py",
		"@@ -1,5 +1,6 @@",
		" import os",
		" ",
		"+import sys",
		" def main():",
		"     run()",
	)
	want := text(
		"import os",
		"",
		"",
		"",
		"import sys",
		"def main():",
		"    run()",
	)
	wantOffered(t, "m.py", old, patch, "blankRunLength", want)
}

// TestRuleBlankRunLengthNot: the rule leaves alone a run one line
// shorter in the patch, which the fuzzy pass places for certain, and a
// hunk that fits so at two places, which stays refused as fitting
// nowhere.
func TestRuleBlankRunLengthNot(t *testing.T) {
	shorter := text(
		"--- a/f.go",
		"+++ b/f.go",
		"@@ -6,6 +6,7 @@",
		` 	fmt.Println("a")`,
		" }",
		" func b() {",
		`+	fmt.Println("c")`,
		` 	fmt.Println("b")`,
		" }",
	)
	placed, refused, _ := traces(t, twoFuncs, shorter)
	if len(refused) != 0 || len(placed) != 1 || slices.Contains(placed[0], "blankRunLength") {
		t.Errorf("one line shorter: got placed %v, refused %v, want it placed without blankRunLength", placed, refused)
	}
	twice := text(
		"}",
		"",
		"func x() {",
		"}",
		"",
		"func x() {",
	)
	patch := text(
		"--- a/f.go",
		"+++ b/f.go",
		"@@ ... @@",
		" }",
		" ",
		" ",
		" func x() {",
		"+\ty()",
	)
	placed, refused, offered := traces(t, twice, patch)
	if len(placed) != 0 || len(offered) != 0 || len(refused) != 1 || lastOf(refused[0]) != "fitsSomewhere" {
		t.Errorf("two places: got placed %v, refused %v, offered %v, want it refused by fitsSomewhere", placed, refused, offered)
	}
}

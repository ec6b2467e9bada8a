package edit_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
)

func TestCheckSyntax(t *testing.T) {
	tests := []struct {
		name, text string
		ok         bool
	}{
		{"a.go", "package a\n\nfunc f() {}\n", true},
		{"a.go", "package a\n\nfunc f() {\n", false},
		{"a.py", "def f():\n    if x:\n        y()\n    return 1\n", true},
		{"a.py", "def f():\n    if x:\n            y()\n        z()\n", false}, // dedent to no open level
		{"a.py", "x = 1\n    y = 2\n", false},                                  // indented under a line that opens nothing
		{"a.py", "def f():\nreturn 1\n", false},                                // no indented block
		{"a.py", "x = (1,\n        2)\ns = \"\"\"\n  text\n\"\"\"\nif x:  # c\n    pass\n", true},
		{"a.py", "d = {'a': 1,\n  'b': \"}\"}\ny = 'x' \\\n    'z'\n", true},
		{"a.c", "int f(void) {\n\treturn g(\"}\", '{'); /* { */\n}\n", true},
		{"a.c", "int f(void) {\n\treturn g(\"}\", 1);\n", false},
		{"a.c", "int f(void) {\n\treturn g(\"};\n}\n", false},
		{"a.ts", "const s = `{\n`;\nf(() => { return 1 });\n", true},
		{"a.json", "{\"a\": [1, \"]\"]}\n", true},
		{"a.json", "{\"a\": [1, 2}\n", false},
		{"a.yaml", "a: [1, 2]\nb: don't # it's fine\n", true},
		{"a.yaml", "a: [1, 2\n", false},
	}
	for _, tt := range tests {
		_, problem, ok := edit.CheckSyntax(tt.name, tt.text)
		if !ok {
			t.Fatalf("%s: no check", tt.name)
		}
		if (problem == "") != tt.ok {
			t.Errorf("%s %q: got problem %q, want passing %v", tt.name, tt.text, problem, tt.ok)
		}
	}
	if _, _, ok := edit.CheckSyntax("README.md", "# x\n"); ok {
		t.Errorf("README.md: got a check, want none")
	}
}

// TestSyntaxGuard places hunks whose tolerant placement would break a file
// that passed its syntax check: another reading is taken when it passes,
// else the hunk is refused; an exact placement is never second-guessed.
func TestSyntaxGuard(t *testing.T) {
	t.Run("python re-indentation read the other way", func(t *testing.T) {
		old := text("def f():", "    if a:", "        old()", "        other()", "    return 1")
		// The deleted line is written four spaces short, so the added line
		// would be moved four spaces deeper, past the next line's level.
		patch := text("--- a/m.py", "+++ b/m.py", "@@ ... @@", "     if a:", "-    old()", "+        new()", "         other()")
		rs := mustPlace(t, old, patch)
		want := strings.Replace(old, "old()", "new()", 1)
		wantApplied(t, old, rs, want)
		if !slices.ContainsFunc(rs[0].Notes, func(n string) bool { return strings.Contains(n, "Python indentation") }) {
			t.Errorf("notes: got %q, want the check named", rs[0].Notes)
		}
	})
	cFile := text("int f(int x) {", "\tif (x < 0) {", "\t\treturn 0;", "\t}", "\treturn x * 2 + 1;", "}")
	openBrace := []string{"@@ ... @@", "\tif (x < 0) {", "\t\treturn 0;", "\t}", "-\treturn x * 2 + 1;", "+\tif (x > 9) {", "+\t\treturn x;"}
	ctx := func(lines []string, stale bool) string {
		var b strings.Builder
		b.WriteString("--- a/f.c\n+++ b/f.c\n")
		for _, l := range lines {
			if stale && l == "\tif (x < 0) {" {
				l = "\tif (x <= 0) {"
			}
			if !strings.HasPrefix(l, "@@") && !strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "+") {
				l = " " + l
			}
			b.WriteString(l + "\n")
		}
		return b.String()
	}
	t.Run("fuzzy hunk that leaves a brace open is refused", func(t *testing.T) {
		rs, errs := edit.Place(cFile, onlyFile(t, ctx(openBrace, true)))
		if len(errs) != 1 || !errors.Is(errs[0], edit.ErrSyntax) || !strings.Contains(errs[0].Detail, "brackets and quotes") {
			t.Fatalf("got errors %v, want one ErrSyntax naming the check\n%s", errs, describe(rs))
		}
		if len(rs) != 0 {
			t.Errorf("got %d hunks placed, want none", len(rs))
		}
	})
	t.Run("exact hunk that leaves a brace open is applied", func(t *testing.T) {
		rs := mustPlace(t, cFile, ctx(openBrace, false))
		if rs[0].Pass != edit.PassExact {
			t.Fatalf("pass: got %v, want exact", rs[0].Pass)
		}
	})
	t.Run("fuzzy hunk that keeps the file balanced is applied with a note", func(t *testing.T) {
		balanced := append(slices.Clone(openBrace), "+\t}", "+\treturn x * 3;")
		rs := mustPlace(t, cFile, ctx(balanced, true))
		if rs[0].Pass != edit.PassFuzzy {
			t.Fatalf("pass: got %v, want fuzzy", rs[0].Pass)
		}
		if !slices.Contains(rs[0].Notes, "syntax check (brackets and quotes) passed") {
			t.Errorf("notes: got %q, want the check recorded", rs[0].Notes)
		}
	})
}

// TestSyntaxGuardGo checks a Go file by its changed declarations first,
// then as a whole: a loose hunk that leaves a function unclosed is
// refused, one that keeps it whole passes with the check noted.
func TestSyntaxGuardGo(t *testing.T) {
	old := text("package calc", "", "// Add adds.", "func Add(a, b int) int {", "\tif a < 0 {", "\t\treturn b", "\t}", "\treturn a + b", "}", "",
		"// Sub subtracts.", "func Sub(a, b int) int {", "\treturn a - b", "}")
	hunk := func(added ...string) string {
		// "if a <= 0" is stale: the hunk places fuzzily.
		lines := []string{"--- a/calc.go", "+++ b/calc.go", "@@ ... @@", " func Add(a, b int) int {", " \tif a <= 0 {", " \t\treturn b", " \t}", "-\treturn a + b"}
		for _, l := range added {
			lines = append(lines, "+"+l)
		}
		return text(append(lines, " }")...)
	}
	rs, errs := edit.Place(old, onlyFile(t, hunk("\tif b < 0 {", "\t\treturn a")))
	if len(errs) != 1 || !errors.Is(errs[0], edit.ErrSyntax) || !strings.Contains(errs[0].Detail, "go/parser") {
		t.Fatalf("unclosed block: got errors %v, want one ErrSyntax naming go/parser\n%s", errs, describe(rs))
	}
	rs = mustPlace(t, old, hunk("\tif b < 0 {", "\t\treturn a", "\t}", "\treturn a + b"))
	if rs[0].Pass != edit.PassFuzzy || !slices.Contains(rs[0].Notes, "syntax check (go/parser) passed") {
		t.Errorf("closed block: got pass %v, notes %q, want fuzzy with the check noted", rs[0].Pass, rs[0].Notes)
	}
}

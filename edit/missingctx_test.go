package edit_test

import (
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// TestMissingContextLine places git hunks that lost one interior context
// line, where the lost line looks like a line next to it: the fuzzy pass
// once took that for the trap of an added line written as context and
// refused them.
func TestMissingContextLine(t *testing.T) {
	tests := []struct {
		name, old, patch string
		from, to         string // the change: want is old with from replaced by to
	}{
		{
			// "\t}," closes the outer block; the hunk's "\t\t}," the inner
			// one: equal but for indentation, which the hunk shows right.
			name: "outer closing line after an inner one",
			old: text("var versions = map[string]spec{", "\t\"1.1.0\": {", "\t\texclude: []string{",
				"\t\t\t\"a\",", "\t\t\t\"b\",", "\t\t\t\"c\",", "\t\t\t\"d\",", "\t\t},", "\t},", "", "\t\"1.0.0\": {",
				"\t\texclude: []string{", "\t\t\t\"e\",", "\t\t},", "\t},", "}"),
			patch: text("--- a/v.go", "+++ b/v.go", "@@ -5,6 +5,5 @@", " \t\t\t\"b\",", " \t\t\t\"c\",", "-\t\t\t\"d\",", " \t\t},", " ", " \t\"1.0.0\": {"),
			from:  "\t\t\t\"d\",\n",
			to:    "",
		},
		{
			// Two blank lines between Python functions, written as one.
			name: "one of two blank lines",
			old: text("def a():", "    return 1", "", "", "def b():", "    x = 2", "    return x", "",
				"", "def c():", "    return 3"),
			patch: text("--- a/m.py", "+++ b/m.py", "@@ -2,6 +2,6 @@", "     return 1", " ", " def b():",
				"-    x = 2", "+    x = 4", "     return x", " "),
			from: "x = 2",
			to:   "x = 4",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := mustPlace(t, tt.old, tt.patch)
			want := strings.Replace(tt.old, tt.from, tt.to, 1)
			if got := mustApply(t, tt.old, rs); got != want {
				t.Errorf("got\n%s\nwant\n%s\n%s", got, want, describe(rs))
			}
		})
	}
}

// TestFusedSplitAtEqualLine places two git hunks run together whose
// split falls next to a "}" that each part can end or start with (the
// file has one after each): the two splits change the file in the same
// way, one reading, where once they were counted as two and refused.
func TestFusedSplitAtEqualLine(t *testing.T) {
	old := text("func parse(data string) error {", "\t// Skip the mark.", "\tif bom(data) {", "\t\tdata = data[2:]",
		"\t\t//lint:ignore S1017", "\t} else if utf8(data) {", "\t\tdata = data[3:]", "\t}", "",
		"\t// Look at the first bytes.", "\tex := 6", "\tif len(data) < 6 {", "\t\tex = len(data)", "\t}",
		"\tif i := nul(data[:ex]); i > -1 {", "\t\treturn Error{", "\t\t\tPosition: Position{Line: 1},",
		"\t\t\tLine:     1,", "\t\t}", "\t}", "\treturn nil", "}")
	patch := text("--- a/parse.go", "+++ b/parse.go", "@@ -2,19 +2,18 @@",
		" \t// Skip the mark.", " \tif bom(data) {", " \t\tdata = data[2:]", "-\t\t//lint:ignore S1017",
		" \t} else if utf8(data) {", " \t\tdata = data[3:]", " \t}",
		" \tif i := nul(data[:ex]); i > -1 {", " \t\treturn Error{", "-\t\t\tPosition: Position{Line: 1},",
		"+\t\t\tPosition: Position{Line: 1, Col: 1},", " \t\t\tLine:     1,", " \t\t}")
	rs := mustPlace(t, old, patch)
	want := strings.Replace(strings.Replace(old, "\t\t//lint:ignore S1017\n", "", 1), "{Line: 1}", "{Line: 1, Col: 1}", 1)
	if got := mustApply(t, old, rs); got != want {
		t.Errorf("got\n%s\nwant\n%s\n%s", got, want, describe(rs))
	}
	if rs[0].Pass != edit.PassFused {
		t.Errorf("pass: got %v, want fused", rs[0].Pass)
	}
}

// TestStaleLineInRun places hunks with one stale context line among
// lines like it (imports, rows of a table): where the hunk without that
// line fits nowhere, it cannot be an added line written as context, and
// the hunk is placed, where once any stale line like its neighbour was
// suspect.
func TestStaleLineInRun(t *testing.T) {
	old := text("package suite", "", "import (", "\t\"golang.org/x/tools/go/analysis/passes/assign\"", "\t\"golang.org/x/tools/go/analysis/passes/inline\"",
		"\t\"golang.org/x/tools/go/analysis/passes/printf\"", "\t\"golang.org/x/tools/go/analysis/passes/shadow\"", ")", "", "var all = []int{1, 2}")
	patch := text("--- a/s.go", "+++ b/s.go", "@@ -3,6 +3,7 @@", " import (", " \t\"golang.org/x/tools/go/analysis/passes/assign\"",
		" \t\"golang.org/x/Tools/go/analysis/passes/inline\"", " \t\"golang.org/x/tools/go/analysis/passes/printf\"", "+\t\"golang.org/x/tools/go/analysis/passes/sdf\"", " \t\"golang.org/x/tools/go/analysis/passes/shadow\"", " )")
	rs := mustPlace(t, old, patch)
	want := strings.Replace(old, "printf\"\n", "printf\"\n\t\"golang.org/x/tools/go/analysis/passes/sdf\"\n", 1)
	if got := mustApply(t, old, rs); got != want {
		t.Errorf("got\n%s\nwant\n%s\n%s", got, want, describe(rs))
	}
}

// TestStaleLeadLineGitShape places a git hunk whose first context line is
// stale: taken as changed, or dropped from the hunk's edge, it changes the
// file the same way, though the dropping reading leaves fewer leading
// context lines than git writes; once the two were not recognised as one
// and the hunk was refused.
func TestStaleLeadLineGitShape(t *testing.T) {
	old := text("package t", "", "func isValue(v any) bool { return v != nil }", "",
		"func fmtType(t any) string  { return strings.ReplaceAll(fmt.Sprintf(\"%T\", t), \"interface {}\", \"any\") }",
		"func fmtHashV(t any) string { return strings.ReplaceAll(fmt.Sprintf(\"%#v\", t), \"interface {}\", \"any\") }",
		"", "func mapKeys(m map[string]int) []string {", "\tkeys := make([]string, 0, len(m))", "\treturn keys", "}")
	patch := text("diff --git a/t.go b/t.go", "index 1111111..2222222 100644", "--- a/t.go", "+++ b/t.go", "@@ -5,6 +5,9 @@",
		" func fmtType(t any) string  { return strings.RepaceAll(fmt.Sprintf(\"%T\", t), \"interface {}\", \"any\") }",
		" func fmtHashV(t any) string { return strings.ReplaceAll(fmt.Sprintf(\"%#v\", t), \"interface {}\", \"any\") }",
		" ", "+func fmtVal(v any) string { return fmt.Sprint(v) }", "+",
		" func mapKeys(m map[string]int) []string {", " \tkeys := make([]string, 0, len(m))", " \treturn keys")
	rs := mustPlace(t, old, patch)
	want := strings.Replace(old, "\nfunc mapKeys", "\nfunc fmtVal(v any) string { return fmt.Sprint(v) }\n\nfunc mapKeys", 1)
	if got := mustApply(t, old, rs); got != want {
		t.Errorf("got\n%s\nwant\n%s\n%s", got, want, describe(rs))
	}
}

// TestMissingLineShortHunk places a short git hunk that lost a context
// line between its only two non-blank lines: each votes for a place one
// line apart from the other's, and once neither place had enough votes.
func TestMissingLineShortHunk(t *testing.T) {
	old := text("", "# Taken from Lib/ctypes/test/test_keeprefs.py.", "", "from ctypes import Structure, c_int", "import gc", "", "def leak():", "    pass")
	patch := text("diff --git a/t.py b/t.py", "index 1111111..2222222 100644", "--- a/t.py", "+++ b/t.py", "@@ -1,4 +1,4 @@",
		" ", "-# Taken from Lib/ctypes/test/test_keeprefs.py.", "+# Taken from Lib/test/test_ctypes/test_keeprefs.py.", " ", " import gc")
	rs := mustPlace(t, old, patch)
	want := strings.Replace(old, "Lib/ctypes/test/", "Lib/test/test_ctypes/", 1)
	if got := mustApply(t, old, rs); got != want {
		t.Errorf("got\n%s\nwant\n%s\n%s", got, want, describe(rs))
	}
}

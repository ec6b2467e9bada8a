package edit_test

import (
	"errors"
	"fmt"
	"slices"
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
	wantApplied(t, old, rs, want)
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
	wantApplied(t, old, rs, want)
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
	wantApplied(t, old, rs, want)
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
	wantApplied(t, old, rs, want)
}

// TestLostLineBeforeEnd places a git hunk that appends to a file and lost
// the last of its three leading context lines (the file's last line): git
// writes context after added lines wherever the file goes on, so a hunk
// with none ends the file, and the lost line is context before it. The
// line counts of the diff's hunks tell how much context git wrote: three,
// where some side has three, or two (only -U2 writes two where the file
// goes on); not where every side has one line or none.
func TestLostLineBeforeEnd(t *testing.T) {
	old := text("class Cache:", "    def get(self, key):", "        return self.data.get(key)", "",
		"    def delete(self, key):", "        with self.lock:", "            if key in self.data:", "                self.data.pop(key)")
	other := text("diff --git a/v.py b/v.py", "index 1111111..2222222 100644", "--- a/v.py", "+++ b/v.py", "@@ -1,7 +1,7 @@",
		" a", " b", " c", "-d = 1", "+d = 2", " e", " f", " g")
	hunk := text("diff --git a/c.py b/c.py", "index 3333333..4444444 100644", "--- a/c.py", "+++ b/c.py", "@@ -6,2 +6,6 @@",
		"         with self.lock:", "             if key in self.data:", "+", "+", "+class Other(Cache):", "+    pass")
	want := old + "\n\nclass Other(Cache):\n    pass\n"

	t.Run("the diff's other hunks show three lines", func(t *testing.T) {
		got := placeFiles(t, map[string]string{"c.py": old, "v.py": text("a", "b", "c", "d = 1", "e", "f", "g")}, other+hunk)
		if got["c.py"] != want {
			t.Errorf("got\n%s\nwant\n%s", got["c.py"], want)
		}
	})
	t.Run("alone, the hunk shows two, git's default then", func(t *testing.T) {
		// Only git diff -U2 writes two lines where the file goes on.
		got := placeFiles(t, map[string]string{"c.py": old}, hunk)
		if got["c.py"] != want {
			t.Errorf("got\n%s\nwant\n%s", got["c.py"], want)
		}
	})
	t.Run("alone, the hunk shows one", func(t *testing.T) {
		// Nothing says git wrote three lines: the line may be all the
		// context, and the file lines after it trailing context lost.
		one := text("diff --git a/c.py b/c.py", "index 3333333..4444444 100644", "--- a/c.py", "+++ b/c.py", "@@ -6,1 +6,5 @@",
			"         with self.lock:", "+", "+", "+class Other(Cache):", "+    pass")
		refused(t, old, one, "checkShape")
	})
	t.Run("more than the missing lines follow", func(t *testing.T) {
		longer := old + "        return None\n"
		_, got := placeFilesErr(t, map[string]string{"c.py": longer, "v.py": text("a", "b", "c", "d = 1", "e", "f", "g")}, other+hunk)
		if !strings.Contains(got, "fewer context lines") {
			t.Errorf("placed a hunk whose lost lines do not reach the end of the file: %s", got)
		}
	})
}

// TestLostLineAfterStart is TestLostLineBeforeEnd at the start of a file:
// a hunk with no leading context begins the file.
func TestLostLineAfterStart(t *testing.T) {
	old := text("1.20.1 / 2022-10-06", "===================", "", "  * deps: qs@6.11.0", "", "1.20.0 / 2022-04-02")
	other := text("diff --git a/v.txt b/v.txt", "index 1111111..2222222 100644", "--- a/v.txt", "+++ b/v.txt", "@@ -1,7 +1,7 @@",
		" a", " b", " c", "-d = 1", "+d = 2", " e", " f", " g")
	hunk := text("diff --git a/HISTORY.md b/HISTORY.md", "index 3333333..4444444 100644", "--- a/HISTORY.md", "+++ b/HISTORY.md", "@@ -2,2 +2,5 @@",
		"+1.20.2 / 2023-02-21", "+===================", "+", " ===================", " ")
	got := placeFiles(t, map[string]string{"HISTORY.md": old, "v.txt": text("a", "b", "c", "d = 1", "e", "f", "g")}, other+hunk)
	want := "1.20.2 / 2023-02-21\n===================\n\n" + old
	if got["HISTORY.md"] != want {
		t.Errorf("got\n%s\nwant\n%s", got["HISTORY.md"], want)
	}
}

// TestLostBlankLineOrder: a git hunk that lost a blank context line next
// to added lines that end with a blank line. Put after them, the lost line
// would stack two blank lines where the file never has two, so it most
// likely goes before them; but a change may well add such a run, so the
// hunk is refused, with that reading offered as uncertain (for a person to
// review; never applied on --yes). Where the file has runs of two
// (Python's top-level spacing), there is no likely order and no reading.
func TestLostBlankLineOrder(t *testing.T) {
	old := text("//---", "// Requirements", "//---", "", "const { ESLint } = require(\"./eslint\");",
		"const { Linter } = require(\"./linter\");", "const { SourceCode } = require(\"./source-code\");", "",
		"//---", "// Exports", "//---", "", "module.exports = {", "    Linter,", "    ESLint,", "};")
	patch := text("diff --git a/api.js b/api.js", "index 1111111..2222222 100644", "--- a/api.js", "+++ b/api.js", "@@ -2,15 +2,20 @@",
		" // Requirements", " //---", " ", "-const { ESLint } = require(\"./eslint\");", "+const { ESLint, Flat } = require(\"./eslint\");",
		" const { Linter } = require(\"./linter\");", " const { SourceCode } = require(\"./source-code\");",
		"+async function load() {", "+    return Flat;", "+}", "+",
		" //---", " // Exports", " //---", " ", " module.exports = {", "     Linter,", "+    load,", "     ESLint,", " };")
	want := strings.Replace(old, "const { ESLint } = require(\"./eslint\");", "const { ESLint, Flat } = require(\"./eslint\");", 1)
	want = strings.Replace(want, "source-code\");\n\n", "source-code\");\n\nasync function load() {\n    return Flat;\n}\n\n", 1)
	want = strings.Replace(want, "    Linter,\n", "    Linter,\n    load,\n", 1)
	p := edit.PlanFile("api.js", "api.js", old, onlyFile(t, patch))
	if len(p.Hunks) != 0 || len(p.Errors) != 1 || !errors.Is(p.Errors[0], edit.ErrAmbiguous) {
		t.Fatalf("got hunks %s, errors %v, want the hunk refused", describe(p.Hunks), p.Errors)
	}
	if r := p.Errors[0].Interpreted; r == nil || r.Label() != "uncertain" || !strings.Contains(uncertainNote(*r), "blank file line 8") {
		t.Fatalf("got reading %+v, want an uncertain one about blank line 8", r)
	}
	if !p.Interpret() {
		t.Fatalf("Interpret: the uncertain reading was not taken")
	}
	if got, err := p.Result(nil); err != nil || got != want {
		t.Errorf("got\n%s (error %v)\nwant\n%s", got, err, want)
	}

	// The same file with two blank lines somewhere: either order fits it.
	doubled := edit.PlanFile("api.js", "api.js", old+"\n\n// end\n", onlyFile(t, patch))
	if len(doubled.Errors) != 1 || doubled.Errors[0].Interpreted != nil || !strings.Contains(doubled.Errors[0].Error(), "order of the added lines") {
		t.Errorf("with two blank lines in the file: got errors %v, want a refusal without a reading", doubled.Errors)
	}
}

// TestShortHunkAtEdge places git hunks of two context lines, too short
// for the fuzzy pass, that lost a line between them, at the end of the
// file their missing side names: a hunk with no leading context starts
// the file, one with no trailing context ends it.
func TestShortHunkAtEdge(t *testing.T) {
	other := text("diff --git a/v.txt b/v.txt", "index 1111111..2222222 100644", "--- a/v.txt", "+++ b/v.txt", "@@ -1,7 +1,7 @@",
		" a", " b", " c", "-d = 1", "+d = 2", " e", " f", " g")
	files := func(name, old string) map[string]string {
		return map[string]string{name: old, "v.txt": text("a", "b", "c", "d = 1", "e", "f", "g")}
	}
	header := func(name string) string {
		return text("diff --git a/"+name+" b/"+name, "index 3333333..4444444 100644", "--- a/"+name, "+++ b/"+name)
	}
	history := text("1.20.1 / 2022-10-06", "===================", "", "  * deps: qs@6.11.0", "", "1.20.0 / 2022-04-02", "===================")
	t.Run("start", func(t *testing.T) {
		hunk := header("HISTORY.md") + text("@@ -1,2 +1,5 @@", "+1.20.2 / 2023-02-21", "+===================", "+", " 1.20.1 / 2022-10-06", " ")
		got := placeFiles(t, files("HISTORY.md", history), other+hunk)
		if want := "1.20.2 / 2023-02-21\n===================\n\n" + history; got["HISTORY.md"] != want {
			t.Errorf("got\n%s\nwant\n%s", got["HISTORY.md"], want)
		}
	})
	t.Run("end", func(t *testing.T) {
		old := text("def a():", "    return 1", "", "def b():", "    x = 2", "    return x")
		hunk := header("m.py") + text("@@ -4,2 +4,5 @@", " def b():", "     return x", "+", "+def c():", "+    return 3")
		got := placeFiles(t, files("m.py", old), other+hunk)
		if want := old + "\ndef c():\n    return 3\n"; got["m.py"] != want {
			t.Errorf("got\n%s\nwant\n%s", got["m.py"], want)
		}
	})
	t.Run("not the file's first line", func(t *testing.T) {
		hunk := header("HISTORY.md") + text("@@ -1,2 +1,5 @@", "+1.20.2 / 2023-02-21", "+===================", "+", " ===================", " ")
		_, errs := placeFilesErr(t, files("HISTORY.md", "Changes\n"+strings.Replace(history, "===================\n", "", 1)), other+hunk)
		if errs == "" {
			t.Errorf("placed a hunk whose context is not where the file starts")
		}
	})
}

// TestFusedAtBlankRun places two git hunks run together where the first
// part ends on one of the two blank lines between Python functions: the
// lines between the parts hold more than that run, so they are a gap
// between hunks, where once the blank line after the split (equal to the
// line the part ends on) was taken for a lost context line.
func TestFusedAtBlankRun(t *testing.T) {
	old := text("import os", "", "", "def record(path):", "    return path", "", "", "def fs(path, rel=None):",
		"    if rel is not None:", "        path = os.path.relpath(path, rel)", "    return path.replace(os.sep, '/')", "", "",
		"def rows(old, changed):", "    out = []", "    for row in old:", "        if len(row) > 3:", "            warn(row)",
		"        new = row[0]", "        if new in changed:", "            digest = rehash(record(new))", "        else:",
		"            digest = row[1]", "        out.append((new, digest))", "    return out")
	// The first part ends on the first of the two blank lines after fs
	// (line 12); the second starts at line 19.
	patch := text("diff --git a/w.py b/w.py", "index 1111111..2222222 100644", "--- a/w.py", "+++ b/w.py", "@@ -3,16 +3,16 @@",
		" ", "-def record(path):", "-    return path", "+def record(path, lib):", "+    return os.path.join(lib, path)",
		" ", " ", " def fs(path, rel=None):", "     if rel is not None:", "         path = os.path.relpath(path, rel)",
		"     return path.replace(os.sep, '/')", " ",
		"         new = row[0]", "         if new in changed:", "-            digest = rehash(record(new))",
		"+            digest = rehash(record(new, lib))", "         else:", "             digest = row[1]")
	rs := mustPlace(t, old, patch)
	want := strings.Replace(strings.Replace(old, "def record(path):\n    return path\n", "def record(path, lib):\n    return os.path.join(lib, path)\n", 1),
		"rehash(record(new))", "rehash(record(new, lib))", 1)
	wantApplied(t, old, rs, want)
}

// TestShortStaleLine places hunks with a context line too short to call
// similar to the file's ("fmt" written "ft"): taken as changed only where
// its neighbours fit the file's lines on either side of it exactly.
func TestShortStaleLine(t *testing.T) {
	old := text("package tag", "", "import (", "\t\"fmt\"", "\t\"math\"", "\t\"time\"", "", "\t\"example.com/toml/internal\"", ")", "",
		"func Add(v float64) string {", "\treturn fmt.Sprintf(\"%v\", v)", "}")
	t.Run("between exact neighbours", func(t *testing.T) {
		patch := text("--- a/add.go", "+++ b/add.go", "@@ -3,6 +3,7 @@", " import (", " \t\"ft\"", " \t\"math\"", "+\t\"strconv\"", " \t\"time\"", " ",
			" \t\"example.com/toml/internal\"")
		rs := mustPlace(t, old, patch)
		want := strings.Replace(old, "\t\"math\"\n", "\t\"math\"\n\t\"strconv\"\n", 1)
		wantApplied(t, old, rs, want)
	})
	t.Run("next to a left-out line", func(t *testing.T) {
		patch := text("--- a/add.go", "+++ b/add.go", "@@ -3,6 +3,7 @@", " import (", " \t\"ft\"", "+\t\"strconv\"", " \t\"time\"", " ",
			" \t\"example.com/toml/internal\"", " )")
		if _, errs := edit.Place(old, onlyFile(t, patch)); len(errs) == 0 {
			t.Errorf("placed a hunk with a short unlike line next to a gap")
		}
	})
}

// TestFusedNotAnAddedLine: a hunk whose added line ("-") was written as
// context fits as two hunks run together, since the file has that line
// further on, followed by lines like the hunk's next ones; but without
// that line the hunk fits as one. Two readings: refused. (FuzzDamaged
// found it; this is its input, written out.)
func TestFusedNotAnAddedLine(t *testing.T) {
	ifErr := "if err != nil {"
	lines := []string{ifErr, ifErr, "}", "return nil", "}", "\tfmt.Println(\"hello, world\")", "}", ""}
	for range 9 {
		lines = append(lines, ifErr)
	}
	lines = append(lines, "-")
	for range 7 {
		lines = append(lines, ifErr)
	}
	old := text(lines...)
	patch := text("--- a/f", "+++ b/f", "@@ -1,13 +1,8 @@", "-"+ifErr, "-"+ifErr, "-}", "-return nil", "-}", "-\tfmt.Println(\"hello, world\")", "-}",
		" ", " -", " "+ifErr, " "+ifErr, "+}", " "+ifErr, " "+ifErr, " "+ifErr)
	rs, errs := edit.Place(old, onlyFile(t, patch))
	if len(errs) == 0 {
		t.Fatalf("placed a hunk that fits as one hunk without a line it writes as context:\n%s", describe(rs))
	}
}

// TestLostLineBeforeDeletion places a git hunk that lost the context line
// between two change groups, where the added lines of the first come right
// before the deleted lines of the second: git writes a group's deleted
// lines before its added ones, so those added lines cannot follow the lost
// line; they end the first group. A diff git did not make says nothing of
// the order, and the hunk is refused. (The new header is no edit of the
// old one, or the lost line would follow it: see TestLostLineAfterEdit.)
func TestLostLineBeforeDeletion(t *testing.T) {
	old := text("\treturn app", "}", "", "func expectFile(t *testing.T, file, got string) {", "\tdata, err := os.ReadFile(file)",
		"\t// Ignore windows line endings", "\tdata = bytes.ReplaceAll(data, crlf, lf)", "\texpect(t, err, nil)", "\texpect(t, got, string(data))", "}")
	hunk := text("@@ -1,10 +1,9 @@", " \treturn app", " }", " ", "-func expectFile(t *testing.T, file, got string) {",
		"+func checkFile(t *testing.T, name, expected string) {", "-\t// Ignore windows line endings", "-\tdata = bytes.ReplaceAll(data, crlf, lf)",
		"-\texpect(t, err, nil)", "-\texpect(t, got, string(data))", "+\tif err != nil || strings.TrimSpace(string(data)) != expected {", "+\t\tt.FailNow()", "+\t}", " }")
	want := text("\treturn app", "}", "", "func checkFile(t *testing.T, name, expected string) {", "\tdata, err := os.ReadFile(file)",
		"\tif err != nil || strings.TrimSpace(string(data)) != expected {", "\t\tt.FailNow()", "\t}", "}")
	t.Run("git diff", func(t *testing.T) {
		rs := mustPlace(t, old, text("diff --git a/f_test.go b/f_test.go", "index 1111111..2222222 100644", "--- a/f_test.go", "+++ b/f_test.go")+hunk)
		wantApplied(t, old, rs, want)
	})
	t.Run("not git's", func(t *testing.T) {
		refused(t, old, text("--- a/f_test.go", "+++ b/f_test.go")+hunk, "orderUnknown")
	})
}

// TestLostLineBeforeDeletionOtherOrder: the hunk of TestLostLineBeforeDeletion
// written with an added line before the deleted one it replaces elsewhere:
// its writer does not keep git's order, which then says nothing of where
// the added lines before the lost line go.
func TestLostLineBeforeDeletionOtherOrder(t *testing.T) {
	old := text("\treturn app", "}", "", "func expectFile(t *testing.T, file, got string) {", "\tdata, err := os.ReadFile(file)",
		"\t// Ignore windows line endings", "\texpect(t, got, string(data))", "}")
	patch := text("diff --git a/f_test.go b/f_test.go", "index 1111111..2222222 100644", "--- a/f_test.go", "+++ b/f_test.go",
		"@@ -1,8 +1,8 @@", " \treturn app", " }", " ", "-func expectFile(t *testing.T, file, got string) {",
		"+func checkFile(t *testing.T, name, expected string) {", "-\t// Ignore windows line endings",
		"+\tif string(data) != expected {", "-\texpect(t, got, string(data))", "+\t\tt.FailNow()", "+\t}", " }")
	refused(t, old, patch, "orderUnknown")
}

// TestLostLineAfterEdit offers, as uncertain only, a hunk that lost the
// context line right after lines it edits in place, one added line like
// each deleted one: the lost line likely follows the edit (real changes
// almost never move a line down as they edit it), but that is a guess,
// unless the syntax check rules out the other orders. A line that moves
// (deleted and added as it is), an edit that adds more lines than it
// deletes, or one among lines like it (the lost line too) says nothing of
// the order, and is refused with no reading offered.
func TestLostLineAfterEdit(t *testing.T) {
	old := text("function f(a) {", "  const x = compute(a, 1);", "  const y = x * 2;", "  const z = y + 1;", "  return z;", "}")
	hunk := func(body ...string) string {
		return text(slices.Concat([]string{"--- a/f.js", "+++ b/f.js", "@@ ... @@", " function f(a) {"}, body,
			[]string{"   const z = y + 1;", "-  return z;", "+  return z + x;", " }"})...)
	}
	_, errs := edit.Place(old, onlyFile(t, hunk("-  const x = compute(a, 1);", "+  const x = compute(a, 2);")))
	if len(errs) != 1 || lastRule(errs[0]) != "editsInPlace" || errs[0].Interpreted == nil {
		t.Fatalf("errors %v, want the hunk refused as a guess with an uncertain reading", errs)
	}
	want := strings.Replace(strings.Replace(old, "(a, 1)", "(a, 2)", 1), "return z;", "return z + x;", 1)
	wantApplied(t, old, []edit.Resolved{*errs[0].Interpreted}, want)

	t.Run("syntax check", func(t *testing.T) {
		// The other order puts a call outside any function: go/parser
		// rules it out, and the edit in place is placed.
		old := text("package p", "", "func f() {", "\ta(1)", "}", "", "func g() {}")
		patch := text("--- a/p.go", "+++ b/p.go", "@@ ... @@", " func f() {", "-\ta(1)", "+\ta(2)", " ", " func g() {}")
		rs := mustPlace(t, old, patch)
		wantApplied(t, old, rs, strings.Replace(old, "a(1)", "a(2)", 1))
		if !strings.Contains(strings.Join(rs[0].Notes, "\n"), "every other order fails the syntax check (go/parser)") {
			t.Errorf("notes %q do not name the syntax check", rs[0].Notes)
		}
	})
	t.Run("moved", func(t *testing.T) {
		refused(t, old, hunk("-  const x = compute(a, 1);", "+  const x = compute(a, 1);"), "orderUnknown")
	})
	t.Run("more added lines", func(t *testing.T) {
		refused(t, old, hunk("-  const x = compute(a, 1);", "+  const x = compute(a, 2);", "+  log(x);"), "orderUnknown")
	})
	t.Run("among like lines", func(t *testing.T) {
		// The lost line is like the edited one: in a run of like lines,
		// lines trade places (the fuzzers' files of "x := compute(1, 2, 4)").
		old := strings.Replace(old, "x * 2", "compute(a, 2)", 1)
		refused(t, old, hunk("-  const x = compute(a, 1);", "+  const x = compute(a, 3);"), "orderUnknown")
	})
}

// TestStaleLineTwice: a hunk whose one distinctive line is stale, where the
// file has that line twice. Only the hunk's common lines vote for places,
// and too few of them did for the second place to be examined: the first
// seemed the only one, and a fuzzy placement took it. Both are found now,
// and the header's line number chooses; without one the hunk is refused.
// (FuzzDamaged found it.)
func TestStaleLineTwice(t *testing.T) {
	old := text("if err != nil {", "", "}", "}", "}", "if err != nil {", "", "}")
	t.Run("numbered", func(t *testing.T) {
		rs := mustPlace(t, old, text("--- a/f", "+++ b/f", "@@ -6,3 +6,4 @@", " If err != nil {", " ", " }", "+}"))
		if got, want := mustApply(t, old, rs), old+"}\n"; got != want {
			t.Errorf("got %q, want %q\n%s", got, want, describe(rs))
		}
	})
	t.Run("no numbers", func(t *testing.T) {
		refused(t, old, text("--- a/f", "+++ b/f", "@@ ... @@", " If err != nil {", " ", " }", "+}"), "ambiguous")
	})
}

// TestGitEdgeChoosesEnd places a git hunk with full leading context and
// none after its added lines, whose context the file has twice: git
// writes context after added lines wherever the file goes on, so the
// hunk ends the file. The same hunk without git's "index" line, or with
// trailing context, is refused as before: a model that stops after its
// added lines need not mean the end of the file.
func TestGitEdgeChoosesEnd(t *testing.T) {
	block := []string{"```go", "func main() {", "  run()", "  }", "}", "```"}
	old := text(slices.Concat([]string{"# Hooks", ""}, block, []string{"", "Or locally:", ""}, block)...)
	body := []string{"   }", " }", " ```", "+", "+## More", "+Text."}
	git := text(slices.Concat([]string{"diff --git a/README.md b/README.md", "index 1111111..2222222 100644", "--- a/README.md", "+++ b/README.md", "@@ @@"}, body)...)
	rs := mustPlace(t, old, git)
	if got, want := mustApply(t, old, rs), old+"\n## More\nText.\n"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(strings.Join(rs[0].Notes, "\n"), "end of the file") {
		t.Errorf("notes %q do not say why the end was chosen", rs[0].Notes)
	}

	t.Run("no index line: not known to be git's", func(t *testing.T) {
		refused(t, old, text(slices.Concat([]string{"--- a/README.md", "+++ b/README.md", "@@ @@"}, body)...), "ambiguous")
	})
	t.Run("the start of the file, for a hunk with no leading context", func(t *testing.T) {
		top := text(slices.Concat(block, []string{"", "Or locally:", ""}, block, []string{"", "The end."})...)
		head := text("diff --git a/README.md b/README.md", "index 1111111..2222222 100644", "--- a/README.md", "+++ b/README.md", "@@ @@",
			"+# Hooks", "+", " ```go", " func main() {", "   run()")
		rs := mustPlace(t, top, head)
		if got, want := mustApply(t, top, rs), "# Hooks\n\n"+top; got != want {
			t.Errorf("got\n%s\nwant\n%s", got, want)
		}
	})
}

// TestLostBlankBeforeDeletion places a hunk that lost the blank line
// before the line it replaces, where a blank line also follows that line:
// the hunk without its blank line fits nowhere, so that blank line is no
// added line in disguise, and leaving out the file's blank line is safe.
func TestLostBlankBeforeDeletion(t *testing.T) {
	old := text("'use strict';", "", "import utils from './utils.js';", "import platform from './platform.js';", "",
		"export default platform.isStandard ?", "", "// Browsers have full support of the APIs", "// needed to test the origin.",
		"  (function standard() {", "    return true;", "  })();")
	patch := text("--- a/o.js", "+++ b/o.js", "@@ -3,6 +3,6 @@",
		" import utils from './utils.js';", " import platform from './platform.js';",
		"-export default platform.isStandard ?", "+export default platform.hasStandard ?",
		" ", " // Browsers have full support of the APIs", " // needed to test the origin.")
	rs := mustPlace(t, old, patch)
	if got, want := mustApply(t, old, rs), strings.Replace(old, "isStandard", "hasStandard", 1); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestLostLinePinnedByNumber places a hunk that lost a context line in a
// table whose rows repeat the same few lines: its one loose fit rests on
// no rare line, but its header's line number names that fit's first line,
// as the number of the diff's other hunk names the place it fits exactly.
// Without that other hunk, or with its number wrong, nothing vouches for
// the numbers and the hunk is refused as before.
func TestLostLinePinnedByNumber(t *testing.T) {
	lines := []string{"package p", "", "func TestX(t *testing.T) {", "\ttests := []struct{ a, b int }{{"}
	for i, r := range [][2]int{{1, 2}, {1, 3}, {2, 2}, {2, 3}, {1, 2}, {2, 3}, {1, 3}, {2, 2}} {
		if i > 0 {
			lines = append(lines, "\t}, {")
		}
		lines = append(lines, fmt.Sprintf("\t\ta: %d,", r[0]), fmt.Sprintf("\t\tb: %d,", r[1]))
	}
	old := text(append(lines, "\t}}", "\trun(tests)", "}")...)
	first := func(n int) string {
		return text(fmt.Sprintf("@@ -%d,3 +%d,3 @@", n, n), "-package p", "+package q", " ", " func TestX(t *testing.T) {")
	}
	// Rows 3 to 5, the "}, {" after row 3 lost.
	lost := text("@@ -11,8 +11,9 @@", " \t\ta: 2,", " \t\tb: 2,", " \t\ta: 2,", "+\t\tc: 4,", " \t\tb: 3,", " \t}, {", " \t\ta: 1,")
	want := strings.Replace(strings.Replace(old, "package p", "package q", 1),
		"\t\ta: 2,\n\t\tb: 2,\n\t}, {\n\t\ta: 2,\n", "\t\ta: 2,\n\t\tb: 2,\n\t}, {\n\t\ta: 2,\n\t\tc: 4,\n", 1)
	rs := mustPlace(t, old, text("--- a/x_test.go", "+++ b/x_test.go")+first(1)+lost)
	wantApplied(t, old, rs, want)
	if !strings.Contains(describe(rs), "names this place") {
		t.Errorf("the notes do not say the number chose the place:\n%s", describe(rs))
	}
	t.Run("alone", func(t *testing.T) {
		refused(t, old, text("--- a/x_test.go", "+++ b/x_test.go")+lost, "distinctive")
	})
	t.Run("the other hunk's number is off", func(t *testing.T) {
		refused(t, old, text("--- a/x_test.go", "+++ b/x_test.go")+first(3)+lost, "distinctive")
	})
}

// TestAddedLineNotLostLine refuses a hunk that fits only if the file lost
// a line of the patch's context, when one of its context lines may as
// well be an added line written as context (a missing "+"), the hunk
// without it fitting exactly: the exact reading needs no guess, and the
// loose one would leave that line out (FuzzDamaged/09e26123e41358e9).
func TestAddedLineNotLostLine(t *testing.T) {
	old := text("x := compute(1, 2, 4)", "return nil", "x := compute(1, 2, 3)", "x := compute(1, 2, 3)",
		"x := compute(1, 2, 4)", "x := compute(1, 2, 3)", "x := compute(1, 2, 3)", "x := compute(1, 2, 3)")
	patch := text("--- a/f.go", "+++ b/f.go", "@@ -5,4 +5,6 @@", " x := compute(1, 2, 4)", " x := compute(1, 2, 3)",
		" x := compute(1, 2, 3)", " x := compute(1, 2, 4)", " x := compute(1, 2, 3)", "+}")
	refused(t, old, patch, "addedInstead")
}

// TestLostLineBetweenTwoAdded places a git hunk that adds two imports
// around one it lost: with git's three context lines on each side, the
// lost line can be neither side's, so it parts the two added lines. With
// three added lines, where it goes among them is unknown.
func TestLostLineBetweenTwoAdded(t *testing.T) {
	old := text("package quic", "", "import (", "\t\"bytes\"", "\t\"crypto/tls\"", "\t\"io\"", "\t\"log/slog\"", "\t\"net\"", ")")
	hdr := text("diff --git a/e.go b/e.go", "index 1111111..2222222 100644", "--- a/e.go", "+++ b/e.go")
	lead := []string{" ", " import (", " \t\"bytes\""}
	trail := []string{" \t\"io\"", " \t\"log/slog\"", " \t\"net\""}
	two := hdr + text(slices.Concat([]string{"@@ -2,6 +2,8 @@"}, lead, []string{"+\t\"context\"", "+\t\"errors\""}, trail)...)
	rs := mustPlace(t, old, two)
	want := strings.Replace(old, "\t\"bytes\"\n\t\"crypto/tls\"\n", "\t\"bytes\"\n\t\"context\"\n\t\"crypto/tls\"\n\t\"errors\"\n", 1)
	wantApplied(t, old, rs, want)
	three := hdr + text(slices.Concat([]string{"@@ -2,6 +2,9 @@"}, lead, []string{"+\t\"context\"", "+\t\"embed\"", "+\t\"errors\""}, trail)...)
	refused(t, old, three, "orderUnknown")
}

// TestFusedOtherSplitTwice places two hunks run together where another
// split's second part fits twice but its first part nowhere: that split
// is no reading at all, and once it made the whole hunk refused.
func TestFusedOtherSplitTwice(t *testing.T) {
	old := text("package p", "", "var x = []t{", "\t{a: 1},", "\t{a: 2},", "\t{a: 3},", "}", "",
		"func B() {", "\ty := 1", "\tlog(y)", "\tcheck(y)", "\tdone()", "}", "",
		"func C() {", "\tz := 2", "\tlog(y)", "\tcheck(y)", "\tdone()", "}")
	patch := text("--- a/p.go", "+++ b/p.go", "@@ -4,9 +4,10 @@", " \t{a: 1},", "+\t{a: 15},", " \t{a: 2},", " \t{a: 3},",
		" \ty := 1", " \tlog(y)", "-\tcheck(y)", "+\tcheck2(y)", " \tdone()", " }")
	rs := mustPlace(t, old, patch)
	want := strings.Replace(strings.Replace(old, "\t{a: 1},\n", "\t{a: 1},\n\t{a: 15},\n", 1), "\ty := 1\n\tlog(y)\n\tcheck(y)", "\ty := 1\n\tlog(y)\n\tcheck2(y)", 1)
	wantApplied(t, old, rs, want)
	if rs[0].Pass != edit.PassFused {
		t.Errorf("pass: got %v, want fused", rs[0].Pass)
	}
}

// TestFusedGapEndsBlank places two hunks run together with two file lines
// between them, the second blank like the line the first part ends on:
// only a run of such lines next to a part is no gap between hunks, and
// once any blank line between them was taken for one.
func TestFusedGapEndsBlank(t *testing.T) {
	old := text("func TestBlocks(t *testing.T) {", "", "\tvar svc = new(Impl)", "", "\tsvc.On(\"call\").After(2 * time.Millisecond)", "",
		"\tch := make(chan Arguments)", "", "\tgo call(svc, ch)", "", "\tselect {", "\tcase <-ch:", "\t\tt.Fatal(\"should have waited\")",
		"\tcase <-time.After(1 * time.Millisecond):", "\t}", "", "\treturn <-ch", "}")
	patch := text("--- a/b_test.go", "+++ b/b_test.go", "@@ -2,14 +2,14 @@", " ", " \tvar svc = new(Impl)", " ",
		"-\tsvc.On(\"call\").After(2 * time.Millisecond)", "+\tsvc.On(\"call\").After(20 * time.Millisecond)", " ", " \tch := make(chan Arguments)", " ",
		" \tselect {", " \tcase <-ch:", " \t\tt.Fatal(\"should have waited\")", "-\tcase <-time.After(1 * time.Millisecond):", "+\tcase <-time.After(10 * time.Millisecond):", " \t}", " ", " \treturn <-ch")
	rs := mustPlace(t, old, patch)
	want := strings.Replace(strings.Replace(old, "(2 * time", "(20 * time", 1), "(1 * time", "(10 * time", 1)
	wantApplied(t, old, rs, want)
}

// TestLostTrailingLineAtEnd places a git hunk with three leading context
// lines that lost a trailing one next to its added line, at the end of
// the file: there the trailing side may be short, but the lost line on the
// leading side would make four, more than git writes, so it is trailing.
// With more than one added line, it may as well be a context line between
// two of them, two groups of added lines: that is refused.
func TestLostTrailingLineAtEnd(t *testing.T) {
	old := text("def register():", "    pass", "", "", "register()", "", "# Clean up namespace", "", "del(register)")
	hdr := text("diff --git a/d.py b/d.py", "index 1111111..2222222 100644", "--- a/d.py", "+++ b/d.py")
	one := hdr + text("@@ -4,5 +4,6 @@", " ", " register()", " ", "+shared = register", " ", " del(register)")
	rs := mustPlace(t, old, one)
	want := strings.Replace(old, "register()\n\n#", "register()\n\nshared = register\n#", 1)
	wantApplied(t, old, rs, want)
	three := hdr + text("@@ -4,5 +4,8 @@", " ", " register()", " ", "+def shared(enable):", "+    return enable", "+", " ", " del(register)")
	refused(t, old, three, "orderUnknown")
}

// TestLostLeadingLineAtStart is TestLostTrailingLineAtEnd at the start of
// a file: three trailing context lines, so the lost line is leading.
func TestLostLeadingLineAtStart(t *testing.T) {
	old := text("#!/usr/bin/env python3", "# coding: utf-8", "\"\"\"Tool.\"\"\"", "import os", "import re", "import sys", "", "def main():", "    pass")
	patch := text("diff --git a/t.py b/t.py", "index 1111111..2222222 100644", "--- a/t.py", "+++ b/t.py", "@@ -1,5 +1,6 @@",
		" #!/usr/bin/env python3", " # coding: utf-8", "+import json", " import os", " import re", " import sys")
	rs := mustPlace(t, old, patch)
	want := strings.Replace(old, "\"\"\"Tool.\"\"\"\n", "\"\"\"Tool.\"\"\"\nimport json\n", 1)
	wantApplied(t, old, rs, want)
}

// TestLostLineBetweenBlanksGitShape places a git hunk that lost the line
// between two blank lines of its trailing context: either blank line, as
// an added line written as context, would leave the hunk fewer trailing
// context lines than git writes where the file goes on, so neither is one,
// and the gap between them is the lost line.
func TestLostLineBetweenBlanksGitShape(t *testing.T) {
	old := text("def encode(argument):", "    if not isinstance(argument, str):", "        argument = str(argument)", "",
		"    if _quote.search(argument):", "        quote = '\"'", "    else:", "        quote = \"\"", "",
		"    encoded = quote + argument + quote", "", "    return encoded", "", "", "def encode_list(items):", "    return items")
	patch := text("diff --git a/c.py b/c.py", "index 1111111..2222222 100644", "--- a/c.py", "+++ b/c.py", "@@ -2,9 +2,6 @@",
		"     if not isinstance(argument, str):", "         argument = str(argument)", " ",
		"-    if _quote.search(argument):", "-        quote = '\"'", "-    else:", "-        quote = \"\"", "+    quote = '\"' if _quote.search(argument) else \"\"", " ", " ")
	rs := mustPlace(t, old, patch)
	want := strings.Replace(old, "    if _quote.search(argument):\n        quote = '\"'\n    else:\n        quote = \"\"\n", "    quote = '\"' if _quote.search(argument) else \"\"\n", 1)
	wantApplied(t, old, rs, want)
	t.Run("not git's", func(t *testing.T) {
		refused(t, old, strings.Replace(patch, "index 1111111..2222222 100644\n", "", 1), "looseReadings")
	})
}

// TestChosenByFailedNeighbour refuses a hunk that fits two places and was
// chosen between its neighbours, when the neighbour that chose cannot be
// placed after all: its place then says nothing
// (FuzzDamaged/cd3d6eb7a8ffdc86).
func TestChosenByFailedNeighbour(t *testing.T) {
	old := text("}", "}", "}", "}", "}", "}", "}", "    return nil", "}", "\treturn nil", "}")
	patch := text("--- a/f", "+++ b/f", "@@ -2,6 +2,7 @@", " }", " }", " }", "+\treturn nil", " }", " }", " }",
		"@@ -9,3 +10,5 @@", " }", " \treturn nil", " }", "+}", "     return nil")
	rs, errs := edit.Place(old, onlyFile(t, patch))
	if len(rs) != 0 || len(errs) != 2 {
		t.Fatalf("placed %d hunks, %d errors, want none placed and two errors: %v\n%s", len(rs), len(errs), errs, describe(rs))
	}
	if lastRule(errs[0]) != "dropBound" {
		t.Errorf("hunk 1: %v", errs[0])
	}
}

// TestMisshapenFitLooserFit places a git hunk that appends at the end of
// a file and lost a leading context line, whose two lines fit exactly
// (but for indentation) further up: that fit breaks git's shape, two
// context lines before added lines where the file goes on, so the place
// where the lost line completes the shape, the end of the file, is taken.
func TestMisshapenFitLooserFit(t *testing.T) {
	old := text("package m", "", "import \"testing\"", "", "// A tests a.", "func TestA(t *testing.T) {", "\tassertEqual(t, 11, w.N())", "}", "",
		"func TestB(t *testing.T) {", "\tt.Run(\"x\", func(t *testing.T) {", "\t\tassertEqual(t, 11, w.N())", "\t})", "}")
	patch := text("diff --git a/m_test.go b/m_test.go", "index 1111111..2222222 100644", "--- a/m_test.go", "+++ b/m_test.go",
		"@@ -2,7 +2,7 @@", " ", " import \"testing\"", " ", "-// A tests a.", "+// TestA tests a.", " func TestA(t *testing.T) {", " \tassertEqual(t, 11, w.N())", " }",
		"@@ -12,2 +12,6 @@", " \t\tassertEqual(t, 11, w.N())", " }", "+", "+func TestC(t *testing.T) {", "+\tt.Skip()", "+}")
	rs := mustPlace(t, old, patch)
	want := strings.Replace(old, "// A tests", "// TestA tests", 1) + "\nfunc TestC(t *testing.T) {\n\tt.Skip()\n}\n"
	wantApplied(t, old, rs, want)
}

// TestStaleOnlyRareLine places a hunk whose only rare context line is the
// one the patch got slightly wrong (a typo in a changelog's long line),
// the others blank: no place has votes enough to be examined, but the
// place the header names is examined anyway, and the fit there rests on
// the look-alike of that rare line.
func TestStaleOnlyRareLine(t *testing.T) {
	old := text("# Changelog", "", "All notable changes to this project are documented in this file. See standard-version.", "",
		"### [21.0.1] (2022-02-27)", "", "", "### Bug Fixes", "", "* fix a bug", "")
	patch := text("--- a/CHANGELOG.md", "+++ b/CHANGELOG.md", "@@ -2,4 +2,7 @@", " ",
		" All notable changes to this project are documented in this file. See standard-verion.", " ",
		"+### [21.1.1] (2022-08-04)", "+", "+", " ### [21.0.1] (2022-02-27)")
	rs := mustPlace(t, old, patch)
	want := strings.Replace(old, "\n### [21.0.1]", "\n### [21.1.1] (2022-08-04)\n\n\n### [21.0.1]", 1)
	wantApplied(t, old, rs, want)
	t.Run("no number", func(t *testing.T) {
		refused(t, old, strings.Replace(patch, "@@ -2,4 +2,7 @@", "@@ @@", 1), "fitsSomewhere")
	})
}

// TestGitEdgesNotForLooseFits refuses a hunk that lost a line in a run of
// like lines next to its added line: its loose fits put the lost line
// before or after the added one, and the start of the file, where git's
// context stops short, says nothing of a loose fit, whose sides the lost
// line may lengthen (FuzzDamagedGit/0fddd3fae1d4a344).
func TestGitEdgesNotForLooseFits(t *testing.T) {
	old := text("x := compute(1, 2, 3)", "x := compute(1, 2, 4)", "x := compute(1, 2, 4)", "x := compute(1, 2, 4)", "}", "}", "}", "}", "}")
	patch := text("diff --git a/f b/f", "index 1111111..2222222 100644", "--- a/f", "+++ b/f",
		"@@ -1,5 +1,6 @@", " x := compute(1, 2, 3)", "+}", " x := compute(1, 2, 4)", " x := compute(1, 2, 4)", " }",
		"@@ -7,3 +8,4 @@", " }", " }", " }", "+}")
	rs, errs := edit.Place(old, onlyFile(t, patch))
	for _, r := range rs {
		if r.Hunk == 0 {
			t.Fatalf("hunk 1 placed:\n%s", describe(rs))
		}
	}
	if len(errs) == 0 || errs[0].Hunk != 0 {
		t.Errorf("errors %v, want hunk 1 refused", errs)
	}
}

// TestStaleLineUniqueDeletion places a short hunk without line numbers
// whose one context line with text is stale: only its deleted line, found
// once in the file, votes for the place, and a deleted line must match,
// so it counts twice: the place is examined, and the hunk fits there with
// the stale line taken as changed (cenkalti/backoff's README on a
// stand-in, combo_hard).
func TestStaleLineUniqueDeletion(t *testing.T) {
	old := text("# Exponential Backoff [![GoDoc][godoc image]][godoc] [![Build Status][travis image]][travis]", "",
		"This is a Go port of the exponential backoff algorithm from Google's HTTP Client Library for Java.", "",
		"[Exponential backoff][exponential backoff wiki]", "is an algorithm that uses feedback.")
	patch := text("--- README.md", "+++ README.md", "@@ ... @@",
		"-# Exponential Backoff [![GoDoc][godoc image]][godoc] [![Build Status][travis image]][travis]",
		"+# Exponential Backoff [![GoDoc][godoc image]][godoc]", " ",
		" This is a Go port of the exponential backoff algorithm from Google's HTTP Client Library for Javas.", " ")
	rs := mustPlace(t, old, patch)
	want := strings.Replace(old, " [![Build Status][travis image]][travis]", "", 1)
	wantApplied(t, old, rs, want)
}

// TestLostLinePinnedByGitNumber places a git diff's only hunk, which lost
// the blank line before its deleted line, in a test file whose blocks
// repeat: its lines are all common, and no other hunk shows that the
// numbers hold, but git made the diff, and its header names the fit's
// first line (hashicorp/golang-lru on a stand-in). Without git's index
// line, the number is nobody's word, and the hunk is refused.
func TestLostLinePinnedByGitNumber(t *testing.T) {
	block := []string{"\tif !ok {", "\t\tt.Fatalf(\"should be true\")", "\t}", "", "\ttime.Sleep(time.Millisecond * 100)", "\tif lc.Len() != 0 {", "\t\tt.Fatalf(\"length differs\")", "\t}", "}"}
	old := text(slices.Concat([]string{"func TestA(t *testing.T) {"}, block, []string{"", "func TestB(t *testing.T) {"}, block)...)
	hunk := text("@@ -14,6 +14,7 @@", " \t\tt.Fatalf(\"should be true\")", " \t}", "-\ttime.Sleep(time.Millisecond * 100)",
		"+\tfor lc.Len() > 0 {", "+\t}", " \tif lc.Len() != 0 {", " \t\tt.Fatalf(\"length differs\")", " \t}")
	rs := mustPlace(t, old, gitHeader("lru_test.go")+hunk)
	at := strings.LastIndex(old, "\ttime.Sleep")
	want := old[:at] + strings.Replace(old[at:], "\ttime.Sleep(time.Millisecond * 100)\n", "\tfor lc.Len() > 0 {\n\t}\n", 1)
	wantApplied(t, old, rs, want)
	t.Run("not git's", func(t *testing.T) {
		refused(t, old, text("--- a/lru_test.go", "+++ b/lru_test.go")+hunk, "distinctive")
	})
}

// TestLostBlankKeepsShape places a git hunk that lost one of two blank
// lines next to the lines it adds: read as the blank line before the
// added lines, the hunk has git's three lines of context on each side;
// read as the one after, its leading side is one line short where the
// file goes on, which git never writes (tkinter's colorchooser.py on a
// stand-in). A diff git did not make has no such shape, and the hunk,
// read either way, is refused.
func TestLostBlankKeepsShape(t *testing.T) {
	old := text("# Copyright", "#", "", "from tkinter.commondialog import Dialog", "", "", "class Chooser(Dialog):", "    \"\"\"A dialog.\"\"\"", "", "    def show(self):", "        pass")
	hunk := text("@@ -3,5 +3,7 @@", " ", " from tkinter.commondialog import Dialog", "+__all__ = [\"Chooser\"]", "+", " ", " class Chooser(Dialog):", "     \"\"\"A dialog.\"\"\"")
	git := text("diff --git a/c.py b/c.py", "index 1111111..2222222 100644", "--- a/c.py", "+++ b/c.py") + hunk
	rs := mustPlace(t, old, git)
	wantApplied(t, old, rs, strings.Replace(old, "Dialog\n\n\nclass", "Dialog\n\n__all__ = [\"Chooser\"]\n\n\nclass", 1))
	t.Run("not git's", func(t *testing.T) {
		if rs, errs := edit.Place(old, onlyFile(t, text("--- a/c.py", "+++ b/c.py")+hunk)); len(errs) == 0 {
			t.Errorf("placed a hunk git did not make by git's shape:\n%s", describe(rs))
		}
	})
}

// TestTwoLinesWithDeletion places a hunk of two pre-image lines, one of
// them deleted, that lost the line between them: the deleted line must
// match and pins the place (a version bump in a file of three lines,
// written without line numbers, on a stand-in). Two context lines and
// a gap pin nothing, and are still refused.
func TestTwoLinesWithDeletion(t *testing.T) {
	old := text("package main", "", "const version = \"v0.5.10\"")
	patch := text("--- cmd/version.go", "+++ cmd/version.go", "@@ ... @@", " package main", "-const version = \"v0.5.10\"", "+const version = \"v0.5.11\"")
	rs := mustPlace(t, old, patch)
	wantApplied(t, old, rs, strings.Replace(old, "v0.5.10", "v0.5.11", 1))
	t.Run("context only", func(t *testing.T) {
		old := text("package main", "", "const version = \"v0.5.10\"", "", "func main() {}")
		patch := text("--- cmd/version.go", "+++ cmd/version.go", "@@ ... @@", " package main", " const version = \"v0.5.10\"", "+const commit = \"\"")
		if rs, errs := edit.Place(old, onlyFile(t, patch)); len(errs) == 0 {
			t.Errorf("placed two context lines with a gap:\n%s", describe(rs))
		}
	})
}

// TestFusedPartFitsTwice places two hunks run together whose first part
// fits two places, two tests that open alike, and whose second part fits
// one: each pair of places is a reading, and the header's line number
// chooses among them as for any hunk that fits twice (x/net's charset
// test on a stand-in). Without a number nothing chooses, and the hunk is
// refused saying so.
func TestFusedPartFitsTwice(t *testing.T) {
	test := func(name, call string) []string {
		return []string{"func " + name + "(t *testing.T) {", "\tfor _, tc := range cases {", "\t\tcontent, err := ioutil.ReadFile(tc.name)",
			"\t\tif err != nil {", "\t\t\tt.Errorf(\"reading: %v\", err)", "\t\t\tcontinue", "\t\t}", "\t\tr, err := " + call, "\t\tif err != nil {",
			"\t\t\tt.Errorf(\"" + name + ": %v\", err)", "\t\t\tcontinue", "\t\t}", "", "\t\tgot, err := ioutil.ReadAll(r)", "\t\tcheck(got)", "\t}", "}"}
	}
	old := text(slices.Concat([]string{"package p", ""}, test("TestSniff", "sniff(content)"), []string{""}, test("TestReader", "NewReader(content)"))...)
	body := []string{" \tfor _, tc := range cases {", "-\t\tcontent, err := ioutil.ReadFile(tc.name)", "+\t\tcontent, err := os.ReadFile(tc.name)",
		" \t\tif err != nil {", " \t\t\tt.Errorf(\"reading: %v\", err)", " \t\t\tcontinue",
		" \t\t\tt.Errorf(\"TestReader: %v\", err)", " \t\t\tcontinue", " \t\t}", " ", "-\t\tgot, err := ioutil.ReadAll(r)", "+\t\tgot, err := io.ReadAll(r)", " \t\tcheck(got)"}
	reader := strings.Index(old, "func TestReader")
	want := old[:reader] + strings.Replace(strings.Replace(old[reader:], "ioutil.ReadFile", "os.ReadFile", 1), "ioutil.ReadAll", "io.ReadAll", 1)
	numbered := text(append([]string{"--- a/p_test.go", "+++ b/p_test.go", "@@ -22,13 +22,13 @@"}, body...)...)
	rs := mustPlace(t, old, numbered)
	wantApplied(t, old, rs, want)
	if rs[0].Pass != edit.PassFused {
		t.Errorf("pass: got %v, want fused", rs[0].Pass)
	}
	bare := text(append([]string{"--- p_test.go", "+++ p_test.go", "@@ ... @@"}, body...)...)
	refused(t, old, bare, "ambiguous")
}

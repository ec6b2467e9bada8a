package edit_test

import (
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// gitHeader is the header git writes for a change to path.
func gitHeader(path string) string {
	return text("diff --git a/"+path+" b/"+path, "index 1111111..2222222 100644", "--- a/"+path, "+++ b/"+path)
}

// TestSyntaxChoosesOrderGo places a hunk that lost the closing ")" of a
// var block between its added lines and more changes: before the added
// lines, between two of them or after them, git's shape allows each, and
// only after them does the file still parse. The same hunk in a file
// with no syntax check, or where the lost line is a comment that parses
// anywhere, is refused.
func TestSyntaxChoosesOrderGo(t *testing.T) {
	old := text("package p", "", "import \"errors\"", "", "var (", "\tErrA = errors.New(\"a\")", "\tErrB = errors.New(\"b\")", ")", "",
		"func f() {}", "", "func h() {}", "", "func k() {}")
	hunk := text("@@ -3,10 +3,11 @@", " import \"errors\"", " ", " var (", "-\tErrA = errors.New(\"a\")", "-\tErrB = errors.New(\"b\")",
		"+\tErrA = errors.New(\"p: a\")", "+\tErrB = errors.New(\"p: b\")", "+\tErrC = errors.New(\"p: c\")", " ",
		"-func f() {}", "+func g() {}", " ", " func h() {}", " ")
	rs := mustPlace(t, old, gitHeader("e.go")+hunk)
	want := text("package p", "", "import \"errors\"", "", "var (", "\tErrA = errors.New(\"p: a\")", "\tErrB = errors.New(\"p: b\")",
		"\tErrC = errors.New(\"p: c\")", ")", "", "func g() {}", "", "func h() {}", "", "func k() {}")
	wantApplied(t, old, rs, want)
	if notes := strings.Join(rs[0].Notes, "\n"); !strings.Contains(notes, "file line 8, which the patch leaves out next to its added lines, goes after the added lines: every other order fails the syntax check (go/parser)") {
		t.Errorf("notes %q do not say why the order was chosen", notes)
	}
	t.Run("no check", func(t *testing.T) {
		refused(t, old, gitHeader("e.txt")+hunk, "orderUnknown")
	})
	t.Run("comment", func(t *testing.T) {
		commented := strings.Replace(old, ")\n\nfunc f", "\t// More may follow.\n)\n\nfunc f", 1)
		lost := strings.Replace(hunk, "\n \n-func f", "\n )\n \n-func f", 1)
		refused(t, commented, gitHeader("e.go")+lost, "orderUnknown")
	})
}

// TestSyntaxChoosesOrderPython places a hunk that lost the "def" line
// between the decorators it adds and the docstring: before or between
// them, a decorator would stand over an indented line, which Python's
// indentation does not allow.
func TestSyntaxChoosesOrderPython(t *testing.T) {
	old := text("import abc", "", "", "class Cipher(metaclass=abc.ABCMeta):", "    @abc.abstractproperty", "    def name(self) -> str:",
		"        \"\"\"A name.\"\"\"", "", "    @abc.abstractproperty", "    def size(self) -> int:", "        \"\"\"A size.\"\"\"", "", "", "def other():", "    pass")
	patch := gitHeader("c.py") + text("@@ -2,10 +2,12 @@", " ", " ", " class Cipher(metaclass=abc.ABCMeta):",
		"-    @abc.abstractproperty", "+    @property", "+    @abc.abstractmethod", "         \"\"\"A name.\"\"\"", " ",
		"-    @abc.abstractproperty", "+    @property", "+    @abc.abstractmethod", "     def size(self) -> int:", "         \"\"\"A size.\"\"\"", " ", " ")
	rs := mustPlace(t, old, patch)
	want := strings.ReplaceAll(old, "    @abc.abstractproperty\n", "    @property\n    @abc.abstractmethod\n")
	wantApplied(t, old, rs, want)
}

// TestLostLeadLineNotStale places a git hunk that lost the middle line of
// its leading context, where that line's neighbour looks like it: read as
// a changed copy of the lost line, the neighbour leaves the hunk a line
// short of git's shape before its added line; read as itself, with the
// lost line after it, the shape is whole. Both readings change the file
// the same way, and the whole one is taken.
func TestLostLeadLineNotStale(t *testing.T) {
	old := text("exports.EVENT_CREATED = 'created';", "exports.EVENT_DELETED = 'deleted';", "exports.EVENT_MOVED = 'moved';",
		"exports.EVENT_CLONED = 'cloned';", "exports.EVENT_UNKNOWN = 'unknown';", "exports.TYPE_FILE = 'file';",
		"exports.TYPE_DIRECTORY = 'directory';", "exports.TYPE_SYMLINK = 'symlink';", "", "exports.KEY_LISTENERS = 'listeners';")
	patch := gitHeader("lib/constants.js") + text("@@ -3,5 +3,6 @@", " exports.EVENT_MOVED = 'moved';", " exports.EVENT_UNKNOWN = 'unknown';",
		"+exports.FLAG_MUST_SCAN_SUBDIRS = 1;", " exports.TYPE_FILE = 'file';", " exports.TYPE_DIRECTORY = 'directory';", " exports.TYPE_SYMLINK = 'symlink';")
	rs := mustPlace(t, old, patch)
	want := strings.Replace(old, "'unknown';\n", "'unknown';\nexports.FLAG_MUST_SCAN_SUBDIRS = 1;\n", 1)
	wantApplied(t, old, rs, want)
}

// TestLostOutermostLine places a git hunk one trailing context line short,
// a changelog's new entry before the old one's heading and one of the two
// blank lines after it: nowhere does the file have the hunk's lines with
// one more line among that side's, so the lost line is the outermost and
// the added lines go where the hunk says. Where another place has them
// with one more line, the added lines may belong there, and the hunk is
// refused.
func TestLostOutermostLine(t *testing.T) {
	old := text("# Changelog", "", "## [1.5.0] (2023-12-12)", "", "", "### Features", "", "* add a thing")
	patch := gitHeader("CHANGELOG.md") + text("@@ -1,4 +1,6 @@", " # Changelog", " ", "+## [1.6.0] (2024-01-16)", "+",
		" ## [1.5.0] (2023-12-12)", " ")
	rs := mustPlace(t, old, patch)
	want := strings.Replace(old, "\n## [1.5.0]", "\n## [1.6.0] (2024-01-16)\n\n## [1.5.0]", 1)
	wantApplied(t, old, rs, want)
	t.Run("another place", func(t *testing.T) {
		other := old + text("", "# Changelog", "", "Older entries.", "## [1.5.0] (2023-12-12)", "", "* the rest")
		refused(t, other, patch, "checkShape")
	})
}

// TestLostLineBetweenCommentBlanks places a git hunk that lost a doc
// comment's paragraph between the two "//" lines around it: like a lost
// line between two blank lines, neither "//" can be an added line written
// as context, and the gap between them is the lost line.
func TestLostLineBetweenCommentBlanks(t *testing.T) {
	old := text("package mux", "", "// Subrouter ---", "", "// Subrouter creates a subrouter for the route.", "//",
		"// It tests the inner routes only if the parent route matched.", "//", "//     r := mux.NewRouter()",
		"//     s := r.Host(\"www.example.com\").Subrouter()", "//", "// Here, the routes are not tested.", "func Subrouter() {}")
	patch := gitHeader("route.go") + text("@@ -6,7 +6,7 @@", " //", " //", "-//     r := mux.NewRouter()",
		"-//     s := r.Host(\"www.example.com\").Subrouter()", "+//\tr := mux.NewRouter().NewRoute()", "+//\ts := r.Host(\"www.example.com\").Subrouter()",
		" //", " // Here, the routes are not tested.", " func Subrouter() {}")
	rs := mustPlace(t, old, patch)
	want := strings.Replace(old, "//     r := mux.NewRouter()\n//     s :=", "//\tr := mux.NewRouter().NewRoute()\n//\ts :=", 1)
	wantApplied(t, old, rs, want)
}

// TestOneStartManyWays refuses a hunk that fits at one line in two ways
// that change the file differently (which of two blank lines the patch
// lost, and so where its added lines go), and says so: no line number
// could choose among them.
func TestOneStartManyWays(t *testing.T) {
	old := text("import a", "import b", "", "", "VERSION = 1")
	patch := gitHeader("v.py") + text("@@ -1,4 +1,5 @@", "-import a", "-import b", "+from __future__ import annotations", "+", "+import c", " ",
		"-VERSION = 1", "+VERSION = 2")
	refused(t, old, patch, "ambiguous")
}

// TestLostLineAfterAddedAtEnd refuses a git hunk that ends with added
// lines, no context after them, where the file goes on for one line: that
// line, lost, is next to the added lines, and whether they go before it,
// after it or around it is unknown. Its outermost line is no answer
// (FuzzDamagedPython/3e05fda646774547).
func TestLostLineAfterAddedAtEnd(t *testing.T) {
	old := text("import pytest", "", "", "def test_a(n):", "    assert n", "", "", "def test_b(n):", "    result = run(n)")
	patch := gitHeader("t.py") + text("@@ -1,4 +1,4 @@", "-import pytest", "+import pytest  # changed", " ", " ", " def test_a(n):",
		"@@ -6,3 +6,7 @@", " ", " ", " def test_b(n):", "+    assert check()", "+    assert again()", "+    assert check()", "+    assert again()")
	rs, errs := edit.Place(old, onlyFile(t, patch))
	if len(errs) != 1 || errs[0].Hunk != 1 || len(rs) != 1 {
		t.Errorf("errors %v, want hunk 2 refused and hunk 1 placed:\n%s", errs, describe(rs))
	}
}

// TestLostOutermostAfterInsertAtStart places a git hunk that inserts at
// the start of a file, with no leading context, and lost the third of
// its trailing lines: the lost line is the outermost, since nowhere else
// do the hunk's lines fit with one more among them. Looking for a line
// lost before the first trailing line, with no leading lines to search
// by, panicked (FuzzDamagedGit/7ccc32d0c64ff0c9).
func TestLostOutermostAfterInsertAtStart(t *testing.T) {
	old := text("alpha", "beta", "gamma", "delta", "epsilon")
	patch := gitHeader("f.txt") + text("@@ -1,2 +1,3 @@", "+zeta", " alpha", " beta")
	rs := mustPlace(t, old, patch)
	wantApplied(t, old, rs, "zeta\n"+old)
}

// TestLostOutermostOnlyLetterForLetter refuses a git hunk one leading
// context line short whose lines fit, in a row, only with a tab read as
// four spaces: where the file has them letter for letter, with the lost
// line among them, the added line goes to the same place but keeps its
// tab. A lost outermost line is read only on lines the patch has letter
// for letter (FuzzDamagedGit/33e1ef72c820e221).
func TestLostOutermostOnlyLetterForLetter(t *testing.T) {
	old := text("}", "    return nil", "\treturn nil", "    return nil", "")
	patch := gitHeader("f") + text("@@ -3,3 +3,4 @@", " \treturn nil", " ", "+\treturn nil")
	rs, errs := edit.Place(old, onlyFile(t, patch))
	if len(errs) == 0 {
		wantApplied(t, old, rs, old+"\treturn nil\n")
	}
}

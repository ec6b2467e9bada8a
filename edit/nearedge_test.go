package edit_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// TestNearEdge places hunks without line numbers whose short side sits one
// line from an edge of the file. git writes fewer than three context lines
// only at an edge, so such a hunk most likely lost a context line: where
// reading the line at the edge as that lost line changes the result, the
// hunk is refused, and the reading at the edge is offered for review.
func TestNearEdge(t *testing.T) {
	goFile := text("package version", "", "import (", "\t\"fmt\"", ")", "", "func f() { fmt.Println() }")
	header := "// Copyright (c) Example, Inc.\n// SPDX-License-Identifier: MPL-2.0\n\n"
	jsFile := text("exports.a = (function () {", "  return function () {", "    return {};", "  };", "})();", "", "")
	tests := []struct {
		name  string
		old   string
		patch string
		// doubt is the uncertain reading's result, "" when the hunk is placed
		doubt string
		want  string // the result when placed
	}{
		{
			name:  "licence header that lost the package line after it",
			old:   goFile,
			patch: "--- a.go\n+++ a.go\n@@ ... @@\n+// Copyright (c) Example, Inc.\n+// SPDX-License-Identifier: MPL-2.0\n+\n \n import (\n",
			doubt: header + goFile,
		},
		{
			name:  "function added before two blank lines at the end, one lost before it",
			old:   jsFile,
			patch: "--- a.js\n+++ a.js\n@@ ... @@\n   };\n })();\n+exports.b = 1;\n \n",
			doubt: strings.TrimSuffix(jsFile, "\n") + "exports.b = 1;\n\n",
		},
		{
			name:  "licence header with the first line as context",
			old:   goFile,
			patch: "--- a.go\n+++ a.go\n@@ ... @@\n+// Copyright (c) Example, Inc.\n+// SPDX-License-Identifier: MPL-2.0\n+\n package version\n \n",
			want:  header + goFile,
		},
		{
			name:  "short side at the edge itself",
			old:   jsFile,
			patch: "--- a.js\n+++ a.js\n@@ ... @@\n })();\n \n+exports.b = 1;\n \n",
			want:  strings.TrimSuffix(jsFile, "\n") + "exports.b = 1;\n\n",
		},
		{
			name:  "a changed line next to the short side keeps its place",
			old:   goFile,
			patch: "--- a.go\n+++ a.go\n@@ ... @@\n import (\n \t\"fmt\"\n )\n \n-func f() { fmt.Println() }\n+func f() { fmt.Println(1) }\n",
			want:  strings.Replace(goFile, "Println()", "Println(1)", 1),
		},
		{
			name:  "a line at the edge like the added one: either reading writes the same",
			old:   text("x", "a", "b", "c", "d"),
			patch: "--- f\n+++ f\n@@ ... @@\n+x\n a\n b\n",
			want:  text("x", "x", "a", "b", "c", "d"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, errs := edit.Place(tt.old, onlyFile(t, tt.patch))
			if tt.doubt == "" {
				if len(errs) > 0 {
					t.Fatalf("Place: got errors %v, want none", errs)
				}
				wantApplied(t, tt.old, rs, tt.want)
				return
			}
			if len(errs) != 1 || !errors.Is(errs[0], edit.ErrAmbiguous) || lastRule(errs[0]) != "checkNearEdge" {
				t.Fatalf("got errors %v, want the hunk refused as near the file's edge\n%s", errs, describe(rs))
			}
			u := errs[0].Interpreted
			if u == nil || u.Pass != edit.PassUncertain {
				t.Fatalf("got uncertain reading %v, want one", u)
			}
			checkFileText(t, tt.old, *u)
			wantApplied(t, tt.old, []edit.Resolved{*u}, tt.doubt)
		})
	}
}

// TestTwinHunks places hunks that make the same change at places that
// each of them fits: as many hunks as places, one each. Any assignment
// writes the same file, so none is a guess. Fewer hunks than places, or
// added lines that differ, are refused as before.
func TestTwinHunks(t *testing.T) {
	block := []string{"\treq := newRequest()", "\trsp = NewRecorder()", "\t// Get a session.", "\tcheck(req)", ""}
	old := text(slices.Concat([]string{"func TestA(t *testing.T) {"}, block, []string{"}", "", "func TestB(t *testing.T) {"}, block, []string{"}"})...)
	hunk := func(ctx0 string, added ...string) string {
		return text(slices.Concat([]string{"@@ ... @@", " " + ctx0, "-\trsp = NewRecorder()"}, added, []string{" \t// Get a session.", " \tcheck(req)"})...)
	}
	header := "--- a/s_test.go\n+++ b/s_test.go\n"
	t.Run("two hunks, two places", func(t *testing.T) {
		// The first hunk's context is indented with spaces, as a model
		// may write it.
		rs := mustPlace(t, old, header+hunk("    req := newRequest()")+hunk("\treq := newRequest()"))
		wantApplied(t, old, rs, strings.ReplaceAll(old, "\trsp = NewRecorder()\n", ""))
		if !strings.Contains(strings.Join(rs[0].Notes, "\n"), "same change") {
			t.Errorf("notes %q do not say why", rs[0].Notes)
		}
	})
	t.Run("one hunk, two places", func(t *testing.T) {
		refused(t, old, header+hunk("\treq := newRequest()"), "ambiguous")
	})
	t.Run("added lines that would be indented differently", func(t *testing.T) {
		spaced := text("@@ ... @@", "     req := newRequest()", "-    rsp = NewRecorder()", "+    rsp = a()", "     // Get a session.", "     check(req)")
		patch := header + spaced + hunk("\treq := newRequest()", "+    rsp = a()")
		rs, errs := edit.Place(old, onlyFile(t, patch))
		if len(errs) != 2 || lastRule(errs[0]) != "dropTwins" {
			t.Fatalf("got errors %v, want both hunks refused as indented differently\n%s", errs, describe(rs))
		}
	})
	t.Run("added lines differ", func(t *testing.T) {
		refused(t, old, header+hunk("\treq := newRequest()", "+\trsp = a()")+hunk("\treq := newRequest()", "+\trsp = b()"), "ambiguous")
	})
}

// TestStaleLineAtEdge places a hunk without line numbers or leading
// context whose one rare context line is the one the patch got wrong
// (the package name of a Go file, a letter dropped): too few lines vote
// for any place, but a hunk with no context before its changes starts
// the file in git's shape, so the start is examined too.
func TestStaleLineAtEdge(t *testing.T) {
	old := text("// +build go1.11", "", "package sessions", "", "import \"net/http\"", "", "func f() {}")
	patch := text("--- cookie.go", "+++ cookie.go", "@@ ... @@", "+//go:build go1.11", " // +build go1.11", " ", " package sessios")
	rs := mustPlace(t, old, patch)
	wantApplied(t, old, rs, "//go:build go1.11\n"+old)
	t.Run("the end, for a hunk with no trailing context", func(t *testing.T) {
		old := text("package sessions", "", "func f() {}", "", "// g does nothing.", "func g() {}")
		patch := text("--- cookie.go", "+++ cookie.go", "@@ ... @@", " ", " // g does nothin.", " func g() {}", "+", "+func h() {}")
		rs := mustPlace(t, old, patch)
		wantApplied(t, old, rs, old+"\nfunc h() {}\n")
	})
}

// TestWholeFileLostLine places a git hunk with no context on either side,
// which git writes only for a change of the whole file, whose two
// replaced lines the patch wrote next to each other: the blank line
// between them in the file is the line it lost, and each added line
// stays with the line it replaces. Without git's index line the hunk
// has any shape: the fuzzy pass finds the lost line, but not on which
// side of the first added line it goes, and the hunk is refused.
func TestWholeFileLostLine(t *testing.T) {
	old := text("from .core import where, old_where", "", "__version__ = \"2018.08.24\"")
	body := text("@@ -1,2 +1,2 @@", "-from .core import where, old_where", "+from .core import contents, where",
		"-__version__ = \"2018.08.24\"", "+__version__ = \"2021.10.08\"")
	rs := mustPlace(t, old, text("diff --git a/certifi/__init__.py b/certifi/__init__.py", "index aa329fb..8db1a0e 100644",
		"--- a/certifi/__init__.py", "+++ b/certifi/__init__.py")+body)
	wantApplied(t, old, rs, text("from .core import contents, where", "", "__version__ = \"2021.10.08\""))
	t.Run("not git's", func(t *testing.T) {
		refused(t, old, text("--- a/certifi/__init__.py", "+++ b/certifi/__init__.py")+body, "orderUnknown")
	})
}

// TestShapeReadsLinesAsWritten refuses a git hunk appending at the end of
// a file that lost a line, where one of its context lines fits only by
// its indentation's look (four spaces where the file has a tab) and the
// file has it as written right after: the reading that completes the
// hunk by git's shape took the loose fit, and re-indented the added line
// after the tab (FuzzDamagedGit/2027a87486faf613).
func TestShapeReadsLinesAsWritten(t *testing.T) {
	old := text("}", "x := compute(1, 2, 4)", "\tfmt.Println(\"hello, world\")", "", "return nil", "\treturn nil", "    return nil")
	patch := text("diff --git a/f b/f", "index 1111111..2222222 100644", "--- a/f", "+++ b/f", "@@ -5,3 +5,4 @@",
		" return nil", "     return nil", "+    return nil")
	rs, errs := edit.Place(old, onlyFile(t, patch))
	if len(errs) == 0 {
		if got, want := mustApply(t, old, rs), old+"    return nil\n"; got != want {
			t.Fatalf("got %q, want %q or a refusal\n%s", got, want, describe(rs))
		}
	}
}

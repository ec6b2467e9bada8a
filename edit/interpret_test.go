package edit_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// cSrc is a small C function. Line numbers (1-based) are in the comments.
var cSrc = text(
	"#include <stdio.h>",                 // 1
	"",                                   // 2
	"int sum(const int *xs, int n) {",    // 3
	"    int total = 0;",                 // 4
	"    for (int i = 0; i < n; i++) {",  // 5
	"        total += xs[i];",            // 6
	"    }",                              // 7
	"    return total;",                  // 8
	"}",                                  // 9
	"",                                   // 10
	"int main(void) {",                   // 11
	"    int xs[] = {1, 2, 3};",          // 12
	"    printf(\"%d\\n\", sum(xs, 3));", // 13
	"    return 0;",                      // 14
	"}",                                  // 15
)

// placeInterpret places patch against old and returns the interpreted
// reading of its only hunk, which must be refused.
func placeInterpret(t *testing.T, old, patch string) (*edit.PlacementError, *edit.Resolved) {
	t.Helper()
	rs, errs := edit.Place(old, onlyFile(t, patch))
	if len(rs) != 0 || len(errs) != 1 {
		t.Fatalf("Place: got %d placed and %d errors, want the hunk refused\n%s", len(rs), len(errs), describe(rs))
	}
	return errs[0], errs[0].Interpreted
}

func TestInterpretKinds(t *testing.T) {
	tests := []struct {
		name  string
		patch string
		want  string // the file after the interpreted hunk
		reads []edit.Interpretation
	}{{
		name: "context line carries the change",
		patch: `--- a/sum.c
+++ b/sum.c
@@ -4,5 +4,5 @@
-    int total = 0;
+    long total = 0;
     for (int i = 0; i < n; i++) {
         total += (long)xs[i];
     }
     return total;
`,
		want: strings.Replace(strings.Replace(cSrc, "int total = 0", "long total = 0", 1), "total += xs[i]", "total += (long)xs[i]", 1),
		reads: []edit.Interpretation{{Kind: edit.InterpretChanged, Line: 6,
			File: "        total += xs[i];", Model: "        total += (long)xs[i];"}},
	}, {
		name: "marks dropped",
		patch: `--- a/sum.c
+++ b/sum.c
@@ -11,4 +11,4 @@
 int main(void) {
     int xs[] = {1, 2, 3, 4};
     printf("%d\n", sum(xs, 3));
     return 0;
`,
		want: strings.Replace(cSrc, "{1, 2, 3}", "{1, 2, 3, 4}", 1),
		reads: []edit.Interpretation{{Kind: edit.InterpretChanged, Line: 12,
			File: "    int xs[] = {1, 2, 3};", Model: "    int xs[] = {1, 2, 3, 4};"}},
	}, {
		name: "no-op pair of a stale line",
		patch: `--- a/sum.c
+++ b/sum.c
@@ -11,4 +11,4 @@
 int main(void) {
-    int xs[] = {1, 2, 3, 4};
+    int xs[] = {1, 2, 3, 4};
     printf("%d\n", sum(xs, 3));
     return 0;
`,
		want: strings.Replace(cSrc, "{1, 2, 3}", "{1, 2, 3, 4}", 1),
		reads: []edit.Interpretation{{Kind: edit.InterpretNoOp, Line: 12,
			File: "    int xs[] = {1, 2, 3};", Model: "    int xs[] = {1, 2, 3, 4};"}},
	}, {
		name: "lost plus",
		patch: `--- a/sum.c
+++ b/sum.c
@@ -11,4 +11,5 @@
 int main(void) {
     int xs[] = {1, 2, 3};
     puts("summing");
     printf("%d\n", sum(xs, 3));
`,
		want:  strings.Replace(cSrc, "    printf", "    puts(\"summing\");\n    printf", 1),
		reads: []edit.Interpretation{{Kind: edit.InterpretAdded, Line: 13, Model: `    puts("summing");`}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pe, r := placeInterpret(t, cSrc, tt.patch)
			if r == nil {
				t.Fatalf("got no interpreted reading for %v; misread %v", pe, pe.Misread)
			}
			if r.Label() != "interpreted" {
				t.Errorf("got label %q, want interpreted", r.Label())
			}
			if got := mustApply(t, cSrc, []edit.Resolved{*r}); got != tt.want {
				t.Errorf("got file\n%s\nwant\n%s\nhunk:\n%s", got, tt.want, describe([]edit.Resolved{*r}))
			}
			if len(r.Interpreted) != len(tt.reads) {
				t.Fatalf("got interpretations %+v, want %+v", r.Interpreted, tt.reads)
			}
			for i, in := range r.Interpreted {
				if in != tt.reads[i] {
					t.Errorf("interpretation %d: got %+v, want %+v", i, in, tt.reads[i])
				}
			}
			checkFileText(t, cSrc, *r)
		})
	}
}

func TestInterpretRefused(t *testing.T) {
	twice := cSrc + text(
		"",
		"int sum2(const int *xs, int n) {",
		"    int total = 0;",
		"    for (int i = 0; i < n; i++) {",
		"        total += xs[i];",
		"    }",
		"    return total;",
		"}",
	)
	tests := []struct {
		name, old, patch string
	}{{
		name: "could land in two places",
		old:  twice,
		patch: `--- a/sum.c
+++ b/sum.c
@@ -4,5 +4,5 @@
-    int total = 0;
+    long total = 0;
     for (int i = 0; i < n; i++) {
         total += (long)xs[i];
     }
     return total;
`,
	}, {
		name: "context line unlike the file's",
		old:  cSrc,
		patch: `--- a/sum.c
+++ b/sum.c
@@ -4,5 +4,5 @@
-    int total = 0;
+    long total = 0;
     for (int i = 0; i < n; i++) {
         fprintf(stderr, "adding %d\n", i);
     }
     return total;
`,
	}, {
		name: "deleted line that is not the file's",
		old:  cSrc,
		patch: `--- a/sum.c
+++ b/sum.c
@@ -11,4 +11,4 @@
 int main(void) {
-    int xs[] = {1, 2, 3, 4};
+    int xs[] = {1, 2, 3, 4, 5};
     printf("%d\n", sum(xs, 3));
     return 0;
`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pe, r := placeInterpret(t, tt.old, tt.patch)
			if r != nil {
				t.Errorf("got interpreted reading, want none:\n%s", describe([]edit.Resolved{*r}))
			}
			if !errors.Is(pe, edit.ErrNoMatch) {
				t.Errorf("got error %v, want %v", pe, edit.ErrNoMatch)
			}
		})
	}
}

// A hunk with a clean reading is never interpreted: the fuzzy pass keeps
// the file's line of a slightly stale context line.
func TestInterpretNotWhenClean(t *testing.T) {
	patch := `--- a/sum.c
+++ b/sum.c
@@ -3,7 +3,7 @@
 int sum(const int *xs, int n) {
-    int total = 0;
+    long total = 0;
     for (int i = 0; i < n; i++) {
         total += xs[i];
     }
     return totl;
 }
`
	rs := mustPlace(t, cSrc, patch)
	if len(rs) != 1 || rs[0].Label() == "interpreted" || len(rs[0].Interpreted) != 0 {
		t.Fatalf("got %s, want one clean hunk", describe(rs))
	}
}

func TestInterpretFeedback(t *testing.T) {
	patch := `--- a/sum.c
+++ b/sum.c
@@ -4,5 +4,5 @@
-    int total = 0;
+    long total = 0;
     for (int i = 0; i < n; i++) {
         total += (long)xs[i];
     }
     return total;
`
	pe, _ := placeInterpret(t, cSrc, patch)
	want := "line 6 is `        total += xs[i];`, your context says `        total += (long)xs[i];`; to change a line, mark it with - and +\n"
	if got := pe.Teach(); got != want {
		t.Errorf("got feedback %q, want %q", got, want)
	}
}

func TestFilePlanInterpret(t *testing.T) {
	patch := `--- a/sum.c
+++ b/sum.c
@@ -4,2 +4,2 @@
-    int total = 0;
+    int total = 1;
     for (int i = 0; i < n; i++) {
@@ -11,4 +11,4 @@
 int main(void) {
     int xs[] = {1, 2, 3, 4};
     printf("%d\n", sum(xs, 3));
     return 0;
`
	p := edit.PlanFile("sum.c", "sum.c", cSrc, onlyFile(t, patch))
	if len(p.Hunks) != 1 || len(p.Errors) != 1 {
		t.Fatalf("got %d hunks and %d errors, want 1 and 1", len(p.Hunks), len(p.Errors))
	}
	if !p.Interpret() {
		t.Fatal("Interpret: took nothing, want the second hunk")
	}
	if len(p.Hunks) != 2 || len(p.Errors) != 0 || p.Hunks[1].Label() != "interpreted" {
		t.Fatalf("got hunks %s and %d errors, want two hunks, the second interpreted", describe(p.Hunks), len(p.Errors))
	}
	got, err := p.Result(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(strings.Replace(cSrc, "total = 0", "total = 1", 1), "{1, 2, 3}", "{1, 2, 3, 4}", 1)
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestMisreadShifted: a refused hunk whose context leaves out a file line
// is told so, not that the lines after it differ from the file's one line
// down (a real model's diff: before, "line 5 is `operator = stack.pop()`,
// your context says `stack.append(...)`" and so on, one line off).
func TestMisreadShifted(t *testing.T) {
	old := text(
		"while len(tokens) > 0:",
		"    token = tokens.pop(0)",
		"    if token in operators:",
		"        while (stack and stack[-1] != '(' and",
		"               (token == '*' or token == '/' or",
		"                (token in '+-' and stack[-2] not in '(*')))):",
		"            right = stack.pop()",
		"            left = stack.pop()",
		"            operator = stack.pop()",
		"            stack.append(self.apply_operator(left, operator, right))",
		"        stack.append(token)",
		"    elif token == '(':",
		"        stack.append(token)",
	)
	patch := text("--- a/p.py", "+++ b/p.py", "@@ -5,7 +5,7 @@",
		"                (token == '*' or token == '/' or",
		"                 (token in '+-' and stack[-2] not in '(*'))))):",
		"             right = stack.pop()",
		"-            left = stack.pop()",
		"+            operator = stack.pop()",
		"             stack.append(self.apply_operator(left, operator, right))",
		"         stack.append(token)",
		"     elif token == '(':",
	)
	_, errs := edit.Place(old, onlyFile(t, patch))
	if len(errs) != 1 {
		t.Fatalf("errors %v, want the hunk refused", errs)
	}
	var left []edit.Interpretation
	for _, m := range errs[0].Misread {
		if m.Line >= 9 {
			left = append(left, m)
		}
	}
	want := []edit.Interpretation{{Kind: edit.InterpretLeftOut, Line: 9, File: "            operator = stack.pop()", Model: "            stack.append(self.apply_operator(left, operator, right))"}}
	if !slices.Equal(left, want) {
		t.Errorf("misread from line 9 on: got %v, want %v", left, want)
	}
	if got, want := want[0].Describe(), "the patch's context leaves out line 9, `            operator = stack.pop()`"; got != want {
		t.Errorf("Describe: got %q, want %q", got, want)
	}
	if got := want[0].Teach(); !strings.HasPrefix(got, "your context leaves out line 9, `            operator = stack.pop()`; ") {
		t.Errorf("Teach: got %q, want Describe and the advice to the model", got)
	}
}

// TestMisreadBlankLine: a refused hunk whose context has a blank line the
// file lacks is explained by that line, at the right place, not by the
// lines around it read one line off; and no interpreted reading adds it.
func TestMisreadBlankLine(t *testing.T) {
	old := text("package a", "", "func A() {", "\tx := 1", "\ty := 2", "\tz := 3", "\treturn", "}")
	patch := text("--- a/a.go", "+++ b/a.go", "@@ -3,6 +3,7 @@",
		" func A() {", " \tx := 1", " \ty := 2", "", " \tz := 3", "+\tw := 4", " \treturn")
	rs, errs := edit.Place(old, onlyFile(t, patch))
	if len(errs) != 1 || len(rs) != 0 {
		t.Fatalf("got %d placed and errors %v, want the hunk refused", len(rs), errs)
	}
	want := []edit.Interpretation{{Kind: edit.InterpretAdded, Line: 6, Model: ""}}
	if got := errs[0].Misread; !slices.Equal(got, want) {
		t.Errorf("misread: got %v, want %v", got, want)
	}
	if errs[0].Interpreted != nil {
		t.Errorf("got an interpreted reading %v, want none: a blank line is never read as added", errs[0].Interpreted)
	}
	if got, want := want[0].Describe(), "the patch's context has a blank line that is not in the file (before line 6)"; got != want {
		t.Errorf("Describe: got %q, want %q", got, want)
	}
	if got := want[0].Teach(); !strings.HasSuffix(got, "; copy the context lines as the file has them") {
		t.Errorf("Teach: got %q, want the advice to copy the context", got)
	}
}

package edit_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/edit/edittest"
)

// planWith places patch (one file, sum.c) against now, as a session does
// after the person changed the file the model had seen.
func planWith(t *testing.T, now, patch string) *edit.FilePlan {
	t.Helper()
	return edit.PlanFile("sum.c", "sum.c", now, onlyFile(t, patch))
}

// longTotal changes line 4 of cSrc, with lines 5-7 as context.
const longTotal = `--- a/sum.c
+++ b/sum.c
@@ -4,4 +4,4 @@
-    int total = 0;
+    long total = 0;
     for (int i = 0; i < n; i++) {
         total += xs[i];
     }
`

// seenAll is the whole of cSrc, as the model read it.
var seenAll = edit.Seen{Start: 1, Text: cSrc}

func TestThreeWayKeepsStaleLine(t *testing.T) {
	// The person changed two lines after the model read the file; the
	// model's hunk still carries them as it read them, as context.
	now := strings.Replace(strings.Replace(cSrc, "i < n; i++", "i < count; i++", 1), "total += xs[i];", "total += xs[i] * w;", 1)
	patch := longTotal
	p := planWith(t, now, patch)
	if len(p.Hunks) != 0 || len(p.Errors) != 1 {
		t.Fatalf("without the base: %d placed, %d refused; want the hunk refused", len(p.Hunks), len(p.Errors))
	}
	if !p.ThreeWay(seenAll) {
		t.Fatal("ThreeWay reported no change")
	}
	if len(p.Hunks) != 1 || len(p.Errors) != 0 {
		t.Fatalf("with the base: %d placed, %d refused; want it placed", len(p.Hunks), len(p.Errors))
	}
	r := p.Hunks[0]
	if r.Pass == edit.PassInterpreted {
		t.Errorf("the hunk is interpreted; want a clean placement")
	}
	got, err := edit.Apply(now, p.Hunks)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(now, "int total = 0", "long total = 0", 1)
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), edit.NoteKept+"lines 5-6 changed since the model read the file; the hunk keeps them as they are now") {
		t.Errorf("notes %q do not say which line was kept", r.Notes)
	}
}

func TestThreeWayConflict(t *testing.T) {
	// The person changed the very line the hunk changes.
	now := strings.Replace(cSrc, "int total = 0;", "int total = 1;", 1)
	patch := longTotal
	p := planWith(t, now, patch)
	if !p.ThreeWay(seenAll) {
		t.Fatal("ThreeWay reported no change")
	}
	if len(p.Hunks) != 0 || len(p.Errors) != 1 {
		t.Fatalf("%d placed, %d refused; want the hunk refused", len(p.Hunks), len(p.Errors))
	}
	e := p.Errors[0]
	if !errors.Is(e, edit.ErrConflict) {
		t.Errorf("error %v, want ErrConflict", e)
	}
	if want := `line 4 was "    int total = 0;" when the model read it, and is "    int total = 1;" (line 4) now; the hunk changes it`; e.Detail != want {
		t.Errorf("detail %q, want %q", e.Detail, want)
	}
	if e.Interpreted != nil {
		t.Errorf("a conflict has an interpreted reading: %v", edittest.Show(e.Interpreted.Lines))
	}
}

func TestThreeWayPartialRead(t *testing.T) {
	// The model read lines 3-9 only; the person then added a line at the
	// top (moving everything down) and changed a context line.
	seenLines := strings.SplitAfter(cSrc, "\n")[2:9]
	seen := edit.Seen{Start: 3, Text: strings.Join(seenLines, "")}
	now := "// sum.c\n" + strings.Replace(cSrc, "    }\n    return total;", "    } /* for */\n    return (int)total;", 1)
	patch := `--- a/sum.c
+++ b/sum.c
@@ -5,4 +5,4 @@
     for (int i = 0; i < n; i++) {
-        total += xs[i];
+        total += 2 * xs[i];
     }
     return total;
`
	p := planWith(t, now, patch)
	if len(p.Errors) != 1 {
		t.Fatalf("without the base: %d refused, want 1", len(p.Errors))
	}
	p.ThreeWay(seen)
	if len(p.Hunks) != 1 {
		t.Fatalf("with the base: %d placed, want 1 (errors %v)", len(p.Hunks), p.Errors)
	}
	got, err := edit.Apply(now, p.Hunks)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(now, "total += xs[i]", "total += 2 * xs[i]", 1); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestThreeWayInterpretsModelChange(t *testing.T) {
	// The model wrote its change into a context line (not what it read),
	// and the person changed another context line since: the reading is
	// interpreted, never placed outright.
	now := strings.Replace(cSrc, "    return total;", "    return (int)total;", 1)
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
	p := planWith(t, now, patch)
	p.ThreeWay(seenAll)
	if len(p.Hunks) != 0 || len(p.Errors) != 1 {
		t.Fatalf("%d placed, %d refused; want the hunk refused, with a reading", len(p.Hunks), len(p.Errors))
	}
	r := p.Errors[0].Interpreted
	if r == nil || r.Pass != edit.PassInterpreted {
		t.Fatalf("no interpreted reading: %+v", p.Errors[0])
	}
	want := []edit.Interpretation{{Kind: edit.InterpretChanged, Line: 6, File: "        total += xs[i];", Model: "        total += (long)xs[i];"}}
	if len(r.Interpreted) != 1 || r.Interpreted[0] != want[0] {
		t.Errorf("interpreted %+v, want %+v", r.Interpreted, want)
	}
	if !p.Interpret() {
		t.Fatal("Interpret took nothing")
	}
	got, err := edit.Apply(now, p.Hunks)
	if err != nil {
		t.Fatal(err)
	}
	wantText := strings.Replace(strings.Replace(now, "int total = 0", "long total = 0", 1), "total += xs[i]", "total += (long)xs[i]", 1)
	if got != wantText {
		t.Errorf("got\n%s\nwant\n%s", got, wantText)
	}
}

func TestThreeWayLeavesOthers(t *testing.T) {
	now := strings.Replace(cSrc, "    return 0;", "    return 1;", 1)
	tests := []struct{ name, patch string }{{
		// The person changed nothing the hunk covers: its refusal stands.
		name: "untouched",
		patch: `--- a/sum.c
+++ b/sum.c
@@ -4,4 +4,4 @@
-    int total = 0;
+    long total = 0;
     for (int j = 0; j < n; j++) {
         total += xs[j];
     }
`,
	}, {
		// Not in what the model saw.
		name: "unseen",
		patch: `--- a/sum.c
+++ b/sum.c
@@ -1,3 +1,3 @@
 #include <stdlib.h>
-
+/* sum */
 int sum(const int *xs, int n) {
`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := planWith(t, now, tt.patch)
			before := p.Errors[0].Err
			if p.ThreeWay(seenAll) {
				t.Errorf("ThreeWay changed the plan")
			}
			if len(p.Hunks) != 0 || len(p.Errors) != 1 || p.Errors[0].Err != before {
				t.Errorf("the refusal changed: %d placed, errors %v", len(p.Hunks), p.Errors)
			}
		})
	}
}

func TestLost(t *testing.T) {
	for _, tt := range []struct {
		from, now string
		want      string
	}{
		{"a\nb\nc\n", "a\nb\nc\n", ""},
		{"a\nb\nc\n", "a\nB\nc\nd\ne\n", "lines 2, 4-5"},
		{"a\nb\nc\n", "a\nc\n", ""},
		{"", "x\n", "line 1"},
	} {
		got := ""
		if l := edit.Lost(tt.from, tt.now); len(l) > 0 {
			got = edit.LineList(l)
		}
		if got != tt.want {
			t.Errorf("Lost(%q, %q): got %q, want %q", tt.from, tt.now, got, tt.want)
		}
	}
}

// TestWholeFileFromBase: with a base, a whole file is the change from it,
// which places on the file as it is now, the person's line kept.
func TestWholeFileFromBase(t *testing.T) {
	base := "a\nb\nc\nd\ne\nf\ng\nh\n"
	now := strings.Replace(base, "g\n", "g, the person's\n", 1)
	e, err := edit.ParseEdits("x.txt\n```\n" + strings.Replace(base, "a\n", "A\n", 1) + "```\n")
	if err != nil {
		t.Fatal(err)
	}
	e.Base = func(string) (string, error) { return base, nil }
	p, err := e.Patch(func(string) (string, error) { return now, nil })
	if err != nil {
		t.Fatal(err)
	}
	plan := edit.PlanFile("x.txt", "x.txt", now, p.Files[0])
	got, err := plan.Result(nil)
	if want := strings.Replace(now, "a\n", "A\n", 1); err != nil || got != want {
		t.Errorf("got %q (%v), want %q", got, err, want)
	}
}

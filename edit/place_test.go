package edit_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/edit/edittest"
)

// goSrc is a small Go file indented with tabs. Line numbers (1-based) are
// in the comments.
var goSrc = text(
	"package main",                  // 1
	"",                              // 2
	`import "fmt"`,                  // 3
	"",                              // 4
	"func main() {",                 // 5
	`	name := "world"`,              // 6
	`	fmt.Println("hello", name)`,   // 7
	"	count := 3",                   // 8
	"	for i := 0; i < count; i++ {", // 9
	"		fmt.Println(i)",              // 10
	"	}",                            // 11
	"}",                             // 12
	"",                              // 13
	"func helper() string {",        // 14
	`	return "help"`,                // 15
	"}",                             // 16
)

// replaceLine returns s with its 1-based line n replaced by repl.
func replaceLine(s string, n int, repl string) string {
	lines := strings.SplitAfter(s, "\n")
	lines[n-1] = repl + "\n"
	return strings.Join(lines, "")
}

// wantHunk is what one resolved hunk must be.
type wantHunk struct {
	hunk, part int
	start      int // 0-based
	pass       edit.Pass
	label      string
	offset     int
	hinted     bool
	lines      []string // as for ls
}

func checkResolved(t *testing.T, old string, got []edit.Resolved, want []wantHunk) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("Place: got %d resolved hunks, want %d:\n%s", len(got), len(want), describe(got))
	}
	for i, w := range want {
		r := got[i]
		if r.Hunk != w.hunk || r.Part != w.part {
			t.Errorf("resolved %d: got hunk %d part %d, want hunk %d part %d", i, r.Hunk, r.Part, w.hunk, w.part)
		}
		if r.Start != w.start {
			t.Errorf("resolved %d: got Start %d, want %d", i, r.Start, w.start)
		}
		if r.Pass != w.pass {
			t.Errorf("resolved %d: got Pass %v, want %v", i, r.Pass, w.pass)
		}
		if r.Label() != w.label {
			t.Errorf("resolved %d: got Label %q, want %q", i, r.Label(), w.label)
		}
		if r.Offset != w.offset || r.Hinted != w.hinted {
			t.Errorf("resolved %d: got Offset %d Hinted %v, want %d %v", i, r.Offset, r.Hinted, w.offset, w.hinted)
		}
		if got, want := edittest.Show(r.Lines), edittest.Show(ls(w.lines...)); got != want {
			t.Errorf("resolved %d: got lines\n%s\nwant\n%s", i, got, want)
		}
		checkFileText(t, old, r)
	}
}

func TestPlace(t *testing.T) {
	const hdr = "--- a/main.go\n+++ b/main.go\n"
	tests := []struct {
		name  string
		old   string
		patch string
		want  []wantHunk
		out   string // the whole new file
	}{
		{
			name: "exact at the hinted line",
			old:  goSrc,
			patch: hdr + text(
				"@@ -6,3 +6,3 @@ func main() {",
				` 	name := "world"`,
				`-	fmt.Println("hello", name)`,
				`+	fmt.Println("goodbye", name)`,
				" 	count := 3",
			),
			want: []wantHunk{{start: 5, pass: edit.PassExact, label: "exact", hinted: true,
				lines: []string{` 	name := "world"`, `-	fmt.Println("hello", name)`, `+	fmt.Println("goodbye", name)`, " 	count := 3"}}},
			out: replaceLine(goSrc, 7, `	fmt.Println("goodbye", name)`),
		},
		{
			name: "exact elsewhere",
			old:  goSrc,
			patch: hdr + text(
				"@@ -2,3 +2,3 @@",
				` 	name := "world"`,
				`-	fmt.Println("hello", name)`,
				`+	fmt.Println("goodbye", name)`,
				" 	count := 3",
			),
			want: []wantHunk{{start: 5, pass: edit.PassExact, label: "offset", offset: 4, hinted: true,
				lines: []string{` 	name := "world"`, `-	fmt.Println("hello", name)`, `+	fmt.Println("goodbye", name)`, " 	count := 3"}}},
			out: replaceLine(goSrc, 7, `	fmt.Println("goodbye", name)`),
		},
		{
			name: "exact earlier",
			old:  goSrc,
			patch: hdr + text(
				"@@ -30,3 +30,3 @@",
				` 	name := "world"`,
				`-	fmt.Println("hello", name)`,
				`+	fmt.Println("goodbye", name)`,
				" 	count := 3",
			),
			want: []wantHunk{{start: 5, pass: edit.PassExact, label: "offset", offset: -24, hinted: true,
				lines: []string{` 	name := "world"`, `-	fmt.Println("hello", name)`, `+	fmt.Println("goodbye", name)`, " 	count := 3"}}},
			out: replaceLine(goSrc, 7, `	fmt.Println("goodbye", name)`),
		},
		{
			name: "insertion with a zero old count in the header",
			old:  goSrc,
			patch: hdr + text(
				"@@ -8,0 +9 @@",
				" 	count := 3",
				"+	count++",
				" 	for i := 0; i < count; i++ {",
			),
			want: []wantHunk{{start: 7, pass: edit.PassExact, label: "exact", offset: 0, hinted: true,
				lines: []string{" 	count := 3", "+	count++", " 	for i := 0; i < count; i++ {"}}},
			out: replaceLine(goSrc, 8, "	count := 3\n	count++"),
		},
		{
			name: "no line numbers",
			old:  goSrc,
			patch: hdr + text(
				"@@ ... @@",
				" func helper() string {",
				`-	return "help"`,
				`+	return "helped"`,
				" }",
			),
			want: []wantHunk{{start: 13, pass: edit.PassExact, label: "exact",
				lines: []string{" func helper() string {", `-	return "help"`, `+	return "helped"`, " }"}}},
			out: replaceLine(goSrc, 15, `	return "helped"`),
		},
		{
			name: "trailing whitespace in the file, not in the patch",
			old:  replaceLine(replaceLine(goSrc, 6, "\tname := \"world\"  "), 8, "\tcount := 3\t"),
			patch: hdr + text(
				"@@ -6,3 +6,3 @@",
				` 	name := "world"`,
				`-	fmt.Println("hello", name)`,
				`+	fmt.Println("goodbye", name)`,
				" 	count := 3",
			),
			want: []wantHunk{{start: 5, pass: edit.PassWhitespace, label: "whitespace", hinted: true,
				lines: []string{" \tname := \"world\"  ", `-	fmt.Println("hello", name)`, `+	fmt.Println("goodbye", name)`, " \tcount := 3\t"}}},
			out: replaceLine(replaceLine(replaceLine(goSrc, 6, "\tname := \"world\"  "), 8, "\tcount := 3\t"), 7, `	fmt.Println("goodbye", name)`),
		},
		{
			name: "trailing whitespace in the patch",
			old:  goSrc,
			patch: hdr + text(
				"@@ -6,3 +6,3 @@",
				" \tname := \"world\" ",
				`-	fmt.Println("hello", name)`+"\t",
				`+	fmt.Println("goodbye", name)`,
				" \tcount := 3   ",
			),
			want: []wantHunk{{start: 5, pass: edit.PassWhitespace, label: "whitespace", hinted: true,
				lines: []string{` 	name := "world"`, `-	fmt.Println("hello", name)`, `+	fmt.Println("goodbye", name)`, " 	count := 3"}}},
			out: replaceLine(goSrc, 7, `	fmt.Println("goodbye", name)`),
		},
		{
			name: "indentation changed in a few context lines",
			old:  text("def f(x):", "    if x:", "        return 1", "    y = x * 2", "    return y", "", "print(f(2))"),
			patch: "--- a/f.py\n+++ b/f.py\n" + text(
				"@@ -1,5 +1,5 @@",
				" def f(x):",
				"   if x:",
				"           return 1",
				"-    y = x * 2",
				"+    y = x * 3",
				"     return y",
			),
			want: []wantHunk{{start: 0, pass: edit.PassIndent, label: "indent", hinted: true,
				lines: []string{" def f(x):", "     if x:", "         return 1", "-    y = x * 2", "+    y = x * 3", "     return y"}}},
			out: text("def f(x):", "    if x:", "        return 1", "    y = x * 3", "    return y", "", "print(f(2))"),
		},
		{
			name: "all tabs turned into four spaces",
			old:  goSrc,
			patch: hdr + text(
				"@@ -9,3 +9,4 @@",
				"     for i := 0; i < count; i++ {",
				"         fmt.Println(i)",
				"+        fmt.Println(i * 2)",
				"+        if i > 1 {",
				"+            break",
				"+        }",
				"     }",
			),
			want: []wantHunk{{start: 8, pass: edit.PassIndent, label: "indent", hinted: true,
				lines: []string{" 	for i := 0; i < count; i++ {", " 		fmt.Println(i)", "+		fmt.Println(i * 2)",
					"+		if i > 1 {", "+			break", "+		}", " 	}"}}},
			out: replaceLine(goSrc, 10, "\t\tfmt.Println(i)\n\t\tfmt.Println(i * 2)\n\t\tif i > 1 {\n\t\t\tbreak\n\t\t}"),
		},
		{
			name: "hunk uniformly outdented",
			old:  goSrc,
			patch: hdr + text(
				"@@ -9,3 +9,4 @@",
				" for i := 0; i < count; i++ {",
				" \tfmt.Println(i)",
				"+\tfmt.Println(i * 2)",
				"+",
				"+\tif i > 1 {",
				"+\t\tbreak",
				"+\t}",
				" }",
			),
			want: []wantHunk{{start: 8, pass: edit.PassIndent, label: "indent", hinted: true,
				lines: []string{" 	for i := 0; i < count; i++ {", " 		fmt.Println(i)", "+		fmt.Println(i * 2)", "+",
					"+		if i > 1 {", "+			break", "+		}", " 	}"}}},
			out: replaceLine(goSrc, 10, "\t\tfmt.Println(i)\n\t\tfmt.Println(i * 2)\n\n\t\tif i > 1 {\n\t\t\tbreak\n\t\t}"),
		},
		{
			name: "curly quotes in context and added lines",
			old:  goSrc,
			patch: hdr + text(
				"@@ -6,3 +6,3 @@",
				" \tname := “world”",
				"-\tfmt.Println(“hello”, name)",
				"+\tfmt.Println(“hi”, name) // say “hi” — briefly…",
				" \tcount := 3",
			),
			want: []wantHunk{{start: 5, pass: edit.PassLookalike, label: "lookalike", hinted: true,
				lines: []string{` 	name := "world"`, `-	fmt.Println("hello", name)`,
					`+	fmt.Println("hi", name) // say "hi" — briefly…`, " 	count := 3"}}},
			out: replaceLine(goSrc, 7, `	fmt.Println("hi", name) // say "hi" — briefly…`),
		},
		{
			name: "look-alikes in added lines only are kept",
			old:  goSrc,
			patch: hdr + text(
				"@@ -6,3 +6,3 @@",
				` 	name := "world"`,
				`-	fmt.Println("hello", name)`,
				"+\tfmt.Println(\"“hello” — \", name)",
				" \tcount := 3",
			),
			want: []wantHunk{{start: 5, pass: edit.PassExact, label: "exact", hinted: true,
				lines: []string{` 	name := "world"`, `-	fmt.Println("hello", name)`,
					"+\tfmt.Println(\"“hello” — \", name)", " 	count := 3"}}},
			out: replaceLine(goSrc, 7, "\tfmt.Println(\"“hello” — \", name)"),
		},
		{
			name: "dash and odd spaces in context",
			old:  text("# Notes", "", "- one - two", "- three", "", "End."),
			patch: "--- a/n.md\n+++ b/n.md\n" + text(
				"@@ -3,2 +3,3 @@",
				" – one\u00a0– two",
				" - three",
				"+- four – and\u00a0more",
			),
			want: []wantHunk{{start: 2, pass: edit.PassLookalike, label: "lookalike", hinted: true,
				lines: []string{" - one - two", " - three", "+- four - and more"}}},
			out: text("# Notes", "", "- one - two", "- three", "- four - and more", "", "End."),
		},
		{
			name: "a context line missing from the patch",
			old:  goSrc,
			patch: hdr + text(
				"@@ -5,7 +5,7 @@",
				" func main() {",
				` 	name := "world"`,
				" 	count := 3",
				"-	for i := 0; i < count; i++ {",
				"+	for i := 0; i < 2*count; i++ {",
				" 		fmt.Println(i)",
				" 	}",
			),
			want: []wantHunk{{start: 4, pass: edit.PassFuzzy, label: "fuzzy", hinted: true,
				lines: []string{" func main() {", ` 	name := "world"`, ` 	fmt.Println("hello", name)`, " 	count := 3",
					"-	for i := 0; i < count; i++ {", "+	for i := 0; i < 2*count; i++ {", " 		fmt.Println(i)", " 	}"}}},
			out: replaceLine(goSrc, 9, "	for i := 0; i < 2*count; i++ {"),
		},
		{
			name: "a context line slightly changed",
			old:  goSrc,
			patch: hdr + text(
				"@@ -6,4 +6,4 @@",
				` 	name := "world"`,
				`-	fmt.Println("hello", name)`,
				`+	fmt.Println("bye", name)`,
				" 	counts := 3",
				" 	for i := 0; i < count; i++ {",
			),
			want: []wantHunk{{start: 5, pass: edit.PassFuzzy, label: "fuzzy", hinted: true,
				lines: []string{` 	name := "world"`, `-	fmt.Println("hello", name)`, `+	fmt.Println("bye", name)`,
					" 	count := 3", " 	for i := 0; i < count; i++ {"}}},
			out: replaceLine(goSrc, 7, `	fmt.Println("bye", name)`),
		},
		{
			name: "two hunks fused",
			old:  goSrc,
			patch: hdr + text(
				"@@ -5,6 +5,6 @@",
				" func main() {",
				`-	name := "world"`,
				`+	name := "there"`,
				` 	fmt.Println("hello", name)`,
				" func helper() string {",
				`-	return "help"`,
				`+	return "helped"`,
				" }",
			),
			want: []wantHunk{
				{hunk: 0, part: 0, start: 4, pass: edit.PassFused, label: "fused", offset: 0, hinted: true,
					lines: []string{" func main() {", `-	name := "world"`, `+	name := "there"`, ` 	fmt.Println("hello", name)`}},
				{hunk: 0, part: 1, start: 13, pass: edit.PassFused, label: "fused", offset: 9, hinted: true,
					lines: []string{" func helper() string {", `-	return "help"`, `+	return "helped"`, " }"}},
			},
			out: replaceLine(replaceLine(goSrc, 6, `	name := "there"`), 15, `	return "helped"`),
		},
		{
			name: "hunks in reverse order",
			old:  goSrc,
			patch: hdr + text(
				"@@ -14,3 +14,3 @@",
				" func helper() string {",
				`-	return "help"`,
				`+	return "helped"`,
				" }",
				"@@ -5,3 +5,3 @@",
				" func main() {",
				`-	name := "world"`,
				`+	name := "there"`,
				` 	fmt.Println("hello", name)`,
			),
			want: []wantHunk{
				{hunk: 1, start: 4, pass: edit.PassExact, label: "exact", hinted: true,
					lines: []string{" func main() {", `-	name := "world"`, `+	name := "there"`, ` 	fmt.Println("hello", name)`}},
				{hunk: 0, start: 13, pass: edit.PassExact, label: "exact", hinted: true,
					lines: []string{" func helper() string {", `-	return "help"`, `+	return "helped"`, " }"}},
			},
			out: replaceLine(replaceLine(goSrc, 6, `	name := "there"`), 15, `	return "helped"`),
		},
		{
			name: "hunks sharing a context line",
			old:  text("a", "b", "c", "d", "e"),
			patch: "--- a/x\n+++ b/x\n" + text(
				"@@ -1,3 +1,3 @@",
				" a",
				"-b",
				"+B",
				" c",
				"@@ -3,3 +3,3 @@",
				" c",
				"-d",
				"+D",
				" e",
			),
			want: []wantHunk{
				{hunk: 0, start: 0, pass: edit.PassExact, label: "exact", hinted: true, lines: []string{" a", "-b", "+B", " c"}},
				{hunk: 1, start: 2, pass: edit.PassExact, label: "exact", hinted: true, lines: []string{" c", "-d", "+D", " e"}},
			},
			out: text("a", "B", "c", "D", "e"),
		},
		{
			name: "a new file",
			old:  "",
			patch: text(
				"--- /dev/null",
				"+++ b/new.txt",
				"@@ -0,0 +1,2 @@",
				"+one",
				"+two",
			),
			want: []wantHunk{{start: 0, pass: edit.PassExact, label: "exact", hinted: false, lines: []string{"+one", "+two"}}},
			out:  text("one", "two"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := mustPlace(t, tt.old, tt.patch)
			checkResolved(t, tt.old, rs, tt.want)
			if got := mustApply(t, tt.old, rs); got != tt.out {
				t.Errorf("Apply:\ngot:\n%s\nwant:\n%s", got, tt.out)
			}
		})
	}
}

// repeated holds the same three lines twice, at lines 2-4 and 10-12.
var repeated = text(
	"start", // 1
	"if err != nil {",
	"	return err",
	"}",
	"x := 1", // 5
	"y := 2",
	"z := 3",
	"w := 4",
	"v := 5",
	"if err != nil {", // 10
	"	return err",
	"}",
	"end", // 13
)

func TestPlaceChoosesByHint(t *testing.T) {
	hunk := func(at int) string {
		return "--- a/x\n+++ b/x\n" + text(
			"@@ -"+itoa(at)+",3 +"+itoa(at)+",3 @@",
			" if err != nil {",
			"-	return err",
			`+	return fmt.Errorf("wrap: %w", err)`,
			" }",
		)
	}
	for _, tt := range []struct {
		hint  int // 1-based header line
		start int // 0-based
	}{
		{2, 1}, {1, 1}, {3, 1}, {10, 9}, {11, 9}, {14, 9},
	} {
		rs := mustPlace(t, repeated, hunk(tt.hint))
		if len(rs) != 1 || rs[0].Start != tt.start {
			t.Errorf("hint %d: got\n%s want Start %d", tt.hint, describe(rs), tt.start)
			continue
		}
		if rs[0].Offset != tt.start-(tt.hint-1) {
			t.Errorf("hint %d: got Offset %d, want %d", tt.hint, rs[0].Offset, tt.start-(tt.hint-1))
		}
		if len(rs[0].Notes) == 0 {
			t.Errorf("hint %d: got no notes, want one saying several places matched", tt.hint)
		}
	}
}

func itoa(n int) string {
	return strings.TrimSpace(strings.Repeat(" ", 0) + fmtInt(n))
}

func fmtInt(n int) string {
	if n < 0 {
		return "-" + fmtInt(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return fmtInt(n/10) + string(rune('0'+n%10))
}

func TestPlaceChoosesByHunkOrder(t *testing.T) {
	// The second hunk's content is at lines 2 and 10; only line 10 comes
	// between the first and the third hunk, and the headers have no
	// numbers. Two placed hunks in order are the evidence that the patch
	// is in file order.
	patch := "--- a/x\n+++ b/x\n" + text(
		"@@ ... @@",
		" x := 1",
		"-y := 2",
		"+y := 20",
		" z := 3",
		"@@ ... @@",
		" if err != nil {",
		"-	return err",
		"+	return nil",
		" }",
		"@@ ... @@",
		"-end",
		"+END",
	)
	rs := mustPlace(t, repeated, patch)
	checkResolved(t, repeated, rs, []wantHunk{
		{hunk: 0, start: 4, pass: edit.PassExact, label: "exact", lines: []string{" x := 1", "-y := 2", "+y := 20", " z := 3"}},
		{hunk: 1, start: 9, pass: edit.PassExact, label: "exact", lines: []string{" if err != nil {", "-	return err", "+	return nil", " }"}},
		{hunk: 2, start: 12, pass: edit.PassExact, label: "exact", lines: []string{"-end", "+END"}},
	})

	// With one placed hunk only, nothing says the patch is in order: the
	// hunk could as well belong before it.
	two := "--- a/x\n+++ b/x\n" + text(
		"@@ ... @@",
		" x := 1",
		"-y := 2",
		"+y := 20",
		" z := 3",
		"@@ ... @@",
		" if err != nil {",
		"-	return err",
		"+	return nil",
		" }",
	)
	if _, err := placeErr(t, repeated, two); !errors.Is(err, edit.ErrAmbiguous) {
		t.Errorf("Place with one neighbour: got %v, want ErrAmbiguous", err)
	}
}

// placeErr places patch against old and returns the only error, failing
// the test unless there is exactly one.
func placeErr(t *testing.T, old, patch string) ([]edit.Resolved, *edit.PlacementError) {
	t.Helper()
	fd := onlyFile(t, patch)
	rs, errs := edit.Place(old, fd)
	if len(errs) != 1 {
		t.Fatalf("Place: got %d errors %v, want 1; resolved:\n%s", len(errs), errs, describe(rs))
	}
	return rs, errs[0]
}

func checkNearest(t *testing.T, old string, e *edit.PlacementError) {
	t.Helper()
	if len(e.Nearest) == 0 {
		t.Errorf("%v: got no Nearest lines, want some", e)
		return
	}
	file := strings.Split(strings.TrimSuffix(old, "\n"), "\n")
	for i, nl := range e.Nearest {
		if nl.N < 1 || nl.N > len(file) {
			t.Errorf("Nearest[%d]: got line number %d, want 1..%d", i, nl.N, len(file))
			continue
		}
		if nl.Text != file[nl.N-1] {
			t.Errorf("Nearest[%d]: got %q for line %d, want the file's %q", i, nl.Text, nl.N, file[nl.N-1])
		}
		// Consecutive runs, in order: an ambiguous hunk shows each place.
		if i > 0 && nl.N <= e.Nearest[i-1].N {
			t.Errorf("Nearest[%d]: got line %d after line %d, want increasing lines", i, nl.N, e.Nearest[i-1].N)
		}
	}
}

func TestPlaceErrors(t *testing.T) {
	const hdr = "--- a/x\n+++ b/x\n"
	tests := []struct {
		name    string
		old     string
		patch   string
		err     error
		detail  []string // substrings of Detail
		nearest bool
		nearN   int // a line number Nearest must include, 0 for any
	}{
		{
			name: "ambiguous without numbers",
			old:  repeated,
			patch: hdr + text(
				"@@ ... @@",
				" if err != nil {",
				"-	return err",
				"+	return nil",
				" }",
			),
			err:     edit.ErrAmbiguous,
			detail:  []string{"lines 2, 10"},
			nearest: true,
		},
		{
			name: "ambiguous with a hint halfway between",
			old:  repeated,
			patch: hdr + text(
				"@@ -6,3 +6,3 @@",
				" if err != nil {",
				"-	return err",
				"+	return nil",
				" }",
			),
			err:     edit.ErrAmbiguous,
			detail:  []string{"lines 2, 10", "line 6"},
			nearest: true,
		},
		{
			name: "no match",
			old:  goSrc,
			patch: hdr + text(
				"@@ -9,3 +9,3 @@",
				" 	for j := 0; j < total; j++ {",
				"-		fmt.Println(j, total)",
				"+		fmt.Println(j)",
				" 	}",
			),
			err:     edit.ErrNoMatch,
			nearest: true,
			nearN:   9,
		},
		{
			name: "no match in a file of different lines",
			old:  text("alpha", "beta", "gamma"),
			patch: hdr + text(
				"@@ -1,2 +1,2 @@",
				" one",
				"-two",
				"+three",
			),
			err:     edit.ErrNoMatch,
			nearest: true,
		},
		{
			name: "no-op: context only",
			old:  goSrc,
			patch: hdr + text(
				"@@ -5,2 +5,2 @@",
				" func main() {",
				` 	name := "world"`,
			),
			err: edit.ErrNoOp,
		},
		{
			name: "no-op: adds what it deletes",
			old:  goSrc,
			patch: hdr + text(
				"@@ -5,2 +5,2 @@",
				" func main() {",
				`-	name := "world"`,
				`+	name := "world"`,
			),
			err: edit.ErrNoOp,
		},
		{
			name: "already applied",
			old:  replaceLine(goSrc, 7, `	fmt.Println("goodbye", name)`),
			patch: hdr + text(
				"@@ -6,3 +6,3 @@",
				` 	name := "world"`,
				`-	fmt.Println("hello", name)`,
				`+	fmt.Println("goodbye", name)`,
				" 	count := 3",
			),
			err:     edit.ErrAlreadyApplied,
			nearest: true,
			nearN:   7,
		},
		{
			name: "only added lines in a non-empty file",
			old:  goSrc,
			patch: hdr + text(
				"@@",
				"+	count++",
			),
			err: edit.ErrNoContext,
		},
		{
			name: "missing plus: added line written as context",
			old:  goSrc,
			patch: hdr + text(
				"@@ -6,3 +6,5 @@",
				` 	name := "world"`,
				` 	fmt.Println("hello", name)`,
				`+	fmt.Println("goodbye", name)`,
				` 	fmt.Println("again", name)`,
				" 	count := 3",
				" 	for i := 0; i < count; i++ {",
			),
		},
		{
			name: "missing plus: the last added line written as context",
			old:  goSrc,
			patch: hdr + text(
				"@@ -14,3 +14,5 @@",
				" func helper() string {",
				`-	return "help"`,
				`+	s := "help"`,
				` 	return s + "ed"`,
				" }",
			),
		},
		{
			name: "deleted line not in the file",
			old:  goSrc,
			patch: hdr + text(
				"@@ -5,4 +5,3 @@",
				" func main() {",
				` 	name := "world"`,
				`-	fmt.Println("hullo", name)`,
				" 	count := 3",
			),
			nearest: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, e := placeErr(t, tt.old, tt.patch)
			if len(rs) != 0 {
				t.Errorf("Place: got resolved hunks\n%s want none", describe(rs))
			}
			if tt.err != nil && !errors.Is(e, tt.err) {
				t.Errorf("Place: got error %v, want %v", e, tt.err)
			}
			if e.Hunk != 0 || e.Path != "x" {
				t.Errorf("Place: got Hunk %d Path %q, want 0 %q", e.Hunk, e.Path, "x")
			}
			for _, d := range tt.detail {
				if !strings.Contains(e.Detail, d) {
					t.Errorf("Detail: got %q, want it to contain %q", e.Detail, d)
				}
			}
			if tt.nearest {
				checkNearest(t, tt.old, e)
			}
			if tt.nearN > 0 {
				found := false
				for _, nl := range e.Nearest {
					found = found || nl.N == tt.nearN
				}
				if !found {
					t.Errorf("Nearest: got %v, want it to include line %d", e.Nearest, tt.nearN)
				}
			}
			if !strings.Contains(e.Error(), "x: hunk 1: ") {
				t.Errorf("Error(): got %q, want it to start with the path and hunk number", e.Error())
			}
		})
	}
}

func TestPlaceOverlap(t *testing.T) {
	patch := "--- a/x\n+++ b/x\n" + text(
		"@@ -1,3 +1,3 @@",
		" a",
		"-b",
		"+B",
		" c",
		"@@ -2,2 +2,2 @@",
		"-b",
		"+beta",
		" c",
	)
	old := text("a", "b", "c", "d")
	fd := onlyFile(t, patch)
	// Which of the two is wrong is unknown: both are refused.
	rs, errs := edit.Place(old, fd)
	if len(errs) != 2 || !errors.Is(errs[0], edit.ErrOverlap) || !errors.Is(errs[1], edit.ErrOverlap) || errs[0].Hunk != 0 || errs[1].Hunk != 1 {
		t.Fatalf("Place: got errors %v, want ErrOverlap for both hunks", errs)
	}
	if len(rs) != 0 {
		t.Errorf("Place: got resolved hunks\n%s want none", describe(rs))
	}
}

func TestPlaceTwoInsertionsAtOnePlace(t *testing.T) {
	// Both hunks insert between b and c: their order would be a guess.
	patch := "--- a/x\n+++ b/x\n" + text(
		"@@ -1,3 +1,4 @@",
		" a",
		" b",
		"+one",
		" c",
		"@@ -2,3 +2,4 @@",
		" b",
		"+two",
		" c",
		" d",
	)
	old := text("a", "b", "c", "d")
	_, errs := edit.Place(old, onlyFile(t, patch))
	if len(errs) != 2 || !errors.Is(errs[0], edit.ErrOverlap) || !errors.Is(errs[1], edit.ErrOverlap) {
		t.Fatalf("Place: got errors %v, want ErrOverlap for both hunks", errs)
	}
}

func TestPlaceSeveralErrorsInHunkOrder(t *testing.T) {
	patch := "--- a/x\n+++ b/x\n" + text(
		"@@ -1,2 +1,2 @@",
		" nothing",
		"-here",
		"+there",
		"@@ -2,3 +2,3 @@",
		" a",
		"-b",
		"+B",
		" c",
		"@@ -5,1 +5,1 @@",
		" c",
	)
	old := text("a", "b", "c", "d")
	rs, errs := edit.Place(old, onlyFile(t, patch))
	if len(errs) != 2 {
		t.Fatalf("Place: got %d errors %v, want 2", len(errs), errs)
	}
	if errs[0].Hunk != 0 || !errors.Is(errs[0], edit.ErrNoMatch) {
		t.Errorf("errs[0]: got %v (hunk %d), want ErrNoMatch for hunk 0", errs[0], errs[0].Hunk)
	}
	if errs[1].Hunk != 2 || !errors.Is(errs[1], edit.ErrNoOp) {
		t.Errorf("errs[1]: got %v (hunk %d), want ErrNoOp for hunk 2", errs[1], errs[1].Hunk)
	}
	checkResolved(t, old, rs, []wantHunk{{hunk: 1, start: 0, pass: edit.PassExact, label: "offset", offset: -1, hinted: true,
		lines: []string{" a", "-b", "+B", " c"}}})
}

func TestPlaceAddOnlyIntoEmptyFile(t *testing.T) {
	fd := onlyFile(t, "--- a/x\n+++ b/x\n"+text("@@ ... @@", "+hello", "+world"))
	rs, errs := edit.Place("", fd)
	if len(errs) != 0 {
		t.Fatalf("Place: got errors %v, want none", errs)
	}
	if got, want := mustApply(t, "", rs), text("hello", "world"); got != want {
		t.Errorf("Apply: got %q, want %q", got, want)
	}
}

func TestPassString(t *testing.T) {
	for p, want := range map[edit.Pass]string{
		edit.PassExact: "exact", edit.PassWhitespace: "whitespace", edit.PassIndent: "indent",
		edit.PassLookalike: "lookalike", edit.PassFuzzy: "fuzzy", edit.PassFused: "fused",
	} {
		if got := p.String(); got != want {
			t.Errorf("Pass(%d).String(): got %q, want %q", int(p), got, want)
		}
	}
}

func TestPlanFile(t *testing.T) {
	fd := onlyFile(t, "--- a/x\n+++ b/x\n"+text("@@ -1,2 +1,2 @@", " a", "-b", "+B", "@@ -9 +9 @@", "-zzz", "+yyy"))
	p := edit.PlanFile("old.txt", "new.txt", text("a", "b", "c"), fd)
	if p.Path() != "new.txt" {
		t.Errorf("Path: got %q, want %q", p.Path(), "new.txt")
	}
	if len(p.Hunks) != 1 || len(p.Errors) != 1 {
		t.Fatalf("PlanFile: got %d hunks and %d errors, want 1 and 1", len(p.Hunks), len(p.Errors))
	}
	if p.Errors[0].Path != "new.txt" {
		t.Errorf("error Path: got %q, want %q", p.Errors[0].Path, "new.txt")
	}
	got, err := p.Result(nil)
	if err != nil || got != text("a", "B", "c") {
		t.Errorf("Result(nil): got %q, %v, want %q", got, err, text("a", "B", "c"))
	}
	got, err = p.Result(func(edit.Resolved) bool { return false })
	if err != nil || got != text("a", "b", "c") {
		t.Errorf("Result(none): got %q, %v, want the old text", got, err)
	}

	// A deletion must remove every line.
	del := onlyFile(t, text("--- a/x", "+++ /dev/null", "@@ -1,2 +0,0 @@", "-a", "-b"))
	p = edit.PlanFile("x", "", text("a", "b", "c"), del)
	if _, err := p.Result(nil); err == nil {
		t.Errorf("Result of a deletion that leaves a line: got no error, want one")
	}
	p = edit.PlanFile("x", "", text("a", "b"), del)
	if got, err := p.Result(nil); err != nil || got != "" {
		t.Errorf("Result of a full deletion: got %q, %v, want \"\", nil", got, err)
	}
}

// A context line lost right next to added lines leaves their order with
// the left-out line open: Place may refuse, but must never write the
// added line on the wrong side of it.
func TestPlaceLostContextNextToAddedLines(t *testing.T) {
	patch := "--- a/main.go\n+++ b/main.go\n" + text(
		"@@ -5,6 +5,6 @@",
		" func main() {",
		` 	name := "world"`,
		`-	fmt.Println("hello", name)`,
		`+	fmt.Println("bye", name)`,
		" 	for i := 0; i < count; i++ {",
		" 		fmt.Println(i)",
	)
	rs, errs := edit.Place(goSrc, onlyFile(t, patch))
	if len(errs) > 0 {
		return
	}
	if got, want := mustApply(t, goSrc, rs), replaceLine(goSrc, 7, `	fmt.Println("bye", name)`); got != want {
		t.Errorf("Apply:\ngot:\n%s\nwant:\n%s", got, want)
	}
}

// A context line at the outer edge of a hunk that the file lacks may be
// an invented line (then dropping it is right) or an added line written
// as context (then dropping it loses the line): Place may refuse; if it
// places the hunk, the result must be right.
func TestPlaceExtraEdgeContextLine(t *testing.T) {
	patch := "--- a/main.go\n+++ b/main.go\n" + text(
		"@@ -4,5 +4,5 @@",
		" // main greets the world.",
		" func main() {",
		` 	name := "world"`,
		`-	fmt.Println("hello", name)`,
		`+	fmt.Println("bye", name)`,
		" 	count := 3",
	)
	rs, errs := edit.Place(goSrc, onlyFile(t, patch))
	if len(errs) > 0 {
		return
	}
	checkResolved(t, goSrc, rs, []wantHunk{{start: 4, pass: edit.PassFuzzy, label: "fuzzy", offset: 1, hinted: true,
		lines: []string{" func main() {", ` 	name := "world"`, `-	fmt.Println("hello", name)`, `+	fmt.Println("bye", name)`, " 	count := 3"}}})
	if got, want := mustApply(t, goSrc, rs), replaceLine(goSrc, 7, `	fmt.Println("bye", name)`); got != want {
		t.Errorf("Apply:\ngot:\n%s\nwant:\n%s", got, want)
	}
}

// An added line written as context (the "missing plus" damage) must be
// refused, also when it could pass for an extra context line at the outer
// edge of the hunk (the fuzzy pass used to drop such lines):
//
//   - the stray "\t\t}" aligned with the file's "\t}" (indentation
//     ignored) and the hunk's last "}" dropped would lose the added "}";
//   - (found by FuzzDamaged, testdata/fuzz/FuzzDamaged/5dab940320452927)
//     the stray "}" after the file's last line, dropped, would too.
func TestPlaceMissingPlusAtTheEdge(t *testing.T) {
	tests := []struct {
		name, old, patch string
	}{
		{
			name: "stray line taken for the next one",
			old:  text("func f() {", "\tif a {", "\t\tb()", "\t}", "}", "", "func g() {}"),
			patch: text(
				"@@ -1,5 +1,7 @@",
				" func f() {",
				" \tif a {",
				"+\t\tif z {",
				" \t\tb()",
				" \t\t}", // should have been "+\t\t}"
				" \t}",
				" }",
			),
		},
		{
			name: "stray line at the end of the file",
			old:  text("x := compute(1, 2, 3)", "}"),
			patch: text(
				"@@ -1,2 +1,2 @@",
				"-x := compute(1, 2, 3)",
				" }",
				" }", // should have been "+}"
			),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, errs := edit.Place(tt.old, onlyFile(t, "--- a/f.go\n+++ b/f.go\n"+tt.patch))
			if len(errs) == 0 {
				got, _ := edit.Apply(tt.old, rs)
				t.Errorf("Place: got no error and the result\n%s\nwant the hunk refused: one of its context lines is not in the file\nresolved:\n%s", got, describe(rs))
			}
		})
	}
}

// A pure insertion that is already in the file is reported as already
// applied, not as an ambiguity, so the model is told the right reason.
func TestPlaceAlreadyAppliedInsertion(t *testing.T) {
	old := text("one", "two", "three", "NEW", "four", "five", "six")
	patch := text("--- a/f", "+++ b/f", "@@ -1,6 +1,7 @@", " one", " two", " three", "+NEW", " four", " five", " six")
	rs, errs := edit.Place(old, onlyFile(t, patch))
	if len(rs) != 0 || len(errs) != 1 {
		t.Fatalf("Place: got %d hunks and errors %v, want one error", len(rs), errs)
	}
	if !errors.Is(errs[0], edit.ErrAlreadyApplied) {
		t.Errorf("Place: got %v, want ErrAlreadyApplied", errs[0])
	}
}

// Hunk order is evidence of place only when the patch shows it is in file
// order. Here the hunks are reversed and the first one's context "x y z"
// is at lines 1 and 9: it must go to line 9 by its header, or, without
// numbers, be refused, never be put at line 1 because that is "before" the
// unique second hunk. (Found by FuzzApplyRoundTrip:
// testdata/fuzz/FuzzApplyRoundTrip/93e8d077e1d41f58.)
func TestPlaceReversedHunksWithRepeatedContext(t *testing.T) {
	old := text("x", "y", "z", "u1", "u2", "UNIQUE", "u3", "u4", "x", "y", "z")
	want := text("x", "y", "z", "u1", "u2", "UNIQUE2", "u3", "u4", "x", "y", "z", "NEW")
	for _, numbers := range []bool{true, false} {
		hb, ha := "@@ -9,3 +9,4 @@", "@@ -4,5 +4,5 @@"
		if !numbers {
			hb, ha = "@@ ... @@", "@@ ... @@"
		}
		patch := text("--- a/f", "+++ b/f",
			hb, " x", " y", " z", "+NEW",
			ha, " u1", " u2", "-UNIQUE", "+UNIQUE2", " u3", " u4")
		rs, errs := edit.Place(old, onlyFile(t, patch))
		got, err := edit.Apply(old, rs)
		if err != nil {
			t.Fatalf("numbers %v: Apply: %v", numbers, err)
		}
		switch {
		case numbers && (len(errs) > 0 || got != want):
			t.Errorf("numbers %v: got %q, errors %v; want %q\nresolved:\n%s", numbers, got, errs, want, describe(rs))
		case !numbers:
			for _, r := range rs {
				if r.Hunk == 0 && r.Start != 8 {
					t.Errorf("numbers %v: hunk 1 placed at line %d, want line 9 or a refusal\nresolved:\n%s", numbers, r.Start+1, describe(rs))
				}
			}
		}
	}
}

// A hunk whose new side ends with "\ No newline at end of file" ends at
// the end of the file: it must not be placed where its context also fits
// earlier, dropping the marker.
func TestPlaceNoNewlineMarkerAnchorsAtEOF(t *testing.T) {
	old := text("x", "y", "z", "UNIQUE", "x", "y", "z")
	patch := text("--- a/f", "+++ b/f",
		"@@ ... @@", " x", " y", " z", "+NEW", `\ No newline at end of file`,
		"@@ ... @@", "-UNIQUE", "+UNIQUE2", " x")
	rs, errs := edit.Place(old, onlyFile(t, patch))
	for _, r := range rs {
		if r.Hunk == 0 && r.Start != 4 {
			t.Errorf("hunk 1: placed at line %d, want line 5 (the end of the file) or a refusal; errors %v\nresolved:\n%s", r.Start+1, errs, describe(rs))
		}
	}
}

// Two hunks may share context, but one may not delete a line the other
// keeps as context: the patch contradicts itself (git apply, hunk after
// hunk, rejects the second). (Found by FuzzPlace:
// testdata/fuzz/FuzzPlace/dce1f897b622195c, where the two cancelled out and
// Render wrote a "-x/+x" hunk that Place refused as a no-op.)
func TestPlaceContextDeletedByAnotherHunk(t *testing.T) {
	old := text("a", "foo()", "b")
	patch := text("--- a/f", "+++ b/f",
		"@@ -1,3 +1,2 @@", " a", "-foo()", " b",
		"@@ -2,2 +2,3 @@", " foo()", "+bar()", " b")
	rs, errs := edit.Place(old, onlyFile(t, patch))
	if len(errs) != 2 || !errors.Is(errs[0], edit.ErrOverlap) || !errors.Is(errs[1], edit.ErrOverlap) {
		got, _ := edit.Apply(old, rs)
		t.Errorf("Place: got errors %v and result %q, want ErrOverlap for both hunks\nresolved:\n%s", errs, got, describe(rs))
	}
}

// With one context line slightly stale ("Return"), the fuzzy pass must not
// align the patch's deleted "\treturn nil" with the file's "    return nil"
// one line above the hinted place and delete a line the patch did not
// name. (Found by FuzzDamaged: testdata/fuzz/FuzzDamaged/f7eb643822b73536.)
func TestPlaceFuzzyKeepsIndentationOfDeletedLines(t *testing.T) {
	r4, rt := "    return nil", "\treturn nil"
	old := text("}", r4, r4, "", r4, r4, r4, r4, r4, rt, rt)
	patch := text("--- a/f", "+++ b/f", "@@ -7,5 +7,3 @@", " "+r4, " "+r4, "     Return nil", "-"+rt, "-"+rt)
	rs, errs := edit.Place(old, onlyFile(t, patch))
	if len(errs) > 0 {
		return // a refusal is fine
	}
	want := text("}", r4, r4, "", r4, r4, r4, r4, r4)
	if got := mustApply(t, old, rs); got != want {
		t.Errorf("Apply:\ngot  %q\nwant %q\nresolved:\n%s", got, want, describe(rs))
	}
}

// The hunk's first context line is stale ("X" for "x"). It fits at the
// hinted line 2 (a case change) and at line 1 (two characters changed):
// Place must not choose line 1 and add "}" before the last line. (Found
// by FuzzDamaged: testdata/fuzz/FuzzDamaged/3aedc306ac0b6338.)
func TestPlaceFuzzyStaleContextFollowsHint(t *testing.T) {
	c3, c4 := "x := compute(1, 2, 3)", "x := compute(1, 2, 4)"
	old := text(c3, c4, c4, c4)
	patch := text("--- a/f", "+++ b/f", "@@ -2,3 +2,4 @@", " X := compute(1, 2, 4)", " "+c4, " "+c4, "+}")
	rs, errs := edit.Place(old, onlyFile(t, patch))
	if len(errs) > 0 {
		return // a refusal is fine
	}
	if got, want := mustApply(t, old, rs), text(c3, c4, c4, c4, "}"); got != want {
		t.Errorf("Apply:\ngot  %q\nwant %q\nresolved:\n%s", got, want, describe(rs))
	}
}

// An added "}" written as context in repetitive code could be made to fit
// one block further on by taking the two file lines in between for
// context lines missing from the patch; the "}" would then be lost. (Found
// by FuzzDamaged: testdata/fuzz/FuzzDamaged/3e3051d200b91b0d.)
func TestPlaceMissingPlusSkippingRepeatedLines(t *testing.T) {
	rt := "\treturn nil"
	old := text("if err != nil {", "x := compute(1, 2, 3)", "\tfmt.Println(\"hello, world\")", "}", "return nil", "}", rt, rt, "}", rt, rt, "}")
	patch := text("--- a/f", "+++ b/f", "@@ -1,9 +1,6 @@",
		"-if err != nil {", "-x := compute(1, 2, 3)", "-\tfmt.Println(\"hello, world\")", " }", "-return nil", " }",
		" }", // should have been "+}"
		" "+rt, " "+rt, " }")
	rs, errs := edit.Place(old, onlyFile(t, patch))
	if len(errs) == 0 {
		got, _ := edit.Apply(old, rs)
		t.Errorf("Place: got no error and the result %q, want the hunk refused\nresolved:\n%s", got, describe(rs))
	}
}

// The patch lost the context line "}" between its added line and its last
// deleted line. The fuzzy pass refuses to guess the order of the added
// line and the lost line; the fused pass must not guess it either by
// taking the hunk for two hunks run together with a "}" left out between
// them. (Found by FuzzDamaged: testdata/fuzz/FuzzDamaged/e46940129a6f9da0.)
func TestPlaceFusedDoesNotGuessAroundLostContextLine(t *testing.T) {
	rt := "\treturn nil"
	old := text(rt, "}", "}", "}", rt)
	patch := text("--- a/f", "+++ b/f", "@@ -1,5 +1,4 @@",
		"-"+rt, " }", " }", "+x := compute(1, 2, 4)", "-"+rt) // " }" lost before "-\treturn nil"
	rs, errs := edit.Place(old, onlyFile(t, patch))
	if len(errs) > 0 {
		return // a refusal is fine
	}
	if got, want := mustApply(t, old, rs), text("}", "}", "x := compute(1, 2, 4)", "}"); got != want {
		t.Errorf("Apply:\ngot  %q\nwant %q\nresolved:\n%s", got, want, describe(rs))
	}
}

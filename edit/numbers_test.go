package edit_test

import (
	"fmt"
	"io/fs"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/edit/edittest"
)

const numbersGo = `package app

import "strings"

// Greet returns a greeting.
func Greet(name string) string {
	return "hello " + name
}

// Shout returns s in capitals.
func Shout(s string) string {
	return strings.ToUpper(s)
}
`

// planEdits reads text as a model's edit (edit.ParseEdits), against the
// files of files, and places it: the file's new content, the notes of its
// hunks and the placement errors.
func planEdits(t *testing.T, files map[string]string, text string) (map[string]string, [][]string, []*edit.PlacementError) {
	t.Helper()
	e, err := edit.ParseEdits(text)
	if err != nil {
		t.Fatalf("ParseEdits: %v", err)
	}
	p, err := e.Patch(func(path string) (string, error) {
		if s, ok := files[path]; ok {
			return s, nil
		}
		return "", fs.ErrNotExist
	})
	if err != nil {
		t.Fatalf("Patch: %v", err)
	}
	out := map[string]string{}
	var notes [][]string
	var errs []*edit.PlacementError
	for _, fd := range p.Files {
		plan := edit.PlanFile(fd.Source(), fd.NewPath, files[fd.Source()], fd)
		errs = append(errs, plan.Errors...)
		for _, r := range plan.Hunks {
			notes = append(notes, r.Notes)
		}
		if len(plan.Errors) == 0 {
			got, err := plan.Result(nil)
			if err != nil {
				t.Fatalf("Result: %v", err)
			}
			out[plan.Path()] = got
		}
	}
	return out, notes, errs
}

// TestNumberedDiffPlaces: a diff whose context and deleted lines were
// copied from read_file, numbers and all (right-aligned to the widest
// number shown), places as the diff without them would, and its hunk says
// why in the review.
func TestNumberedDiffPlaces(t *testing.T) {
	want := strings.Replace(numbersGo, `"hello " + name`, `"hello, " + name + "!"`, 1)
	want = strings.Replace(want, "strings.ToUpper(s)", `strings.ToUpper(s) + "!"`, 1)
	for _, tc := range []struct{ name, diff string }{
		{"added lines bare", "--- a/app.go\n+++ b/app.go\n@@ -5,4 +5,4 @@\n 5\t// Greet returns a greeting.\n 6\tfunc Greet(name string) string {\n-7\t\treturn \"hello \" + name\n+\treturn \"hello, \" + name + \"!\"\n 8\t}\n" +
			"@@ -10,4 +10,4 @@\n 10\t// Shout returns s in capitals.\n 11\tfunc Shout(s string) string {\n-12\t\treturn strings.ToUpper(s)\n+\treturn strings.ToUpper(s) + \"!\"\n 13\t}\n"},
		{"padded, no header numbers", "--- a/app.go\n+++ b/app.go\n@@ ... @@\n  8\t}\n  9\t\n-10\t// Shout returns s in capitals.\n-11\tfunc Shout(s string) string {\n-12\t\treturn strings.ToUpper(s)\n+// Shout returns s in capitals.\n+func Shout(s string) string {\n+\treturn strings.ToUpper(s) + \"!\"\n 13\t}\n" +
			"@@ @@\n 6\tfunc Greet(name string) string {\n-7\t\treturn \"hello \" + name\n+\treturn \"hello, \" + name + \"!\"\n"},
		{"added lines numbered as the new file", "--- a/app.go\n+++ b/app.go\n@@ -6,3 +6,3 @@\n 6\tfunc Greet(name string) string {\n-7\t\treturn \"hello \" + name\n+7\t\treturn \"hello, \" + name + \"!\"\n 8\t}\n" +
			"@@ -11,2 +11,2 @@\n-11\tfunc Shout(s string) string {\n-12\t\treturn strings.ToUpper(s)\n+11\tfunc Shout(s string) string {\n+12\t\treturn strings.ToUpper(s) + \"!\"\n"},
		{"in a fence", "Here:\n\n```diff\n--- a/app.go\n+++ b/app.go\n@@ -6,3 +6,3 @@\n 6\tfunc Greet(name string) string {\n-7\t\treturn \"hello \" + name\n+\treturn \"hello, \" + name + \"!\"\n 8\t}\n@@ -12,2 +12,2 @@\n-12\t\treturn strings.ToUpper(s)\n+\treturn strings.ToUpper(s) + \"!\"\n 13\t}\n```\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, notes, errs := planEdits(t, map[string]string{"app.go": numbersGo}, tc.diff)
			if len(errs) > 0 {
				t.Fatalf("got errors %v, want none", errs)
			}
			if got["app.go"] != want {
				t.Errorf("got\n%s\nwant\n%s", got["app.go"], want)
			}
			for i, n := range notes {
				if len(n) == 0 || n[0] != edit.NumberedNote {
					t.Errorf("hunk %d: got notes %q, want %q first", i+1, n, edit.NumberedNote)
				}
			}
		})
	}
}

// TestUnnumberLeavesAlone: hunks whose numbers could be the file's own
// text, or are not read_file's numbering of the lines, are left as
// written.
func TestUnnumberLeavesAlone(t *testing.T) {
	for _, tc := range []struct{ name, diff string }{
		{"ids, not line numbers", "--- a/t.tsv\n+++ b/t.tsv\n@@ -2,3 +2,3 @@\n 101\talice\n-102\tbob\n+102\trobert\n 103\tcarol\n"},
		{"header disagrees", "--- a/t.tsv\n+++ b/t.tsv\n@@ -1,3 +1,3 @@\n 2\talice\n-3\tbob\n+3\trobert\n 4\tcarol\n"},
		{"a gap", "--- a/t.tsv\n+++ b/t.tsv\n@@ -2,3 +2,3 @@\n 2\talice\n-3\tbob\n+3\trobert\n 5\tcarol\n"},
		{"counting down", "--- a/t.tsv\n+++ b/t.tsv\n@@ @@\n 3\talice\n-2\tbob\n"},
		{"one line", "--- a/t.tsv\n+++ b/t.tsv\n@@ -2,1 +2,1 @@\n-2\tbob\n+2\trobert\n"},
		{"a line without", "--- a/t.tsv\n+++ b/t.tsv\n@@ -2,3 +2,3 @@\n 2\talice\n-3\tbob\n+\trobert\n \tcarol\n"},
		{"a blank line without", "--- a/t.tsv\n+++ b/t.tsv\n@@ -2,3 +2,3 @@\n 2\talice\n-3\tbob\n+robert\n\n"},
		{"leading zeros", "--- a/t.tsv\n+++ b/t.tsv\n@@ @@\n 01\talice\n-02\tbob\n"},
		{"a space, not a tab", "--- a/t.txt\n+++ b/t.txt\n@@ -2,2 +2,2 @@\n 2 apples\n-3 pears\n+3 plums\n"},
		{"made by git", "diff --git a/t.tsv b/t.tsv\nindex 1111111..2222222 100644\n--- a/t.tsv\n+++ b/t.tsv\n@@ -2,2 +2,2 @@\n 2\talice\n-3\tbob\n+3\trobert\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustParse(t, tc.diff)
			want := mustParse(t, tc.diff)
			if n := edit.Unnumber(p); n != 0 || !reflect.DeepEqual(p, want) {
				t.Errorf("Unnumber: got %d hunks changed, %s; want none", n, edittest.Show(p.Files[0].Hunks[0].Lines))
			}
		})
	}
}

// TestUnnumberAddedRuns: added lines lose their numbers only when every
// run of them numbers on from the new side or the old side.
func TestUnnumberAddedRuns(t *testing.T) {
	for _, tc := range []struct {
		name, diff string
		want       []string // the hunk's lines after Unnumber
	}{
		{"as the new file", "@@ -4,3 +4,4 @@\n 4\ta\n+5\tx\n+6\ty\n 5\tb\n-6\tc\n", []string{" a", "+x", "+y", " b", "-c"}},
		{"as the lines replaced", "@@ -4,4 +4,4 @@\n 4\ta\n-5\tb\n-6\tc\n+5\tB\n+6\tC\n 7\td\n", []string{" a", "-b", "-c", "+B", "+C", " d"}},
		{"after an earlier insertion", "@@ -4,4 +4,5 @@\n 4\ta\n+5\tx\n 5\tb\n-6\tc\n+7\tC\n 7\td\n", []string{" a", "+x", " b", "-c", "+C", " d"}},
		{"new side starts elsewhere", "@@ -4,2 +9,3 @@\n 4\ta\n+10\tx\n 5\tb\n", []string{" a", "+x", " b"}},
		{"some added lines numbered: as written", "@@ -2,2 +2,3 @@\n 2\talice\n-3\tbob\n+3\trobert\n+dave\n", []string{" alice", "-bob", "+3\trobert", "+dave"}},
		{"added numbers that run elsewhere: as written", "@@ -2,2 +2,2 @@\n 2\talice\n-3\tbob\n+7\trobert\n", []string{" alice", "-bob", "+7\trobert"}},
		{"the file's own numbers: added lines as written", "@@ -2,2 +2,3 @@\n 2\t2\talice\n 3\t3\tbob\n+4\tcarol\n", []string{" 2\talice", " 3\tbob", "+4\tcarol"}},
		{"the tab stays in the text", "@@ -1,2 +1,2 @@\n 1\t\tindented\n-2\t\n+\t\n", []string{" \tindented", "-", "+\t"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustParse(t, "--- a/f\n+++ b/f\n"+tc.diff)
			if n := edit.Unnumber(p); n != 1 {
				t.Fatalf("Unnumber: got %d hunks changed, want 1", n)
			}
			h := p.Files[0].Hunks[0]
			var got []string
			for _, l := range h.Lines {
				got = append(got, string(rune(l.Kind))+l.Text)
			}
			if !slices.Equal(got, tc.want) || !h.Numbered {
				t.Errorf("got %q numbered %v, want %q numbered", got, h.Numbered, tc.want)
			}
		})
	}
}

// TestOwnNumbersKept: a tab-separated file whose first column is each
// line's own number. A diff of it, written by hand or by a model, looks
// numbered as read_file numbers lines; the file holds its lines with the
// numbers, so they are its text, and the diff applies as written.
func TestOwnNumbersKept(t *testing.T) {
	old := "1\talice\n2\tbob\n3\tcarol\n4\tdave\n5\terin\n"
	for _, tc := range []struct{ name, diff, want string }{
		{"changed", "--- a/ids.tsv\n+++ b/ids.tsv\n@@ -2,3 +2,3 @@\n 2\tbob\n-3\tcarol\n+3\tcaroline\n 4\tdave\n",
			"1\talice\n2\tbob\n3\tcaroline\n4\tdave\n5\terin\n"},
		{"added", "--- a/ids.tsv\n+++ b/ids.tsv\n@@ -4,2 +4,3 @@\n 4\tdave\n 5\terin\n+6\tfrank\n",
			old + "6\tfrank\n"},
		{"read_file's numbers of the file's numbers", "--- a/ids.tsv\n+++ b/ids.tsv\n@@ -2,3 +2,3 @@\n 2\t2\tbob\n-3\t3\tcarol\n+3\tcaroline\n 4\t4\tdave\n",
			"1\talice\n2\tbob\n3\tcaroline\n4\tdave\n5\terin\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, eol := range []string{"\n", "\r\n"} {
				crlf := func(s string) string { return strings.ReplaceAll(s, "\n", eol) }
				got, _, errs := planEdits(t, map[string]string{"ids.tsv": crlf(old)}, tc.diff)
				if len(errs) > 0 {
					t.Fatalf("got errors %v, want none", errs)
				}
				if got["ids.tsv"] != crlf(tc.want) {
					t.Errorf("got\n%q\nwant\n%q", got["ids.tsv"], crlf(tc.want))
				}
			}
		})
	}
}

// modelDiff renders the change from old to new as a model writes a diff:
// ---/+++ headers and hunks with numbers, no git headers.
func modelDiff(t testing.TB, old, new string) string {
	t.Helper()
	text, err := edit.Render("f", "f", "", old, edit.Diff(old, new))
	if err != nil {
		t.Fatalf("Render: %v", err)
	}
	var out []string
	for _, l := range strings.SplitAfter(text, "\n") {
		if !strings.HasPrefix(l, "diff --git ") && !strings.HasPrefix(l, "index ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "")
}

// numberDiff gives the context and deleted lines of a diff read_file's
// numbers, from the numbers of its hunk headers.
func numberDiff(diff string) string {
	var b strings.Builder
	n := 0
	for _, l := range strings.SplitAfter(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "@@ -"):
			fmt.Sscanf(l, "@@ -%d", &n)
		case strings.HasPrefix(l, " "), strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "--- "):
			l = fmt.Sprintf("%c%d\t%s", l[0], n, l[1:])
			n++
		}
		b.WriteString(l)
	}
	return b.String()
}

// tsvLines makes a text of tab-separated lines from s, each byte a line
// whose first column is, by turns, its own line number, a number near it
// or a word: data on which read_file's numbering may be mistaken.
func tsvLines(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c % 4 {
		case 0:
			fmt.Fprintf(&b, "%d\t%c\n", i+1, 'a'+c%26)
		case 1:
			fmt.Fprintf(&b, "%d\tx\n", i+int(c%3))
		case 2:
			fmt.Fprintf(&b, "%d\t%d\ty\n", i+1, i+1)
		default:
			fmt.Fprintf(&b, "w\t%d\n", c)
		}
	}
	return b.String()
}

// FuzzUnnumber checks, on tab-separated data that starts lines with
// numbers: a diff written without read_file's numbers gives the same
// result read as a model's edit (numbers removed where they seem to be
// read_file's) as read as a plain patch; and the same diff with
// read_file's numbers gives that result too, when each hunk has two
// lines to number, unless its added lines start with numbers that run on
// from the hunk's, which may be read_file's (see Unnumber): then the old
// side is read right and those numbers only are lost.
func FuzzUnnumber(f *testing.F) {
	f.Add("\x00\x04\x08\x0c\x10", "\x00\x04\x09\x0c\x10")
	f.Add("\x00\x01\x02\x03\x04\x05", "\x00\x02\x03\x07\x04")
	f.Add("\x02\x02\x02\x02", "\x02\x02\x06\x02\x02")
	f.Add("\x00\x00\x00\x00\x00\x00\x00\x00", "\x00\x00\x00\x04\x00\x00\x00")
	f.Fuzz(func(t *testing.T, a, b string) {
		old, new := tsvLines(a), tsvLines(b)
		if old == new {
			return
		}
		files := map[string]string{"f": old}
		diff := modelDiff(t, old, new)
		plain := edit.PlanFile("f", "f", old, onlyFile(t, diff))
		want, err := plain.Result(nil)
		if len(plain.Errors) > 0 || err != nil || want != new {
			t.Fatalf("the plain diff: got %q, errors %v %v, want %q", want, plain.Errors, err, new)
		}
		got, _, errs := planEdits(t, files, diff)
		if len(errs) > 0 || got["f"] != want {
			t.Fatalf("read as a model's edit:\n%s\ngot %q, errors %v, want %q", diff, got["f"], errs, want)
		}
		numbered := numberDiff(diff)
		for _, h := range onlyFile(t, diff).Hunks {
			if len(h.Pre()) < 2 {
				return // one number proves nothing: left as written
			}
		}
		// The old side loses exactly the numbers given; the added lines
		// keep their text, or lose a number that runs on from the hunk's
		// when the old side gives no sign of numbers of the file's own.
		p := mustParse(t, numbered)
		edit.Unnumber(p)
		ambiguous := false
		for i, h := range onlyFile(t, diff).Hunks {
			nh := p.Files[0].Hunks[i]
			if !slices.Equal(nh.Pre(), h.Pre()) {
				t.Fatalf("with read_file's numbers:\n%s\ngot old side %q, want %q", numbered, nh.Pre(), h.Pre())
			}
			for j, l := range h.Lines {
				if got := nh.Lines[j].Text; got != l.Text {
					ambiguous = true
					if _, rest, ok := strings.Cut(l.Text, "\t"); l.Kind != edit.Add || !ok || rest != got {
						t.Fatalf("with read_file's numbers:\n%s\ngot line %q, want %q", numbered, got, l.Text)
					}
				}
			}
		}
		if ambiguous {
			return
		}
		got, _, errs = planEdits(t, files, numbered)
		if len(errs) > 0 || got["f"] != want {
			t.Fatalf("with read_file's numbers:\n%s\ngot %q, errors %v, want %q", numbered, got["f"], errs, want)
		}
	})
}

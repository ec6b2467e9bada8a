package edit_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/edit/edittest"
)

type diffCase struct {
	name     string
	old, new string
	// want is the hunks as Start, then the lines as in a diff and the
	// final newline change; nil to check the properties only.
	want []diffHunk
}

type diffHunk struct {
	start int
	lines []string
	final edit.Newline
}

func diffCases() []diffCase {
	long := numberedLines("line", 30)
	return []diffCase{
		{name: "identical", old: text("a", "b"), new: text("a", "b")},
		{name: "both empty", old: "", new: ""},
		{name: "change one line", old: text("a", "b", "c"), new: text("a", "B", "c"),
			want: []diffHunk{{0, []string{" a", "-b", "+B", " c"}, edit.NewlineKeep}}},
		{name: "created", old: "", new: text("x", "y"),
			want: []diffHunk{{0, []string{"+x", "+y"}, edit.NewlineKeep}}},
		{name: "created without final newline", old: "", new: "x\ny",
			want: []diffHunk{{0, []string{"+x", "+y"}, edit.NewlineRemove}}},
		{name: "emptied", old: text("x", "y"), new: "",
			want: []diffHunk{{0, []string{"-x", "-y"}, edit.NewlineKeep}}},
		{name: "emptied without final newline", old: "x\ny", new: "",
			want: []diffHunk{{0, []string{"-x", "-y"}, edit.NewlineAdd}}},
		{name: "final newline removed", old: text("a", "b"), new: "a\nb",
			want: []diffHunk{{0, []string{" a", "-b", "+b"}, edit.NewlineRemove}}},
		{name: "final newline added", old: "a\nb", new: text("a", "b"),
			want: []diffHunk{{0, []string{" a", "-b", "+b"}, edit.NewlineAdd}}},
		{name: "final newline removed far from other change",
			old: long, new: strings.Replace(strings.TrimSuffix(long, "\n"), "line 2\n", "LINE 2\n", 1),
			want: []diffHunk{
				{0, []string{" line 1", "-line 2", "+LINE 2", " line 3", " line 4", " line 5"}, edit.NewlineKeep},
				{26, []string{" line 27", " line 28", " line 29", "-line 30", "+line 30"}, edit.NewlineRemove},
			}},
		{name: "lines added after a last line without newline", old: "a\nb", new: "a\nb\nc",
			want: []diffHunk{{0, []string{" a", "-b", "+b", "+c"}, edit.NewlineKeep}}},
		{name: "line without newline moves up", old: "x\na", new: "a",
			want: []diffHunk{{0, []string{"-x", " a"}, edit.NewlineKeep}}},
		{name: "line gains newline and is repeated", old: "a", new: "a\na\n",
			want: []diffHunk{{0, []string{"-a", "+a", "+a"}, edit.NewlineAdd}}},
		{name: "no final newline on either side, last line changed", old: "a\nb", new: "a\nc",
			want: []diffHunk{{0, []string{" a", "-b", "+c"}, edit.NewlineKeep}}},
		{name: "insert at top", old: text("a", "b"), new: text("new", "a", "b"),
			want: []diffHunk{{0, []string{"+new", " a", " b"}, edit.NewlineKeep}}},
		{name: "append at end", old: text("a", "b"), new: text("a", "b", "new"),
			want: []diffHunk{{0, []string{" a", " b", "+new"}, edit.NewlineKeep}}},
		{name: "two hunks", old: long,
			new: strings.Replace(strings.Replace(long, "line 3\n", "three\n", 1), "line 25\n", "", 1),
			want: []diffHunk{
				{0, []string{" line 1", " line 2", "-line 3", "+three", " line 4", " line 5", " line 6"}, edit.NewlineKeep},
				{21, []string{" line 22", " line 23", " line 24", "-line 25", " line 26", " line 27", " line 28"}, edit.NewlineKeep},
			}},
		{name: "changes six lines apart share a hunk", old: long,
			new: strings.Replace(strings.Replace(long, "line 10\n", "ten\n", 1), "line 17\n", "seventeen\n", 1),
			want: []diffHunk{{6, []string{
				" line 7", " line 8", " line 9", "-line 10", "+ten",
				" line 11", " line 12", " line 13", " line 14", " line 15", " line 16",
				"-line 17", "+seventeen", " line 18", " line 19", " line 20"}, edit.NewlineKeep}}},
		{name: "changes seven lines apart do not", old: long,
			new: strings.Replace(strings.Replace(long, "line 10\n", "ten\n", 1), "line 18\n", "eighteen\n", 1),
			want: []diffHunk{
				{6, []string{" line 7", " line 8", " line 9", "-line 10", "+ten", " line 11", " line 12", " line 13"}, edit.NewlineKeep},
				{14, []string{" line 15", " line 16", " line 17", "-line 18", "+eighteen", " line 19", " line 20", " line 21"}, edit.NewlineKeep},
			}},
		{name: "crlf", old: "a\r\nb\r\nc\r\n", new: "a\r\nB\r\nc\r\nd\r\n",
			want: []diffHunk{{0, []string{" a", "-b", "+B", " c", "+d"}, edit.NewlineKeep}}},
		{name: "crlf without final newline", old: "a\r\nb\r\nc", new: "a\r\nc\r\n",
			want: []diffHunk{{0, []string{" a", "-b", "-c", "+c"}, edit.NewlineAdd}}},
		{name: "mixed endings keep theirs", old: "a\nb\r\nc\n", new: "a\nB\r\nc\n",
			want: []diffHunk{{0, []string{" a", "-b", "+B", " c"}, edit.NewlineKeep}}},
		{name: "blank lines", old: text("", "", "a", "", ""), new: text("", "a", "", "", "", "b"),
			want: []diffHunk{{0, []string{" ", "-", " a", " ", " ", "+", "+b"}, edit.NewlineKeep}}},
		{name: "repeated lines", old: text("x", "x", "x", "y", "x"), new: text("x", "y", "x", "x")},
		{name: "everything replaced", old: text("a", "b", "c"), new: text("d", "e"),
			want: []diffHunk{{0, []string{"-a", "-b", "-c", "+d", "+e"}, edit.NewlineKeep}}},
		{name: "trailing whitespace is a change", old: text("a ", "b"), new: text("a", "b"),
			want: []diffHunk{{0, []string{"-a ", "+a", " b"}, edit.NewlineKeep}}},
		{name: "only the line endings differ", old: text("a", "b"), new: "a\r\nb\r\n"},
		{name: "go source", old: goSrc, new: strings.Replace(goSrc, `"world"`, `"there"`, 1) + "\nfunc other() {}\n"},
	}
}

// numberedLines returns n lines "prefix 1" … "prefix n".
func numberedLines(prefix string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s %d\n", prefix, i)
	}
	return b.String()
}

func TestDiff(t *testing.T) {
	for _, dc := range diffCases() {
		t.Run(dc.name, func(t *testing.T) {
			rs := edit.Diff(dc.old, dc.new)
			checkDiff(t, dc.old, dc.new, rs)
			if rs != nil {
				// Rendered, read back and placed again, it does the same.
				diff, err := edit.Render("f", "f", "", dc.old, rs)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := mustApply(t, dc.old, mustPlace(t, dc.old, diff)), mustApply(t, dc.old, rs); got != want {
					t.Errorf("Place(Render(Diff)) applies as %q, want %q", got, want)
				}
			}
			if dc.want == nil {
				return
			}
			var got, want strings.Builder
			for _, r := range rs {
				fmt.Fprintf(&got, "@%d final %v\n%s", r.Start, r.FinalNewline, edittest.Show(r.Lines))
			}
			for _, h := range dc.want {
				fmt.Fprintf(&want, "@%d final %v\n%s", h.start, h.final, edittest.Show(ls(h.lines...)))
			}
			if got.String() != want.String() {
				t.Errorf("Diff(%q, %q):\ngot\n%swant\n%s", dc.old, dc.new, got.String(), want.String())
			}
		})
	}
}

func TestDiffIdenticalHasNoHunks(t *testing.T) {
	for _, s := range []string{"", "a", "a\n", "a\r\nb", text("x", "", "y")} {
		if rs := edit.Diff(s, s); rs != nil {
			t.Errorf("Diff(%q, same): got %d hunks, want none:\n%s", s, len(rs), describe(rs))
		}
	}
}

// TestDiffGitApply cross-checks Diff and Render with git apply: the
// rendered diff applies to old and gives new.
func TestDiffGitApply(t *testing.T) {
	requireGit(t)
	for _, dc := range diffCases() {
		if dc.old == dc.new || !sameEndings(dc.old, dc.new) {
			continue
		}
		t.Run(dc.name, func(t *testing.T) {
			rs := edit.Diff(dc.old, dc.new)
			type render struct{ oldPath, newPath string }
			renders := []render{{"f.txt", "f.txt"}}
			if dc.old == "" {
				renders = append(renders, render{"", "f.txt"})
			}
			if dc.new == "" {
				renders = append(renders, render{"f.txt", ""})
			}
			for _, r := range renders {
				diff, err := edit.Render(r.oldPath, r.newPath, "", dc.old, rs)
				if err != nil {
					t.Fatalf("Render(%q, %q): got error %v, want none", r.oldPath, r.newPath, err)
				}
				got, exists, _ := gitApply(t, r.oldPath, r.newPath, dc.old, diff)
				if r.newPath == "" {
					if exists {
						t.Errorf("git apply of the deletion left the file")
					}
					continue
				}
				if got != dc.new {
					t.Errorf("git apply of Render(%q, %q):\ngot  %q\nwant %q\ndiff:\n%s", r.oldPath, r.newPath, got, dc.new, diff)
				}
			}
		})
	}
}

// TestDiffLarge: a large, wholly different pair of texts is diffed in
// bounded time, and correctly.
func TestDiffLarge(t *testing.T) {
	var a, b strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&a, "a %d\n", i)
		fmt.Fprintf(&b, "b %d\n", i)
		if i%7 == 0 {
			fmt.Fprintf(&a, "same %d\n", i)
			fmt.Fprintf(&b, "same %d\n", i)
		}
	}
	rs := edit.Diff(a.String(), b.String())
	got := mustApply(t, a.String(), rs)
	if got != b.String() {
		t.Errorf("Apply(old, Diff(old, new)) differs from new")
	}
}

func FuzzDiff(f *testing.F) {
	for _, dc := range diffCases() {
		f.Add(dc.old, dc.new)
	}
	f.Add("a\r\nb\nc", "a\nb\r\nc\r\n")
	f.Add("x\r", "x\r\n")
	f.Add("a", "a\na\n")       // a last line gains its newline and is repeated
	f.Add("0", "\r\r\n")       // a line whose text ends in CR
	f.Add("\n\n0", "0\x00\n1") // NUL in a line
	f.Add("abcabba", "cbabac") // Myers' example, as lines
	f.Fuzz(func(t *testing.T, old, new string) {
		checkDiff(t, old, new, edit.Diff(old, new))
		// Each byte as one line of a small alphabet: many repeated lines.
		lo, ln := asLines(old), asLines(new)
		checkDiff(t, lo, ln, edit.Diff(lo, ln))
		// The same lines ended as old's are rebuilt exactly (checkDiff
		// checks it where the endings allow).
		eol := "\n"
		if crlf, lf := endings(old); crlf > lf {
			eol = "\r\n"
		}
		lines, final := fileLines(new)
		re := strings.Join(lines, eol)
		if final && len(lines) > 0 {
			re += eol
		}
		checkDiff(t, old, re, edit.Diff(old, re))
	})
}

// asLines makes a text of one line per byte of s, from a few distinct
// lines: blank, "a", "b", "c", with a final newline unless s ends in 'x'.
func asLines(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteString([]string{"", "a", "b", "c"}[s[i]%4])
		if i < len(s)-1 || s[i] != 'x' {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// checkDiff checks the properties of Diff(old, new): the hunks hold old's
// own lines, are in order and apart, have at most three lines of context
// around their changes, and apply to old to give new's lines and final
// newline (and new itself when the line endings allow it); the number of
// changed lines is the least possible.
func checkDiff(t *testing.T, old, new string, rs []edit.Resolved) {
	t.Helper()
	if old == new && rs != nil {
		t.Fatalf("Diff of identical texts: got %d hunks, want none", len(rs))
	}
	end := -1
	dels, adds := 0, 0
	for i, r := range rs {
		checkFileText(t, old, r)
		if r.Pass != edit.PassExact {
			t.Errorf("hunk %d: got pass %v, want exact", i, r.Pass)
		}
		if r.Start <= end {
			t.Errorf("hunk %d starts at %d, want after the end of the previous one (%d)", i, r.Start, end)
		}
		end = r.Start + r.OldCount()
		if i < len(rs)-1 && r.FinalNewline != edit.NewlineKeep {
			t.Errorf("hunk %d of %d changes the final newline, want only the last one to", i, len(rs))
		}
		lead, trail, changes := 0, 0, 0
		for _, l := range r.Lines {
			switch l.Kind {
			case edit.Context:
				if changes == 0 {
					lead++
				}
				trail++
			case edit.Delete:
				dels++
				changes++
				trail = 0
			case edit.Add:
				adds++
				changes++
				trail = 0
			}
		}
		if changes == 0 || lead > 3 || trail > 3 {
			t.Errorf("hunk %d: %d changes, %d lines of context before and %d after, want changes and at most 3", i, changes, lead, trail)
		}
	}
	got, err := edit.Apply(old, rs)
	if err != nil {
		t.Fatalf("Apply(old, Diff(old, new)): %v\nold %q\nnew %q\n%s", err, old, new, describe(rs))
	}
	gl, gf := fileLines(got)
	nl, nf := fileLines(new)
	// (A line whose own text ends in CR, "x\r\r\n", cannot be written
	// with Apply's terminators in general: it reads back as CRLF.)
	if (strings.Join(gl, "\n") != strings.Join(nl, "\n") || len(gl) != len(nl) || gf != nf) && !strings.Contains(new, "\r\r\n") {
		t.Fatalf("Apply(old, Diff(old, new)):\ngot  %q\nwant %q\nold  %q\n%s", got, new, old, describe(rs))
	}
	if sameEndings(old, new) && got != new {
		t.Fatalf("Apply(old, Diff(old, new)):\ngot  %q\nwant %q\nold  %q\n%s", got, new, old, describe(rs))
	}
	ol, of := fileLines(old)
	if len(ol) <= 200 && len(nl) <= 200 {
		// A last line without newline differs from one with.
		key := func(ls []string, final bool) []string {
			out := make([]string, len(ls))
			for i, l := range ls {
				out[i] = "T" + l
			}
			if !final {
				out[len(out)-1] = "U" + ls[len(ls)-1]
			}
			return out
		}
		want := len(ol) + len(nl) - 2*lcs(key(ol, of), key(nl, nf))
		if dels+adds != want {
			t.Errorf("Diff changes %d lines, want the least, %d\nold %q\nnew %q\n%s", dels+adds, want, old, new, describe(rs))
		}
	}
	if _, err := edit.Render("f", "f", "", old, rs); err != nil {
		t.Errorf("Render(Diff(old, new)): got error %v, want none", err)
	}
}

// fileLines splits a text into lines without terminators, as a diff sees
// them, and says whether it ends with a newline (an empty text does).
func fileLines(s string) ([]string, bool) {
	if s == "" {
		return nil, true
	}
	final := strings.HasSuffix(s, "\n")
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		if i < len(lines)-1 || final {
			lines[i] = strings.TrimSuffix(l, "\r")
		}
	}
	return lines, final
}

// endings counts the CRLF and LF line terminators of s.
func endings(s string) (crlf, lf int) {
	for _, l := range strings.SplitAfter(s, "\n") {
		switch {
		case strings.HasSuffix(l, "\r\n"):
			crlf++
		case strings.HasSuffix(l, "\n"):
			lf++
		}
	}
	return crlf, lf
}

// sameEndings reports whether old and new end all their lines with old's
// dominant terminator (as Apply gives added lines): then Apply(old,
// Diff(old, new)) is new exactly.
func sameEndings(old, new string) bool {
	oc, ol := endings(old)
	nc, nl := endings(new)
	if oc > ol {
		return ol == 0 && nl == 0
	}
	return oc == 0 && nc == 0
}

// lcs is the length of a longest common subsequence of a and b.
func lcs(a, b []string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(cur[j], prev[j+1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

package edit_test

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/edit/edittest"
)

// parseSeeds are patches in the shapes Parse must read.
var parseSeeds = []string{
	"",
	"diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@ f\n a\n-b\n+c\n d\n",
	"diff --git a/n b/n\nnew file mode 100755\n--- /dev/null\n+++ b/n\n@@ -0,0 +1 @@\n+x\n\\ No newline at end of file\n",
	"diff --git a/o b/o\ndeleted file mode 100644\n--- a/o\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n",
	"diff --git a/a b/b\nsimilarity index 90%\nrename from a\nrename to b\n",
	"diff --git a/r.sh b/r.sh\nold mode 100644\nnew mode 100755\n",
	"--- x\n+++ x\n@@ ... @@\n a\n\n-b\n+c\n\n\n",
	"@@\n-a\n+b\n",
	"@@ -1 +1 @@\r\n-a\r\n+b\r\n",
	"Here:\n```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n```\nand\n```\n@@ -3 +3 @@\n-c\n+d\n```\n",
	"diff --git \"a/\\303\\251\\t\" \"b/\\303\\251\\t\"\n--- \"a/\\303\\251\\t\"\n+++ \"b/\\303\\251\\t\"\n@@ -1 +1 @@\n-a\n+b\n",
	"--- old/f.c\t2024-01-01 00:00:00 +0000\n+++ new/f.c\t2024-01-01 00:00:01 +0000\n@@ -1 +1 @@\n-a\n+b\n",
	"From x\nSubject: [PATCH] y\n\n---\n f | 2 +-\n\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n-- \n2.43.0\n\n",
	"diff --git a/i.png b/i.png\nBinary files a/i.png and b/i.png differ\n",
	"diff --git a/i.png b/i.png\nGIT binary patch\nliteral 1\nIcmZPo000310RR91\n\n",
	"diff --git \"a/unterminated b/x\n@@ -1 +1 @@\n-a\n+b\n",
	// read_file's numbers copied into a diff (see Unnumber), and data
	// whose lines start with numbers and tabs.
	"--- a/x\n+++ b/x\n@@ -9,3 +9,3 @@\n  9\ta\n-10\tb\n+c\n 11\td\n",
	"--- a/x\n+++ b/x\n@@ @@\n 2\ta\n-3\tb\n+3\tc\n+4\te\n 4\td\n",
	"--- a/x\n+++ b/x\n@@ -2,2 +2,2 @@\n 2\t2\ta\n-3\t3\tb\n+3\tc\n",
	"--- a/x.tsv\n+++ b/x.tsv\n@@ -2,3 +2,3 @@\n 101\t7\n-102\t9\n+102\t10\n 103\t4\n",
	"--- \"a/\\777\"\n+++ \"b/\\3\"\n@@ -1,-1 +x,y @@\n\\\n-\n+\n",
}

func FuzzParse(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := edit.Parse(s)
		p2, err2 := edit.Parse(s)
		if (err == nil) != (err2 == nil) || !reflect.DeepEqual(p, p2) {
			t.Fatalf("Parse twice: got %v, %v and %v, %v", dumpPatch(p), err, dumpPatch(p2), err2)
		}
		if err != nil {
			if p != nil {
				t.Errorf("Parse: got a patch with error %v, want nil", err)
			}
			return
		}
		if len(p.Files) == 0 {
			t.Errorf("Parse: got no files and no error")
		}
		for _, fd := range p.Files {
			if fd == nil {
				t.Fatalf("Parse: got a nil file")
			}
			checkNames(t, fd)
			for _, h := range fd.Hunks {
				if h == nil {
					t.Fatalf("Parse: got a nil hunk")
				}
				for _, l := range h.Lines {
					if l.Kind != edit.Context && l.Kind != edit.Add && l.Kind != edit.Delete {
						t.Errorf("Parse: got line kind %q, want ' ', '+' or '-'", l.Kind)
					}
					if strings.ContainsAny(l.Text, "\n") {
						t.Errorf("Parse: got line text %q with a newline", l.Text)
					}
				}
			}
		}
		checkUnnumber(t, s)
	})
}

// checkNames checks the names of a parsed file: the source is the first
// candidate, and stripping directories again (-p) keeps the file's action
// and only ever shortens its names.
func checkNames(t *testing.T, fd *edit.FileDiff) {
	t.Helper()
	if src := fd.Source(); src != "" {
		if c := fd.Candidates(src); c[0] != src {
			t.Errorf("Candidates(%q) = %q, want the source first", src, c)
		}
	}
	for n := range 3 {
		c := *fd
		if err := c.StripNames(n); err != nil {
			continue
		}
		if c.New != fd.New || c.Deleted != fd.Deleted || (c.OldPath == "") != (fd.OldPath == "") || (c.NewPath == "") != (fd.NewPath == "") {
			t.Errorf("StripNames(%d): %q -> %q new=%v deleted=%v from %q -> %q new=%v deleted=%v",
				n, c.OldPath, c.NewPath, c.New, c.Deleted, fd.OldPath, fd.NewPath, fd.New, fd.Deleted)
		}
	}
}

// checkUnnumber checks what Unnumber does to the hunks of the patch s:
// it keeps their lines and kinds, and removes from a line at most a
// number and a tab, from every context and deleted line of a hunk it
// changes, and only once.
func checkUnnumber(t *testing.T, s string) {
	t.Helper()
	p, _ := edit.Parse(s)
	q, _ := edit.Parse(s)
	if p == nil {
		return
	}
	n := edit.Unnumber(q)
	if again := edit.Unnumber(q); again != 0 {
		t.Errorf("Unnumber twice: got %d more hunks changed, want none", again)
	}
	changed := 0
	for i, fd := range p.Files {
		for j, h := range fd.Hunks {
			nh := q.Files[i].Hunks[j]
			if len(nh.Lines) != len(h.Lines) || nh.Numbered && fd.Indexed {
				t.Fatalf("Unnumber: got %s, want the lines of\n%s", edittest.Show(nh.Lines), edittest.Show(h.Lines))
			}
			if nh.Numbered {
				changed++
			}
			for k, l := range h.Lines {
				nl := nh.Lines[k]
				_, rest, cut := strings.Cut(l.Text, "\t")
				switch {
				case nl.Kind != l.Kind:
					t.Fatalf("Unnumber: line %d: got kind %q, want %q", k, nl.Kind, l.Kind)
				case nl.Text == l.Text && (!nh.Numbered || l.Kind == edit.Add):
				case nh.Numbered && cut && rest == nl.Text && strings.TrimLeft(strings.TrimRight(l.Text[:len(l.Text)-len(rest)-1], "0123456789"), " ") == "":
				default:
					t.Fatalf("Unnumber: line %d: got %q from %q", k, nl.Text, l.Text)
				}
			}
		}
	}
	if changed != n {
		t.Errorf("Unnumber: got %d hunks marked, %d counted", changed, n)
	}
}

// fuzzLines are the lines random texts are made of: few, so that they
// repeat, and with variants that the tolerant passes take as equal.
var fuzzLines = []string{
	"",
	"a",
	"b",
	"}",
	"\treturn nil",
	"    return nil",
	"return nil",
	`	fmt.Println("hello, world")`,
	"if err != nil {",
	"x := compute(1, 2, 3)",
	"x := compute(1, 2, 4)",
	"-",
	"+",
	"@@",
	`\`,
}

// fline is one line of a fuzz text; eol is false only for a last line
// without a newline.
type fline struct {
	text string
	eol  bool
}

func fuzzText(b []byte, finalNewline bool) []fline {
	const maxLines = 48
	if len(b) > maxLines {
		b = b[:maxLines]
	}
	out := make([]fline, len(b))
	for i, c := range b {
		out[i] = fline{text: fuzzLines[int(c)%len(fuzzLines)], eol: true}
	}
	if len(out) > 0 && !finalNewline {
		if out[len(out)-1].text == "" {
			out = out[:len(out)-1] // an empty last line cannot lack its newline
		} else {
			out[len(out)-1].eol = false
		}
	}
	return out
}

func joinFuzz(ls []fline, eol string) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.text)
		if l.eol {
			b.WriteString(eol)
		}
	}
	return b.String()
}

// dop is one step of a line diff: Context, Delete or Add, with the index
// of its line in the old or new text.
type dop struct {
	kind     edit.Kind
	old, new int
}

// lcsDiff returns a shortest edit script from a to b by longest common
// subsequence. A last line without newline differs from the same text
// with one, as in diff.
func lcsDiff(a, b []fline) []dop {
	n, m := len(a), len(b)
	L := make([][]int, n+1)
	for i := range L {
		L[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				L[i][j] = L[i+1][j+1] + 1
			} else {
				L[i][j] = max(L[i+1][j], L[i][j+1])
			}
		}
	}
	var ops []dop
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, dop{edit.Context, i, j})
			i++
			j++
		case i < n && (j == m || L[i+1][j] >= L[i][j+1]):
			ops = append(ops, dop{edit.Delete, i, j})
			i++
		default:
			ops = append(ops, dop{edit.Add, i, j})
			j++
		}
	}
	return ops
}

// uhunk is one hunk of a computed diff.
type uhunk struct {
	ops                []dop
	oldStart, oldCount int // 0-based start
	newStart, newCount int
}

// hunksOf groups an edit script into hunks with ctx lines of context,
// joining changes no more than 2*ctx lines apart, as git does.
func hunksOf(ops []dop, ctx int) []uhunk {
	var changes []int
	for i, o := range ops {
		if o.kind != edit.Context {
			changes = append(changes, i)
		}
	}
	var out []uhunk
	for k := 0; k < len(changes); {
		first, last := changes[k], changes[k]
		k++
		for k < len(changes) && changes[k]-last-1 <= 2*ctx {
			last = changes[k]
			k++
		}
		s, e := max(0, first-ctx), min(len(ops), last+1+ctx)
		h := uhunk{ops: ops[s:e], oldStart: ops[s].old, newStart: ops[s].new}
		for _, o := range h.ops {
			if o.kind != edit.Add {
				h.oldCount++
			}
			if o.kind != edit.Delete {
				h.newCount++
			}
		}
		out = append(out, h)
	}
	return out
}

// Damage applied to a rendered diff. The lossless ones keep the patch's
// meaning: a correct placement must give the new text exactly.
const (
	dmgNoNumbers     = 1 << iota // "@@ ... @@" headers
	dmgCRLFPatch                 // the patch has CRLF endings
	dmgBareBlanks                // blank context lines lose their space
	dmgTrailingSpace             // context lines gain trailing whitespace
	dmgReverse                   // hunks in reverse order
	dmgWrongCounts               // header counts off by one
	dmgCRLFText                  // both texts use CRLF
	dmgOldNoNewline              // the old text lacks its final newline
	dmgNewNoNewline              // the new text lacks its final newline
	dmgCurlyQuotes               // quotes in context lines become curly
)

// writeDiff renders hunks as a unified diff of file "f", damaged as flags
// say.
func writeDiff(a, b []fline, hs []uhunk, flags uint16) string {
	var sb strings.Builder
	nl := "\n"
	if flags&dmgCRLFPatch != 0 {
		nl = "\r\n"
	}
	sb.WriteString("--- a/f" + nl + "+++ b/f" + nl)
	order := make([]int, len(hs))
	for i := range order {
		order[i] = i
		if flags&dmgReverse != 0 {
			order[i] = len(hs) - 1 - i
		}
	}
	for _, hi := range order {
		h := hs[hi]
		switch {
		case flags&dmgNoNumbers != 0:
			sb.WriteString("@@ ... @@" + nl)
		default:
			os, ns := h.oldStart+1, h.newStart+1
			if h.oldCount == 0 {
				os--
			}
			if h.newCount == 0 {
				ns--
			}
			oc, nc := h.oldCount, h.newCount
			if flags&dmgWrongCounts != 0 {
				oc, nc = oc+1, max(0, nc-1)
			}
			fmt.Fprintf(&sb, "@@ -%d,%d +%d,%d @@%s", os, oc, ns, nc, nl)
		}
		for _, o := range h.ops {
			var l fline
			if o.kind == edit.Add {
				l = b[o.new]
			} else {
				l = a[o.old]
			}
			txt := l.text
			if o.kind == edit.Context {
				if flags&dmgCurlyQuotes != 0 {
					txt = strings.Replace(strings.Replace(txt, `"`, "“", 1), `"`, "”", 1)
				}
				if flags&dmgTrailingSpace != 0 {
					txt += " \t"
				}
			}
			if o.kind == edit.Context && txt == "" && flags&dmgBareBlanks != 0 {
				sb.WriteString(nl)
			} else {
				sb.WriteString(string(o.kind) + txt + nl)
			}
			if !l.eol {
				sb.WriteString(`\ No newline at end of file` + nl)
			}
		}
	}
	return sb.String()
}

// applyOne applies the single hunk h of the diff from a to b to a.
func applyOne(a, b []fline, h uhunk, eol string) string {
	return joinFuzz(a[:h.oldStart], eol) + joinFuzz(b[h.newStart:h.newStart+h.newCount], eol) + joinFuzz(a[h.oldStart+h.oldCount:], eol)
}

func FuzzApplyRoundTrip(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, []byte{1, 2, 3, 14, 5, 6, 7, 8, 9}, uint16(0))
	f.Add([]byte{1, 2, 1, 2, 1, 2, 1, 2}, []byte{1, 2, 1, 3, 1, 2, 1, 2}, uint16(dmgNoNumbers))
	f.Add([]byte{0, 1, 0, 1, 0, 2, 0}, []byte{0, 1, 0, 0, 2, 0}, uint16(dmgBareBlanks|dmgNoNumbers))
	f.Add([]byte{3, 4, 3, 4}, []byte{3, 4, 3, 4}, uint16(dmgOldNoNewline))
	f.Add([]byte{3, 4, 3, 4}, []byte{3, 4, 3}, uint16(dmgNewNoNewline|dmgCRLFText))
	f.Add([]byte{}, []byte{1, 2, 3}, uint16(0))
	f.Add([]byte{1, 2, 3}, []byte{}, uint16(dmgOldNoNewline))
	f.Add([]byte{7, 8, 9, 10, 1, 1, 1, 1, 1, 1, 1, 1, 7, 8, 9, 10}, []byte{7, 8, 9, 11, 1, 1, 1, 1, 1, 1, 1, 1, 7, 8, 9, 11}, uint16(dmgReverse|dmgCurlyQuotes))
	f.Add([]byte{4, 5, 6, 4, 5, 6, 0, 4, 5, 6}, []byte{4, 5, 6, 4, 6, 0, 5, 4, 5, 6}, uint16(dmgTrailingSpace|dmgWrongCounts|dmgCRLFPatch))
	f.Add([]byte{11, 12, 13, 14, 0, 0}, []byte{12, 11, 14, 13, 0}, uint16(dmgBareBlanks))
	f.Fuzz(func(t *testing.T, ab, bb []byte, flags uint16) {
		a := fuzzText(ab, flags&dmgOldNoNewline == 0)
		b := fuzzText(bb, flags&dmgNewNoNewline == 0)
		eol := "\n"
		if flags&dmgCRLFText != 0 && len(a) > 0 && a[0].eol {
			eol = "\r\n" // only when the old text shows its line ending
		}
		old, want := joinFuzz(a, eol), joinFuzz(b, eol)
		hs := hunksOf(lcsDiff(a, b), 3)
		patch := writeDiff(a, b, hs, flags)

		p, err := edit.Parse(patch)
		if err != nil {
			t.Fatalf("Parse: got error %v\npatch:\n%s", err, patch)
		}
		if len(p.Files) != 1 || len(p.Files[0].Hunks) != len(hs) {
			t.Fatalf("Parse: got\n%s want 1 file with %d hunks\npatch:\n%s", dumpPatch(p), len(hs), patch)
		}
		rs, errs := edit.Place(old, p.Files[0])
		got, err := edit.Apply(old, rs)
		if err != nil {
			t.Fatalf("Apply of Place's own hunks: got error %v\n%s", err, describe(rs))
		}
		if len(errs) == 0 && got != want {
			t.Fatalf("Apply:\ngot  %q\nwant %q\nold  %q\npatch:\n%s\nresolved:\n%s", got, want, old, patch, describe(rs))
		}
		for _, e := range errs {
			if e.Hunk < 0 || e.Hunk >= len(hs) || e.Err == nil {
				t.Errorf("Place: got a bad error %+v", e)
			}
		}

		// Every placed hunk, on its own, does what the real hunk does.
		groups := map[int][]edit.Resolved{}
		for _, r := range rs {
			checkFileText(t, old, r)
			groups[r.Hunk] = append(groups[r.Hunk], r)
		}
		for hi, g := range groups {
			mi := hi
			if flags&dmgReverse != 0 {
				mi = len(hs) - 1 - hi
			}
			one, err := edit.Apply(old, g)
			if err != nil {
				t.Fatalf("Apply(hunk %d): got error %v", hi, err)
			}
			if exp := applyOne(a, b, hs[mi], eol); one != exp && !twinAlone(one, p.Files[0].Hunks, hi, flags, func(k int) string {
				if flags&dmgReverse != 0 {
					k = len(hs) - 1 - k
				}
				return applyOne(a, b, hs[k], eol)
			}) {
				t.Fatalf("Apply(hunk %d alone):\ngot  %q\nwant %q\nold  %q\npatch:\n%s\nresolved:\n%s", hi, one, exp, old, patch, describe(g))
			}
		}

		// What Render writes reads back to the same result.
		diff, err := edit.Render("f", "f", "", old, rs)
		if err != nil {
			t.Fatalf("Render: got error %v", err)
		}
		fd := onlyFile(t, diff)
		again, errs := edit.Place(old, fd)
		if len(errs) > 0 {
			t.Fatalf("Place(Render): got errors %v\ndiff:\n%s", errs, diff)
		}
		if got2, err := edit.Apply(old, again); err != nil || got2 != got {
			t.Fatalf("Apply(Place(Render)): got %q, %v; want %q\ndiff:\n%s", got2, err, got, diff)
		}
	})
}

// twinAlone reports whether one, hunk hi's placement applied alone, is
// what another hunk of the patch does alone, where that hunk is hi's twin
// (the same lines) and the patch has no line numbers: nothing then says
// which twin is which, and either order writes the same file (assignTwins).
func twinAlone(one string, hunks []*edit.Hunk, hi int, flags uint16, alone func(k int) string) bool {
	if flags&dmgNoNumbers == 0 {
		return false
	}
	for k, h := range hunks {
		if k != hi && slices.Equal(h.Lines, hunks[hi].Lines) && alone(k) == one {
			return true
		}
	}
	return false
}

// FuzzPlace places arbitrary patches against arbitrary texts: Place must
// not panic, what it returns must apply, and Render must write it back
// so that it places and applies the same.
func FuzzPlace(f *testing.F) {
	f.Add("@@ -1,3 +1,3 @@\n a\n-b\n+c\n d\n", "a\nb\nd\n")
	f.Add("@@ ... @@\n a\n-b\n+B\n c\n", "a\nb\nc\nx\na\nb\nc\n")
	f.Add("@@ -1,4 +1,4 @@\n x\n y\n-z\n+Z\n w\n", "x\nq\ny\nz\nw\n")
	f.Add("@@ -1,6 +1,6 @@\n func main() {\n-\tname := \"world\"\n+\tname := \"x\"\n \tfmt.Println(name)\n func helper() string {\n-\treturn \"help\"\n+\treturn \"h\"\n }\n", goSrc)
	f.Add("@@ -9,3 +9,4 @@\n     for i := 0; i < count; i++ {\n         fmt.Println(i)\n+        fmt.Println(i * 2)\n     }\n", goSrc)
	f.Add("@@ -6,3 +6,3 @@\n \tname := “world”\n-\tfmt.Println(“hello”, name)\n+\tfmt.Println(“hi”, name)\n \tcount := 3\n", goSrc)
	f.Add("@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+B\n", "a\nb")
	f.Add("@@ -0,0 +1 @@\n+x\n", "")
	f.Fuzz(func(t *testing.T, patch, old string) {
		if len(patch) > 4096 || len(old) > 4096 {
			return
		}
		p, err := edit.Parse("--- a/f\n+++ b/f\n" + patch)
		if err != nil {
			return
		}
		for _, fd := range p.Files {
			rs, _ := edit.Place(old, fd)
			for _, r := range rs {
				checkFileText(t, old, r)
			}
			got, err := edit.Apply(old, rs)
			if err != nil {
				t.Fatalf("Apply of Place's own hunks: got error %v\n%s", err, describe(rs))
			}
			diff, err := edit.Render("f", "f", "", old, rs)
			if err != nil {
				t.Fatalf("Render: got error %v", err)
			}
			if len(rs) == 0 {
				continue
			}
			// Hunks whose changes cancel out (one deletes a line another
			// adds back at the same place) render as a no-op hunk, which
			// Place refuses; the text must come out the same all the same.
			again, errs := edit.Place(old, onlyFile(t, diff))
			for _, e := range errs {
				if !errors.Is(e, edit.ErrNoOp) {
					t.Fatalf("Place(Render): got errors %v\ndiff:\n%s\nresolved:\n%s", errs, diff, describe(rs))
				}
			}
			got2, err := edit.Apply(old, again)
			if err != nil {
				t.Fatalf("Apply(Place(Render)): got error %v\ndiff:\n%s", err, diff)
			}
			if mixedEndings(old) {
				// Added lines take the file's dominant line ending: a CRLF
				// line that the diff deletes and adds again (to change the
				// final newline) may come back with LF. Compare content.
				got, got2 = strings.ReplaceAll(got, "\r\n", "\n"), strings.ReplaceAll(got2, "\r\n", "\n")
			}
			if got2 != got {
				t.Fatalf("Apply(Place(Render)): got %q; want %q\ndiff:\n%s", got2, got, diff)
			}
		}
	})
}

// mixedEndings reports whether s has both CRLF and bare LF line endings.
func mixedEndings(s string) bool {
	crlf := strings.Count(s, "\r\n")
	return crlf > 0 && crlf < strings.Count(s, "\n")
}

// Lossy damage of one hunk, as models do it. The patch no longer says
// exactly what the file holds, so a refusal is always acceptable, and an
// exact match of the damaged lines elsewhere is the patch's own word; but
// a placement that only a tolerant pass (fuzzy, fused) found must give
// the real result.
const (
	lossDropContext  = iota // an interior context line left out
	lossMissingPlus         // an added line written as context
	lossStaleContext        // a context line slightly changed
	numLosses
)

// damagedDiff writes hs as a unified diff with correct numbers, with hunk
// hi damaged by loss at its li-th eligible line. It reports false when
// the hunk has no line the damage applies to.
func damagedDiff(a, b []fline, hs []uhunk, hi, li, loss int) (string, bool) {
	var sb strings.Builder
	sb.WriteString("--- a/f\n+++ b/f\n")
	ok := false
	for k, h := range hs {
		os, ns := h.oldStart+1, h.newStart+1
		if h.oldCount == 0 {
			os--
		}
		if h.newCount == 0 {
			ns--
		}
		fmt.Fprintf(&sb, "@@ -%d,%d +%d,%d @@\n", os, h.oldCount, ns, h.newCount)
		var eligible []int
		if k == hi {
			for j, o := range h.ops {
				switch {
				case loss == lossDropContext && o.kind == edit.Context && j > 0 && j < len(h.ops)-1:
					eligible = append(eligible, j)
				case loss == lossMissingPlus && o.kind == edit.Add:
					eligible = append(eligible, j)
				case loss == lossStaleContext && o.kind == edit.Context && a[o.old].text != "":
					eligible = append(eligible, j)
				}
			}
		}
		target := -1
		if len(eligible) > 0 {
			target = eligible[li%len(eligible)]
			ok = true
		}
		for j, o := range h.ops {
			var l fline
			if o.kind == edit.Add {
				l = b[o.new]
			} else {
				l = a[o.old]
			}
			kind, txt := o.kind, l.text
			if j == target {
				switch loss {
				case lossDropContext:
					continue
				case lossMissingPlus:
					kind = edit.Context
				case lossStaleContext:
					txt = stale(txt)
				}
			}
			sb.WriteString(string(kind) + txt + "\n")
			if !l.eol {
				sb.WriteString(`\ No newline at end of file` + "\n")
			}
		}
	}
	return sb.String(), ok
}

// stale changes a line slightly, as an out-of-date copy of it would be.
func stale(s string) string {
	if i := strings.IndexAny(s, "abcdefghijklmnopqrstuvwxyz"); i >= 0 {
		return s[:i] + strings.ToUpper(s[i:i+1]) + s[i+1:]
	}
	return s + "s"
}

func FuzzDamaged(f *testing.F) {
	f.Add([]byte{8, 9, 7, 4, 3, 3, 0, 8}, []byte{8, 9, 7, 4, 6, 3, 3, 0, 8}, uint8(0), uint8(1), uint8(lossMissingPlus))
	f.Add([]byte{8, 9, 7, 4, 3, 1, 2, 8}, []byte{8, 9, 7, 5, 3, 1, 2, 8}, uint8(0), uint8(1), uint8(lossDropContext))
	f.Add([]byte{9, 7, 8, 4, 3, 1, 2, 9}, []byte{9, 7, 8, 5, 3, 1, 2, 9}, uint8(0), uint8(2), uint8(lossStaleContext))
	f.Fuzz(func(t *testing.T, ab, bb []byte, hi, li, loss uint8) {
		checkDamaged(t, ab, bb, hi, li, loss, false)
	})
}

// FuzzDamagedGit is FuzzDamaged with the diff's "diff --git" and "index"
// lines, as git writes them: the engine then knows git wrote three lines
// of context around every hunk and reads the damaged hunk by that shape.
// Its seeds are FuzzDamaged's, copied.
func FuzzDamagedGit(f *testing.F) {
	f.Add([]byte{8, 9, 7, 4, 3, 3, 0, 8}, []byte{8, 9, 7, 4, 6, 3, 3, 0, 8}, uint8(0), uint8(1), uint8(lossMissingPlus))
	f.Add([]byte{8, 9, 7, 4, 3, 1, 2, 8}, []byte{8, 9, 7, 5, 3, 1, 2, 8}, uint8(0), uint8(1), uint8(lossDropContext))
	f.Fuzz(func(t *testing.T, ab, bb []byte, hi, li, loss uint8) {
		checkDamaged(t, ab, bb, hi, li, loss, true)
	})
}

// checkDamaged places a diff of fuzzText(ab) to fuzzText(bb), one hunk of
// it damaged by loss, and fails on a wrong placement that a tolerant pass
// made, or on an undamaged hunk placed wrong.
func checkDamaged(t *testing.T, ab, bb []byte, hi, li, loss uint8, git bool) {
	checkDamagedLines(t, "f", fuzzText(ab, true), fuzzText(bb, true), hi, li, loss, git)
}

// checkDamagedLines is checkDamaged of texts a and b, in a file named path
// (whose name chooses the syntax check).
func checkDamagedLines(t *testing.T, path string, a, b []fline, hi, li, loss uint8, git bool) {
	hs := hunksOf(lcsDiff(a, b), 3)
	if len(hs) == 0 {
		return
	}
	dh := int(hi) % len(hs)
	patch, ok := damagedDiff(a, b, hs, dh, int(li), int(loss)%numLosses)
	if !ok {
		return
	}
	patch = strings.Replace(patch, "--- a/f\n+++ b/f\n", "--- a/"+path+"\n+++ b/"+path+"\n", 1)
	if git {
		patch = "diff --git a/" + path + " b/" + path + "\nindex 1111111..2222222 100644\n" + patch
	}
	old := joinFuzz(a, "\n")
	fd := onlyFile(t, patch)
	rs, _ := edit.Place(old, fd)
	if _, err := edit.Apply(old, rs); err != nil {
		t.Fatalf("Apply of Place's own hunks: got error %v\n%s", err, describe(rs))
	}
	groups := map[int][]edit.Resolved{}
	for _, r := range rs {
		checkFileText(t, old, r)
		groups[r.Hunk] = append(groups[r.Hunk], r)
	}
	// Where the damaged hunk went decides what can be asked of the
	// others: a wrong but exact placement of it may mislead the
	// choice of its neighbours by hunk order.
	damagedOK := true
	if g, placed := groups[dh]; placed {
		got, _ := edit.Apply(old, g)
		if want := applyOne(a, b, hs[dh], "\n"); got != want {
			damagedOK = false
			tolerant := false
			for _, r := range g {
				tolerant = tolerant || r.Pass >= edit.PassFuzzy
			}
			if tolerant {
				t.Fatalf("damaged hunk %d placed by a tolerant pass with a wrong result:\ngot  %q\nwant %q\nold  %q\npatch:\n%s\nresolved:\n%s",
					dh, got, want, old, patch, describe(g))
			}
		}
	}
	if !damagedOK {
		return
	}
	for k, g := range groups {
		if k == dh {
			continue
		}
		got, _ := edit.Apply(old, g)
		if want := applyOne(a, b, hs[k], "\n"); got != want {
			t.Fatalf("undamaged hunk %d: got %q, want %q\nold  %q\npatch:\n%s\nresolved:\n%s", k, got, want, old, patch, describe(g))
		}
	}
}

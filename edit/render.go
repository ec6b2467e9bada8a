// render.go: Render: hunks written back as a unified diff.

package edit

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// renderContext is the number of context lines Render puts around each
// change, as git diff does by default.
const renderContext = 3

// Render writes resolved hunks as a canonical unified diff that git apply
// accepts: git headers, hunks regenerated from the changes with three lines
// of context on each side (changes closer than that share a hunk), correct
// numbers, the file's own line endings, and "\ No newline at end of file"
// markers where a side lacks a final newline. old is the text the hunks
// were placed against. An empty oldPath renders a created file, an empty
// newPath a deleted one; mode is the file mode for those headers ("" means
// 100644).
func Render(oldPath, newPath, mode, old string, hunks []Resolved) (string, error) {
	ot := splitFile(old)
	es, final, err := collectEdits(ot, hunks)
	if err != nil {
		return "", err
	}
	nw := build(ot, es, final)
	if mode == "" {
		mode = "100644"
	}
	var b strings.Builder
	a, bp := oldPath, newPath
	if a == "" {
		a = newPath
	}
	if bp == "" {
		bp = oldPath
	}
	fmt.Fprintf(&b, "diff --git %s %s\n", quotePath("a/"+a), quotePath("b/"+bp))
	switch {
	case oldPath == "":
		fmt.Fprintf(&b, "new file mode %s\n--- /dev/null\n+++ %s\n", mode, quotePath("b/"+bp))
	case newPath == "":
		fmt.Fprintf(&b, "deleted file mode %s\n--- %s\n+++ /dev/null\n", mode, quotePath("a/"+a))
	default:
		if oldPath != newPath {
			fmt.Fprintf(&b, "rename from %s\nrename to %s\n", quotePath(oldPath), quotePath(newPath))
		}
		fmt.Fprintf(&b, "--- %s\n+++ %s\n", quotePath("a/"+a), quotePath("b/"+bp))
	}
	nt := splitFile(nw)
	cr := ot.eol() == "\r\n"
	delta := 0
	for _, g := range groupEdits(es, len(ot.lines), ot.finalNewline() != nt.finalNewline()) {
		lines := g.lines(ot, cr)
		lines = markEOF(lines, g.from, g.from+delta, ot, nt)
		oc, nc := 0, 0
		for _, l := range lines {
			if l.kind != Add && l.kind != noNewline {
				oc++
			}
			if l.kind != Delete && l.kind != noNewline {
				nc++
			}
		}
		os, ns := g.from+1, g.from+delta+1
		if oc == 0 {
			os--
		}
		if nc == 0 {
			ns--
		}
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", rangeStr(os, oc), rangeStr(ns, nc))
		for _, l := range lines {
			if l.kind == noNewline {
				b.WriteString("\\ No newline at end of file\n")
				continue
			}
			b.WriteByte(byte(l.kind))
			b.WriteString(l.text)
			if l.cr {
				b.WriteByte('\r')
			}
			b.WriteByte('\n')
		}
		delta += nc - oc
	}
	return b.String(), nil
}

// noNewline is the pseudo-kind of a "\ No newline at end of file" marker
// in rendered lines.
const noNewline Kind = '\\'

// rline is a rendered line: cr is set when it ends with CRLF.
type rline struct {
	kind Kind
	text string
	cr   bool
}

// group is the changes of one rendered hunk and the old lines it covers.
type group struct {
	from, to int
	edits    []edit
}

// groupEdits gathers sorted edits into hunks with renderContext lines of
// context; changes whose context would touch share a hunk. When the final
// newline changes, the last line of the file belongs to a hunk.
func groupEdits(es []edit, n int, eofChange bool) []group {
	if eofChange && n > 0 {
		es = append(slices.Clone(es), edit{pos: n}) // an empty change at the end
	}
	var gs []group
	for _, e := range es {
		from := max(0, e.pos-renderContext)
		to := min(n, e.pos+e.del+renderContext)
		if k := len(gs); k > 0 && from <= gs[k-1].to {
			gs[k-1].to = max(gs[k-1].to, to)
			gs[k-1].edits = append(gs[k-1].edits, e)
			continue
		}
		gs = append(gs, group{from: from, to: to, edits: []edit{e}})
	}
	return gs
}

func (g group) lines(ot fileText, cr bool) []rline {
	var out []rline
	old := func(k Kind, i int) rline {
		return rline{kind: k, text: ot.lines[i], cr: ot.eols[i] == "\r\n"}
	}
	pos := g.from
	for _, e := range g.edits {
		for ; pos < e.pos; pos++ {
			out = append(out, old(Context, pos))
		}
		for k := 0; k < e.del; k++ {
			out = append(out, old(Delete, pos+k))
		}
		for k, l := range e.ins {
			// The ending Apply gives the line (see build).
			lcr := cr
			switch {
			case l.EOL != "":
				lcr = l.EOL == "\r\n"
			case k < e.del && ot.eols[e.pos+k] != "":
				lcr = ot.eols[e.pos+k] == "\r\n"
			}
			out = append(out, rline{kind: Add, text: l.Text, cr: lcr})
		}
		pos = e.pos + e.del
	}
	for ; pos < g.to; pos++ {
		out = append(out, old(Context, pos))
	}
	return out
}

func rangeStr(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// markEOF adds "\ No newline at end of file" markers where the hunk
// (starting at old line from, new line newFrom) reaches the end of a side
// that lacks a final newline. A context line whose final newline changes
// is rendered as deleted and added again, as diff does; so is the last
// line of either side whose line ending changes.
func markEOF(lines []rline, from, newFrom int, ot, nt fileText) []rline {
	oc, nc := 0, 0
	for _, l := range lines {
		if l.kind != Add {
			oc++
		}
		if l.kind != Delete {
			nc++
		}
	}
	oldEnd := from+oc == len(ot.lines)
	newEnd := newFrom+nc == len(nt.lines)
	markOld := oldEnd && !ot.finalNewline() && oc > 0
	markNew := newEnd && !nt.finalNewline() && nc > 0
	if !markOld && !markNew {
		return lines
	}
	lastOld, lastNew := lastSides(lines)
	// A context line ending both sides with the same newline state carries
	// one marker for both; otherwise rewrite from the first context line
	// at an end as deletions then additions.
	split := -1
	for _, i := range []int{lastOld, lastNew} {
		if i >= 0 && lines[i].kind == Context {
			sameEnd := i == lastOld && i == lastNew && markOld == markNew
			if !sameEnd && (split < 0 || i < split) {
				split = i
			}
		}
	}
	if split >= 0 {
		var dels, adds []rline
		for _, l := range lines[split:] {
			if l.kind != Add {
				dels = append(dels, rline{Delete, l.text, l.cr})
			}
			if l.kind != Delete {
				adds = append(adds, rline{Add, l.text, l.cr})
			}
		}
		lines = append(append(slices.Clone(lines[:split]), dels...), adds...)
		lastOld, lastNew = lastSides(lines)
	}
	var out []rline
	for i, l := range lines {
		if (markOld && i == lastOld) || (markNew && i == lastNew) {
			// The line has no terminator: a CR written before the
			// marker would be read as its content.
			l.cr = false
			out = append(out, l, rline{kind: noNewline})
			continue
		}
		out = append(out, l)
	}
	return out
}

func lastSides(lines []rline) (lastOld, lastNew int) {
	lastOld, lastNew = -1, -1
	for i, l := range lines {
		if l.kind != Add {
			lastOld = i
		}
		if l.kind != Delete {
			lastNew = i
		}
	}
	return lastOld, lastNew
}

// QuotePath quotes a path as git does by default (core.quotePath) when
// it holds a control character, a double quote, a backslash or a
// non-ASCII byte: between double quotes, with C's escapes.
func QuotePath(p string) string { return quotePath(p) }

func quotePath(p string) string {
	needs := false
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf || c == 0x7f {
			needs = true
			break
		}
	}
	if !needs {
		return p
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\v':
			b.WriteString(`\v`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if c < 0x20 || c >= 0x7f {
				fmt.Fprintf(&b, `\%03o`, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

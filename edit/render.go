package edit

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Render writes resolved hunks as a canonical unified diff that git apply
// accepts: git headers, correct numbers, hunks in file order (hunks that
// share lines merged into one), and "\ No newline at end of file" markers
// where the file lacks a final newline. old is the text the hunks were
// placed against. An empty oldPath renders a created file, an empty
// newPath a deleted one; mode is the file mode for those headers ("" means
// 100644).
func Render(oldPath, newPath, mode, old string, hunks []Resolved) (string, error) {
	nw, err := Apply(old, hunks)
	if err != nil {
		return "", err
	}
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
	ot, nt := splitFile(old), splitFile(nw)
	delta := 0
	for _, r := range merge(ot.lines, hunks) {
		lines := eofLines(r, ot, nt, delta)
		oc, nc := countSides(lines)
		os, ns := r.Start+1, r.Start+delta+1
		if oc == 0 {
			os--
		}
		if nc == 0 {
			ns--
		}
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", rangeStr(os, oc), rangeStr(ns, nc))
		for _, l := range lines {
			if l.Kind == noNewline {
				b.WriteString("\\ No newline at end of file\n")
				continue
			}
			b.WriteByte(byte(l.Kind))
			b.WriteString(l.Text)
			b.WriteByte('\n')
		}
		delta += nc - oc
	}
	return b.String(), nil
}

// noNewline is the pseudo-kind of a "\ No newline at end of file" marker
// in rendered lines.
const noNewline Kind = '\\'

func countSides(lines []Line) (oc, nc int) {
	for _, l := range lines {
		switch l.Kind {
		case Context:
			oc++
			nc++
		case Delete:
			oc++
		case Add:
			nc++
		}
	}
	return oc, nc
}

func rangeStr(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// merge sorts hunks by position and joins those that share or touch
// lines, so that the rendered hunks never overlap.
func merge(file []string, hunks []Resolved) []Resolved {
	hs := slices.Clone(hunks)
	slices.SortStableFunc(hs, func(a, b Resolved) int { return a.Start - b.Start })
	var out []Resolved
	for _, h := range hs {
		if n := len(out); n > 0 {
			last := &out[n-1]
			if h.Start <= last.Start+last.OldCount() {
				*last = join(file, *last, h)
				continue
			}
		}
		out = append(out, h)
	}
	return out
}

// join combines two resolved hunks whose old ranges overlap or touch.
func join(file []string, a, b Resolved) Resolved {
	end := max(a.Start+a.OldCount(), b.Start+b.OldCount())
	es := append(a.edits(), b.edits()...)
	slices.SortStableFunc(es, func(x, y edit) int {
		if x.pos != y.pos {
			return x.pos - y.pos
		}
		return x.del - y.del
	})
	var lines []Line
	pos := a.Start
	for _, e := range es {
		for ; pos < e.pos; pos++ {
			lines = append(lines, Line{Kind: Context, Text: file[pos]})
		}
		for k := 0; k < e.del; k++ {
			lines = append(lines, Line{Kind: Delete, Text: file[pos+k]})
		}
		for _, s := range e.ins {
			lines = append(lines, Line{Kind: Add, Text: s})
		}
		pos = e.pos + e.del
	}
	for ; pos < end; pos++ {
		lines = append(lines, Line{Kind: Context, Text: file[pos]})
	}
	r := a
	r.Lines = lines
	if b.FinalNewline != NewlineKeep {
		r.FinalNewline = b.FinalNewline
	}
	return r
}

// eofLines returns r's lines with "\ No newline at end of file" markers
// where the hunk reaches the end of a file that lacks a final newline.
// A context line whose final newline changes is rendered as deleted and
// added again, as diff does.
func eofLines(r Resolved, ot, nt fileText, delta int) []Line {
	oldEnd := r.Start+r.OldCount() == len(ot.lines)
	newEnd := r.Start+delta+r.NewCount() == len(nt.lines)
	oldNL, newNL := ot.finalNewline(), nt.finalNewline()
	if (!oldEnd || oldNL) && (!newEnd || newNL) {
		return r.Lines
	}
	// Index of the last line of each side within r.Lines.
	lastOld, lastNew := -1, -1
	for i, l := range r.Lines {
		if l.Kind != Add {
			lastOld = i
		}
		if l.Kind != Delete {
			lastNew = i
		}
	}
	markOld := oldEnd && !oldNL && lastOld >= 0
	markNew := newEnd && !newNL && lastNew >= 0
	// A context line ending both sides with the same newline state can
	// carry one marker for both; otherwise rewrite from the first context
	// line at an end of file as deletions then additions.
	split := -1
	for _, i := range []int{lastOld, lastNew} {
		if i >= 0 && r.Lines[i].Kind == Context {
			sameEnd := i == lastOld && i == lastNew && markOld == markNew
			if !sameEnd && (split < 0 || i < split) {
				split = i
			}
		}
	}
	lines := r.Lines
	if split >= 0 {
		var dels, adds []Line
		for _, l := range lines[split:] {
			if l.Kind != Add {
				dels = append(dels, Line{Kind: Delete, Text: l.Text})
			}
			if l.Kind != Delete {
				adds = append(adds, Line{Kind: Add, Text: l.Text})
			}
		}
		lines = append(append(slices.Clone(lines[:split]), dels...), adds...)
		lastOld, lastNew = -1, -1
		for i, l := range lines {
			if l.Kind != Add {
				lastOld = i
			}
			if l.Kind != Delete {
				lastNew = i
			}
		}
	}
	var out []Line
	for i, l := range lines {
		out = append(out, l)
		if (markOld && i == lastOld) || (markNew && i == lastNew && !(markOld && i == lastOld)) {
			out = append(out, Line{Kind: noNewline})
		}
	}
	return out
}

// quotePath quotes a path as git does when it holds a control character,
// a double quote, a backslash or a non-ASCII byte.
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

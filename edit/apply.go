// apply.go: Apply: resolved hunks written into a file's text, with strict bounds.

package edit

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ErrStale means a resolved hunk no longer matches the text it is applied
// to: the file changed after the hunk was placed.
var ErrStale = errors.New("file changed since the hunk was placed")

// edit is one contiguous change: del old lines from pos are replaced by ins.
type edit struct {
	pos, del int
	ins      []Line
}

// edits breaks a resolved hunk into its contiguous changes.
func (r *Resolved) edits() []edit {
	var out []edit
	pos := r.Start
	var cur *edit
	for _, l := range r.Lines {
		switch l.Kind {
		case Context:
			pos++
			cur = nil
		case Delete, Add:
			if cur == nil {
				out = append(out, edit{pos: pos})
				cur = &out[len(out)-1]
			}
			if l.Kind == Delete {
				cur.del++
				pos++
			} else {
				cur.ins = append(cur.ins, l)
			}
		}
	}
	return out
}

// deletesContext reports whether a deletes a line that b keeps as context.
func deletesContext(a, b Resolved) bool {
	if a.Start >= b.Start+b.OldCount() || b.Start >= a.Start+a.OldCount() {
		return false // apart
	}
	kept := map[int]bool{}
	pos := b.Start
	for _, l := range b.Lines {
		switch l.Kind {
		case Context:
			kept[pos] = true
			pos++
		case Delete:
			pos++
		}
	}
	for _, e := range a.edits() {
		for p := e.pos; p < e.pos+e.del; p++ {
			if kept[p] {
				return true
			}
		}
	}
	return false
}

// conflict reports whether any edit of b touches what an edit of a
// touches: overlapping deletions, two insertions at one place (their order
// would be a guess), or an insertion inside a deletion.
func conflict(a, b []edit) bool {
	for _, x := range a {
		for _, y := range b {
			if overlaps(x, y) {
				return true
			}
		}
	}
	return false
}

func overlaps(x, y edit) bool {
	if x.del > 0 && y.del > 0 && x.pos < y.pos+y.del && y.pos < x.pos+x.del {
		return true
	}
	if len(x.ins) > 0 && len(y.ins) > 0 && x.pos == y.pos {
		return true
	}
	inside := func(p int, e edit) bool { return p > e.pos && p < e.pos+e.del }
	return (len(x.ins) > 0 && inside(x.pos, y)) || (len(y.ins) > 0 && inside(y.pos, x))
}

// Apply writes resolved hunks into old and returns the new text. Lines
// outside the hunks are kept byte for byte, with their own line endings;
// an added line takes the ending of the line it replaces, or else the
// file's dominant one; the final newline is
// kept, or added or removed where a hunk's markers say so, and lines
// added after the old last line end as the patch ends them. Every hunk's
// context and deleted lines must still be in old where the hunk was
// placed, or Apply fails with ErrStale and changes nothing.
func Apply(old string, hunks []Resolved) (string, error) {
	t := splitFile(old)
	es, final, err := collectEdits(t, hunks)
	if err != nil {
		return "", err
	}
	return build(t, es, final), nil
}

// collectEdits checks every hunk against t and returns their changes in
// file order, with what they do to the final newline.
func collectEdits(t fileText, hunks []Resolved) ([]edit, Newline, error) {
	var all []edit
	final := NewlineKeep
	for i := range hunks {
		r := &hunks[i]
		pos := r.Start
		for _, l := range r.Lines {
			if l.Kind == Add {
				continue
			}
			if pos >= len(t.lines) || t.lines[pos] != l.Text {
				return nil, 0, fmt.Errorf("hunk %d at line %d: %w", r.Hunk+1, r.Start+1, ErrStale)
			}
			pos++
		}
		if r.Start < 0 || r.Start > len(t.lines) {
			return nil, 0, fmt.Errorf("hunk %d at line %d: %w", r.Hunk+1, r.Start+1, ErrStale)
		}
		es := r.edits()
		if conflict(all, es) {
			return nil, 0, fmt.Errorf("hunk %d at line %d: %w", r.Hunk+1, r.Start+1, ErrOverlap)
		}
		all = append(all, es...)
		if r.FinalNewline != NewlineKeep {
			final = r.FinalNewline
		}
	}
	slices.SortStableFunc(all, func(a, b edit) int {
		if a.pos != b.pos {
			return a.pos - b.pos
		}
		return a.del - b.del // an insertion before a deletion at the same line
	})
	return all, final, nil
}

// build writes the edits into t.
func build(t fileText, all []edit, final Newline) string {
	eol := t.eol()
	type outLine struct{ text, eol string }
	out := make([]outLine, 0, len(t.lines)+8)
	next := 0
	appended := false // lines added after the old last line
	for _, e := range all {
		appended = appended || e.pos == len(t.lines) && e.del == 0 && len(e.ins) > 0
		for ; next < e.pos; next++ {
			out = append(out, outLine{t.lines[next], t.eols[next]})
		}
		for k, l := range e.ins {
			// An added line takes the ending the patch gives it, where
			// the patch's endings are content; else the ending of the
			// line it replaces, so a mixed file keeps its mix; past
			// those, the file's usual one.
			le := eol
			switch {
			case l.EOL != "":
				le = l.EOL
			case k < e.del && t.eols[e.pos+k] != "":
				le = t.eols[e.pos+k]
			}
			out = append(out, outLine{l.Text, le})
		}
		next = e.pos + e.del
	}
	for ; next < len(t.lines); next++ {
		out = append(out, outLine{t.lines[next], t.eols[next]})
	}

	// The final newline is the file's, unless the last line is one the
	// patch adds after the old last line: then it ends as the patch ends
	// it, with a newline unless marked (as git apply and patch write it;
	// git joins such a line to an old last line that has no newline,
	// patch and pair do not).
	wantNewline := t.finalNewline() || appended
	switch final {
	case NewlineAdd:
		wantNewline = true
	case NewlineRemove:
		wantNewline = false
	}
	if n := len(out); n > 0 && out[n-1].text == "" {
		// An empty last line exists only with its newline.
		wantNewline = true
	}
	var b strings.Builder
	b.Grow(len(t.lines)*40 + 256)
	for i, l := range out {
		b.WriteString(l.text)
		if i < len(out)-1 || wantNewline {
			if l.eol == "" {
				l.eol = eol // a former last line that now has lines after it
			}
			b.WriteString(l.eol)
		}
	}
	return b.String()
}

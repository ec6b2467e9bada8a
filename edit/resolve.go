package edit

import (
	"fmt"
	"slices"
	"strings"
)

// Newline says what a hunk does to the file's final newline.
type Newline int

// A hunk keeps the final newline as it is, unless its "\ No newline at end
// of file" markers say to add or remove it.
const (
	NewlineKeep Newline = iota
	NewlineAdd
	NewlineRemove
)

type resolveErr struct {
	err    error
	detail string
}

// resolve turns a chosen candidate into the resolved hunk(s) it describes.
func (pl *placer) resolve(i int, h *Hunk, c *candidate) ([]Resolved, *resolveErr) {
	pre := preLines(h.Lines)
	if c.split == 0 {
		r, err := pl.resolveLines(h.Lines, c.align, c)
		if err != nil {
			return nil, err
		}
		r.Hunk = i
		pl.finish(&r, h)
		return []Resolved{r}, nil
	}
	cut := pre[c.split].at
	var out []Resolved
	for part, span := range [][2]int{{0, cut}, {cut, len(h.Lines)}} {
		from, to := 0, c.split
		if part == 1 {
			from, to = c.split, len(pre)
		}
		r, err := pl.resolveLines(h.Lines[span[0]:span[1]], c.align[from:to], c)
		if err != nil {
			return nil, err
		}
		r.Hunk, r.Part = i, part
		if part == 1 {
			r.Notes = nil // the fused note was given once, on the first part
		}
		pl.finish(&r, h)
		out = append(out, r)
	}
	return out, nil
}

// finish fills in the hint offset and the final-newline change.
func (pl *placer) finish(r *Resolved, h *Hunk) {
	if h.HasNumbers && h.OldStart > 0 {
		r.Hinted = true
		hint := h.OldStart - 1
		if h.OldLines == 0 && r.OldCount() == 0 {
			hint = h.OldStart // git numbers a pure insertion by the line before it
		}
		r.Offset = r.Start - hint
	}
	if r.Start+r.OldCount() == len(pl.file) {
		switch {
		case h.NewNoNewline:
			r.FinalNewline = NewlineRemove
		case h.OldNoNewline:
			r.FinalNewline = NewlineAdd
		}
	}
}

// resolveLines builds the resolved lines of hunk lines whose pre-image
// lines are aligned to the file by align.
func (pl *placer) resolveLines(lines []Line, align []int, c *candidate) (Resolved, *resolveErr) {
	r := Resolved{Pass: c.pass, Notes: append([]string(nil), c.notes...)}
	pre := preLines(lines)

	// Learn how the patch's indentation maps to the file's, and which
	// look-alike characters the patch used for ASCII ones.
	var pairs [][2]string
	indentDiffers := false
	folded := map[rune]bool{}
	for j, p := range pre {
		fi := align[j]
		if fi < 0 || strings.TrimSpace(p.text) == "" || strings.TrimSpace(pl.file[fi]) == "" {
			continue
		}
		pi, fiInd := indentOf(p.text), indentOf(pl.file[fi])
		pairs = append(pairs, [2]string{pi, fiInd})
		if pi != fiInd {
			indentDiffers = true
		}
		if c.level >= levelLookalike {
			lookalikesUsed(p.text, pl.file[fi], folded)
		}
	}
	re := reindent{}
	if c.level >= levelWhitespace && indentDiffers {
		re = learnReindent(pairs)
		if r.Pass == PassWhitespace {
			r.Pass = PassIndent
		}
		if !re.identity() {
			r.Notes = append(r.Notes, "added lines re-indented to the file's indentation")
		}
	}
	if len(folded) > 0 {
		r.Notes = append(r.Notes, "look-alike characters in added lines replaced as in the file")
	}
	fix := func(s string) string { return foldSome(re.line(s), folded) }

	var out []Line
	var pending []Line
	j, last := 0, -1
	lastKind := Kind(0)
	start := -1
	for _, l := range lines {
		if l.Kind == Add {
			pending = append(pending, Line{Kind: Add, Text: fix(l.Text)})
			continue
		}
		fi := align[j]
		p := pre[j]
		j++
		if fi < 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("context line %q is not in the file; ignored", p.text))
			continue
		}
		if start < 0 {
			start = fi
		}
		if last >= 0 && fi > last+1 {
			skipped := make([]Line, 0, fi-last-1)
			for k := last + 1; k < fi; k++ {
				skipped = append(skipped, Line{Kind: Context, Text: pl.file[k]})
			}
			r.Notes = append(r.Notes, fmt.Sprintf("file line(s) %d-%d missing from the patch kept as context", last+2, fi))
			switch {
			case len(pending) == 0:
				out = append(out, skipped...)
			case lastKind == Delete:
				out = append(out, pending...)
				out = append(out, skipped...)
			case p.kind == Delete:
				out = append(out, skipped...)
				out = append(out, pending...)
			default:
				return r, &resolveErr{ErrAmbiguous, fmt.Sprintf(
					"the patch leaves out file line %d, next to where it adds lines, so the order of the added lines and that line is unknown", last+2)}
			}
			pending = nil
		} else {
			out = append(out, pending...)
			pending = nil
		}
		if key(levelLookalike, p.text) != key(levelLookalike, pl.file[fi]) {
			r.Notes = append(r.Notes, fmt.Sprintf("context line %d differs from the patch's %q", fi+1, p.text))
		}
		out = append(out, Line{Kind: p.kind, Text: pl.file[fi]})
		last, lastKind = fi, p.kind
	}
	out = append(out, pending...)
	if start < 0 {
		start = c.start
		if start < 0 {
			start = 0
		}
	}
	r.Start, r.Lines = start, out
	if !changes(out) {
		return r, &resolveErr{ErrNoOp, "its added lines are the lines it deletes"}
	}
	return r, nil
}

// changes reports whether lines change anything: their old side differs
// from their new side.
func changes(lines []Line) bool {
	var old, nw []string
	for _, l := range lines {
		if l.Kind != Add {
			old = append(old, l.Text)
		}
		if l.Kind != Delete {
			nw = append(nw, l.Text)
		}
	}
	return !slices.Equal(old, nw)
}

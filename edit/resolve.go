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
	// doubted is the hunk as it would be placed, when the refusal is a
	// doubt about a place found (see checkLostTrail): an uncertain reading.
	doubted *Resolved
	// order is set when the refusal is the unknown order of added lines
	// and file lines the patch left out beside them: the readings the
	// syntax check may choose among (see chooseOrder).
	order *gapOrder
}

// resolve turns a chosen candidate into the resolved hunk(s) it describes.
func (pl *placer) resolve(i int, h *Hunk, c *candidate) ([]Resolved, *resolveErr) {
	if c.split == 0 {
		r, err := pl.resolveLines(h.Lines, c.align, c)
		if err != nil {
			if err.doubted != nil {
				d := *err.doubted
				d.Hunk = i
				pl.finish(&d, h)
				err.doubted = &d
			}
			return nil, err
		}
		r.Hunk = i
		pl.finish(&r, h)
		if !pl.changes(r) {
			return nil, &resolveErr{err: ErrNoOp, detail: "its added lines are the lines it deletes"}
		}
		return []Resolved{r}, nil
	}
	pre := preLines(h.Lines)
	cut := pre[c.split].at
	var out []Resolved
	for part, span := range [][2]int{{0, cut}, {cut, len(h.Lines)}} {
		from, to := 0, c.split
		if part == 1 {
			from, to = c.split, len(pre)
		}
		r, err := pl.resolveLines(h.Lines[span[0]:span[1]], c.align[from:to], c)
		if err != nil {
			err.doubted = nil // a part alone is no reading of the hunk
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
	// The markers change the final newline only when they differ between
	// the sides; a marker after a context line speaks of both sides.
	if r.Start+r.OldCount() == len(pl.file) {
		switch {
		case h.NewNoNewline && !h.OldNoNewline:
			r.FinalNewline = NewlineRemove
		case h.OldNoNewline && !h.NewNoNewline:
			r.FinalNewline = NewlineAdd
		}
	}
}

// resolveLines builds the resolved lines of hunk lines whose pre-image
// lines are aligned to the file by align.
func (pl *placer) resolveLines(lines []Line, align []int, c *candidate) (Resolved, *resolveErr) {
	r := Resolved{Pass: c.pass, Notes: append([]string(nil), c.notes...)}
	pre := pl.preOf(lines)

	// Learn how the patch's indentation maps to the file's, and which
	// look-alike characters the patch used for ASCII ones.
	var ev evidence
	if c.level > levelExact || pl.style.kind != 0 {
		// A hunk placed letter for letter shows no difference; its
		// indentation matters only if another hunk's style may be lent.
		ev = pl.evidence(pre, align)
		for _, l := range lines {
			if l.Kind == Add && strings.TrimSpace(l.Text) != "" {
				ev.adds = append(ev.adds, indentOf(l.Text))
			}
		}
	}
	folded := map[rune]bool{}
	if c.level >= levelLookalike {
		for j, p := range pre {
			if fi := align[j]; fi >= 0 {
				lookalikesUsed(p.text, pl.file[fi], folded)
			}
		}
	}
	re := reindent{}
	if c.level >= levelWhitespace && ev.differs {
		if r.Pass == PassWhitespace {
			r.Pass = PassIndent
		}
		var ok bool
		switch re, ok = ev.reindent(pl.style); {
		case ok:
		case pl.indentsFit(lines, reindent{}) && pl.offStyle(ev):
			// The witnesses disagree, but those that differ are indented
			// as the file never indents, and the added lines as it does:
			// the context lines are what is off.
			re = reindent{}
			r.Notes = append(r.Notes, "added lines kept at their indentation, which the file uses; the patch indents some context lines as the file never does")
		case pl.unanimousFit(lines, ev):
			// Too few witnesses to trust on their own, but they agree,
			// and the added lines are indented as the file never indents
			// as written, and as it does once mapped (two context lines
			// indented with spaces in a file of tabs).
			re = learnReindent(ev.ctx)
		case ev.deletedAtZero() && pl.indentsFit(lines, reindent{}):
			// The deleted lines show no change, and the context lines too
			// little to move the added lines, which the file could hold as
			// written: they stay so.
			re = reindent{}
		case !slices.ContainsFunc(lines, func(l Line) bool { return l.Kind == Add && strings.TrimSpace(l.Text) != "" }):
			// Blank added lines have no indentation to decide.
			re = reindent{}
		case pl.indentsFit(lines, reindent{}) && pl.addsAtNeighbours(lines, align):
			// The witnesses disagree, but each run of added lines starts
			// at the indentation of the file's lines on both sides of
			// it, as written: a mapping would move it off that level.
			re = reindent{}
			r.Notes = append(r.Notes, "added lines kept at their indentation, that of the file's lines around them; the patch's context lines disagree on how it indents")
		default:
			return r, &resolveErr{err: ErrAmbiguous, detail: "the patch's indentation differs from the file's in a way that does not say how to indent its added lines"}
		}
	}
	if re.identity() && !ev.indented && pl.style.kind != 0 {
		// Nothing in this hunk shows the patch's indentation; the rest of
		// the file's hunks do.
		re = reindent{style: pl.style}
	}
	if !re.identity() && pl.indentsFit(lines, reindent{}) && !pl.indentsFit(lines, re) && !(ev.unanimous() && pl.indentsCovered(lines, re, align)) {
		// The added lines as written are indented as the file indents its
		// lines, and the mapping would move them to an indentation the file
		// never uses: the context lines are what is off.
		re = reindent{}
		r.Notes = append(r.Notes, "added lines kept at their indentation, which the file uses; the patch indents its context lines otherwise")
	}
	indentDoubt := ""
	if re.identity() && !c.keepIndent && pl.style.kind == 0 && pl.fallback.kind != 0 && indentedAdds(lines) {
		// The hunk shows no indentation, its added lines are indented as
		// the file never indents, and the patch's other hunks convert
		// such indentation to the file's, while others match it letter
		// for letter (text indented with spaces in a file of tabs): the
		// likely reading converts, but that is a guess.
		if c.level == levelExact {
			ev = pl.evidence(pre, align)
		}
		if fb := (reindent{style: pl.fallback}); !ev.indented && !pl.indentsFit(lines, reindent{}) && pl.indentsFit(lines, fb) {
			re = fb
			if r.Pass < PassIndent {
				r.Pass = PassIndent
			}
			indentDoubt = "the added lines are indented as the file never indents its lines; the patch's other hunks convert such indentation to the file's, but others match it as written, so which these lines want is a guess"
		}
	}
	if indentDoubt == "" && re.identity() && !c.keepIndent && ev.spaced && indentedAdds(lines) {
		// The hunk's only indented lines are ones a file of tabs indents
		// with spaces (a comment's, a raw string's), and read the same
		// whether or not the patch wrote tabs as spaces, while its other
		// hunks did. Its added lines are indented as the file never
		// indents, and as it does once converted: code lines written
		// with spaces, or more lines of the comment? A guess either way.
		st := pl.converting()
		if conv := (reindent{style: st}); st.kind != 0 && !pl.indentsFit(lines, reindent{}) && pl.indentsFit(lines, conv) {
			indentDoubt = "the hunk's only indented lines are indented with spaces as the file has them, which does not show whether the patch wrote the file's tabs as spaces, as its other hunks do; whether to convert the added lines' spaces to tabs is a guess"
			if l, ok := pl.movedInRawString(lines, align, conv); ok {
				// The likelier reading keeps a raw string's lines as the
				// file's own lines around them are, as written.
				indentDoubt = fmt.Sprintf("added line %q is inside a raw string, whose indentation is the string's own text, and whether the patch wrote it with the file's tabs as spaces, as its other hunks do, is a guess", strings.TrimSpace(l))
			} else {
				re = conv
				if r.Pass < PassIndent {
					r.Pass = PassIndent
				}
			}
		}
	}
	if indentDoubt == "" && re.identity() && !c.keepIndent {
		// A change group that deletes a line and adds it back letter for
		// letter changes nothing, and git never writes one: where the
		// patch's other hunks change the file's indentation (tabs written
		// as spaces), the two lines likely differed in what that erased.
		st := pl.converting()
		if conv := (reindent{style: st}); st.kind != 0 {
			if l, ok := unchangedPair(lines, conv); ok {
				indentDoubt = fmt.Sprintf("the hunk deletes line %q and adds it back unchanged, which git never writes: the patch's other hunks write the file's indentation otherwise (%s), so the two lines likely differed in indentation the patch lost; converting the added lines is a guess", strings.TrimSpace(l), st.describe())
				re = conv
				if r.Pass < PassIndent {
					r.Pass = PassIndent
				}
			}
		}
	}
	if c.keepIndent {
		re = reindent{}
	}
	if indentDoubt == "" && !re.identity() && pl.blockComments {
		if l, ok := movedInComment(lines, re); ok {
			// A comment's inner lines are indented as their writer
			// pleased (a table drawn in spaces after a tab): the mapping
			// that fits the code may not be how they were written.
			indentDoubt = fmt.Sprintf("added line %q is inside a block comment, where indentation is the comment's own text, and re-indenting it as the code is a guess", strings.TrimSpace(l))
		}
	}
	if indentDoubt == "" && !re.identity() {
		if l, ok := pl.movedInRawString(lines, align, re); ok {
			indentDoubt = fmt.Sprintf("added line %q is inside a raw string, whose indentation is the string's own text, and re-indenting it as the code is a guess", strings.TrimSpace(l))
		}
	}
	if !re.identity() && indentedAdds(lines) {
		r.Notes = append(r.Notes, "added lines re-indented to the file's indentation")
	}
	if len(folded) > 0 {
		r.Notes = append(r.Notes, "look-alike characters in added lines replaced as in the file")
	}
	fix := func(s string) string { return foldSome(re.line(s), folded) }

	out := make([]Line, 0, len(lines))
	var pending []Line    // added lines waiting for the next line of the file
	doubt := indentDoubt  // why the reading is only likely (see blanksFit)
	var inPlace *gapOrder // the gap an edit in place reads, for the syntax check to try
	j, last := 0, -1
	start := -1
	shape := hunkShape(lines)
	firstAligned, lastAligned := -1, -1
	for _, a := range align {
		if a >= 0 {
			if firstAligned < 0 {
				firstAligned = a
			}
			lastAligned = a
		}
	}
	for idx, l := range lines {
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
			skipped := pl.contextLines(last+1, fi)
			r.Notes = append(r.Notes, fmt.Sprintf("file line(s) %d-%d missing from the patch kept as context", last+2, fi))
			// Added lines and left-out file lines in one gap: their order is
			// known where the hunk's shape allows one reading only. git
			// writes the same number of context lines on each side (C),
			// fewer only where the file begins or ends. The left-out lines
			// go before the added lines (the leading side's, or context
			// between change groups), after them (the trailing side's, or
			// between groups), or between two of them (a context line
			// between two groups of added lines).
			k := len(skipped)
			C := pl.gitLines()
			if C == 0 {
				C = 3 // git's default, for a hunk that shows git's shape
			}
			changesBefore := shape.firstChange < idx-len(pending)
			changesAfter := shape.lastChange >= idx
			atStart, atEnd := firstAligned == 0, lastAligned == len(pl.file)-1
			leadFull := shape.lead >= C || atStart
			trailFull := shape.trail >= C || atEnd
			before := leadFull && trailFull
			if !changesBefore {
				before = (shape.lead+k == C || (shape.lead+k < C && atStart)) && trailFull
			}
			after := leadFull && trailFull
			if !changesAfter {
				after = (shape.trail+k == C || (shape.trail+k < C && atEnd)) && leadFull
			}
			splits := 0
			if len(pending) >= 2 && leadFull && trailFull {
				splits = len(pending) - 1
			}
			readings := splits
			for _, ok := range []bool{before, after} {
				if ok {
					readings++
				}
			}
			switch {
			case len(pending) == 0:
				out = append(out, skipped...)
			case readings == 1 && before:
				out = append(out, skipped...)
				out = append(out, pending...)
			case readings == 1 && after:
				out = append(out, pending...)
				out = append(out, skipped...)
			case readings == 1:
				// A context line between the hunk's only two added lines,
				// two change groups (imports added before and after one).
				out = append(out, pending[0])
				out = append(out, skipped...)
				out = append(out, pending[1])
			case p.kind == Delete && pl.context > 0 && gitOrder(lines, idx):
				// git writes a change group's deleted lines before its
				// added ones: added lines right before a deleted line
				// cannot be in its group, so they end before the lines left
				// out.
				out = append(out, pending...)
				out = append(out, skipped...)
			case pl.blanksFit(out, skipped, pending, Line{Kind: p.kind, Text: pl.file[fi]}):
				// A likely reading, not a certain one: offered for review,
				// never applied on --yes.
				out = append(out, skipped...)
				out = append(out, pending...)
				doubt = fmt.Sprintf("the patch leaves out blank file line %d next to where it adds lines; read as going before them, since after them it would make a longer run of blank lines than the file has anywhere, but that is a guess", last+2)
			case pl.blanksFit(out, pending, skipped, Line{Kind: p.kind, Text: pl.file[fi]}):
				out = append(out, pending...)
				out = append(out, skipped...)
				doubt = fmt.Sprintf("the patch leaves out blank file line %d next to where it adds lines; read as going after them, since before them it would make a longer run of blank lines than the file has anywhere, but that is a guess", last+2)
			case c.order != nil && c.order.gap == last+1:
				// One order, tried by the syntax check (see chooseOrder).
				at := min(c.order.at, len(pending))
				out = slices.Concat(out, pending[:at], skipped, pending[at:])
			case editsInPlace(lines, idx, len(pending), skipped):
				// The added lines edit the deleted lines before them, one
				// for one: likely an edit in place, which the left-out
				// lines follow. Read otherwise, the lines would have moved
				// past them as they changed, as 3 of 5,133 such groups in
				// real git diffs of CPython and npm packages did (an
				// import, a call and a raise moved a line down). Likely,
				// not certain: offered for review, never applied on --yes,
				// unless the syntax check chooses one order (see
				// chooseOrders).
				out = append(out, pending...)
				out = append(out, skipped...)
				inPlace = &gapOrder{gap: last + 1, n: len(pending) + 1}
				doubt = fmt.Sprintf("the patch leaves out file line %d next to where it adds lines; read as going after them, since each added line edits the deleted line before it in place, but that is a guess", last+2)
			default:
				return r, &resolveErr{err: ErrAmbiguous, detail: fmt.Sprintf(
					"the patch leaves out file line %d, next to where it adds lines, so the order of the added lines and that line is unknown", last+2),
					order: &gapOrder{gap: last + 1, n: len(pending) + 1}}
			}
			pending = pending[:0]
		} else {
			out = append(out, pending...)
			pending = pending[:0]
		}
		if c.level > levelExact && key(levelLookalike, p.text) != key(levelLookalike, pl.file[fi]) {
			r.Notes = append(r.Notes, fmt.Sprintf("context line %d differs from the patch's %q", fi+1, p.text))
		}
		out = append(out, Line{Kind: p.kind, Text: pl.file[fi]})
		last = fi
	}
	out = append(out, pending...)
	if start < 0 {
		start = c.start
		if start < 0 {
			start = 0
		}
	}
	r.Start, r.Lines = start, out
	// The shape's readings rest on the lines as the patch has them: a
	// line that fits only loosely may be another line of the file, with
	// the line it is read beside the one the patch lost (an indented
	// line matched where the file has a tab, the same line with spaces
	// right after it).
	asWritten := c.level <= levelTrailing && c.pass < PassFuzzy
	if !asWritten {
		asWritten = true
		for j, p := range pre {
			if fi := align[j]; fi >= 0 && key(levelTrailing, p.text) != key(levelTrailing, pl.file[fi]) {
				asWritten = false
				break
			}
		}
	}
	if asWritten {
		pl.completeEdge(&r)
	}
	if err := pl.checkShape(r); err != nil {
		if !pl.lostAtEdge(pre, align, r) {
			return r, err
		}
		r.Notes = append(r.Notes, fmt.Sprintf("the hunk has one context line fewer than git writes (%d) on one side, and the file has no other place where a line lost there would fit: the lost line is the outermost", pl.context))
		r.Pass = max(r.Pass, PassFuzzy)
	}
	if err := pl.checkLostTrail(r); err != nil {
		doubted := r
		err.doubted = &doubted
		return r, err
	}
	if err := pl.checkNearEdge(r); err != nil {
		return r, err
	}
	if doubt != "" {
		doubted := r
		return r, &resolveErr{err: ErrAmbiguous, detail: doubt, doubted: &doubted, order: inPlace}
	}
	return r, nil
}

// addsAtNeighbours reports, for a hunk placed at align, whether every run
// of its added lines with text starts at the indentation of the nearest
// file lines with text before and after it (context or deleted), which
// is the same, and no line of the run is indented less: the added lines
// sit at the level around them as the patch wrote them.
func (pl *placer) addsAtNeighbours(lines []Line, align []int) bool {
	fileText := make([]string, len(lines)) // the file's text of each non-added line with text
	j := 0
	for i, l := range lines {
		if l.Kind == Add {
			continue
		}
		if fi := align[j]; fi >= 0 && strings.TrimSpace(pl.file[fi]) != "" {
			fileText[i] = pl.file[fi]
		}
		j++
	}
	neighbour := func(i, step int) (string, bool) {
		for ; i >= 0 && i < len(lines); i += step {
			if lines[i].Kind == Add {
				continue
			}
			if fileText[i] != "" {
				return indentOf(fileText[i]), true
			}
		}
		return "", false
	}
	runs := 0
	for i := 0; i < len(lines); i++ {
		if lines[i].Kind != Add {
			continue
		}
		e := i
		for e < len(lines) && lines[e].Kind == Add {
			e++
		}
		first := slices.IndexFunc(lines[i:e], func(l Line) bool { return strings.TrimSpace(l.Text) != "" })
		if first >= 0 {
			before, ok1 := neighbour(i-1, -1)
			after, ok2 := neighbour(e, 1)
			if !ok1 || !ok2 || before != after || indentOf(lines[i+first].Text) != before {
				return false
			}
			for _, l := range lines[i:e] {
				if strings.TrimSpace(l.Text) != "" && !strings.HasPrefix(indentOf(l.Text), before) {
					return false
				}
			}
			runs++
		}
		i = e - 1
	}
	return runs > 0
}

// editsInPlace reports whether the n added lines before lines[at] follow
// exactly n deleted lines, each added line like the deleted line it
// replaces (see similar) but not the same: lines edited where they are,
// before the file lines the patch left out (skipped). A line moved (the
// same text deleted and added) is no edit. Nor is a group among
// left-out lines like its own, or the same: in a run of like lines (a
// list of imports or constants, a table of cases) lines trade places, and
// git may have deleted one line for another, the edit then after it.
func editsInPlace(lines []Line, at, n int, skipped []Line) bool {
	d := at - 2*n // the first deleted line
	if n == 0 || d < 0 || d > 0 && lines[d-1].Kind == Delete {
		return false
	}
	alike := func(a string) bool {
		return slices.ContainsFunc(skipped, func(l Line) bool {
			return key(levelLookalike, l.Text) == key(levelLookalike, a) || similar(l.Text, a)
		})
	}
	for i := range n {
		del, add := lines[d+i], lines[d+n+i]
		if del.Kind != Delete || add.Kind != Add || !similar(del.Text, add.Text) ||
			key(levelLookalike, del.Text) == key(levelLookalike, add.Text) || alike(del.Text) || alike(add.Text) {
			return false
		}
	}
	return true
}

// gitOrder reports whether a hunk's lines show git's order of a change
// group, deleted lines before added ones: some deleted line is followed
// by an added one, and no added line by a deleted one, but at lines[at]
// (where the patch left out a line between them).
func gitOrder(lines []Line, at int) bool {
	seen := false
	for i := 1; i < len(lines); i++ {
		switch prev, cur := lines[i-1].Kind, lines[i].Kind; {
		case prev == Delete && cur == Add:
			seen = true
		case prev == Add && cur == Delete && i != at:
			return false
		}
	}
	return seen
}

// blanksFit reports, for left-out file lines that are all blank next to
// added lines, that first then second (the one a gap, the other the added
// lines) is the one order of the two that keeps every run of blank lines
// no longer than the file's longest, where the lines around the gap are
// kept lines with text. Added lines ending with a blank line, put before
// a blank line the patch lost, would stack two blank lines where the file
// never has two: git slides a blank line to either end of what it adds,
// and this patch wrote it at the end, after the lost line.
func (pl *placer) blanksFit(out, first, second []Line, next Line) bool {
	blank := func(l Line) bool { return strings.TrimSpace(l.Text) == "" }
	skipped := first
	if len(first) > 0 && first[0].Kind == Add {
		skipped = second
	}
	if !slices.ContainsFunc(skipped, func(l Line) bool { return l.Kind == Context }) ||
		slices.ContainsFunc(skipped, func(l Line) bool { return !blank(l) }) {
		return false
	}
	if len(out) == 0 || out[len(out)-1].Kind != Context || blank(out[len(out)-1]) || next.Kind != Context || blank(next) {
		return false
	}
	most := pl.longestBlankRun()
	run := func(ls ...[]Line) int {
		longest, n := 0, 0
		for _, part := range ls {
			for _, l := range part {
				if blank(l) {
					n++
					longest = max(longest, n)
				} else {
					n = 0
				}
			}
		}
		return longest
	}
	return run(first, second) <= most && run(second, first) > most
}

// longestBlankRun is the most blank lines the file has in a row.
func (pl *placer) longestBlankRun() int {
	if pl.blankRun < 0 {
		pl.blankRun = 0
		n := 0
		for _, l := range pl.file {
			if strings.TrimSpace(l) == "" {
				n++
				pl.blankRun = max(pl.blankRun, n)
			} else {
				n = 0
			}
		}
	}
	return pl.blankRun
}

// contextLines returns file lines [from, to) as context lines of a hunk.
func (pl *placer) contextLines(from, to int) []Line {
	ls := make([]Line, 0, to-from)
	for k := from; k < to; k++ {
		ls = append(ls, Line{Kind: Context, Text: pl.file[k]})
	}
	return ls
}

// completeEdge reads a git hunk that only inserts lines, with no context
// on one side and too little on the other, as an insertion at the end (or
// the start) of the file, when the file lines between its context and
// that end are exactly the lines its short side lacks. git writes context
// after added lines whenever the file goes on: a hunk with none ends the
// file, and the lines after its context are context lines the patch lost.
// The other reading, the added lines right after the context and the file
// going on, would have lost those lines as trailing context and still have
// too short a side (the hunk does not start the file): more was lost.
func (pl *placer) completeEdge(r *Resolved) {
	sh := hunkShape(r.Lines)
	n := pl.gitLines()
	if n == 0 || sh.lastChange < 0 {
		return
	}
	for _, l := range r.Lines[sh.firstChange : sh.lastChange+1] {
		if l.Kind != Add {
			return // not one group of added lines
		}
	}
	end := r.Start + r.OldCount()
	note := func(from, to int, edge string) {
		r.Notes = append(r.Notes, fmt.Sprintf("file line(s) %d-%d missing from the patch kept as context: git writes context wherever the file goes on, so the added lines %s the file", from+1, to, edge))
		// Lines the patch lost make it a tolerant reading, whatever pass
		// found the lines it has.
		r.Pass = max(r.Pass, PassFuzzy)
	}
	switch k := len(pl.file) - end; {
	case sh.trail == 0 && sh.lead > 0 && k > 0 && sh.lead+k == n && r.Start > 0:
		out := slices.Concat(r.Lines[:sh.firstChange], pl.contextLines(end, len(pl.file)), r.Lines[sh.firstChange:])
		note(end, len(pl.file), "end")
		r.Lines = out
	case sh.lead == 0 && sh.trail > 0 && r.Start > 0 && sh.trail+r.Start == n && k > 0:
		out := slices.Concat(r.Lines[:sh.lastChange+1], pl.contextLines(0, r.Start), r.Lines[sh.lastChange+1:])
		note(0, r.Start, "start")
		r.Lines, r.Start = out, 0
	}
}

// checkLostTrail refuses a hunk that ends with added lines, no context
// after them, where the file goes on with an indented block and the added
// lines leave that block (a new function after a statement of another,
// say). Its trailing context was most likely lost:
// inserted there, the added lines would take the rest of the block with
// them (the rest of a test's assertions, moved into the new function).
func (pl *placer) checkLostTrail(r Resolved) *resolveErr {
	sh := hunkShape(r.Lines)
	if sh.lastChange < 0 || sh.trail > 0 || sh.lead == 0 {
		return nil
	}
	// The last change group, which must only add lines.
	first := sh.lastChange
	for first > 0 && r.Lines[first-1].Kind != Context {
		first--
	}
	added := r.Lines[first:]
	if slices.ContainsFunc(added, func(l Line) bool { return l.Kind == Delete }) {
		return nil
	}
	at := r.Start + r.OldCount() // the file line the added lines go before
	next := -1                   // the first non-blank line after them
	for i := at; i < len(pl.file); i++ {
		if strings.TrimSpace(pl.file[i]) != "" {
			next = i
			break
		}
	}
	if next < 0 {
		return nil
	}
	var add string // the first non-blank added line
	for _, l := range added {
		if strings.TrimSpace(l.Text) != "" {
			add = l.Text
			break
		}
	}
	in := indentWidth(pl.file[next])
	if in == 0 || add == "" || indentWidth(add) >= in {
		return nil
	}
	return &resolveErr{err: ErrAmbiguous, detail: fmt.Sprintf(
		"the hunk ends with added lines that leave the indented block which the file continues at line %d, with no context after them: its trailing context was probably lost, and those lines may belong after the block", next+1)}
}

// converting returns the change of indentation style the file's other
// hunks show, or else the one converting style the patch shows (see
// placer.style, placer.fallback).
func (pl *placer) converting() indentStyle {
	if pl.style.kind != 0 {
		return pl.style
	}
	return pl.fallback
}

// unchangedPair returns an added line of lines that its change group
// also deletes, letter for letter, and that re would re-indent.
func unchangedPair(lines []Line, re reindent) (string, bool) {
	for i := 0; i < len(lines); {
		if lines[i].Kind == Context {
			i++
			continue
		}
		j := i
		deleted := map[string]bool{}
		for ; j < len(lines) && lines[j].Kind != Context; j++ {
			if lines[j].Kind == Delete {
				deleted[lines[j].Text] = true
			}
		}
		for _, l := range lines[i:j] {
			if l.Kind == Add && deleted[l.Text] && re.line(l.Text) != l.Text {
				return l.Text, true
			}
		}
		i = j
	}
	return "", false
}

// movedInComment returns the first added line inside a block comment
// (from a line that starts with "/*" to the line that ends it), other
// than its opening line or a line that starts with the comment's "*",
// whose indentation re changes.
func movedInComment(lines []Line, re reindent) (string, bool) {
	in := false
	for _, l := range lines {
		if l.Kind == Delete {
			continue
		}
		t := strings.TrimSpace(l.Text)
		opener := false
		if !in {
			if strings.HasPrefix(t, "/*") && !strings.Contains(t, "*/") {
				in, opener = true, true
			}
		} else if strings.Contains(t, "*/") {
			in = false
			continue
		}
		if !in || opener || l.Kind != Add || t == "" || strings.HasPrefix(t, "*") {
			continue
		}
		if re.line(l.Text) != l.Text {
			return l.Text, true
		}
	}
	return "", false
}

// movedInRawString returns the first added line of a Go hunk placed at
// align that is inside a raw string literal, other than its opening
// line, whose indentation re changes.
func (pl *placer) movedInRawString(lines []Line, align []int, re reindent) (string, bool) {
	if !pl.goFile {
		return "", false
	}
	if pl.rawAt == nil {
		pl.rawAt = goRawLines(pl.file, false)
	}
	inside := false
	if i := slices.IndexFunc(align, func(a int) bool { return a >= 0 }); i >= 0 {
		inside = pl.rawAt[align[i]]
	}
	raw := goRawLines(newSide(lines), inside)
	k := 0 // the new-side index of lines[i]
	for _, l := range lines {
		if l.Kind == Delete {
			continue
		}
		if raw[k] && l.Kind == Add && re.line(l.Text) != l.Text {
			return l.Text, true
		}
		k++
	}
	return "", false
}

// indentWidth is the width of s's indentation, a tab counting eight.
func indentWidth(s string) int {
	w := 0
	for _, c := range indentOf(s) {
		if c == '\t' {
			w += 8 - w%8
		} else {
			w++
		}
	}
	return w
}

// checkShape refuses a resolved hunk of a git-made diff whose context is
// shorter on one side than git would have written, where the change group
// on that side only adds lines: a context line was lost there, and whether
// the added lines go before or after it is unknown.
func (pl *placer) checkShape(r Resolved) *resolveErr {
	if pl.shapeDeficit(r) > 0 {
		return &resolveErr{err: ErrAmbiguous, detail: fmt.Sprintf(
			"the hunk has fewer context lines next to its added lines than the rest of this git diff (%d), so a context line is probably missing and where the added lines go is uncertain", pl.context)}
	}
	return nil
}

// lostAtEdge reports, for a hunk placed as r one context line short of
// git's shape on one side, on lines the file has letter for letter in a
// row, that the line it lost can only be the outermost of that side:
// nowhere in the file do its lines fit with one more line among the
// context of that side, or between it and the added lines, that would
// put the added lines elsewhere or indent them otherwise. A changelog's
// new entry before an old one's heading and one blank line, where git
// wrote two blank lines, is the case.
func (pl *placer) lostAtEdge(pre []preLine, align []int, r Resolved) bool {
	if pl.shapeDeficit(r) != 1 || len(align) == 0 {
		return false
	}
	for j, a := range align {
		if a < 0 || a != align[0]+j || pre[j].text != pl.file[a] {
			return false // lines lost or changed inside already
		}
	}
	sh := hunkShape(r.Lines)
	for _, l := range r.Lines[sh.firstChange : sh.lastChange+1] {
		if l.Kind != Add {
			return false // one group of added lines only
		}
	}
	pk := preKeys(pre, levelLookalike)
	if len(pl.exact(pk, levelLookalike)) != 1 {
		return false
	}
	fk := pl.keysAt(levelLookalike)
	lead := sh.lead // the pre-image index the added lines go before
	at := align[0] + lead
	// Where a line lost before pre[k] puts the added lines, at a place
	// where pre[:k], one more line and pre[k:] are the file's.
	// The short side must keep a line: else its outermost line is next
	// to the added lines, and their order unknown.
	var ks []int
	if after := len(pl.file) - (r.Start + r.OldCount()); sh.trail < min(pl.context, after) {
		if sh.trail == 0 {
			return false
		}
		for k := lead; k < len(pk); k++ {
			ks = append(ks, k)
		}
	} else {
		if lead == 0 {
			return false
		}
		for k := 1; k <= lead; k++ {
			ks = append(ks, k)
		}
	}
	for _, k := range ks {
		var starts []int
		if k > 0 {
			starts = pl.exact(pk[:k], levelLookalike)
		} else {
			// The lost line first: any line before the hunk's lines.
			for _, e := range pl.exact(pk, levelLookalike) {
				if e > 0 {
					starts = append(starts, e-1)
				}
			}
		}
		for _, s := range starts {
			if s+len(pk)+1 > len(fk) || !slices.Equal(fk[s+k+1:s+len(pk)+1], pk[k:]) {
				continue
			}
			// The added lines go before pre[lead], the lost line before
			// pre[k]: both orders where the two meet.
			alt := s + lead
			if k <= lead {
				alt++
			}
			if alt != at || k == lead {
				return false
			}
			// The same place for the added lines, but a reading that
			// re-indents them otherwise, unless its lines are the
			// patch's letter for letter too.
			for j := range pre {
				if i := s + j + min(1, max(0, j-k+1)); pre[j].text != pl.file[i] {
					return false
				}
			}
		}
	}
	return true
}

// shapeDeficit counts the context lines a hunk placed as r lacks beside
// a group of added lines only, by git's count, where the file goes on:
// the fewest lines the patch must have lost for r to be git's hunk.
func (pl *placer) shapeDeficit(r Resolved) int {
	sh := hunkShape(r.Lines)
	if pl.context == 0 || sh.lastChange < 0 {
		return 0
	}
	insertion := func(from, step int) bool { // the change group from index from
		for i := from; i >= 0 && i < len(r.Lines) && r.Lines[i].Kind != Context; i += step {
			if r.Lines[i].Kind == Delete {
				return false
			}
		}
		return true
	}
	before := r.Start + sh.lead // file lines before the first change
	after := len(pl.file) - (r.Start + r.OldCount())
	n := 0
	if want := min(pl.context, before); sh.lead < want && insertion(sh.firstChange, 1) {
		n += want - sh.lead
	}
	if want := min(pl.context, after); sh.trail < want && insertion(sh.lastChange, -1) {
		n += want - sh.trail
	}
	return n
}

// shape describes where a hunk's changes are: the indexes of its first and
// last changed lines and the number of context lines before and after.
type shape struct {
	firstChange, lastChange int
	lead, trail             int
}

func hunkShape(lines []Line) shape {
	sh := shape{firstChange: len(lines), lastChange: -1}
	for i, l := range lines {
		if l.Kind != Context {
			sh.firstChange = min(sh.firstChange, i)
			sh.lastChange = i
		}
	}
	sh.lead = sh.firstChange
	if sh.lastChange >= 0 {
		sh.trail = len(lines) - 1 - sh.lastChange
	}
	return sh
}

// evidence is what a placed hunk shows about the patch's indentation:
// pairs of (patch, file) indentation of its non-blank deleted and context
// lines.
type evidence struct {
	del, ctx [][2]string
	differs  bool // some pair differs
	indented bool // some pair is indented on either side
	// spaced is set when the only indented lines are lines a file of
	// tabs indents with spaces, as the patch does (see evidence).
	spaced bool
	// adds is the indentation of the hunk's non-blank added lines, as
	// the patch writes them: a mapping must keep them in order with the
	// witnesses (see keepsOrder).
	adds []string
}

func (pl *placer) evidence(pre []preLine, align []int) evidence {
	var ev evidence
	witnessed := false // some pair that witnesses a mapping is indented
	for j, p := range pre {
		fi := align[j]
		if fi < 0 || strings.TrimSpace(p.text) == "" || strings.TrimSpace(pl.file[fi]) == "" {
			continue
		}
		pair := [2]string{indentOf(p.text), indentOf(pl.file[fi])}
		if pl.step() == -1 && pair[0] == pair[1] && strings.Trim(pair[1], " ") == "" && pair[1] != "" {
			// A line a file of tabs indents with spaces (a raw string's,
			// a comment's) is as the patch has it whether or not the
			// patch wrote the file's tabs as spaces: it shows the hunk
			// indented, but witnesses no mapping.
			ev.indented, ev.spaced = true, true
			continue
		}
		witnessed = witnessed || pair[0] != "" || pair[1] != ""
		if p.kind == Delete {
			ev.del = append(ev.del, pair)
		} else {
			ev.ctx = append(ev.ctx, pair)
		}
		ev.differs = ev.differs || pair[0] != pair[1]
		ev.indented = ev.indented || pair[0] != "" || pair[1] != ""
	}
	ev.spaced = ev.spaced && !witnessed // else other lines witness how the patch indents
	return ev
}

// reindent decides how to re-indent the added lines. Deleted lines are the
// best witnesses: a model that shifts a whole hunk shifts them too, while a
// few re-indented context lines leave them alone. Only indented lines
// witness anything. A mapping other than the identity must explain every
// witness, and be seen on at least three context lines when no deleted line
// shows it, or be confirmed by confirm (the style the rest of the patch
// shows). ok is false when the witnesses do not allow a decision.
func (ev evidence) reindent(confirm indentStyle) (m reindent, ok bool) {
	if !ev.differs {
		return reindent{}, true
	}
	// Deleted lines are the best witnesses, but only indented ones say
	// how the patch indents: beside deleted lines all at column 0 (a
	// renamed "func f() {"), the context lines tell it if they are strong
	// witnesses; else resolveLines keeps the added lines as they are, if
	// the file could hold them so.
	if ev.deletedAtZero() {
		return judge(ev.ctx, false, confirm, ev.keep(ev.ctx))
	}
	if len(ev.del) > 0 {
		return judge(ev.del, true, confirm, ev.keep(ev.del))
	}
	return judge(ev.ctx, false, confirm, ev.keep(ev.ctx))
}

// keep is the patch's indentation of witnesses wit and of the added
// lines, which a mapping must keep in order.
func (ev evidence) keep(wit [][2]string) []string {
	keep := slices.Clone(ev.adds)
	for _, p := range wit {
		keep = append(keep, p[0])
	}
	return keep
}

// explainedBy counts the witnesses m explains.
func explainedBy(m reindent, wit [][2]string) int {
	n := 0
	for _, p := range wit {
		if m.explains(p) {
			n++
		}
	}
	return n
}

// deletedAtZero reports whether the hunk deletes lines, all at column 0
// on both sides: they say nothing of how the patch indents.
func (ev evidence) deletedAtZero() bool {
	return len(ev.del) > 0 && !slices.ContainsFunc(ev.del, func(p [2]string) bool { return p[0] != "" || p[1] != "" })
}

// judge learns a re-indentation from witness pairs (patch, file) and says
// whether to trust it: every pair explained, and the witnesses strong (deleted
// lines, three indented lines, or a change of style the file's other
// hunks confirm). Witnesses mostly equal keep the added lines as they are;
// a change that explains as many as the identity does is no decision.
func judge(wit [][2]string, deleted bool, confirm indentStyle, keep []string) (m reindent, ok bool) {
	m = learnReindentIn(wit, keep)
	if m.identity() {
		// The identity wins, but not by a tie with a change that
		// explains as many witnesses (a raw string's line kept, a code
		// line converted): that is no decision.
		var differ [][2]string
		for _, p := range wit {
			if p[0] != p[1] {
				differ = append(differ, p)
			}
		}
		// Mappings that would put lines out of their order are no
		// rivals (see keepsOrder); with none left, the identity must
		// explain most witnesses.
		if len(differ) > 0 {
			rival, same := learnReindentIn(differ, keep), explainedBy(m, wit)
			if rival.identity() && same <= len(differ) || !rival.identity() && explainedBy(rival, wit) >= same {
				return reindent{}, false
			}
		}
		return m, true
	}
	explained, same, indented := 0, 0, 0
	for _, p := range wit {
		if m.explains(p) {
			explained++
		}
		if p[0] != "" || p[1] != "" {
			indented++
			if p[0] == p[1] {
				same++
			}
		}
	}
	strong := deleted || indented >= 3 ||
		(m.style.kind != 0 && m.style == confirm && m.add == "" && m.remove == "")
	switch {
	case explained == len(wit) && strong:
		return m, true
	case 2*same > indented:
		return reindent{}, true // a few context lines re-indented: keep the added lines
	}
	return reindent{}, false
}

// unanimousFit reports whether the mapping the context lines show, where
// no deleted line shows one, explains each of them, and takes the added
// lines from an indentation the file never uses to one it does, while no
// other hunk of the file, showing no indentation, keeps added lines so
// indented (see strayAdds).
func (pl *placer) unanimousFit(lines []Line, ev evidence) bool {
	if pl.strayAdds || (len(ev.del) > 0 && !ev.deletedAtZero()) {
		return false
	}
	m := learnReindent(ev.ctx)
	if m.identity() || slices.ContainsFunc(ev.ctx, func(p [2]string) bool { return !m.explains(p) }) {
		return false
	}
	return !pl.indentsFit(lines, reindent{}) && pl.indentsFit(lines, m)
}

// step returns the file's indentation style (see fileIndentStep), once
// computed: -1 for tabs. A Go file that indents any line with a tab is a
// file of tabs, as gofmt writes them, however many lines of raw strings
// it indents with spaces.
func (pl *placer) step() int {
	if pl.indentStep == 0 {
		pl.indentStep = fileIndentStep(pl.file)
		if pl.goFile && slices.ContainsFunc(pl.file, func(l string) bool { return strings.HasPrefix(l, "\t") }) {
			pl.indentStep = -1
		}
	}
	return pl.indentStep
}

// indentsFit reports whether every non-blank added line of lines, once
// re-indented by re, is indented in the file's style: with tabs only in a
// file indented with tabs, with a multiple of its indentation step in a
// file indented with spaces; a line of a block comment that starts with
// its "*" may have one space more.
func (pl *placer) indentsFit(lines []Line, re reindent) bool {
	for _, l := range lines {
		if l.Kind != Add || strings.TrimSpace(l.Text) == "" {
			continue
		}
		ind := indentOf(re.line(l.Text))
		if strings.HasPrefix(strings.TrimSpace(l.Text), "*") {
			ind = strings.TrimSuffix(ind, " ") // a block comment's star, one space in
		}
		switch pl.step() {
		case -1: // tabs
			if strings.Trim(ind, "\t") != "" {
				return false
			}
		case 1: // no style to keep to
		default:
			if strings.Trim(ind, " ") != "" || len(ind)%pl.step() != 0 {
				return false
			}
		}
	}
	return true
}

// offStyle reports whether every witness whose indentation differs
// between the patch and the file is indented, in the patch, in a way the
// file's style does not allow (six spaces in a file indented by four, say).
func (pl *placer) offStyle(ev evidence) bool {
	for _, p := range append(slices.Clone(ev.del), ev.ctx...) {
		if p[0] == p[1] {
			continue
		}
		switch pl.step() {
		case -1: // tabs
			if strings.Trim(p[0], "\t") == "" {
				return false
			}
		case 1: // no style to tell by
			return false
		default:
			if strings.Trim(p[0], " ") == "" && len(p[0])%pl.step() == 0 {
				return false
			}
		}
	}
	return true
}

// unanimous reports whether every witness differs in indentation between
// the patch and the file: none says the patch kept the file's
// indentation (a whole hunk shifted, not a few lines damaged).
func (ev evidence) unanimous() bool {
	for _, p := range append(slices.Clone(ev.del), ev.ctx...) {
		if p[0] == p[1] {
			return false
		}
	}
	return len(ev.del)+len(ev.ctx) > 0
}

// indentsCovered reports whether re puts every added line at an
// indentation that a file line the hunk covers (align) has: then the
// mapping agrees with the file there, whatever its overall style (a doc
// comment indented by spaces in a file of tabs, say).
func (pl *placer) indentsCovered(lines []Line, re reindent, align []int) bool {
	used := map[string]bool{}
	for _, fi := range align {
		if fi >= 0 && strings.TrimSpace(pl.file[fi]) != "" {
			used[indentOf(pl.file[fi])] = true
		}
	}
	for _, l := range lines {
		if l.Kind == Add && strings.TrimSpace(l.Text) != "" && !used[indentOf(re.line(l.Text))] {
			return false
		}
	}
	return true
}

// fileIndentStep returns -1 for a file indented mostly with tabs, else the
// step by which its lines most often indent (spaces), or 1 when it shows
// none.
func fileIndentStep(file []string) int {
	tabs, spaces := 0, 0
	steps := map[int]int{}
	prev := -1
	for _, l := range file {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind := indentOf(l)
		switch {
		case strings.HasPrefix(ind, "\t"):
			tabs++
		case ind != "":
			spaces++
		}
		if !strings.Contains(ind, "\t") {
			if prev >= 0 && len(ind) > prev {
				steps[len(ind)-prev]++
			}
			prev = len(ind)
		} else {
			prev = -1
		}
	}
	if tabs > spaces {
		return -1
	}
	step, most := 1, 0
	for d, n := range steps {
		if n > most || (n == most && d < step) {
			step, most = d, n
		}
	}
	return step
}

func indentedAdds(lines []Line) bool {
	for _, l := range lines {
		if l.Kind == Add && indentOf(l.Text) != "" {
			return true
		}
	}
	return false
}

// changes reports whether a resolved hunk changes the file: its lines, or
// the file's final newline.
func (pl *placer) changes(r Resolved) bool {
	return changes(r.Lines) ||
		(r.FinalNewline == NewlineAdd && !pl.finalNewline) ||
		(r.FinalNewline == NewlineRemove && pl.finalNewline)
}

// changes reports whether lines change anything: their old side differs
// from their new side.
func changes(lines []Line) bool {
	// Walk both sides at once: i on the old side, j on the new.
	next := func(k int, skip Kind) int {
		for k < len(lines) && lines[k].Kind == skip {
			k++
		}
		return k
	}
	i, j := next(0, Add), next(0, Delete)
	for i < len(lines) && j < len(lines) {
		if lines[i].Text != lines[j].Text {
			return true
		}
		i, j = next(i+1, Add), next(j+1, Delete)
	}
	return i < len(lines) || j < len(lines)
}

// checkNearEdge refuses a hunk placed one file line away from the start
// (or the end) of the file, on a side with fewer context lines than git
// writes, where reading that line as a context line the patch lost puts
// the hunk at the file's edge and changes the result. git writes short
// context only at an edge of the file, so such a hunk most likely lost a
// line inside it: three added lines of a licence header and then "",
// "import (" fit letter for letter after a Go file's "package" line, but
// the header belongs before it. The reading at the edge, when there is
// one only that keeps the added lines together, is offered for review.
func (pl *placer) checkNearEdge(r Resolved) *resolveErr {
	sh := hunkShape(r.Lines)
	if sh.lastChange < 0 {
		return nil
	}
	c := pl.gitLines()
	if c == 0 {
		c = 3 // git's default: what a diff without its shape would show
	}
	n, end := len(pl.file), r.Start+r.OldCount()
	var x, outside int // the file line the patch may have lost, and where r leaves it
	switch {
	case r.Start == 1 && sh.lead < c:
		x, outside = 0, 0
	case end == n-1 && sh.trail < c:
		x, outside = n-1, len(r.Lines)
	default:
		return nil
	}
	from, to := min(r.Start, x), max(end, x+1) // the file lines of a reading at the edge
	lost := Line{Kind: Context, Text: pl.file[x]}
	base := newSide(slices.Insert(slices.Clone(r.Lines), outside, lost))
	seen := map[string]bool{strings.Join(base, "\n"): true}
	var doubted *Resolved
	offers := 0
	for q := 1; q < len(r.Lines); q++ {
		if r.Lines[q-1].Kind != Context && r.Lines[q].Kind != Context {
			continue // git writes a change group's lines together
		}
		ls := slices.Concat(r.Lines[:q], []Line{lost}, r.Lines[q:])
		if !slices.Equal(oldSide(ls), pl.file[from:to]) {
			continue
		}
		res := strings.Join(newSide(ls), "\n")
		if seen[res] {
			continue
		}
		seen[res] = true
		if offers++; offers == 1 {
			d := r
			d.Start, d.Lines = from, ls
			d.Notes = append(slices.Clone(r.Notes), fmt.Sprintf("file line %d read as a context line the patch lost", x+1))
			d.Pass = max(d.Pass, PassFuzzy)
			doubted = &d
		}
	}
	if len(seen) == 1 {
		return nil // every reading at the edge changes the file as r does
	}
	where, side, have := "after the first line of the file", "before", sh.lead
	if x != 0 {
		where, side, have = "before the last line of the file", "after", sh.trail
	}
	err := &resolveErr{err: ErrAmbiguous, detail: fmt.Sprintf(
		"the hunk fits %s with %d context line(s) %s its changes, where git writes %d except at an edge of the file: it probably lost a context line, and file line %d may belong inside it, which would change where its lines go",
		where, have, side, c, x+1)}
	if offers == 1 {
		err.doubted = doubted
	}
	return err
}

// oldSide and newSide are the texts of a hunk's lines before and after it
// applies.
func oldSide(lines []Line) []string { return side(lines, Add) }
func newSide(lines []Line) []string { return side(lines, Delete) }

func side(lines []Line, skip Kind) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if l.Kind != skip {
			out = append(out, l.Text)
		}
	}
	return out
}

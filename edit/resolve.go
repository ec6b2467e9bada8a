// resolve.go: readLines: a candidate place resolved into a reading of the hunk's lines.

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
	// rule is the rule that refused or doubted the hunk; rules is the
	// trace of the reading up to it, rule last.
	rule  RuleID
	rules []RuleID
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
			rule := ruleChangesSomething.ID
			return nil, &resolveErr{err: ErrNoOp, detail: "its added lines are the lines it deletes", rule: rule, rules: traced(r.Rules, rule)}
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
// lines are aligned to the file by align: the reading of candidate c,
// judged by the checks of one hunk (see readLines). A refusal carries
// the reading's trace, the refusing rule last.
func (pl *placer) resolveLines(lines []Line, align []int, c *candidate) (Resolved, *resolveErr) {
	r, err := pl.readLines(lines, align, c)
	if err != nil {
		err.rules = r.Rules
		if len(r.Rules) == 0 || r.Rules[len(r.Rules)-1] != err.rule {
			err.rules = traced(r.Rules, err.rule)
		}
		if err.doubted != nil {
			err.doubted.Rules = err.rules
		}
	}
	return r, err
}

// readLines reads candidate c: the indentation of the added lines
// (readIndent), the order of lines the patch left out beside them
// (orderGap), the edges of the file (completeEdge); then the checks of
// one hunk, in this order: checkShape (unless lostAtEdge), checkLostTrail,
// checkNearEdge, and the doubt of a likely reading.
func (pl *placer) readLines(lines []Line, align []int, c *candidate) (Resolved, *resolveErr) {
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
	ind := readIndent(indentQuery{pl: pl, lines: lines, pre: pre, align: align, c: c, ev: ev})
	r.Rules = append(r.Rules, ind.rules...)
	r.Notes = append(r.Notes, ind.notes...)
	if ind.refuse != "" {
		return r, &resolveErr{err: ErrAmbiguous, detail: ind.refuse, rule: ind.rules[len(ind.rules)-1]}
	}
	if ind.differs && r.Pass == PassWhitespace || ind.guessed && r.Pass < PassIndent {
		r.Pass = PassIndent
	}
	re, indentDoubt := ind.re, ind.doubt
	if !re.identity() && indentedAdds(lines) {
		r.Notes = append(r.Notes, "added lines re-indented to the file's indentation")
	}
	if len(folded) > 0 {
		r.Notes = append(r.Notes, "look-alike characters in added lines replaced as in the file")
	}
	fix := func(s string) string { return foldSome(re.line(s), folded) }

	doubt := indentDoubt // why the reading is only likely
	var doubtRule RuleID // the rule that doubts it
	if doubt != "" {
		doubtRule = ind.rules[len(ind.rules)-1]
	}
	order, inPlace, err := pl.layLines(&r, lines, pre, align, c, fix)
	if err != nil {
		return r, err
	}
	if order.doubt != "" {
		doubt, doubtRule = order.doubt, order.rule
	}
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
	if c.asGit {
		// Placed as git apply places it: no shape to check.
		return r, nil
	}
	if asWritten {
		pl.completeEdge(&r)
	}
	if err := pl.checkShape(r); err != nil {
		if !pl.lostAtEdge(pre, align, r) {
			return r, err
		}
		r.Notes = append(r.Notes, fmt.Sprintf("the hunk has one context line fewer than git writes (%d) on one side, and the file has no other place where a line lost there would fit: the lost line is the outermost", pl.context))
		r.Rules = append(r.Rules, ruleLostAtEdge.ID)
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
		return r, &resolveErr{err: ErrAmbiguous, detail: doubt, doubted: &doubted, order: inPlace, rule: doubtRule}
	}
	return r, nil
}

// orderDoubt is why a reading's order of lost lines is only likely, and
// the rule that says so.
type orderDoubt struct {
	doubt string
	rule  RuleID
}

// layLines walks the hunk's lines along their alignment and lays out the
// reading's lines in r: the file's own text for context and deleted
// lines, the added lines through fix, and the file lines the patch left
// out, ordered beside added lines by orderGap. It returns the doubt of a
// likely order, the gap an edit in place reads (for the syntax check to
// try), or the refusal of an unknown order.
func (pl *placer) layLines(r *Resolved, lines []Line, pre []preLine, align []int, c *candidate, fix func(string) string) (orderDoubt, *gapOrder, *resolveErr) {
	out := make([]Line, 0, len(lines))
	var pending []Line // added lines waiting for the next line of the file
	var doubt orderDoubt
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
			pending = append(pending, Line{Kind: Add, Text: fix(l.Text), EOL: l.EOL})
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
			if len(pending) == 0 {
				out = append(out, skipped...)
			} else {
				g := pl.gapShape(shape, idx, len(pending), len(skipped), firstAligned, lastAligned)
				g.pl, g.c, g.lines, g.idx = pl, c, lines, idx
				g.out, g.skipped, g.pending = out, skipped, pending
				g.next, g.gap = Line{Kind: p.kind, Text: pl.file[fi]}, last+1
				oc := orderGap(&g)
				if oc.refuse != nil {
					return doubt, nil, &resolveErr{err: ErrAmbiguous, detail: oc.refuse(&g), rule: oc.ID,
						order: &gapOrder{gap: last + 1, n: len(pending) + 1}}
				}
				r.Rules = append(r.Rules, oc.ID)
				out = append(out, oc.arrange(&g)...)
				if oc.doubt != nil {
					doubt = orderDoubt{oc.doubt(&g), oc.ID}
				}
				if oc.open {
					inPlace = &gapOrder{gap: last + 1, n: len(pending) + 1}
				}
			}
			pending = pending[:0]
		} else {
			out = append(out, pending...)
			pending = pending[:0]
		}
		if c.level > levelExact && key(levelLookalike, p.text) != key(levelLookalike, pl.file[fi]) {
			r.Notes = append(r.Notes, fmt.Sprintf("context line %d differs from the patch's %q", fi+1, p.text))
		}
		out = append(out, Line{Kind: p.kind, Text: pl.file[fi], EOL: l.EOL})
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
	return doubt, inPlace, nil
}

// gapShape returns the orders of a gap that git's shape allows, for k
// left-out file lines before hunk line idx, next to n added lines, in a
// hunk of that shape aligned from file line firstAligned to lastAligned.
// git writes the same number of context lines on each side (C), fewer
// only where the file begins or ends.
func (pl *placer) gapShape(shape shape, idx, n, k, firstAligned, lastAligned int) gapQuery {
	C := pl.gitLines()
	if C == 0 {
		C = 3 // git's default, for a hunk that shows git's shape
	}
	changesBefore := shape.firstChange < idx-n
	changesAfter := shape.lastChange >= idx
	atStart, atEnd := firstAligned == 0, lastAligned == len(pl.file)-1
	leadFull := shape.lead >= C || atStart
	trailFull := shape.trail >= C || atEnd
	var g gapQuery
	g.before = leadFull && trailFull
	if !changesBefore {
		g.before = (shape.lead+k == C || (shape.lead+k < C && atStart)) && trailFull
	}
	g.after = leadFull && trailFull
	if !changesAfter {
		g.after = (shape.trail+k == C || (shape.trail+k < C && atEnd)) && leadFull
	}
	if n >= 2 && leadFull && trailFull {
		g.splits = n - 1
	}
	return g
}

// addsAtNeighbours reports, for a hunk placed at align, whether every run
// of its added lines with text starts at the indentation of the nearest
// file lines with text before and after it (context or deleted), which
// is the same, and no line of the run is indented less: the added lines
// sit at the level around them as the patch wrote them.
func (fx *fileIndex) addsAtNeighbours(lines []Line, align []int) bool {
	fileText := make([]string, len(lines)) // the file's text of each non-added line with text
	j := 0
	for i, l := range lines {
		if l.Kind == Add {
			continue
		}
		if fi := align[j]; fi >= 0 && strings.TrimSpace(fx.file[fi]) != "" {
			fileText[i] = fx.file[fi]
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
func (fx *fileIndex) blanksFit(out, first, second []Line, next Line) bool {
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
	most := fx.longestBlankRun()
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
func (fx *fileIndex) longestBlankRun() int {
	if fx.blankRun < 0 {
		fx.blankRun = 0
		n := 0
		for _, l := range fx.file {
			if strings.TrimSpace(l) == "" {
				n++
				fx.blankRun = max(fx.blankRun, n)
			} else {
				n = 0
			}
		}
	}
	return fx.blankRun
}

// contextLines returns file lines [from, to) as context lines of a hunk.
func (fx *fileIndex) contextLines(from, to int) []Line {
	ls := make([]Line, 0, to-from)
	for k := from; k < to; k++ {
		ls = append(ls, Line{Kind: Context, Text: fx.file[k]})
	}
	return ls
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
func (fx *fileIndex) movedInRawString(lines []Line, align []int, re reindent) (string, bool) {
	if !fx.goFile {
		return "", false
	}
	if fx.rawAt == nil {
		fx.rawAt = goRawLines(fx.file, false)
	}
	inside := false
	if i := slices.IndexFunc(align, func(a int) bool { return a >= 0 }); i >= 0 {
		inside = fx.rawAt[align[i]]
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

func (fx *fileIndex) evidence(pre []preLine, align []int) evidence {
	var ev evidence
	witnessed := false // some pair that witnesses a mapping is indented
	for j, p := range pre {
		fi := align[j]
		if fi < 0 || strings.TrimSpace(p.text) == "" || strings.TrimSpace(fx.file[fi]) == "" {
			continue
		}
		pair := [2]string{indentOf(p.text), indentOf(fx.file[fi])}
		if fx.step() == -1 && pair[0] == pair[1] && strings.Trim(pair[1], " ") == "" && pair[1] != "" {
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
func (fx *fileIndex) step() int {
	if fx.indentStep == 0 {
		fx.indentStep = fileIndentStep(fx.file)
		if fx.goFile && slices.ContainsFunc(fx.file, func(l string) bool { return strings.HasPrefix(l, "\t") }) {
			fx.indentStep = -1
		}
	}
	return fx.indentStep
}

// indentsFit reports whether every non-blank added line of lines, once
// re-indented by re, is indented in the file's style: with tabs only in a
// file indented with tabs, with a multiple of its indentation step in a
// file indented with spaces; a line of a block comment that starts with
// its "*" may have one space more.
func (fx *fileIndex) indentsFit(lines []Line, re reindent) bool {
	for _, l := range lines {
		if l.Kind != Add || strings.TrimSpace(l.Text) == "" {
			continue
		}
		ind := indentOf(re.line(l.Text))
		if strings.HasPrefix(strings.TrimSpace(l.Text), "*") {
			ind = strings.TrimSuffix(ind, " ") // a block comment's star, one space in
		}
		switch fx.step() {
		case -1: // tabs
			if strings.Trim(ind, "\t") != "" {
				return false
			}
		case 1: // no style to keep to
		default:
			if strings.Trim(ind, " ") != "" || len(ind)%fx.step() != 0 {
				return false
			}
		}
	}
	return true
}

// offStyle reports whether every witness whose indentation differs
// between the patch and the file is indented, in the patch, in a way the
// file's style does not allow (six spaces in a file indented by four, say).
func (fx *fileIndex) offStyle(ev evidence) bool {
	for _, p := range append(slices.Clone(ev.del), ev.ctx...) {
		if p[0] == p[1] {
			continue
		}
		switch fx.step() {
		case -1: // tabs
			if strings.Trim(p[0], "\t") == "" {
				return false
			}
		case 1: // no style to tell by
			return false
		default:
			if strings.Trim(p[0], " ") == "" && len(p[0])%fx.step() == 0 {
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
func (fx *fileIndex) indentsCovered(lines []Line, re reindent, align []int) bool {
	used := map[string]bool{}
	for _, fi := range align {
		if fi >= 0 && strings.TrimSpace(fx.file[fi]) != "" {
			used[indentOf(fx.file[fi])] = true
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

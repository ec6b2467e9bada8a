// conflict.go: Conflicts, the hunks a three-way reading refused written with git's conflict markers.

package edit

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// PassConflict labels a hunk that writes git's conflict markers: the file
// and the patch changed the same lines since the patch's preimage (see
// Conflicts). It is no placement pass, and never a clean change.
const PassConflict = PassUncertain + 1

// The conflict markers, as git apply --3way writes them (git's default
// conflict style, with its labels).
const (
	MarkerOurs   = "<<<<<<< ours"
	MarkerBase   = "||||||| base"
	MarkerSplit  = "======="
	MarkerTheirs = ">>>>>>> theirs"
)

// ConflictStyle is git's merge.conflictStyle: how a conflict is written.
type ConflictStyle int

// The conflict styles: git's default ("merge": the two versions, their
// common lines left out of the markers), diff3 (the preimage's lines
// too, between MarkerBase and MarkerSplit, nothing left out) and zdiff3
// (diff3 with the common lines at either end left out).
const (
	StyleMerge ConflictStyle = iota
	StyleDiff3
	StyleZdiff3
)

// ParseConflictStyle reads merge.conflictStyle; ok is false for a value
// git does not know, which git ignores too.
func ParseConflictStyle(v string) (style ConflictStyle, ok bool) {
	switch strings.ToLower(v) {
	case "", "merge":
		return StyleMerge, true
	case "diff3":
		return StyleDiff3, true
	case "zdiff3":
		return StyleZdiff3, true
	}
	return StyleMerge, false
}

// ConflictGuard is the guard of a conflict hunk (Resolved.Guard): only a
// person who sees it may approve it, and what it writes is no result to
// commit.
const ConflictGuard = "conflict: the file and the patch both changed these lines; the hunk writes both versions between conflict markers, to resolve by hand"

// Conflicts writes the hunks of p that a three-way reading refused with
// ErrConflict (see ThreeWay, with base as the seen text) as git apply
// --3way writes them: the lines that differ between the file (ours) and
// the patch's result on base (theirs) between conflict markers, the lines
// both have alike around them as context. Each such hunk is placed with
// PassConflict and ConflictGuard. Conflicts returns how many it placed;
// a hunk it cannot so write, or that would share lines with a placed
// hunk, stays refused.
func (p *FilePlan) Conflicts(base string) int { return p.ConflictsIn(base, StyleMerge) }

// ConflictsIn is Conflicts with the conflicts written in style.
func (p *FilePlan) ConflictsIn(base string, style ConflictStyle) int {
	if p.Diff == nil || p.OldPath == "" || base == "" {
		return 0
	}
	b, cur := splitFile(base), splitFile(p.Old)
	regions, match := personChanges(b, cur)
	n := 0
	var errs []*PlacementError
	for _, e := range p.Errors {
		if !errors.Is(e.Err, ErrConflict) || e.Hunk < 0 || e.Hunk >= len(p.Diff.Hunks) {
			errs = append(errs, e)
			continue
		}
		r, interpreted, ok := placeInBase(base, 0, e.Hunk, p.Diff.Hunks[e.Hunk])
		if !ok || interpreted {
			errs = append(errs, e)
			continue
		}
		c, ok := conflictHunk(r, b, cur, regions, match, style)
		if !ok || slices.ContainsFunc(p.Hunks, func(o Resolved) bool { return sharesLines(c, o) }) {
			errs = append(errs, e)
			continue
		}
		p.Hunks = append(p.Hunks, c)
		n++
	}
	p.Errors = errs
	slices.SortStableFunc(p.Hunks, func(a, b Resolved) int { return a.Start - b.Start })
	return n
}

// change is one side's change of base lines [bLo, bHi): the person's
// (ours, a region of personChanges) or the hunk's (theirs: ins replaces
// the lines).
type change struct {
	bLo, bHi int
	ours     *region
	ins      []string
}

// conflictHunk merges r, placed in base, with the person's changes
// (regions, match: see personChanges) over r's lines, as git merges a
// file: where one side alone changes lines, its change is taken; where
// both change lines that overlap or touch, both versions go between
// conflict markers, without the lines at either end that they share.
func conflictHunk(r Resolved, base, cur fileText, regions []region, match []int, style ConflictStyle) (Resolved, bool) {
	var cs []change
	for i := range regions {
		cs = append(cs, change{bLo: regions[i].bLo, bHi: regions[i].bHi, ours: &regions[i]})
	}
	for _, e := range r.edits() {
		cs = append(cs, change{bLo: e.pos, bHi: e.pos + e.del, ins: newSide(e.ins)})
	}
	slices.SortStableFunc(cs, func(a, b change) int { return a.bLo - b.bLo })
	// Changes that overlap or touch make one group, as in git's merge.
	type group struct {
		lo, hi      int
		cs          []change
		ours, their bool
	}
	var gs []group
	for _, c := range cs {
		if n := len(gs); n > 0 && c.bLo <= gs[n-1].hi {
			g := &gs[n-1]
			g.hi = max(g.hi, c.bHi)
			g.cs = append(g.cs, c)
			g.ours, g.their = g.ours || c.ours != nil, g.their || c.ours == nil
			continue
		}
		gs = append(gs, group{lo: c.bLo, hi: c.bHi, cs: []change{c}, ours: c.ours != nil, their: c.ours == nil})
	}
	// The hunk covers r's lines and every group that reaches them.
	lo, hi := r.Start, r.Start+r.OldCount()
	var in []group
	for _, g := range gs {
		if g.their || g.lo < hi && g.hi > lo {
			in = append(in, g)
			lo, hi = min(lo, g.lo), max(hi, g.hi)
		}
	}
	// pos is where base line g is in cur, or would be, after any lines
	// the person put before it.
	pos := func(g int) int {
		for _, rg := range regions {
			if rg.bLo == g && rg.bHi > g {
				return rg.cLo
			}
		}
		if g < len(match) && match[g] >= 0 {
			return match[g]
		}
		return len(cur.lines)
	}
	c := Resolved{Hunk: r.Hunk, Start: -1, Pass: PassConflict, Guard: ConflictGuard}
	next, ok := 0, true
	take := func(k Kind, at int) {
		if c.Start < 0 {
			c.Start, next = at, at
		}
		if at != next || at >= len(cur.lines) {
			ok = false
			return
		}
		c.Lines = append(c.Lines, Line{Kind: k, Text: cur.lines[at]})
		next++
	}
	add := func(ls ...string) {
		for _, l := range ls {
			c.Lines = append(c.Lines, Line{Kind: Add, Text: l})
		}
	}
	conflicts := 0
	var blocks []markers // the conflicts of the merge style, where they are in c.Lines
	g := lo
	for _, gr := range in {
		for ; g < gr.lo; g++ {
			take(Context, match[g])
		}
		start := pos(gr.lo)
		for _, ch := range gr.cs {
			if ch.ours != nil {
				start = min(start, ch.ours.cLo)
			}
		}
		end := start
		if c.Start < 0 {
			c.Start, next = start, start
		}
		var theirs []string
		at := gr.lo
		for _, ch := range gr.cs {
			if ch.ours != nil {
				end = max(end, ch.ours.cHi)
				continue
			}
			for ; at < ch.bLo; at++ {
				theirs = append(theirs, base.lines[at])
			}
			theirs = append(theirs, ch.ins...)
			at = max(at, ch.bHi)
		}
		for ; at < gr.hi; at++ {
			theirs = append(theirs, base.lines[at])
		}
		for b := gr.lo; b < gr.hi; b++ {
			if match[b] >= 0 {
				end = max(end, match[b]+1)
			}
		}
		switch {
		case !gr.their: // the person's alone: the file as it is
			for i := start; i < end; i++ {
				take(Context, i)
			}
		case !gr.ours: // the hunk's alone
			for i := start; i < end; i++ {
				take(Delete, i)
			}
			add(theirs...)
		case style != StyleMerge:
			// diff3 and zdiff3: the preimage's lines between the two
			// versions; zdiff3 leaves out the lines both versions begin
			// and end with alike.
			ours := cur.lines[start:end]
			k, s := 0, 0
			if style == StyleZdiff3 || slices.Equal(ours, theirs) {
				k, s = commonEnds(ours, theirs)
			}
			for i := start; i < start+k; i++ {
				take(Context, i)
			}
			if k < len(ours) || k < len(theirs) {
				conflicts++
				add(MarkerOurs)
				for i := start + k; i < end-s; i++ {
					take(Context, i)
				}
				add(MarkerBase)
				add(base.lines[gr.lo:gr.hi]...)
				add(MarkerSplit)
				add(theirs[k : len(theirs)-s]...)
				add(MarkerTheirs)
				c.Notes = append(c.Notes, conflictNote(start+k, end-s-start-k))
			}
			for i := end - s; i < end; i++ {
				take(Context, i)
			}
		default:
			// Both sides: their versions compared line by line, as git's
			// zealous merge refines a conflict, so that the lines both
			// have alike stay out of the markers.
			ours := cur.lines[start:end]
			at := start
			j := 0
			ops := lineOps(linesText(ours), linesText(theirs))
			for k := 0; k < len(ops); {
				if ops[k].kind == Context {
					for range ops[k].n {
						take(Context, at)
						at++
					}
					j += ops[k].n
					k++
					continue
				}
				del, ins := 0, 0
				for ; k < len(ops) && ops[k].kind != Context; k++ {
					if ops[k].kind == Delete {
						del += ops[k].n
					} else {
						ins += ops[k].n
					}
				}
				conflicts++
				b := markers{open: len(c.Lines)}
				add(MarkerOurs)
				for i := at; i < at+del; i++ {
					take(Context, i)
				}
				b.split = len(c.Lines)
				add(MarkerSplit)
				add(theirs[j : j+ins]...)
				b.close = len(c.Lines)
				add(MarkerTheirs)
				blocks = append(blocks, b)
				at, j = at+del, j+ins
			}
		}
		g = gr.hi
	}
	for ; g < hi; g++ {
		take(Context, match[g])
	}
	if !ok || conflicts == 0 || c.Start < 0 {
		return Resolved{}, false
	}
	if style == StyleMerge {
		c.Lines, blocks = joinConflicts(c.Lines, blocks)
		c.Notes = mergeNotes(c, blocks)
	}
	// Markers that end a file without a final newline get one, as git
	// writes them.
	if n := len(cur.lines); next == n && n > 0 && cur.eols[n-1] == "" && c.Lines[len(c.Lines)-1].Kind == Add {
		c.FinalNewline = NewlineAdd
	}
	return c, true
}

// AddAdd is the conflict of a patch that creates a file that exists, as
// git apply --3way merges it: against an empty preimage, the file's
// lines (ours) and the patch's (theirs) alike are added, and where they
// differ both versions go between conflict markers. The hunk, numbered
// hunk of its patch, is placed on ours with PassConflict; ok is false
// when the two are the same, which merges cleanly.
func AddAdd(ours, theirs string, hunk int, style ConflictStyle) (Resolved, bool) {
	if ours == theirs {
		return Resolved{}, false
	}
	cur := splitFile(ours)
	var r Resolved
	r.Hunk = hunk
	for _, l := range splitFile(theirs).lines {
		r.Lines = append(r.Lines, Line{Kind: Add, Text: l})
	}
	regions, match := personChanges(fileText{}, cur)
	return conflictHunk(r, fileText{}, cur, regions, match, style)
}

// markers are where one conflict's markers are in a hunk's lines.
type markers struct{ open, split, close int }

// joinConflicts makes one of two conflicts that no more than three
// lines of the file part, those lines going into both versions, as
// git's merge joins them (xdiff's simplification of non-conflicts):
// blocks are the conflicts of lines, in order; it returns the lines and
// their conflicts.
func joinConflicts(lines []Line, blocks []markers) ([]Line, []markers) {
	if len(blocks) < 2 {
		return lines, blocks
	}
	var out []Line
	var joined []markers
	cur := blocks[0]
	// ours and theirs of the conflict being built.
	ours := slices.Clone(lines[cur.open+1 : cur.split])
	theirs := slices.Clone(lines[cur.split+1 : cur.close])
	out = append(out, lines[:cur.open]...)
	flush := func() {
		b := markers{open: len(out), split: len(out) + 1 + len(ours)}
		b.close = b.split + 1 + len(theirs)
		joined = append(joined, b)
		out = append(out, Line{Kind: Add, Text: MarkerOurs})
		out = append(out, ours...)
		out = append(out, Line{Kind: Add, Text: MarkerSplit})
		out = append(out, theirs...)
		out = append(out, Line{Kind: Add, Text: MarkerTheirs})
	}
	for _, next := range blocks[1:] {
		gap := lines[cur.close+1 : next.open]
		if len(gap) <= 3 && !slices.ContainsFunc(gap, func(l Line) bool { return l.Kind != Context }) {
			ours = append(append(ours, gap...), lines[next.open+1:next.split]...)
			for _, l := range gap {
				theirs = append(theirs, Line{Kind: Add, Text: l.Text})
			}
			theirs = append(theirs, lines[next.split+1:next.close]...)
		} else {
			flush()
			out = append(out, gap...)
			ours = slices.Clone(lines[next.open+1 : next.split])
			theirs = slices.Clone(lines[next.split+1 : next.close])
		}
		cur = next
	}
	flush()
	return append(out, lines[cur.close+1:]...), joined
}

// mergeNotes are the notes of a conflict hunk of the merge style: one
// for each of its conflicts (blocks), where its markers go.
func mergeNotes(c Resolved, blocks []markers) []string {
	var notes []string
	pos, k := c.Start, 0
	for i, l := range c.Lines {
		if k < len(blocks) && i == blocks[k].open {
			notes = append(notes, conflictNote(pos, blocks[k].split-blocks[k].open-1))
			k++
		}
		if l.Kind != Add {
			pos++
		}
	}
	return notes
}

// commonEnds returns how many lines a and b begin with alike, and how
// many of the rest they end with alike.
func commonEnds(a, b []string) (prefix, suffix int) {
	for prefix < len(a) && prefix < len(b) && a[prefix] == b[prefix] {
		prefix++
	}
	for suffix < len(a)-prefix && suffix < len(b)-prefix && a[len(a)-1-suffix] == b[len(b)-1-suffix] {
		suffix++
	}
	return prefix, suffix
}

// conflictNote says where a conflict hunk's markers go: around the n
// lines of the file from 0-based line at.
func conflictNote(at, n int) string {
	var where string
	switch n {
	case 0:
		where = fmt.Sprintf("before line %d", at+1)
	case 1:
		where = fmt.Sprintf("around line %d", at+1)
	default:
		where = fmt.Sprintf("around lines %d-%d", at+1, at+n)
	}
	return strings.Join([]string{"conflict: the file changed these lines since the patch's preimage, and the patch changes them too;",
		"the markers", where, "hold the file's version (ours), then the patch's (theirs)"}, " ")
}

// threeway.go: the three-way reading of a hunk against what the model was last shown.

package edit

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// A three-way reading places a hunk by what the model saw of the file
// when it wrote it (the base), not only by the file as it is now. In a
// session, pair knows the base because it sent it. A hunk line that
// equals the base but not the file is stale: the person changed that line
// since. A context line so changed is kept as the file has it now, and the
// hunk placed; a line the hunk deletes or changes is a conflict, and the
// hunk refused. A hunk line that differs from the base is the model's own
// change, written into a line it did not mark: such a hunk is read as an
// interpreted one (see interpret.go), offered for review, never applied
// under --yes alone.

// Seen is what the model was shown of a file: Text holds its lines from
// line Start (1-based), each with its line terminator.
type Seen struct {
	Start int    `json:"start"`
	Text  string `json:"text"`
	// Preimage is set when Text is the blob a patch's index line names
	// (git apply --3way), not what a model read: the notes say so.
	Preimage bool `json:"-"`
}

// whenSeen and sinceSeen word the base of a three-way reading in its
// notes: what the model read, or the patch's preimage.
func whenSeen(preimage bool) string {
	if preimage {
		return "in the patch's preimage"
	}
	return "when the model read it"
}

func sinceSeen(preimage bool) string {
	if preimage {
		return "since the patch's preimage"
	}
	return "since the model read the file"
}

// ErrConflict means the hunk changes a line that was changed since the
// model read the file: pair cannot tell which change should win.
var ErrConflict = errors.New("hunk changes lines that were changed since the model read the file")

// NoteKept begins the note of a hunk placed by a three-way reading that
// kept lines the person changed since the model read them.
const NoteKept = "kept: "

// errNoBase means the three-way reading does not apply: the hunk is not
// found in what the model saw, or the person changed nothing it covers.
var errNoBase = errors.New("no three-way reading")

// ThreeWay reads the refused hunks of p again against seen, what the
// model was shown of the file before it wrote them. A hunk that places in
// seen, and covers lines the person changed since, is placed where those
// lines are now: with the file's version of the context lines it did not
// change, or, when it changes one of them, refused with ErrConflict. A
// hunk that places in seen only by interpretation gets that reading,
// carried to the file as it is now, as its interpreted reading
// (PlacementError.Interpreted). Hunks the person's changes do not touch
// are left as Place left them. ThreeWay reports whether it changed p.
func (p *FilePlan) ThreeWay(seen Seen) bool {
	if p.OldPath == "" || p.Diff == nil || len(p.Errors) == 0 || seen.Text == "" {
		return false
	}
	base, cur := splitFile(seen.Text), splitFile(p.Old)
	start := max(seen.Start, 1) - 1
	changed := false
	var errs []*PlacementError
	for _, e := range p.Errors {
		if e.Hunk < 0 || e.Hunk >= len(p.Diff.Hunks) {
			errs = append(errs, e)
			continue
		}
		r, interpreted, ok := placeInBase(seen.Text, start, e.Hunk, p.Diff.Hunks[e.Hunk])
		if !ok {
			errs = append(errs, e)
			continue
		}
		nr, err := rebase(r, base, cur, start, seen.Preimage)
		var ce *conflictError
		switch {
		case errors.As(err, &ce):
			e.Err, e.Detail, e.Interpreted = ErrConflict, ce.detail, nil
			errs = append(errs, e)
			changed = true
			continue
		case err != nil, slices.ContainsFunc(p.Hunks, func(o Resolved) bool { return sharesLines(nr, o) }):
			errs = append(errs, e)
			continue
		}
		changed = true
		if interpreted {
			e.Interpreted, e.Misread = &nr, nr.Interpreted
			errs = append(errs, e)
			continue
		}
		p.Hunks = append(p.Hunks, nr)
	}
	p.Errors = errs
	slices.SortStableFunc(p.Hunks, func(a, b Resolved) int { return a.Start - b.Start })
	return changed
}

// placeInBase places hunk i alone in the text the model saw (whose first
// line is line start+1 of the file): cleanly, or by its one interpreted
// reading.
func placeInBase(text string, start, i int, h *Hunk) (r Resolved, interpreted, ok bool) {
	hc := *h
	if hc.HasNumbers {
		hc.OldStart -= start
		hc.NewStart -= start
		if hc.OldStart < 1 || hc.NewStart < 1 {
			hc.HasNumbers, hc.OldStart, hc.NewStart = false, 0, 0
		}
	}
	rs, errs := Place(text, &FileDiff{Hunks: []*Hunk{&hc}})
	switch {
	case len(rs) == 1 && len(errs) == 0:
		r = rs[0]
	case len(rs) == 0 && len(errs) == 1 && errs[0].Interpreted != nil:
		r, interpreted = *errs[0].Interpreted, true
	default:
		return r, false, false
	}
	r.Hunk, r.Part = i, 0
	return r, interpreted, true
}

// conflictError is a three-way reading refused: the hunk and the person
// changed the same lines.
type conflictError struct{ detail string }

func (e *conflictError) Error() string { return ErrConflict.Error() + ": " + e.detail }

// region is a change of the person's: base lines [bLo, bHi) became the
// file's lines [cLo, cHi).
type region struct{ bLo, bHi, cLo, cHi int }

// personChanges returns the person's changes from base to cur, and for each
// base line the file line it is now (-1 for a changed one).
func personChanges(base, cur fileText) ([]region, []int) {
	match := make([]int, len(base.lines))
	var rs []region
	i, j := 0, 0
	for _, op := range lineOps(base, cur) {
		n := len(rs)
		joins := n > 0 && rs[n-1].bHi == i && rs[n-1].cHi == j
		switch op.kind {
		case Context:
			for k := range op.n {
				match[i+k] = j + k
			}
			i, j = i+op.n, j+op.n
		case Delete:
			for k := range op.n {
				match[i+k] = -1
			}
			if joins {
				rs[n-1].bHi += op.n
			} else {
				rs = append(rs, region{i, i + op.n, j, j})
			}
			i += op.n
		case Add:
			if joins {
				rs[n-1].cHi += op.n
			} else {
				rs = append(rs, region{i, i, j, j + op.n})
			}
			j += op.n
		}
	}
	return rs, match
}

// rebase carries r, placed in base (the lines the model saw, the first
// being line start+1 of the file), to cur, the file's lines now. The
// person's changes inside r's lines are kept when they touch only its
// context; errNoBase reports that they do not touch r at all.
func rebase(r Resolved, base, cur fileText, start int, preimage bool) (Resolved, error) {
	regions, match := personChanges(base, cur)
	lo := r.Start
	hi := lo + r.OldCount()
	// For each base line of r, its kind; for each gap before base line g
	// (g in [lo, hi]), whether r adds lines there.
	kinds := make([]Kind, 0, hi-lo)
	adds := map[int]bool{}
	for _, l := range r.Lines {
		if l.Kind == Add {
			adds[lo+len(kinds)] = true
			continue
		}
		kinds = append(kinds, l.Kind)
	}
	at := func(g int) Kind { return kinds[g-lo] }
	conflict := func(format string, args ...any) error {
		return &conflictError{detail: fmt.Sprintf(format, args...)}
	}
	was := func(g int) string {
		return fmt.Sprintf("line %d was %q %s", start+g+1, base.lines[g], whenSeen(preimage))
	}

	insertAt := map[int]region{}  // a gap where the person added lines
	replaceAt := map[int]region{} // the first line of r in a changed region
	var notes []string
	for _, rg := range regions {
		if rg.bLo == rg.bHi { // lines added by the person
			g := rg.bLo
			if g < lo || g > hi {
				continue
			}
			if adds[g] || g > lo && at(g-1) == Delete || g < hi && at(g) == Delete {
				return Resolved{}, conflict("lines were added at line %d %s, where the hunk changes the file", rg.cLo+1, sinceSeen(preimage))
			}
			if g > lo && g < hi {
				insertAt[g] = rg
				notes = append(notes, fmt.Sprintf("%slines %d-%d were added %s; the hunk keeps them", NoteKept, rg.cLo+1, rg.cHi, sinceSeen(preimage)))
			}
			continue
		}
		a, b := max(rg.bLo, lo), min(rg.bHi, hi)
		if a >= b {
			continue // outside r
		}
		for g := a; g < b; g++ {
			if at(g) == Delete {
				if rg.cLo == rg.cHi {
					return Resolved{}, conflict("%s, and was deleted since; the hunk changes it", was(g))
				}
				return Resolved{}, conflict("%s, and is %s now; the hunk changes it", was(g), describeLines(cur, rg.cLo, rg.cHi))
			}
		}
		// A patch's preimage is merged as git merges: a change of the
		// person's next to one of the hunk's is a conflict too.
		if preimage && (a > lo && at(a-1) == Delete || b < hi && at(b) == Delete || adds[a] || adds[b]) {
			return Resolved{}, conflict("%s, and was changed since, next to the lines the hunk changes", was(a))
		}
		inside := rg.bLo >= lo && rg.bHi <= hi
		for g := a; g <= b; g++ {
			// Lines r adds among the changed ones, or next to them where
			// the change reaches past r's edge, have no place.
			if adds[g] && (g > a && g < b || g == a && rg.bLo < lo || g == b && rg.bHi > hi) {
				return Resolved{}, conflict("%s, and was changed since; the hunk adds lines next to it", was(min(g, b-1)))
			}
		}
		if inside {
			replaceAt[a] = rg
		} else {
			replaceAt[a] = region{bLo: a, bHi: b, cLo: -1, cHi: -1} // dropped from r's edge
		}
		switch {
		case rg.cLo == rg.cHi:
			notes = append(notes, fmt.Sprintf("%s%s, and was deleted since; the hunk leaves it deleted", NoteKept, was(a)))
		case b-a == 1 && rg.cHi-rg.cLo == 1:
			notes = append(notes, fmt.Sprintf("%s%s, and is %q now; the hunk keeps it as it is now", NoteKept, was(a), cur.lines[rg.cLo]))
		default:
			notes = append(notes, fmt.Sprintf("%slines %d-%d changed %s; the hunk keeps them as they are now", NoteKept, start+a+1, start+b, sinceSeen(preimage)))
		}
	}
	if len(notes) == 0 {
		return Resolved{}, errNoBase
	}

	// The hunk again, its lines taken from the file as it is now.
	out := r
	out.Lines = nil
	// r's own notes count lines from the start of what the model saw.
	out.Notes = nil
	if start == 0 {
		out.Notes = slices.Clone(r.Notes)
	}
	out.Notes = slices.DeleteFunc(out.Notes, func(n string) bool { return strings.HasPrefix(n, "interpreted: ") })
	out.Notes = append(out.Notes, notes...)
	first, next := -1, -1
	take := func(k Kind, c int) bool {
		if next >= 0 && c != next {
			return false
		}
		if first < 0 {
			first = c
		}
		next = c + 1
		out.Lines = append(out.Lines, Line{Kind: k, Text: cur.lines[c]})
		return true
	}
	g, skip := lo, lo
	for _, l := range r.Lines {
		if l.Kind == Add {
			out.Lines = append(out.Lines, l)
			continue
		}
		if g < skip {
			g++
			continue
		}
		if rg, ok := insertAt[g]; ok {
			for c := rg.cLo; c < rg.cHi; c++ {
				if !take(Context, c) {
					return Resolved{}, errNoBase
				}
			}
		}
		if rg, ok := replaceAt[g]; ok {
			for c := rg.cLo; c < rg.cHi && rg.cLo >= 0; c++ {
				if !take(Context, c) {
					return Resolved{}, errNoBase
				}
			}
			skip = max(rg.bHi, g+1)
			if rg.cLo < 0 {
				skip = min(rg.bHi, hi)
			}
			g++
			continue
		}
		if match[g] < 0 || !take(l.Kind, match[g]) {
			return Resolved{}, errNoBase
		}
		g++
	}
	if first < 0 {
		return Resolved{}, errNoBase
	}
	out.Start = first
	out.Offset = 0
	out.Hinted = false
	// The interpreted lines, where they are now.
	out.Interpreted = nil
	for _, in := range r.Interpreted {
		b := in.Line - 1 // 0-based in base
		if b < 0 || b >= len(match) || match[b] < 0 {
			return Resolved{}, errNoBase
		}
		in.Line = match[b] + 1
		if in.Kind != InterpretAdded {
			in.File = cur.lines[match[b]]
		}
		out.Interpreted = append(out.Interpreted, in)
	}
	for _, in := range out.Interpreted {
		out.Notes = append(out.Notes, "interpreted: "+in.Explain())
	}
	return out, nil
}

// describeLines shows the file's lines [lo, hi) for a conflict's detail.
func describeLines(t fileText, lo, hi int) string {
	if hi-lo == 1 {
		return fmt.Sprintf("%q (line %d)", t.lines[lo], lo+1)
	}
	return fmt.Sprintf("lines %d-%d", lo+1, hi)
}

// Lost returns the lines of now (1-based) that from does not have: what
// deleting the file now would lose, when from is the content the side
// that deletes it knew.
func Lost(from, now string) []int {
	regions, _ := personChanges(splitFile(from), splitFile(now))
	var out []int
	for _, rg := range regions {
		for c := rg.cLo; c < rg.cHi; c++ {
			out = append(out, c+1)
		}
	}
	return out
}

// LineList names 1-based line numbers, runs as ranges: "line 4", "lines
// 2, 5-7".
func LineList(ns []int) string {
	var parts []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		if i == j {
			parts = append(parts, strconv.Itoa(ns[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", ns[i], ns[j]))
		}
		i = j + 1
	}
	if len(ns) == 1 {
		return "line " + parts[0]
	}
	return "lines " + strings.Join(parts, ", ")
}

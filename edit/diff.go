// diff.go: Diff: pair's own line diff of two texts, as resolved hunks.

package edit

// Diff returns the hunks that turn old into new, as git diff shows them: a
// minimal line diff (Myers), grouped with three lines of context on each
// side, changes whose context would touch or overlap sharing a hunk. Each
// hunk is Resolved against old: Start is its first old line (0-based),
// Lines hold the texts without line terminators, Pass is PassExact, and
// the last hunk says when the final newline is added or removed. As in git
// diff, a last line without newline only matches a last line without
// newline: one that only gains or loses its newline is shown deleted and
// added again. Identical texts give no hunks.
//
// Lines are compared without their terminators: a hunk cannot change a
// line ending (Apply keeps the ending of each line it keeps or replaces,
// and gives new lines the file's dominant one), so old and new that differ
// only in line endings give no hunks. Otherwise Apply(old, Diff(old, new))
// is new whenever new's line endings are those Apply would give it, which
// is the case for any two texts that use the same ending throughout.
//
// Very large, very different texts are not diffed to the minimum: past a
// fixed amount of work, the rest of a region is deleted and added whole,
// which is still a correct diff.
func Diff(old, new string) []Resolved {
	ot, nt := splitFile(old), splitFile(new)
	ops := lineOps(ot, nt)
	eofChange := ot.finalNewline() != nt.finalNewline()
	final := NewlineKeep
	if eofChange {
		final = NewlineRemove
		if nt.finalNewline() {
			final = NewlineAdd
		}
	}

	// The changes, with their place in both texts.
	type change struct{ oldPos, del, newPos, ins int }
	var cs []change
	i, j := 0, 0
	for _, op := range ops {
		switch op.kind {
		case Context:
			i += op.n
			j += op.n
		case Delete:
			if k := len(cs); k > 0 && cs[k-1].oldPos+cs[k-1].del == i && cs[k-1].newPos+cs[k-1].ins == j {
				cs[k-1].del += op.n
			} else {
				cs = append(cs, change{oldPos: i, del: op.n, newPos: j})
			}
			i += op.n
		case Add:
			if k := len(cs); k > 0 && cs[k-1].oldPos+cs[k-1].del == i && cs[k-1].newPos+cs[k-1].ins == j {
				cs[k-1].ins += op.n
			} else {
				cs = append(cs, change{oldPos: i, newPos: j, ins: op.n})
			}
			j += op.n
		}
	}
	if len(cs) == 0 {
		return nil
	}
	// Where a run of added (or deleted) lines could as well be shown one
	// line later, as with a blank line added between blank lines, show it
	// as late as it goes, as diff does; runs that come to touch merge.
	for k := range cs {
		c := &cs[k]
		nextOld, nextNew := len(ot.lines), len(nt.lines)
		if k+1 < len(cs) {
			nextOld, nextNew = cs[k+1].oldPos, cs[k+1].newPos
		}
		switch {
		case c.del == 0 && c.ins > 0:
			for c.newPos+c.ins < nextNew && nt.same(c.newPos, c.newPos+c.ins) {
				c.oldPos++
				c.newPos++
			}
		case c.ins == 0 && c.del > 0:
			for c.oldPos+c.del < nextOld && ot.same(c.oldPos, c.oldPos+c.del) {
				c.oldPos++
				c.newPos++
			}
		}
	}
	merged := cs[:1]
	for _, c := range cs[1:] {
		if p := &merged[len(merged)-1]; p.oldPos+p.del == c.oldPos && p.newPos+p.ins == c.newPos {
			p.del += c.del
			p.ins += c.ins
			continue
		}
		merged = append(merged, c)
	}
	cs = merged

	// Group the changes with renderContext lines of context.
	var out []Resolved
	for k := 0; k < len(cs); {
		from := max(0, cs[k].oldPos-renderContext)
		to := min(len(ot.lines), cs[k].oldPos+cs[k].del+renderContext)
		end := k + 1
		for end < len(cs) && max(0, cs[end].oldPos-renderContext) <= to {
			to = min(len(ot.lines), cs[end].oldPos+cs[end].del+renderContext)
			end++
		}
		r := Resolved{Hunk: len(out), Start: from, Pass: PassExact, Hinted: true}
		pos := from
		for _, c := range cs[k:end] {
			for ; pos < c.oldPos; pos++ {
				r.Lines = append(r.Lines, Line{Kind: Context, Text: ot.lines[pos]})
			}
			for d := 0; d < c.del; d++ {
				r.Lines = append(r.Lines, Line{Kind: Delete, Text: ot.lines[c.oldPos+d]})
			}
			for a := 0; a < c.ins; a++ {
				r.Lines = append(r.Lines, Line{Kind: Add, Text: nt.lines[c.newPos+a]})
			}
			pos = c.oldPos + c.del
		}
		for ; pos < to; pos++ {
			r.Lines = append(r.Lines, Line{Kind: Context, Text: ot.lines[pos]})
		}
		if end == len(cs) {
			r.FinalNewline = final
		}
		out = append(out, r)
		k = end
	}
	return out
}

// same reports whether lines i and j of t are the same line for Diff: the
// same text, and both or neither the last line without newline.
func (t fileText) same(i, j int) bool {
	return t.lines[i] == t.lines[j] && (t.eols[i] == "") == (t.eols[j] == "")
}

// lineOp is a run of n lines that are kept (Context), deleted or added.
type lineOp struct {
	kind Kind
	n    int
}

// lineOps returns a shortest edit script from a to b, as runs of kept,
// deleted and added lines; a run of deletions comes before the additions
// that replace it. A last line without newline is not the same line as
// one with the same text and a newline, as in git diff: that is what
// shows the final newline added or removed.
func lineOps(a, b fileText) []lineOp {
	// Number the distinct lines, so that the comparisons are of ints.
	ids := map[string]int{}
	noEOL := map[string]int{}
	num := func(t fileText) []int {
		out := make([]int, len(t.lines))
		for i, l := range t.lines {
			m := ids
			if t.eols[i] == "" {
				m = noEOL
			}
			id, ok := m[l]
			if !ok {
				id = len(ids) + len(noEOL)
				m[l] = id
			}
			out[i] = id
		}
		return out
	}
	m := &myers{a: num(a), b: num(b), budget: diffBudget}
	m.compare(0, len(a.lines), 0, len(b.lines))
	return m.ops
}

// diffBudget bounds the work of one Diff (diagonal steps of the search);
// past it, regions are replaced whole instead of diffed to the minimum.
const diffBudget = 1 << 26

// myers finds a shortest edit script with the linear-space variant of
// Myers' algorithm ("An O(ND) Difference Algorithm and Its Variations",
// 1986, section 4b): find the middle snake of the optimal path, then
// solve the two halves on either side of it.
type myers struct {
	a, b   []int
	ops    []lineOp
	vf, vb []int
	budget int
}

func (m *myers) emit(k Kind, n int) {
	if n == 0 {
		return
	}
	if l := len(m.ops); l > 0 && m.ops[l-1].kind == k {
		m.ops[l-1].n += n
		return
	}
	// Keep deletions before additions within a change.
	if l := len(m.ops); k == Delete && l > 0 && m.ops[l-1].kind == Add {
		if l > 1 && m.ops[l-2].kind == Delete {
			m.ops[l-2].n += n
			return
		}
		add := m.ops[l-1]
		m.ops[l-1] = lineOp{Delete, n}
		m.ops = append(m.ops, add)
		return
	}
	m.ops = append(m.ops, lineOp{k, n})
}

// compare emits the edit script of a[aLo:aHi] against b[bLo:bHi].
func (m *myers) compare(aLo, aHi, bLo, bHi int) {
	pre := 0
	for aLo+pre < aHi && bLo+pre < bHi && m.a[aLo+pre] == m.b[bLo+pre] {
		pre++
	}
	m.emit(Context, pre)
	aLo, bLo = aLo+pre, bLo+pre
	suf := 0
	for aHi-suf > aLo && bHi-suf > bLo && m.a[aHi-suf-1] == m.b[bHi-suf-1] {
		suf++
	}
	aHi, bHi = aHi-suf, bHi-suf
	switch {
	case aLo == aHi:
		m.emit(Add, bHi-bLo)
	case bLo == bHi:
		m.emit(Delete, aHi-aLo)
	default:
		x, y, u, v, ok := m.middleSnake(aLo, aHi, bLo, bHi)
		if !ok {
			m.emit(Delete, aHi-aLo)
			m.emit(Add, bHi-bLo)
			break
		}
		m.compare(aLo, x, bLo, y)
		m.emit(Context, u-x)
		m.compare(u, aHi, v, bHi)
	}
	m.emit(Context, suf)
}

// middleSnake finds the middle snake (x, y)-(u, v) of an optimal path
// through a[aLo:aHi] and b[bLo:bHi], which have no common first or last
// element and are both non-empty: the two halves on either side of it
// each cost less than the whole. ok is false when the work budget ran
// out.
func (m *myers) middleSnake(aLo, aHi, bLo, bHi int) (x, y, u, v int, ok bool) {
	n, mm := aHi-aLo, bHi-bLo
	delta := n - mm
	odd := delta&1 != 0
	maxD := (n + mm + 1) / 2
	size := 2*maxD + 3
	if cap(m.vf) < size {
		m.vf, m.vb = make([]int, size), make([]int, size)
	}
	vf, vb := m.vf[:size], m.vb[:size]
	off := maxD + 1
	// vf[off+k]: furthest x reached on forward diagonal k (x-y = k);
	// vb[off+k]: furthest distance from the end reached on backward
	// diagonal k (counted on the reversed texts), which is forward
	// diagonal delta-k.
	vf[off+1], vb[off+1] = 0, 0
	for d := 0; d <= maxD; d++ {
		m.budget -= 2*d + 1
		if m.budget < 0 {
			return 0, 0, 0, 0, false
		}
		for k := -d; k <= d; k += 2 {
			var px int
			if k == -d || (k != d && vf[off+k-1] < vf[off+k+1]) {
				px = vf[off+k+1]
			} else {
				px = vf[off+k-1] + 1
			}
			py := px - k
			ex, ey := px, py
			for ex < n && ey < mm && m.a[aLo+ex] == m.b[bLo+ey] {
				ex++
				ey++
			}
			vf[off+k] = ex
			if bk := delta - k; odd && bk >= -(d-1) && bk <= d-1 && ex+vb[off+bk] >= n {
				return aLo + px, bLo + py, aLo + ex, bLo + ey, true
			}
		}
		for k := -d; k <= d; k += 2 {
			var px int
			if k == -d || (k != d && vb[off+k-1] < vb[off+k+1]) {
				px = vb[off+k+1]
			} else {
				px = vb[off+k-1] + 1
			}
			py := px - k
			ex, ey := px, py
			for ex < n && ey < mm && m.a[aHi-1-ex] == m.b[bHi-1-ey] {
				ex++
				ey++
			}
			vb[off+k] = ex
			if fk := delta - k; !odd && fk >= -d && fk <= d && ex+vf[off+fk] >= n {
				return aHi - ex, bHi - ey, aHi - px, bHi - py, true
			}
		}
	}
	return 0, 0, 0, 0, false // not reached: a path costs at most n+mm
}

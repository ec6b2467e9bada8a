// blamediff.go: the line diff blame passes lines through, making git's choices among equally short diffs.

package repo

import "strings"

// Two files often have many shortest diffs: which of two blank lines was
// added, which "}" was kept. git blame gives a line to the commit its own
// diff says, so Blame diffs as git's xdiff does (Myers' algorithm as
// xdiffi.c runs it: lines without a match set aside first, the middle
// split found from the same side, groups of changes slid as far down as
// they go, then placed by the indentation heuristic git diff and git
// blame use by default). edit.Diff, pair's diff for people, is a shortest
// diff too, but chooses otherwise in about 3 lines of 100 of a real
// history, which Blame would then give to the wrong commit.

// The constants of xdiff.
const (
	xdlMaxEqLimit  = 1024 // a line matched more often than this is set aside
	xdlSimscanWin  = 100
	xdlKpdisRun    = 4
	xdlMaxCostMin  = 256
	xdlSnakeCnt    = 20
	xdlHeurMinCost = 256
	xdlKHeur       = 4
	xdlLineMax     = int(^uint(0) >> 1)
)

// xfile is one side of a diff: its lines as classes (equal lines, equal
// class), which are changed, and the lines the search looks at.
type xfile struct {
	lines  []string
	class  []int
	rchg   []bool // with a false before the first line and after the last
	rindex []int  // the lines the search looks at
	ha     []int  // their classes
	dstart int
	dend   int
}

func (f *xfile) changed(i int) bool { return f.rchg[i+1] }
func (f *xfile) set(i int, v bool)  { f.rchg[i+1] = v }

// gitDiff returns, for each line of b, the line of a it keeps, or -1 for
// a line the change wrote; and the number of a's lines before its place.
// As git does for a diff without context (blame's), the common tail is
// cut first (see commonTail): what is cut changes the counts the search
// starts from, and so its choices.
func gitDiff(a, b []string) (kept, at []int) {
	tail := commonTail(a, b)
	ka, kb := xdiff(a[:len(a)-tail], b[:len(b)-tail])
	kept, at = make([]int, len(b)), make([]int, len(b))
	copy(kept, ka)
	copy(at, kb)
	for k := range tail {
		i, j := len(a)-tail+k, len(b)-tail+k
		kept[j], at[j] = i, i
	}
	return kept, at
}

// commonTailBlock is the block git compares the ends of two files by.
const commonTailBlock = 1024

// commonTail returns the number of last lines of a and b that git's
// trim_common_tail leaves out of a diff without context: the lines after
// the first line end in the whole blocks of commonTailBlock bytes that
// both files end with.
func commonTail(a, b []string) int {
	ta, tb := strings.Join(a, ""), strings.Join(b, "")
	trimmed := 0
	for commonTailBlock+trimmed <= min(len(ta), len(tb)) &&
		ta[len(ta)-trimmed-commonTailBlock:len(ta)-trimmed] == tb[len(tb)-trimmed-commonTailBlock:len(tb)-trimmed] {
		trimmed += commonTailBlock
	}
	nl := strings.IndexByte(ta[len(ta)-trimmed:], '\n')
	if nl < 0 {
		return 0
	}
	cut := trimmed - nl - 1 // bytes left out, whole lines
	n := 0
	for k := len(a) - 1; k >= 0 && cut > 0; k-- {
		cut -= len(a[k])
		n++
	}
	return n
}

// xdiff is gitDiff without the common tail cut.
func xdiff(a, b []string) (kept, at []int) {
	classes := map[string]int{}
	x1, x2 := &xfile{lines: a}, &xfile{lines: b}
	var count1, count2 []int // occurrences of each class in a and in b
	for _, f := range []*xfile{x1, x2} {
		f.class = make([]int, len(f.lines))
		f.rchg = make([]bool, len(f.lines)+2)
		for i, l := range f.lines {
			c, ok := classes[l]
			if !ok {
				c = len(classes)
				classes[l] = c
				count1, count2 = append(count1, 0), append(count2, 0)
			}
			f.class[i] = c
			if f == x1 {
				count1[c]++
			} else {
				count2[c]++
			}
		}
	}
	trimEnds(x1, x2)
	cleanup(x1, count2)
	cleanup(x2, count1)
	n1, n2 := len(x1.ha), len(x2.ha)
	ndiags := n1 + n2 + 3
	kv := make([]int, 2*ndiags)
	e := xenv{mxcost: max(bogosqrt(ndiags), xdlMaxCostMin), kvdf: kv[:ndiags], kvdb: kv[ndiags:], off: n2 + 1}
	e.recsCmp(x1, 0, n1, x2, 0, n2, false)
	compact(x1, x2)
	compact(x2, x1)

	kept, at = make([]int, len(b)), make([]int, len(b))
	i := 0
	for j := range b {
		for i < len(a) && x1.changed(i) {
			i++
		}
		at[j] = i
		if x2.changed(j) {
			kept[j] = -1
			continue
		}
		kept[j] = i
		i++
	}
	return kept, at
}

// bogosqrt is xdiff's rough square root.
func bogosqrt(n int) int {
	i := 1
	for ; n > 0; n >>= 2 {
		i <<= 1
	}
	return i
}

// trimEnds finds the lines both files share at their start and end.
func trimEnds(x1, x2 *xfile) {
	lim := min(len(x1.lines), len(x2.lines))
	i := 0
	for i < lim && x1.class[i] == x2.class[i] {
		i++
	}
	x1.dstart, x2.dstart = i, i
	lim -= i
	k := 0
	for k < lim && x1.class[len(x1.lines)-1-k] == x2.class[len(x2.lines)-1-k] {
		k++
	}
	x1.dend, x2.dend = len(x1.lines)-k-1, len(x2.lines)-k-1
}

// cleanup sets aside the lines between the shared ends that the other
// file lacks (changed at once), and lines the other file holds very often
// amid such lines; the rest go to the search. other counts each class in
// the other file.
func cleanup(f *xfile, other []int) {
	mlim := min(bogosqrt(len(f.lines)), xdlMaxEqLimit)
	dis := make([]int, len(f.lines)+1)
	for i := f.dstart; i <= f.dend; i++ {
		switch nm := other[f.class[i]]; {
		case nm == 0:
			dis[i] = 0
		case nm >= mlim:
			dis[i] = 2
		default:
			dis[i] = 1
		}
	}
	for i := f.dstart; i <= f.dend; i++ {
		if dis[i] == 1 || dis[i] == 2 && !cleanMatch(dis, i, f.dstart, f.dend) {
			f.rindex = append(f.rindex, i)
			f.ha = append(f.ha, f.class[i])
		} else {
			f.set(i, true)
		}
	}
}

// cleanMatch reports whether the often matched line i sits among lines
// without a match enough to be set aside too.
func cleanMatch(dis []int, i, s, e int) bool {
	if i-s > xdlSimscanWin {
		s = i - xdlSimscanWin
	}
	if e-i > xdlSimscanWin {
		e = i + xdlSimscanWin
	}
	rdis0, rpdis0 := 0, 1
	for r := 1; i-r >= s; r++ {
		if dis[i-r] == 0 {
			rdis0++
		} else if dis[i-r] == 2 {
			rpdis0++
		} else {
			break
		}
	}
	if rdis0 == 0 {
		return false
	}
	rdis1, rpdis1 := 0, 1
	for r := 1; i+r <= e; r++ {
		if dis[i+r] == 0 {
			rdis1++
		} else if dis[i+r] == 2 {
			rpdis1++
		} else {
			break
		}
	}
	if rdis1 == 0 {
		return false
	}
	rdis1 += rdis0
	rpdis1 += rpdis0
	return rpdis1*xdlKpdisRun < rpdis1+rdis1
}

// xenv is the state of one search: the furthest points of each
// diagonal, forward and backward, indexed from off.
type xenv struct {
	mxcost     int
	kvdf, kvdb []int
	off        int
}

func (e *xenv) f(d int) *int { return &e.kvdf[d+e.off] }
func (e *xenv) b(d int) *int { return &e.kvdb[d+e.off] }

// recsCmp marks the changed lines between off and lim of the searched
// lines of both files: the common ends walked, then split in two.
func (e *xenv) recsCmp(x1 *xfile, off1, lim1 int, x2 *xfile, off2, lim2 int, needMin bool) {
	ha1, ha2 := x1.ha, x2.ha
	for off1 < lim1 && off2 < lim2 && ha1[off1] == ha2[off2] {
		off1++
		off2++
	}
	for off1 < lim1 && off2 < lim2 && ha1[lim1-1] == ha2[lim2-1] {
		lim1--
		lim2--
	}
	switch {
	case off1 == lim1:
		for ; off2 < lim2; off2++ {
			x2.set(x2.rindex[off2], true)
		}
	case off2 == lim2:
		for ; off1 < lim1; off1++ {
			x1.set(x1.rindex[off1], true)
		}
	default:
		s := e.split(ha1, off1, lim1, ha2, off2, lim2, needMin)
		e.recsCmp(x1, off1, s.i1, x2, off2, s.i2, s.minLo)
		e.recsCmp(x1, s.i1, lim1, x2, s.i2, lim2, s.minHi)
	}
}

type xsplit struct {
	i1, i2       int
	minLo, minHi bool
}

// split finds where the shortest path through the box crosses its
// middle, searching from both corners at once, as xdl_split does (with
// its cut-offs for costly searches).
func (e *xenv) split(ha1 []int, off1, lim1 int, ha2 []int, off2, lim2 int, needMin bool) xsplit {
	dmin, dmax := off1-lim2, lim1-off2
	fmid, bmid := off1-off2, lim1-lim2
	odd := (fmid-bmid)&1 != 0
	fmin, fmax, bmin, bmax := fmid, fmid, bmid, bmid
	*e.f(fmid) = off1
	*e.b(bmid) = lim1
	for ec := 1; ; ec++ {
		gotSnake := false
		if fmin > dmin {
			fmin--
			*e.f(fmin - 1) = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			*e.f(fmax + 1) = -1
		} else {
			fmax--
		}
		for d := fmax; d >= fmin; d -= 2 {
			var i1 int
			if *e.f(d - 1) >= *e.f(d + 1) {
				i1 = *e.f(d - 1) + 1
			} else {
				i1 = *e.f(d + 1)
			}
			prev1 := i1
			i2 := i1 - d
			for i1 < lim1 && i2 < lim2 && ha1[i1] == ha2[i2] {
				i1++
				i2++
			}
			if i1-prev1 > xdlSnakeCnt {
				gotSnake = true
			}
			*e.f(d) = i1
			if odd && bmin <= d && d <= bmax && *e.b(d) <= i1 {
				return xsplit{i1, i2, true, true}
			}
		}
		if bmin > dmin {
			bmin--
			*e.b(bmin - 1) = xdlLineMax
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			*e.b(bmax + 1) = xdlLineMax
		} else {
			bmax--
		}
		for d := bmax; d >= bmin; d -= 2 {
			var i1 int
			if *e.b(d - 1) < *e.b(d + 1) {
				i1 = *e.b(d - 1)
			} else {
				i1 = *e.b(d + 1) - 1
			}
			prev1 := i1
			i2 := i1 - d
			for i1 > off1 && i2 > off2 && ha1[i1-1] == ha2[i2-1] {
				i1--
				i2--
			}
			if prev1-i1 > xdlSnakeCnt {
				gotSnake = true
			}
			*e.b(d) = i1
			if !odd && fmin <= d && d <= fmax && i1 <= *e.f(d) {
				return xsplit{i1, i2, true, true}
			}
		}
		if needMin {
			continue
		}
		if gotSnake && ec > xdlHeurMinCost {
			best, s := 0, xsplit{}
			for d := fmax; d >= fmin; d -= 2 {
				dd := abs(d - fmid)
				i1 := *e.f(d)
				i2 := i1 - d
				v := (i1 - off1) + (i2 - off2) - dd
				if v > xdlKHeur*ec && v > best && off1+xdlSnakeCnt <= i1 && i1 < lim1 && off2+xdlSnakeCnt <= i2 && i2 < lim2 {
					for k := 1; ha1[i1-k] == ha2[i2-k]; k++ {
						if k == xdlSnakeCnt {
							best, s.i1, s.i2 = v, i1, i2
							break
						}
					}
				}
			}
			if best > 0 {
				s.minLo, s.minHi = true, false
				return s
			}
			for d := bmax; d >= bmin; d -= 2 {
				dd := abs(d - bmid)
				i1 := *e.b(d)
				i2 := i1 - d
				v := (lim1 - i1) + (lim2 - i2) - dd
				if v > xdlKHeur*ec && v > best && off1 < i1 && i1 <= lim1-xdlSnakeCnt && off2 < i2 && i2 <= lim2-xdlSnakeCnt {
					for k := 0; ha1[i1+k] == ha2[i2+k]; k++ {
						if k == xdlSnakeCnt-1 {
							best, s.i1, s.i2 = v, i1, i2
							break
						}
					}
				}
			}
			if best > 0 {
				s.minLo, s.minHi = false, true
				return s
			}
		}
		if ec >= e.mxcost {
			fbest, fbest1 := -1, -1
			for d := fmax; d >= fmin; d -= 2 {
				i1 := min(*e.f(d), lim1)
				i2 := i1 - d
				if lim2 < i2 {
					i1, i2 = lim2+d, lim2
				}
				if fbest < i1+i2 {
					fbest, fbest1 = i1+i2, i1
				}
			}
			bbest, bbest1 := xdlLineMax, xdlLineMax
			for d := bmax; d >= bmin; d -= 2 {
				i1 := max(off1, *e.b(d))
				i2 := i1 - d
				if i2 < off2 {
					i1, i2 = off2+d, off2
				}
				if i1+i2 < bbest {
					bbest, bbest1 = i1+i2, i1
				}
			}
			if (lim1+lim2)-bbest < fbest-(off1+off2) {
				return xsplit{fbest1, fbest - fbest1, true, false}
			}
			return xsplit{bbest1, bbest - bbest1, false, true}
		}
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// xgroup is a run of changed lines [start, end) of one file; empty
// between two kept lines.
type xgroup struct{ start, end int }

func (f *xfile) groupInit() xgroup {
	g := xgroup{}
	for f.changed(g.end) {
		g.end++
	}
	return g
}

func (f *xfile) groupNext(g *xgroup) bool {
	if g.end == len(f.lines) {
		return false
	}
	g.start = g.end + 1
	for g.end = g.start; f.changed(g.end); g.end++ {
	}
	return true
}

func (f *xfile) groupPrevious(g *xgroup) bool {
	if g.start == 0 {
		return false
	}
	g.end = g.start - 1
	for g.start = g.end; f.changed(g.start - 1); g.start-- {
	}
	return true
}

func (f *xfile) slideDown(g *xgroup) bool {
	if g.end < len(f.lines) && f.class[g.start] == f.class[g.end] {
		f.set(g.start, false)
		f.set(g.end, true)
		g.start++
		g.end++
		for f.changed(g.end) {
			g.end++
		}
		return true
	}
	return false
}

func (f *xfile) slideUp(g *xgroup) bool {
	if g.start > 0 && f.class[g.start-1] == f.class[g.end-1] {
		g.start--
		g.end--
		f.set(g.start, true)
		f.set(g.end, false)
		for f.changed(g.start - 1) {
			g.start--
		}
		return true
	}
	return false
}

// indentMaxSliding bounds how far the indentation heuristic looks.
const indentMaxSliding = 100

// compact slides each group of changes of f as xdl_change_compact does:
// up and down as far as it goes, merging with the groups it meets; then
// back up to line up with a group of the other file, else to the place
// the indentation heuristic likes best. o is the other file, whose
// groups are kept in step.
func compact(f, o *xfile) {
	g, og := f.groupInit(), o.groupInit()
	for {
		if g.end != g.start {
			var earliestEnd, endMatching, size int
			for {
				size = g.end - g.start
				endMatching = -1
				for f.slideUp(&g) {
					o.groupPrevious(&og)
				}
				earliestEnd = g.end
				if og.end > og.start {
					endMatching = g.end
				}
				for f.slideDown(&g) {
					o.groupNext(&og)
					if og.end > og.start {
						endMatching = g.end
					}
				}
				if size == g.end-g.start {
					break
				}
			}
			switch {
			case g.end == earliestEnd:
			case endMatching != -1:
				for og.end == og.start {
					f.slideUp(&g)
					o.groupPrevious(&og)
				}
			default:
				shift := max(earliestEnd, g.end-size-1, g.end-indentMaxSliding)
				bestShift := -1
				var best splitScore
				for ; shift <= g.end; shift++ {
					var s splitScore
					s.add(f.measure(shift))
					s.add(f.measure(shift - size))
					if bestShift == -1 || s.cmp(best) <= 0 {
						best, bestShift = s, shift
					}
				}
				for g.end > bestShift {
					f.slideUp(&g)
					o.groupPrevious(&og)
				}
			}
		}
		if !f.groupNext(&g) {
			break
		}
		o.groupNext(&og)
	}
}

// The indentation heuristic's measures and weights, as xdiff's.
const (
	maxIndent                       = 200
	maxBlanks                       = 20
	startOfFilePenalty              = 1
	endOfFilePenalty                = 21
	totalBlankWeight                = -30
	postBlankWeight                 = 6
	relativeIndentPenalty           = -4
	relativeIndentWithBlankPenalty  = 10
	relativeOutdentPenalty          = 24
	relativeOutdentWithBlankPenalty = 17
	relativeDedentPenalty           = 23
	relativeDedentWithBlankPenalty  = 17
	indentWeight                    = 60
)

// xIndent is a line's indentation, tabs to the next multiple of 8, or
// -1 for a line of white space only.
func xIndent(l string) int {
	n := 0
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case ' ':
			n++
		case '\t':
			n += 8 - n%8
		case '\n', '\r', '\v', '\f':
		default:
			return n
		}
		if n >= maxIndent {
			return maxIndent
		}
	}
	return -1
}

type splitMeasure struct {
	endOfFile                   bool
	indent, preBlank, preIndent int
	postBlank, postIndent       int
}

// measure describes the place between lines split-1 and split.
func (f *xfile) measure(split int) splitMeasure {
	var m splitMeasure
	if split >= len(f.lines) {
		m.endOfFile, m.indent = true, -1
	} else {
		m.indent = xIndent(f.lines[split])
	}
	m.preIndent = -1
	for i := split - 1; i >= 0; i-- {
		if m.preIndent = xIndent(f.lines[i]); m.preIndent != -1 {
			break
		}
		if m.preBlank++; m.preBlank == maxBlanks {
			m.preIndent = 0
			break
		}
	}
	m.postIndent = -1
	for i := split + 1; i < len(f.lines); i++ {
		if m.postIndent = xIndent(f.lines[i]); m.postIndent != -1 {
			break
		}
		if m.postBlank++; m.postBlank == maxBlanks {
			m.postIndent = 0
			break
		}
	}
	return m
}

type splitScore struct{ effectiveIndent, penalty int }

func (s *splitScore) add(m splitMeasure) {
	if m.preIndent == -1 && m.preBlank == 0 {
		s.penalty += startOfFilePenalty
	}
	if m.endOfFile {
		s.penalty += endOfFilePenalty
	}
	postBlank := 0
	if m.indent == -1 {
		postBlank = 1 + m.postBlank
	}
	totalBlank := m.preBlank + postBlank
	s.penalty += totalBlankWeight*totalBlank + postBlankWeight*postBlank
	indent := m.indent
	if indent == -1 {
		indent = m.postIndent
	}
	anyBlanks := totalBlank != 0
	s.effectiveIndent += indent
	pick := func(withBlank, without int) int {
		if anyBlanks {
			return withBlank
		}
		return without
	}
	switch {
	case indent == -1, m.preIndent == -1, indent == m.preIndent:
	case indent > m.preIndent:
		s.penalty += pick(relativeIndentWithBlankPenalty, relativeIndentPenalty)
	case m.postIndent != -1 && m.postIndent > indent:
		s.penalty += pick(relativeOutdentWithBlankPenalty, relativeOutdentPenalty)
	default:
		s.penalty += pick(relativeDedentWithBlankPenalty, relativeDedentPenalty)
	}
}

func (s splitScore) cmp(o splitScore) int {
	c := 0
	switch {
	case s.effectiveIndent > o.effectiveIndent:
		c = 1
	case s.effectiveIndent < o.effectiveIndent:
		c = -1
	}
	return indentWeight*c + s.penalty - o.penalty
}

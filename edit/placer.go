// placer.go: the placer: a file's hunks placed in turn, with what is known of the file.

package edit

import (
	"fmt"
	"slices"
	"strings"
)

// Tolerances of the fuzzy pass.
const (
	fuzzyMinLines = 3  // a hunk needs this many pre-image lines to be placed fuzzily
	fuzzyMaxCost  = 2  // missing, extra or changed context lines allowed in all...
	fuzzyLongHunk = 12 // ...in a hunk of this many pre-image lines; shorter ones get one
	fuzzyMaxSkip  = 1  // file lines the patch may omit in one place
	// maxEdgeDrop is how many leading context lines the file may lack (a
	// comment the model imagined above a function, say). Trailing ones are
	// never dropped: there an "extra" context line is as likely an added
	// line written as context (appending at the end of a file), and
	// dropping it would lose the line; the fuzzer found exactly that.
	maxEdgeDrop  = 1
	fuzzyRegions = 64 // candidate regions examined per hunk; more and the hunk is too common to place loosely
	fuzzySlack   = 4  // lines examined beyond each end of a region
	voterMaxOcc  = 64 // lines more common than this do not vote for regions
)

// placer finds hunks in one file: the file's lines, indexed (see
// fileIndex), and what the patch says of how to read them.
type placer struct {
	fileIndex
	// context is the number of context lines git put on each side of the
	// hunks, when the diff was made by git (FileDiff.Indexed), else 0;
	// contextShown is set when some hunk shows that many (see gitCtx).
	context      int
	contextShown bool
	// style is the change of indentation style (tabs and spaces) that the
	// file's other hunks show, for hunks that show none themselves;
	// fallback is the one converting style they show where others
	// disagree (see styleSeen.fallback).
	style, fallback indentStyle
	// strayAdds is set when a hunk of the file that shows no indentation
	// adds lines indented as the file never indents: a hunk whose few
	// witnesses agree may then not re-indent its own (see unanimousFit),
	// or the file would end in two styles.
	strayAdds bool
	// opts are git apply's options the caller gave (FileDiff.Placing).
	opts PlaceOptions
	// work counts the steps of the tolerant passes (cells of alignment
	// tables, steps of walks), for tests that bound it.
	work int
}

// fileIndex is one file's lines and what is learnt of them on first use:
// an index of the lines at each comparison level, so placement stays
// near-linear in the size of the file, and facts the rules ask.
type fileIndex struct {
	file []string
	// finalNewline reports whether the file ends with a newline.
	finalNewline bool
	keys         [numLevels][]string
	index        [numLevels]map[string][]int
	// scans counts the line comparisons of the exact searches made
	// without an index; past scanBudget, indexing the file costs less than
	// scanning it again for every hunk.
	scans int
	// indentStep is the file's indentation style, once needed (see
	// step); goFile is set for a file of Go, which gofmt indents with tabs.
	indentStep int
	goFile     bool
	rawAt      []bool // which file lines begin inside a raw string, once asked (Go)
	// blockComments is set for a language with "/* */" comments.
	blockComments bool
	// blankRun is the file's longest run of blank lines, once needed
	// (see longestBlankRun); -1 before.
	blankRun int
	// pres holds the pre-images made by preOf.
	pres map[preKey][]preLine
}

// scanBudget is how many line comparisons the exact searches of one file
// may make by scanning (see scan) before its lines are indexed: a scan
// costs far less than building the index (a map of every line), but
// hundreds of hunks in a very large file would make scanning quadratic.
const scanBudget = 1 << 24

func newPlacer(old string) *placer {
	lines, final := splitLines(old)
	return &placer{fileIndex: fileIndex{file: lines, finalNewline: final, blankRun: -1}}
}

func (fx *fileIndex) keysAt(lv level) []string {
	if fx.keys[lv] == nil {
		ks := make([]string, len(fx.file))
		for i, l := range fx.file {
			ks[i] = key(lv, l)
		}
		fx.keys[lv] = ks
	}
	return fx.keys[lv]
}

func (fx *fileIndex) indexAt(lv level) map[string][]int {
	if fx.index[lv] == nil {
		m := make(map[string][]int)
		for i, k := range fx.keysAt(lv) {
			m[k] = append(m[k], i)
		}
		fx.index[lv] = m
	}
	return fx.index[lv]
}

// preLine is one line of a hunk's pre-image.
type preLine struct {
	text string
	kind Kind // Context or Delete
	at   int  // index in Hunk.Lines
	// edge is set for context lines at the outer ends of the hunk that are
	// not next to a change: the only lines the fuzzy pass may drop.
	edge bool
	// nearAdd is set for context lines next to an added or deleted line:
	// if the patch wrote an added line as context, it is one of these.
	nearAdd bool
}

func preLines(lines []Line) []preLine {
	first, last := -1, -1
	for i, l := range lines {
		if l.Kind != Context {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	pre := make([]preLine, 0, len(lines))
	for i, l := range lines {
		if l.Kind == Add {
			continue
		}
		edge := l.Kind == Context && first >= 0 && (i < first-1 || i > last+1)
		near := l.Kind == Context && ((i > 0 && lines[i-1].Kind != Context) || (i+1 < len(lines) && lines[i+1].Kind != Context))
		pre = append(pre, preLine{text: l.Text, kind: l.Kind, at: i, edge: edge, nearAdd: near})
	}
	return pre
}

// preOf is preLines of lines, made once per placer for the same lines
// (the same slice of a hunk's lines): a hunk's pre-image serves its
// search and then its resolution.
func (fx *fileIndex) preOf(lines []Line) []preLine {
	if len(lines) == 0 {
		return preLines(lines)
	}
	k := preKey{&lines[0], len(lines)}
	if pre, ok := fx.pres[k]; ok {
		return pre
	}
	pre := preLines(lines)
	if fx.pres == nil {
		fx.pres = map[preKey][]preLine{}
	}
	fx.pres[k] = pre
	return pre
}

// preKey names a slice of a hunk's lines: its first line and its length.
type preKey struct {
	first *Line
	n     int
}

func preKeys(pre []preLine, lv level) []string {
	ks := make([]string, len(pre))
	for i, p := range pre {
		ks[i] = key(lv, p.text)
	}
	return ks
}

// candidate is one place a hunk fits: align maps each pre-image line to a
// line of the file (-1 for an edge context line the file does not have).
type candidate struct {
	align []int
	start int
	pass  Pass
	level level
	cost  int
	split int // for PassFused, the pre-image index where the second part starts
	// distinct is set for a fuzzy candidate that rests on a line rare in
	// the file (see distinctive); a fuzzy candidate without it is refused.
	distinct bool
	// suspect is set for a fuzzy candidate that leaves out a line it
	// should not (see skippable). It is never chosen, but as good as the
	// best it makes the hunk ambiguous.
	suspect bool
	// keepIndent resolves the hunk with its added lines as written, for
	// the other reading the syntax guard may try.
	keepIndent bool
	// asGit is set for a place git apply's own reading gave: the numbers
	// of a hunk without context (zeroContext), or a hunk with context left
	// out as git apply -C leaves it out (reducedContext). The shape checks,
	// which look for lines a patch lost, do not apply to it.
	asGit bool
	// order, when set, resolves the hunk with one order of its added lines
	// and the file lines the patch left out beside them (see chooseOrder).
	order *gapOrder
	// boundBy lists the hunks whose places chose this one among several
	// (see choose): if one of them cannot be placed after all, neither
	// can this.
	boundBy []int
	// twins lists the hunks, this one among them, that make the same
	// change at the same places, one place each (see assignTwins).
	twins []int
	notes []string
}

func (c candidate) end() int {
	e := c.start
	for _, a := range c.align {
		if a >= 0 {
			e = max(e, a+1)
		}
	}
	return e
}

// first is the file line where the hunk's first line would be: its
// start, less the leading lines the patch has and the file does not.
func (c candidate) first() int {
	for j, a := range c.align {
		if a >= 0 {
			return a - j
		}
	}
	return c.start
}

func newCandidate(align []int, pass Pass, lv level, cost int) candidate {
	start := -1
	for _, a := range align {
		if a >= 0 {
			start = a
			break
		}
	}
	return candidate{align: align, start: start, pass: pass, level: lv, cost: cost}
}

var levelPass = [numLevels]Pass{PassExact, PassWhitespace, PassWhitespace, PassLookalike}

// errLoose is the ambiguity of a hunk that fits only loosely, where one of
// the best loose readings is not to be trusted.
var errLoose error = looseError{}

// looseError is errLoose's type: a value of its own instead of
// fmt.Errorf's, which package init would format at every start.
type looseError struct{}

func (looseError) Error() string {
	return ErrAmbiguous.Error() + " (it fits only loosely, and in more than one way)"
}

func (looseError) Unwrap() error { return ErrAmbiguous }

// candidates returns every place h fits at the strictest pass that finds
// any, all equally good, with the trace of the rules that kept them. On
// an error, the trace's last rule is the one that refused the hunk.
func (pl *placer) candidates(h *Hunk) ([]candidate, []RuleID, error) {
	lines := h.Lines
	pre := pl.preOf(h.Lines)
	if len(pre) == 0 {
		if len(pl.file) == 0 {
			return []candidate{{start: 0}}, nil, nil
		}
		return nil, []RuleID{ruleHasContext.ID}, ErrNoContext
	}
	// Places that break git's shape (see checkShape) are kept aside: a
	// looser pass may find the place where lines the patch lost make the
	// shape whole. If none does, they are the candidates, and the shape
	// check refuses them with its reason.
	var misshapen []candidate
	deficit := 0 // the fewest lines lost that would give them git's shape
	var trace []RuleID
	for lv := pl.firstLevel(); lv < numLevels && misshapen == nil; lv++ {
		starts := pl.exact(preKeys(pre, lv), lv)
		if len(starts) == 0 {
			continue
		}
		cs := exactCandidates(starts, len(pre), lv)
		if pl.ignoreWhitespace(cs, pre) {
			trace = []RuleID{ruleIgnoreWhitespace.ID}
		}
		deficit = inf
		for _, c := range cs {
			deficit = min(deficit, pl.shapeDeficit(Resolved{Start: c.start, Lines: h.Lines}))
		}
		if deficit == 0 {
			return cs, trace, nil
		}
		misshapen = cs
	}
	// A hunk whose result is in the file while its pre-image is not was
	// applied before: tolerant passes must not apply it a second time.
	if misshapen == nil && pl.alreadyApplied(h) {
		return nil, []RuleID{ruleAlreadyApplied.ID}, ErrAlreadyApplied
	}
	cs, looseTrace, err := pl.looseCandidates(h, lines, pre, misshapen == nil)
	if misshapen == nil {
		return cs, looseTrace, err
	}
	// A looser reading replaces misshapen places only if it needs fewer
	// lines lost than they do: else either may be right.
	cs = slices.DeleteFunc(cs, func(c candidate) bool { return lostLines(c.align) >= deficit })
	if len(cs) == 0 {
		return misshapen, trace, nil
	}
	return cs, looseTrace, nil
}

// looseCandidates returns the places h fits by the tolerant searches, in
// their order: the fuzzy pass, then (when mayFuse) two hunks run
// together, then a git hunk at an edge of the file.
func (pl *placer) looseCandidates(h *Hunk, lines []Line, pre []preLine, mayFuse bool) ([]candidate, []RuleID, error) {
	var hints []int
	if h.HasNumbers && h.OldStart > 0 {
		hints = append(hints, h.OldStart-1)
	}
	// A side with no context at all puts a hunk at that edge of the file
	// in git's shape: the edge is examined too (a build line added before
	// the first lines of a Go file, one of which the patch got wrong).
	if sh := hunkShape(h.Lines); sh.lastChange >= 0 {
		if sh.lead == 0 {
			hints = append(hints, 0)
		}
		if sh.trail == 0 {
			hints = append(hints, max(0, len(pl.file)-len(pre)))
		}
	}
	fz, err := pl.fuzzy(lines, pre, hints)
	if err != nil {
		return nil, []RuleID{ruleLooseReadings.ID}, err
	}
	if cs := pl.sameEffect(h.Lines, fz); len(cs) > 0 {
		var trace []RuleID
		if len(cs) < len(fz) {
			trace = append(trace, ruleSameEffect.ID)
		}
		if slices.ContainsFunc(cs, func(c candidate) bool { return c.suspect }) {
			return nil, append(trace, ruleLooseReadings.ID), errLoose
		}
		if err := pl.addedInstead(lines, pre, cs); err != nil {
			return nil, append(trace, ruleAddedInstead.ID), err
		}
		kept := pl.keepShaped(h.Lines, cs)
		if len(kept) < len(cs) {
			trace = append(trace, ruleKeepShaped.ID)
		}
		return kept, trace, nil
	}
	// Two hunks run together are no likelier than misshapen places.
	if mayFuse {
		if cs := pl.fused(h, pre); len(cs) > 0 {
			return cs, []RuleID{ruleFused.ID}, nil
		}
	}
	edge := pl.atEdge(h, pre)
	if err := pl.addedInstead(lines, pre, edge); err != nil {
		return nil, []RuleID{ruleAddedInstead.ID}, err
	}
	if len(edge) > 0 {
		return edge, []RuleID{ruleAtEdge.ID}, nil
	}
	return nil, nil, nil
}

// lostLines counts the file lines an alignment leaves out between its
// lines, and the hunk lines it places nowhere.
func lostLines(align []int) int {
	n, prev := 0, -1
	for _, a := range align {
		switch {
		case a < 0:
			n++
		case prev >= 0:
			n += a - prev - 1
			prev = a
		default:
			prev = a
		}
	}
	return n
}

// gaps reports whether an alignment leaves out file lines between two of
// its lines.
func gaps(align []int) bool {
	prev := -1
	for _, a := range align {
		if a < 0 {
			continue
		}
		if prev >= 0 && a > prev+1 {
			return true
		}
		prev = a
	}
	return false
}

// exact returns the starts where every key of pre equals the file's key at
// level lv, searching from the rarest line of pre.
func (fx *fileIndex) exact(pk []string, lv level) []int {
	if lv == levelExact && fx.index[lv] == nil && fx.scans < scanBudget {
		fx.scans += len(fx.file)
		return fx.scan(pk)
	}
	idx := fx.indexAt(lv)
	rarest := -1
	for j, k := range pk {
		occ, ok := idx[k]
		if !ok {
			return nil
		}
		if rarest < 0 || len(occ) < len(idx[pk[rarest]]) {
			rarest = j
		}
	}
	fk := fx.keysAt(lv)
	var starts []int
	for _, i := range idx[pk[rarest]] {
		s := i - rarest
		if s < 0 || s+len(pk) > len(fk) {
			continue
		}
		ok := true
		for j, k := range pk {
			if fk[s+j] != k {
				ok = false
				break
			}
		}
		if ok {
			starts = append(starts, s)
		}
	}
	return starts
}

// scan finds the exact starts of pk without an index: most hunks place at
// the first level, and comparing the file's lines with one line of the
// hunk costs less than indexing the file. The anchor is the hunk's longest
// line, likely its rarest.
func (fx *fileIndex) scan(pk []string) []int {
	anchor := 0
	for j, k := range pk {
		if len(k) > len(pk[anchor]) {
			anchor = j
		}
	}
	a := pk[anchor]
	var starts []int
	for i := anchor; i+len(pk)-anchor <= len(fx.file); i++ {
		if fx.file[i] != a {
			continue
		}
		s := i - anchor
		ok := true
		for j, k := range pk {
			if fx.file[s+j] != k {
				ok = false
				break
			}
		}
		if ok {
			starts = append(starts, s)
		}
	}
	return starts
}

// votes counts, for each possible start of pre in the file, how many of
// its lines would then sit on an equal line (at the loosest level). A
// deleted line found once in the file counts twice: it must match, and
// it names one place (a short hunk whose one other line is stale).
func (fx *fileIndex) votes(pre []preLine) map[int]int {
	idx := fx.indexAt(levelLookalike)
	v := map[int]int{}
	for j, k := range preKeys(pre, levelLookalike) {
		occ := idx[k]
		if k == "" || len(occ) > voterMaxOcc {
			continue
		}
		w := 1
		if pre[j].kind == Delete && len(occ) == 1 {
			w = 2 // a deleted line, which must match, found once
		}
		for _, i := range occ {
			v[i-j] += w
		}
	}
	return v
}

// fuzzy places pre allowing a few context lines to be missing from the
// patch, changed slightly, or (at the hunk's outer ends) absent from the
// file. Deleted lines must always match. It returns the alignments of
// least cost.
func (pl *placer) fuzzy(lines []Line, pre []preLine, hints []int) ([]candidate, error) {
	// Two lines are enough where one is deleted: it must match, and pins
	// the place (a context line, one line the patch lost, the version
	// line it changes, in a file of three lines).
	if len(pre) < fuzzyMinLines && !(len(pre) == 2 && slices.ContainsFunc(pre, func(p preLine) bool { return p.kind == Delete })) {
		return nil, nil
	}
	v := pl.votes(pre)
	nonBlank := 0
	for _, p := range pre {
		if strings.TrimSpace(p.text) != "" {
			nonBlank++
		}
	}
	need := max(2, nonBlank/3)
	// A context line missing from the patch moves the votes of the lines
	// after it to the next start: a start counts its own votes and the
	// next one's.
	var starts []int
	for s, n := range v {
		if n+v[s+1] >= need {
			starts = append(starts, s)
		}
	}
	// Regions: starts within the slack of a region's first start are one
	// region, examined from its best-voted start (a window reaches the
	// slack either way).
	slices.Sort(starts)
	var regions []int
	first := 0 // the first start of the current region
	for i, s := range starts {
		if i > 0 && s-first <= fuzzySlack {
			if r := regions[len(regions)-1]; v[s]+v[s+1] > v[r]+v[r+1] {
				regions[len(regions)-1] = s
			}
			continue
		}
		first = s
		regions = append(regions, s)
	}
	if len(regions) > fuzzyRegions {
		// The hunk's lines are too common to be placed loosely: the best
		// place could be any of many, and some would go unexamined.
		return nil, errLoose
	}
	// The place the header names is examined too, voted for or not: a
	// hunk whose one rare line is the one the patch got wrong (a typo in
	// a changelog's only long line) has too few votes anywhere. So are
	// the file's edges that its shape names (see candidates).
	for _, hint := range hints {
		if hint >= 0 && hint < len(pl.file) && !slices.ContainsFunc(regions, func(r int) bool { return abs(r-hint) <= fuzzySlack }) {
			regions = append(regions, hint)
		}
	}
	starts = regions
	pk := preKeys(pre, levelLookalike)
	fk := pl.keysAt(levelLookalike)
	seen := map[string]bool{}
	examined := map[int]bool{}
	var out []candidate
	bestCost := (fuzzyMaxCost + 1) * unit
	examine := func(s int) {
		if examined[s] {
			return
		}
		examined[s] = true
		a := max(0, s-fuzzySlack)
		b := min(len(fk), s+len(pre)+fuzzySlack)
		for _, al := range pl.alignWindow(lines, pre, pk, pl.file, fk, a, b) {
			sig := fmt.Sprint(al.align)
			if seen[sig] {
				continue
			}
			seen[sig] = true
			al.distinct = pl.distinctive(pre, pk, al.align)
			switch {
			case al.cost < bestCost:
				bestCost = al.cost
				out = []candidate{al}
			case al.cost == bestCost:
				out = append(out, al)
			}
		}
	}
	for _, s := range starts {
		examine(s)
	}
	// A line taken as changed votes for no place, so the place where the
	// file has its look-alike again may have had too few votes to be
	// examined: examine it too, or a loose fit could seem the only one
	// (a stale "If err != nil {" where the file has "if err != nil {"
	// twice).
	idx := pl.indexAt(levelLookalike)
	for _, c := range slices.Clone(out) {
		for j, fi := range c.align {
			if fi < 0 || pk[j] == fk[fi] || len(idx[fk[fi]]) > distinctMaxOcc {
				continue
			}
			for _, o := range idx[fk[fi]] {
				if o != fi && o-j >= 0 {
					examine(o - j)
				}
			}
		}
	}
	return out, nil
}

const inf = 1 << 30

// Costs of the fuzzy alignment: each structural change (a context line
// changed, missing or dropped) costs unit; a line equal only when
// whitespace and look-alikes are ignored costs 1, so that of two otherwise
// equal alignments the one closer to the letter wins.
const (
	unit     = 1 << 12
	maxPaths = 16 // optimal alignments enumerated per window
)

// alignWindow aligns all of pre (less up to maxEdgeDrop leading edge
// lines) with file lines [a, b) and returns the alignments of least cost
// within fuzzyMaxCost.
func (pl *placer) alignWindow(lines []Line, pre []preLine, pk []string, file, fk []string, a, b int) []candidate {
	lead := 0
	for lead < len(pre) && lead < maxEdgeDrop && pre[lead].edge {
		lead++
	}
	var best []candidate
	bestCost := (fuzzyMaxCost + 1) * unit
	for dl := 0; dl <= lead; dl++ {
		if len(pre)-dl < 2 {
			continue
		}
		budget := 1
		if len(pre) >= fuzzyLongHunk {
			budget = fuzzyMaxCost
		}
		if dl > budget {
			break
		}
		for _, al := range pl.alignCore(lines, pre[dl:], pk[dl:], file, fk, a, b, budget-dl) {
			if dl > 0 && !pl.droppable(pre[:dl], al.align[0]) {
				continue
			}
			cost := al.cost + dl*unit
			if cost > bestCost {
				continue
			}
			full := make([]int, len(pre))
			for j := range full {
				full[j] = -1
			}
			copy(full[dl:], al.align)
			if cost < bestCost {
				bestCost, best = cost, nil
			}
			c := newCandidate(full, PassFuzzy, levelLookalike, cost)
			c.suspect = al.suspect
			best = append(best, c)
		}
	}
	return best
}

// droppable reports whether leading context lines the alignment leaves
// out, before file line first, are really absent from the file: lines it
// has nowhere (at the loosest level), with room for them before first
// (at the start of the file they may be added lines in disguise).
func (pl *placer) droppable(lead []preLine, first int) bool {
	if first < len(lead) {
		return false
	}
	idx := pl.indexAt(levelLookalike)
	for _, p := range lead {
		if _, ok := idx[key(levelLookalike, p.text)]; ok {
			return false
		}
	}
	return true
}

type alignment struct {
	align []int
	cost  int
	// suspect is set when the alignment leaves out a file line equal to a
	// hunk line next to the gap (see skippable).
	suspect bool
}

// alignCore finds the cheapest ways to align every line of body, in order,
// with lines of file[a:b]: equal lines cost nothing (1 if equal only up to
// whitespace), a slightly changed context line costs a unit, each file line
// skipped between two aligned lines costs a unit. It returns every optimal
// alignment (up to maxPaths) whose structural cost is within budget units.
//
// Line j of body can only sit on window lines j to j+(w-m): the lines
// before and after it need a line each. The table holds that band only,
// so the work is linear in the size of the hunk (the window is the hunk
// and a few lines of slack), and the walk back through the optimal paths
// stops after a bounded number of steps.
func (pl *placer) alignCore(lines []Line, body []preLine, bk, file, fk []string, a, b, budget int) []alignment {
	m, w := len(body), b-a
	if m == 0 || w < m {
		return nil
	}
	band := w - m + 1 // cells per row: d = i - j in [0, band)
	limit := budget*unit + unit - 1
	sub := func(j, i int) int {
		pl.work++
		switch {
		case body[j].text == file[a+i]:
			return 0
		case key(levelTrailing, body[j].text) == key(levelTrailing, file[a+i]):
			// Equal but for trailing whitespace. Nothing looser counts as
			// equal here: with context missing or changed around it, a line
			// indented otherwise may well be another line (adjacent lines
			// that differ only in indentation could trade places).
			return 1
		case body[j].kind == Context && (similarKeys(bk[j], fk[a+i]) || shortStale(bk[j], fk[a+i])):
			return unit
		}
		return inf
	}
	// dp[j*band+d] is the least cost of aligning body[:j+1] with body[j]
	// on window line j+d; back holds, as bits, the skips s (0 to
	// fuzzyMaxSkip) after which the previous line reaches that optimum.
	dp := make([]int, m*band)
	back := make([]uint8, m*band)
	for d := range band {
		dp[d] = sub(0, d)
	}
	for j := 1; j < m; j++ {
		row, prev := dp[j*band:(j+1)*band], dp[(j-1)*band:j*band]
		for d := range band {
			row[d] = inf
			best := inf
			var args uint8
			for s := 0; s <= fuzzyMaxSkip && s <= d; s++ {
				c := prev[d-s] + s*unit
				switch {
				case c < best:
					best, args = c, 1<<s
				case c == best && c < inf:
					args |= 1 << s
				}
			}
			if best >= inf || best > limit {
				continue
			}
			sc := sub(j, j+d)
			if sc >= inf || best+sc > limit {
				continue
			}
			row[d], back[j*band+d] = best+sc, args
		}
	}
	last := dp[(m-1)*band:]
	opt := inf
	for _, c := range last {
		opt = min(opt, c)
	}
	if opt > limit {
		return nil
	}
	var out []alignment
	path := make([]int, m)
	steps := walkSteps * m // bounds the walk through tied optima
	var walk func(j, d int)
	walk = func(j, d int) {
		if len(out) >= maxPaths || steps <= 0 {
			return
		}
		steps--
		pl.work++
		path[j] = a + j + d
		if j == 0 {
			if al, ok := pl.checkAlignment(lines, body, bk, fk, slices.Clone(path)); ok {
				out = append(out, alignment{align: al.align, cost: opt, suspect: al.suspect})
			}
			return
		}
		args := back[j*band+d]
		for s := 0; s <= fuzzyMaxSkip; s++ {
			if args&(1<<s) != 0 {
				walk(j-1, d-s)
			}
		}
	}
	for d, c := range last {
		if c == opt {
			walk(m-1, d)
		}
	}
	return out
}

// walkSteps is how many steps per hunk line the walk through an
// alignment's optimal paths may take: ties multiply the paths, and the
// few kept (maxPaths) need not cost the enumeration of all.
const walkSteps = 4 * maxPaths

// checkAlignment keeps an optimal alignment that rests on enough equal
// lines and marks it suspect where it leaves out or changes a line it
// should not.
func (pl *placer) checkAlignment(lines []Line, body []preLine, bk, fk []string, al []int) (alignment, bool) {
	m := len(body)
	exact := 0
	for jj := range al {
		if bk[jj] == fk[al[jj]] {
			exact++
		}
	}
	if exact < 2 || 2*exact < m {
		return alignment{}, false
	}
	suspect := false
	idx := pl.indexAt(levelLookalike)
	for jj := range m {
		if jj > 0 && al[jj] > al[jj-1]+1 && !pl.skippable(lines, body, bk, al, jj) {
			suspect = true
		}
		if bk[jj] == fk[al[jj]] {
			continue
		}
		// A short line taken as changed (too short to call similar) must
		// sit in the one slot between two neighbours equal to the file's
		// lines on either side of it: only they say where it is.
		if !similarKeys(bk[jj], fk[al[jj]]) &&
			(jj == 0 || jj+1 == m || al[jj-1] != al[jj]-1 || al[jj+1] != al[jj]+1 ||
				bk[jj-1] != fk[al[jj-1]] || bk[jj+1] != fk[al[jj+1]]) {
			return alignment{}, false
		}
		// A line taken as changed that the file has, as it is, elsewhere:
		// that may be where it belongs.
		if len(idx[bk[jj]]) > 0 {
			suspect = true
		}
		// A line taken as changed next to a change, and like a line the
		// hunk deletes, may be the added variant of that line written as
		// context.
		if body[jj].nearAdd && slices.ContainsFunc(body, func(p preLine) bool {
			return p.kind == Delete && similar(p.text, body[jj].text)
		}) {
			suspect = true
		}
		// So is one like a hunk line next to it: in a run of like lines,
		// the patch's may be one longer than the file's by an added line
		// written as context (if the hunk without it fits too).
		if ((jj > 0 && similar(body[jj-1].text, body[jj].text)) || (jj+1 < m && similar(body[jj+1].text, body[jj].text))) &&
			pl.addedReading(lines, body, bk, fk, al, jj) {
			suspect = true
		}
	}
	return alignment{align: al, suspect: suspect}, true
}

// skippable reports whether file lines left out between hunk lines j-1
// and j (aligned by al) may be context lines missing from the patch. A
// left-out line equal to a hunk line next to the gap is refused: in
// repetitive code, skipping it is how an extra line of the hunk (an added
// line written as context) would be made to fit one block further on.
// Equal means equal at the loosest level, unless indentation tells them
// apart: the hunk line sits on a file line indented as it is, and the
// left-out line is indented otherwise (the "}," closing an outer block
// after a hunk's inner "},"). Nor is it refused when neither that line
// nor the hunk lines on either side of the gap can be an added line in
// disguise, the hunk without it fitting nowhere (see addedReading): the
// blank line after a replaced line, like the blank line lost before it.
//
// A gap inside a run of equal hunk lines is refused too: the patch's run
// may just be longer than the file's by an added line written as context.
// Only between two blank lines, where neither can be such a line, is it
// taken (a changelog's lost heading between the blank lines around it,
// or a doc comment's lost paragraph between two "//" lines); in a run of
// like code lines, which of them were lost is anyone's guess.
func (pl *placer) skippable(lines []Line, body []preLine, bk []string, al []int, j int) bool {
	fk := pl.keysAt(levelLookalike)
	if j > 0 && j < len(bk) && bk[j-1] == bk[j] && (!blankish(bk[j]) || pl.disguised(lines, body, bk, fk, al, j-1, j)) {
		return false
	}
	for i := al[j-1] + 1; i < al[j]; i++ {
		if pl.inBlankRun(i, al[j-1], al[j]) {
			continue
		}
		for _, n := range []int{j - 1, j, j + 1} {
			if n < 0 || n >= len(bk) || bk[n] != fk[i] {
				continue
			}
			in := indentOf(body[n].text)
			if in == indentOf(pl.file[al[n]]) && in != indentOf(pl.file[i]) {
				continue
			}
			if !pl.disguised(lines, body, bk, fk, al, j-1, j, n) {
				continue
			}
			return false
		}
	}
	return true
}

// blankish reports whether a line is blank, or a comment's blank line: a
// comment marker alone ("//", "#", "*"), which separates a comment's
// paragraphs as a blank line separates code's.
func blankish(s string) bool {
	switch strings.TrimSpace(s) {
	case "", "//", "#", "*":
		return true
	}
	return false
}

// disguised reports whether any of the context lines ks of the hunk could
// be an added line written as context (see addedReading).
func (pl *placer) disguised(lines []Line, body []preLine, bk, fk []string, al []int, ks ...int) bool {
	for _, k := range ks {
		if k >= 0 && k < len(body) && body[k].kind == Context && pl.addedReading(lines, body, bk, fk, al, k) {
			return true
		}
	}
	return false
}

// inBlankRun reports whether blank file line i, left out between file
// lines a and b, belongs to a run of blank lines that reaches a or b:
// the patch wrote the run one line shorter (two blank lines between
// Python functions as one), and which of its lines is left out changes
// nothing.
func (fx *fileIndex) inBlankRun(i, a, b int) bool {
	blank := func(k int) bool { return strings.TrimSpace(fx.file[k]) == "" }
	if !blank(i) {
		return false
	}
	run := func(from, to int) bool { // every line of [from, to] is blank
		for k := from; k <= to; k++ {
			if !blank(k) {
				return false
			}
		}
		return true
	}
	return run(a, i) || run(i, b)
}

// informative counts the lines of an alignment that are equal to their
// file line and rare in the file (see distinctMaxOcc): a hunk of braces
// and blank lines pinned by one rare line may be pinned by an added line
// that the patch wrote as context.
func (fx *fileIndex) informative(tk []string, tidx map[string][]int, tfk []string, align []int) int {
	n := 0
	for j, fi := range align {
		if fi >= 0 && strings.TrimSpace(tk[j]) != "" && tk[j] == tfk[fi] && len(tidx[tk[j]]) <= distinctMaxOcc {
			n++
		}
	}
	return n
}

// around returns the file lines of the first few candidates of an
// ambiguous hunk, so that the reader sees each place it fits.
func (fx *fileIndex) around(cs []candidate) []NumberedLine {
	var out []NumberedLine
	last := -1
	for n, c := range cs {
		if n == 3 {
			break
		}
		for i := max(c.start-1, last+1); i < min(c.end()+1, len(fx.file)); i++ {
			out = append(out, NumberedLine{N: i + 1, Text: fx.file[i]})
			last = i
		}
	}
	return out
}

// nearest returns the file lines closest to what h expected, for error
// messages: the region that shares the most lines with its pre-image, or
// the lines around its header's line number.
func (fx *fileIndex) nearest(h *Hunk) []NumberedLine {
	if len(fx.file) == 0 {
		return nil
	}
	pre := preLines(h.Lines)
	start, best := -1, 0
	for s, n := range fx.votes(pre) {
		if n > best || (n == best && s < start) {
			start, best = s, n
		}
	}
	if start < 0 {
		start = max(0, h.OldStart-1)
	}
	from := max(0, start-2)
	to := min(len(fx.file), start+len(pre)+2, from+16)
	if from >= to {
		from = max(0, len(fx.file)-8)
		to = len(fx.file)
	}
	out := make([]NumberedLine, 0, to-from)
	for i := from; i < to; i++ {
		out = append(out, NumberedLine{N: i + 1, Text: fx.file[i]})
	}
	return out
}

// exactCandidates are the candidates of a pre-image of n lines found
// line for line at level lv, one per start.
func exactCandidates(starts []int, n int, lv level) []candidate {
	cs := make([]candidate, len(starts))
	for i, s := range starts {
		align := make([]int, n)
		for j := range align {
			align[j] = s + j
		}
		cs[i] = newCandidate(align, levelPass[lv], lv, 0)
	}
	return cs
}

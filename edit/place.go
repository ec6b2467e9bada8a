package edit

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Pass names the placement pass that found a hunk's place, from the
// strictest to the most tolerant.
type Pass int

// The placement passes, in the order they are tried.
const (
	PassExact      Pass = iota // every line as written
	PassWhitespace             // trailing or inner whitespace differs
	PassIndent                 // indentation differs; added lines re-indented
	PassLookalike              // curly quotes, dashes, odd spaces folded
	PassFuzzy                  // a context line missing, extra or slightly changed
	PassFused                  // two hunks fused into one, split again
)

func (p Pass) String() string {
	switch p {
	case PassExact:
		return "exact"
	case PassWhitespace:
		return "whitespace"
	case PassIndent:
		return "indent"
	case PassLookalike:
		return "lookalike"
	case PassFuzzy:
		return "fuzzy"
	case PassFused:
		return "fused"
	case PassInterpreted:
		return "interpreted"
	case PassUncertain:
		return "uncertain"
	}
	return fmt.Sprintf("pass(%d)", int(p))
}

// Resolved is a hunk placed in a file: the exact lines of the file it
// covers and what replaces them. Context and deleted lines hold the file's
// own text; added lines hold what will be written (re-indented to the
// file's style where the placement found the patch's indentation off).
// What a reviewer approves is exactly what Apply writes.
type Resolved struct {
	// Hunk is the index of the source hunk in FileDiff.Hunks. Part numbers
	// the pieces of a hunk that was fused (PassFused) or split in review.
	Hunk, Part int
	// Start is the 0-based index in the old file of the first line that
	// Lines covers; for a hunk of added lines only, the line they go before.
	Start int
	Lines []Line
	Pass  Pass
	// Offset is Start minus the line the hunk header pointed at; Hinted
	// reports whether the header had a line number at all.
	Offset int
	Hinted bool
	// FinalNewline is what the hunk does to the newline at the end of the
	// file, from its "\ No newline at end of file" markers.
	FinalNewline Newline
	// Notes explain anything tolerant the placement did, for the reviewer.
	Notes []string
	// Interpreted lists the file lines an interpreted hunk (PassInterpreted)
	// changes that the patch did not mark.
	Interpreted []Interpretation
	// Guard, when set, says why only a person who sees the hunk may
	// approve it: decisions given ahead (--yes) never do. It is set on the
	// deletion of a file that holds work the deleting side never saw (see
	// Lost).
	Guard string `json:",omitempty"`
}

// Label is the one-word placement shown to a reviewer: exact, offset,
// whitespace, indent, lookalike, fuzzy or fused.
func (r *Resolved) Label() string {
	if r.Pass == PassExact && r.Hinted && r.Offset != 0 {
		return "offset"
	}
	return r.Pass.String()
}

// OldCount and NewCount are the number of lines the hunk covers in the old
// file and produces in the new one.
func (r *Resolved) OldCount() int { return r.count(Add) }

// NewCount is the number of lines the hunk produces in the new file.
func (r *Resolved) NewCount() int { return r.count(Delete) }

func (r *Resolved) count(skip Kind) int {
	n := 0
	for _, l := range r.Lines {
		if l.Kind != skip {
			n++
		}
	}
	return n
}

// Sentinel reasons for a hunk that cannot be placed; a *PlacementError
// wraps one of them.
var (
	// ErrNoMatch means no part of the file matches the hunk well enough.
	ErrNoMatch = errors.New("hunk does not match the file")
	// ErrAmbiguous means the hunk matches two or more places equally well.
	ErrAmbiguous = errors.New("hunk matches more than one place")
	// ErrNoOp means the hunk would change nothing.
	ErrNoOp = errors.New("hunk changes nothing")
	// ErrAlreadyApplied means the file already holds the hunk's result.
	ErrAlreadyApplied = errors.New("hunk is already applied")
	// ErrOverlap means two hunks would change the same lines.
	ErrOverlap = errors.New("hunk overlaps another hunk")
	// ErrNoContext means the hunk has no context or deleted lines to find
	// its place by, in a file that is not empty.
	ErrNoContext = errors.New("hunk has no context lines to place it by")
)

// NumberedLine is a line of a file with its 1-based number.
type NumberedLine struct {
	N    int    `json:"n"`
	Text string `json:"text"`
}

// PlacementError explains why a hunk could not be placed, with the lines
// of the real file nearest to where it was meant to go, so that a person
// or a model can write a hunk that applies.
type PlacementError struct {
	Path    string
	Hunk    int // 0-based index in FileDiff.Hunks
	Err     error
	Detail  string
	Nearest []NumberedLine
	// Interpreted is the hunk's interpreted reading, if it has exactly one,
	// or its uncertain reading (PassUncertain: a place found but doubted);
	// Misread lists the lines the hunk got wrong (see interpret.go).
	Interpreted *Resolved
	Misread     []Interpretation
}

func (e *PlacementError) Error() string {
	msg := fmt.Sprintf("%s: hunk %d: %v", e.Path, e.Hunk+1, e.Err)
	if e.Detail != "" {
		msg += " (" + e.Detail + ")"
	}
	return msg
}

func (e *PlacementError) Unwrap() error { return e.Err }

// Place resolves every hunk of fd against old, the current content of the
// file (empty for a new file). It returns the placed hunks in file order,
// and an error for each hunk that could not be placed. Place never guesses:
// a hunk that fits two places equally well is refused.
func Place(old string, fd *FileDiff) ([]Resolved, []*PlacementError) {
	fp := choosePlaces(old, fd, gitContext([]*FileDiff{fd}))
	fp.pl.style, fp.pl.fallback = fp.style.usable(), fp.style.fallback()
	return fp.finish()
}

// PlaceFiles places several files of one patch, like Place for each, and
// lets a change of indentation style that the patch shows in some files
// (tabs written as spaces, say) re-indent the added lines of files whose
// own hunks show none.
//
// The files are placed side by side, on as many threads as Go runs (see
// eachFile): each file's placement depends on its content and hunks
// alone, and the style they show together is gathered in file order, so
// the result is the same as one after the other.
func PlaceFiles(olds []string, fds []*FileDiff) ([][]Resolved, [][]*PlacementError) {
	fps := make([]*filePlaces, len(fds))
	context := gitContext(fds)
	eachFile(len(fds), func(i int) { fps[i] = choosePlaces(olds[i], fds[i], context) })
	var patch styleSeen // what all the files show together
	for i := range fds {
		if st := fps[i].style; st.seen {
			if st.conflict || (patch.seen && patch.style != st.style) {
				patch.conflict = true
			}
			patch.style, patch.seen = st.style, true
			patch.converted += st.converted
			patch.addConv(st.conv, st.convN)
			patch.convConflict = patch.convConflict || st.convConflict
		}
	}
	rs := make([][]Resolved, len(fds))
	errs := make([][]*PlacementError, len(fds))
	eachFile(len(fds), func(i int) {
		fp := fps[i]
		fp.pl.style, fp.pl.fallback = fp.style.usable(), fp.style.fallback()
		if !fp.style.seen {
			fp.pl.style = patch.usable()
		}
		if fp.style.conv.kind == 0 && !fp.style.convConflict {
			fp.pl.fallback = patch.fallback()
		}
		rs[i], errs[i] = fp.finish()
	})
	return rs, errs
}

// eachFile calls do for 0 to n-1, on up to GOMAXPROCS goroutines, and
// returns when every call has: do must touch only what index i owns.
func eachFile(n int, do func(i int)) {
	workers := min(n, runtime.GOMAXPROCS(0))
	if workers <= 1 {
		for i := range n {
			do(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				do(i)
			}
		})
	}
	wg.Wait()
}

// filePlaces is a file's hunks with their places chosen, not yet resolved.
type filePlaces struct {
	old    string
	pl     *placer
	fd     *FileDiff
	chosen []*candidate
	errs   []*PlacementError
	style  styleSeen
}

func (fp *filePlaces) fail(i int, err error, detail string, nearest []NumberedLine) *PlacementError {
	e := &PlacementError{Path: fp.fd.Path(), Hunk: i, Err: err, Detail: detail, Nearest: nearest}
	e.Interpreted, e.Misread = fp.pl.interpret(i, fp.fd.Hunks[i], err)
	fp.errs = append(fp.errs, e)
	return e
}

// gitCtx is the number of context lines git wrote around the hunks of
// the files it made (those with an "index" line); n is 0 when git made
// none. It is git's default, 3, unless a larger number is seen on two
// sides of hunks or more (git diff -U5). Sides are no surer guide: a side
// is shorter where a file begins or ends or where the patch lost a line,
// and longer by an added line written as context. shown is set when some
// side has n lines (or two, for git's default): only then do readings
// rest on the number (see placer.gitLines); a diff whose every side is
// shorter may have been made with less.
type gitCtx struct {
	n     int
	shown bool
}

func gitContext(fds []*FileDiff) gitCtx {
	seen := map[int]int{}
	indexed, most := false, 0
	for _, fd := range fds {
		if !fd.Indexed {
			continue
		}
		indexed = true
		for _, h := range fd.Hunks {
			sh := hunkShape(h.Lines)
			seen[sh.lead]++
			seen[sh.trail]++
			most = max(most, sh.lead, sh.trail)
		}
	}
	if !indexed {
		return gitCtx{}
	}
	n := 3
	for v, k := range seen {
		if k >= 2 && v > n {
			n = v
		}
	}
	// A side of two lines shows git's default too, where that is the
	// number: only git diff -U2 would make such a diff with fewer, and
	// its short sides are then a single hunk's at an edge of the file
	// and one the patch lost a line of (a build line added at the top of
	// a Go file, its blank line lost).
	return gitCtx{n: n, shown: most >= n || n == 3 && most == 2}
}

// choosePlaces finds the candidates of every hunk and chooses one each.
// context is gitContext of the whole diff, used for files git made.
func choosePlaces(old string, fd *FileDiff, context gitCtx) *filePlaces {
	pl := newPlacer(old)
	pl.goFile = language(fd.Path()) == "go"
	pl.blockComments = blockComments(fd.Path())
	if fd.Indexed {
		pl.context, pl.contextShown = context.n, context.shown
	}
	fp := &filePlaces{old: old, pl: pl, fd: fd}
	fail := fp.fail
	pl.strayAdds = pl.strayAddsIn(fd.Hunks)

	// Phase 1: the candidates of every hunk at its best pass.
	choices := make([][]candidate, len(fd.Hunks))
	for i, h := range fd.Hunks {
		if !h.Changes() {
			fail(i, ErrNoOp, "it has no added or deleted lines", nil)
			continue
		}
		cands, err := pl.candidates(h)
		if err != nil {
			detail := ""
			if err == ErrAlreadyApplied {
				detail = "its added lines are already in the file"
			}
			fail(i, err, detail, pl.nearest(h))
			continue
		}
		if h.OldNoNewline {
			// The marker puts the hunk's old side at the end of the file.
			var atEnd []candidate
			for _, c := range cands {
				if c.end() == len(pl.file) {
					atEnd = append(atEnd, c)
				}
			}
			if len(atEnd) > 0 {
				cands = atEnd
			}
		}
		if len(cands) > 1 {
			cands = pl.atGitEdges(h, cands)
		}
		if len(cands) == 0 {
			if pl.alreadyApplied(h) {
				fail(i, ErrAlreadyApplied, "its added lines are already in the file", pl.nearest(h))
			} else {
				fail(i, ErrNoMatch, "", pl.nearest(h))
			}
			continue
		}
		choices[i] = cands
	}

	// Phase 2: choose among several candidates by hunk order, then by the
	// header's line number.
	chosen := make([]*candidate, len(fd.Hunks))
	for i, cs := range choices {
		if len(cs) == 1 {
			chosen[i] = &cs[0]
		}
	}
	assignTwins(choices, fd.Hunks, chosen)
	for i, cs := range choices {
		if len(cs) <= 1 || chosen[i] != nil {
			continue
		}
		c, detail := choose(i, cs, chosen, fd.Hunks)
		if c == nil {
			fail(i, ErrAmbiguous, detail, pl.around(cs))
			continue
		}
		chosen[i] = c
	}
	held, by := numbersHold(chosen, fd.Hunks, fd.Indexed)
	for i, c := range chosen {
		if c == nil || c.pass != PassFuzzy || c.distinct {
			continue
		}
		if h := fd.Hunks[i]; held && pinnedByNumber(h, c, choices[i]) {
			c.notes = append(c.notes, fmt.Sprintf("its lines are common in the file, but the header's line number, %d, names this place, %s", h.OldStart, by))
			continue
		}
		fail(i, ErrAmbiguous, "it fits only loosely, and only on lines that are common in the file", pl.nearest(fd.Hunks[i]))
		chosen[i] = nil
	}
	fp.chosen = chosen
	fp.style = pl.fileStyle(fd.Hunks, chosen)
	return fp
}

// finish resolves the chosen places and checks that no two hunks change
// the same lines.
func (fp *filePlaces) finish() ([]Resolved, []*PlacementError) {
	pl, fd, fail := fp.pl, fp.fd, fp.fail
	var out []Resolved
	var open []openOrder // hunks whose order the syntax check may choose
	for i, c := range fp.chosen {
		if c == nil {
			continue
		}
		rs, err := pl.resolve(i, fd.Hunks[i], c)
		if err != nil {
			if err.order != nil && c.split == 0 {
				open = append(open, openOrder{hunk: i, err: err})
				continue
			}
			fp.refuse(i, err)
			continue
		}
		out = append(out, rs...)
	}
	out = fp.dropTwins(out)
	out = fp.dropBound(out)
	slices.SortStableFunc(out, func(a, b Resolved) int { return a.Start - b.Start })
	// Two hunks may share context lines, but not change the same lines,
	// and one may not delete a line the other keeps as context: they
	// would disagree about the file.
	// Which of two disagreeing hunks is wrong is unknown: both fail, with
	// every part of a fused hunk.
	bad := map[int]int{} // hunk -> start line of the clash
	edits := make([][]edit, len(out))
	for i := range out {
		edits[i] = out[i].edits()
	}
	for i := range out {
		// Sorted by start: a hunk that starts past the end of this one's
		// lines cannot touch them, nor can any after it.
		end := out[i].Start + out[i].OldCount()
		for j := i + 1; j < len(out) && out[j].Start <= end; j++ {
			a, b := out[i], out[j]
			if a.Hunk == b.Hunk {
				continue
			}
			if conflict(edits[i], edits[j]) || deletesContext(a, b) || deletesContext(b, a) {
				bad[a.Hunk], bad[b.Hunk] = b.Start, a.Start
			}
		}
	}
	kept := out[:0]
	for _, r := range out {
		if at, ok := bad[r.Hunk]; ok {
			if r.Part == 0 || !slices.ContainsFunc(fp.errs, func(e *PlacementError) bool { return e.Hunk == r.Hunk }) {
				fail(r.Hunk, ErrOverlap, fmt.Sprintf("it changes lines near line %d that another hunk also changes or keeps", at+1), nil)
			}
			continue
		}
		kept = append(kept, r)
	}
	kept = fp.dropBound(fp.guard(fp.dropBound(kept)))
	kept = fp.dropBound(fp.chooseOrders(kept, open))
	slices.SortFunc(fp.errs, func(a, b *PlacementError) int { return a.Hunk - b.Hunk })
	return kept, fp.errs
}

// assignTwins places hunks that make the same change and fit the same
// places, as many places as hunks, one place each, in file order: any
// other assignment writes the same file (one line deleted from each of
// two test blocks the file repeats word for word). Only strict fits of
// one reading per place count, so that each hunk covers the same lines
// at each place; the hunks' added lines must be the same as written, and
// dropTwins checks that they resolve alike.
func assignTwins(choices [][]candidate, hunks []*Hunk, chosen []*candidate) {
	grouped := make([]bool, len(hunks))
	for i, cs := range choices {
		starts, ok := strictStarts(cs)
		if grouped[i] || chosen[i] != nil || !ok {
			continue
		}
		group := []int{i}
		for j := i + 1; j < len(choices) && len(group) < len(starts); j++ {
			if grouped[j] || chosen[j] != nil || !sameChange(hunks[i], hunks[j]) {
				continue
			}
			if other, ok := strictStarts(choices[j]); ok && slices.Equal(other, starts) {
				group = append(group, j)
			}
		}
		if len(group) != len(starts) || len(group) < 2 {
			continue
		}
		for k, g := range group {
			grouped[g] = true
			at := slices.IndexFunc(choices[g], func(c candidate) bool { return c.start == starts[k] })
			c := choices[g][at]
			c.twins = group
			c.notes = append(slices.Clone(c.notes), fmt.Sprintf("%d hunks make the same change and fit the same %d places: one each, in file order, which writes the file as any other order would", len(group), len(starts)))
			chosen[g] = &c
		}
	}
}

// strictStarts returns the sorted places of candidates that fit one way
// each, without lines lost or fused, and whether there are several.
func strictStarts(cs []candidate) ([]int, bool) {
	if len(cs) < 2 {
		return nil, false
	}
	starts := make([]int, 0, len(cs))
	for _, c := range cs {
		if c.pass >= PassFuzzy || c.split != 0 || c.order != nil || c.keepIndent {
			return nil, false
		}
		starts = append(starts, c.start)
	}
	slices.Sort(starts)
	if len(slices.Compact(slices.Clone(starts))) != len(starts) {
		return nil, false // one place read in several ways
	}
	return starts, true
}

// sameChange reports whether two hunks have the same lines in the same
// order, the added ones letter for letter: at one place, they change
// the same file lines to the same lines.
func sameChange(a, b *Hunk) bool {
	return slices.EqualFunc(a.Lines, b.Lines, func(x, y Line) bool {
		return x.Kind == y.Kind && (x.Kind != Add || x.Text == y.Text)
	})
}

// dropTwins refuses hunks placed by assignTwins whose added lines did not
// resolve alike (one re-indented, another not): then which goes where
// matters, and is unknown. A twin refused for another reason takes the
// others with it, as in dropBound.
func (fp *filePlaces) dropTwins(rs []Resolved) []Resolved {
	twin := map[int]bool{}
	for _, c := range fp.chosen {
		if c != nil {
			for _, t := range c.twins {
				twin[t] = true
			}
		}
	}
	if len(twin) == 0 {
		return rs
	}
	added := map[int]string{}
	for _, r := range rs {
		if !twin[r.Hunk] {
			continue
		}
		var b strings.Builder
		for _, l := range r.Lines {
			if l.Kind == Add {
				b.WriteString(l.Text + "\n")
			}
		}
		added[r.Hunk] = b.String()
	}
	bad := map[int]string{}
	for i, c := range fp.chosen {
		if c == nil || len(c.twins) == 0 {
			continue
		}
		for _, t := range c.twins {
			switch a, ok := added[t]; {
			case !ok:
				bad[i] = fmt.Sprintf("it fits the same places as hunk %d, which makes the same change and cannot be placed, so which place is this one's is unknown", t+1)
			case a != added[i]:
				bad[i] = "it fits the same places as other hunks that make the same change, but their added lines would be indented differently, so which goes where is unknown"
			}
		}
	}
	if len(bad) == 0 {
		return rs
	}
	kept := rs[:0]
	for _, r := range rs {
		if bad[r.Hunk] == "" {
			kept = append(kept, r)
		}
	}
	for i, detail := range bad {
		if !slices.ContainsFunc(fp.errs, func(e *PlacementError) bool { return e.Hunk == i }) {
			fp.fail(i, ErrAmbiguous, detail, fp.pl.nearest(fp.fd.Hunks[i]))
		}
	}
	return kept
}

// refuse records the refusal of hunk i that resolving it gave.
func (fp *filePlaces) refuse(i int, err *resolveErr) {
	e := fp.fail(i, err.err, err.detail, fp.pl.nearest(fp.fd.Hunks[i]))
	if err.doubted != nil && e.Interpreted == nil {
		e.Interpreted = uncertain(*err.doubted, err.detail)
	}
}

// dropBound refuses the hunks chosen among several places by the places
// of neighbours that have been refused since (see choose), and removes
// every refused hunk from rs: such a hunk stands or falls with them.
func (fp *filePlaces) dropBound(rs []Resolved) []Resolved {
	failed := map[int]bool{}
	for _, e := range fp.errs {
		failed[e.Hunk] = true
	}
	for again := true; again; {
		again = false
		for i, c := range fp.chosen {
			if c == nil || failed[i] {
				continue
			}
			for _, j := range c.boundBy {
				if failed[j] && !failed[i] {
					failed[i], again = true, true
					fp.fail(i, ErrAmbiguous, fmt.Sprintf("it fits more than one place, and hunk %d, whose place chose among them, could not be placed", j+1), fp.pl.nearest(fp.fd.Hunks[i]))
				}
			}
		}
	}
	return slices.DeleteFunc(rs, func(r Resolved) bool { return failed[r.Hunk] })
}

// ErrSyntax means that a hunk placed by a tolerant pass would leave a file
// that passed its language's syntax check failing it.
var ErrSyntax = errors.New("hunk would break the file's syntax")

// guardMax is how many tolerant hunks of one file the guard blames one
// by one; past it, all are refused when the result fails its check.
const guardMax = 32

// guard checks the file's syntax after hunks placed by a tolerant pass,
// where the file's language has a cheap check and the file passed it
// before: an exact placement is never second-guessed (a series of hunks
// may leave a file unbalanced half-way). A hunk that breaks the file is
// read the other way (its added lines as written, not re-indented) if
// that passes, else refused. The check that ran is noted on the hunks.
func (fp *filePlaces) guard(rs []Resolved) []Resolved {
	tolerant := func(r Resolved) bool { return r.Pass != PassExact }
	if !slices.ContainsFunc(rs, tolerant) {
		return rs
	}
	sc, ok := syntaxFor(fp.fd.Path())
	if !ok {
		return rs
	}
	note := func(rs []Resolved, msg string) {
		for i := range rs {
			if tolerant(rs[i]) {
				rs[i].Notes = append(rs[i].Notes, msg)
			}
		}
	}
	result := func(rs []Resolved) string {
		out, err := Apply(fp.old, rs)
		if err != nil {
			return "the hunks do not apply: " + err.Error()
		}
		return sc.check(out)
	}
	if sc.quick != nil {
		// Check only the parts of the result that tolerant hunks changed:
		// if they pass, the file does (a first look; a failure is judged
		// on the whole file).
		if out, err := Apply(fp.old, rs); err == nil {
			var ranges [][2]int
			delta := 0 // lines the hunks before add to the file
			for _, r := range rs {
				if tolerant(r) {
					ranges = append(ranges, [2]int{r.Start + delta, r.Start + delta + r.NewCount()})
				}
				delta += r.NewCount() - r.OldCount()
			}
			if lines, _ := splitLines(out); sc.quick(lines, ranges) {
				note(rs, "syntax check ("+sc.name+") passed")
				return rs
			}
		}
	}
	problem := result(rs)
	if problem == "" {
		note(rs, "syntax check ("+sc.name+") passed")
		return rs
	}
	// Only a file that passed before is held to it (checked second: most
	// results pass, and then the file before does not matter).
	if sc.check(fp.old) != "" {
		note(rs, "syntax check ("+sc.name+") not held to: the file did not pass it before either")
		return rs
	}
	// Blame: the tolerant hunks whose removal (or other reading) mends it.
	var blamed []int // indexes in rs
	for i, r := range rs {
		if tolerant(r) {
			blamed = append(blamed, i)
		}
	}
	refuse := map[int]bool{} // source hunk indexes
	if len(blamed) <= guardMax {
		var culprits []int
		for _, i := range blamed {
			if result(slices.Delete(slices.Clone(rs), i, i+1)) == "" {
				culprits = append(culprits, i)
			}
		}
		if len(culprits) > 0 {
			blamed = culprits
		}
	}
	for _, i := range blamed {
		if alt, ok := fp.otherReading(rs[i]); ok {
			try := slices.Clone(rs)
			try[i] = alt
			if result(try) == "" {
				alt.Notes = append(alt.Notes, "added lines kept as written: re-indented, they would fail the syntax check ("+sc.name+")")
				rs[i] = alt
				continue
			}
		}
		refuse[rs[i].Hunk] = true
	}
	// A refused hunk of one part is offered as uncertain, with what its
	// placement alone does to the file when that fails too.
	refused := func(r Resolved, problem string) {
		if r.Part != 0 {
			return
		}
		why := problem
		if p := result([]Resolved{r}); p != "" {
			why = p
		}
		e := fp.fail(r.Hunk, ErrSyntax, fmt.Sprintf("placed loosely (%s), it makes the file fail the syntax check (%s) that it passed: %s", r.Label(), sc.name, why), nil)
		if c := fp.chosen[r.Hunk]; c != nil && c.split == 0 && e.Interpreted == nil {
			e.Interpreted = uncertain(r, fmt.Sprintf("placed loosely (%s), the file no longer passes its syntax check (%s: %s)", r.Label(), sc.name, why))
		}
	}
	kept := rs[:0]
	for _, r := range rs {
		if refuse[r.Hunk] {
			refused(r, problem)
			continue
		}
		kept = append(kept, r)
	}
	if problem = result(kept); problem != "" {
		// The hunks break it together: refuse every tolerant one.
		for _, r := range kept {
			if tolerant(r) && !refuse[r.Hunk] {
				refuse[r.Hunk] = true
				refused(r, problem)
			}
		}
		kept = slices.DeleteFunc(kept, func(r Resolved) bool { return refuse[r.Hunk] })
		return kept
	}
	note(kept, "syntax check ("+sc.name+") passed")
	return kept
}

// otherReading resolves r's hunk again with its added lines as written,
// when its placement re-indented them.
func (fp *filePlaces) otherReading(r Resolved) (Resolved, bool) {
	c := fp.chosen[r.Hunk]
	if c == nil || c.split > 0 {
		return Resolved{}, false
	}
	alt := *c
	alt.keepIndent = true
	out, err := fp.pl.resolve(r.Hunk, fp.fd.Hunks[r.Hunk], &alt)
	if err != nil || len(out) != 1 || slices.Equal(out[0].Lines, r.Lines) {
		return Resolved{}, false
	}
	return out[0], true
}

// styleSeen is what a file's hunks say about the patch's indentation
// style: seen when some hunk shows indentation, conflict when they
// disagree (then style is the identity).
type styleSeen struct {
	style          indentStyle
	seen, conflict bool
	// converted counts the lines whose indentation the style converts:
	// the evidence for applying it to hunks that show none.
	converted int
	// conv is the one converting style some hunks show, with the lines
	// they convert (convN), even where other hunks match letter for
	// letter (raw strings indented with spaces in a file of tabs, say);
	// convConflict is set when hunks show two.
	conv         indentStyle
	convN        int
	convConflict bool
}

// addConv records a converting style shown on n lines.
func (st *styleSeen) addConv(s indentStyle, n int) {
	if s.kind == 0 {
		return
	}
	if st.conv.kind != 0 && st.conv != s {
		st.convConflict = true
	}
	st.conv = s
	st.convN += n
}

// fallback returns the converting style to lend a hunk that shows no
// indentation of its own, whose added lines are indented as the file
// never indents and as the style makes them: the one converting style
// the hunks show, with enough evidence, though other hunks disagree.
func (st styleSeen) fallback() indentStyle {
	if st.convConflict || st.convN < styleEvidence {
		return indentStyle{}
	}
	return st.conv
}

// styleEvidence is how many converted lines a style needs before it
// re-indents hunks that show no indentation of their own.
const styleEvidence = 3

// usable returns the style to lend hunks without indentation of their
// own: the one seen, if there is enough evidence for it.
func (st styleSeen) usable() indentStyle {
	if st.conflict || st.converted < styleEvidence {
		return indentStyle{}
	}
	return st.style
}

// fileStyle returns the change of indentation style (say, tabs written as
// four spaces) that every hunk showing indentation agrees on.
func (pl *placer) fileStyle(hunks []*Hunk, chosen []*candidate) styleSeen {
	var st styleSeen
	for i, c := range chosen {
		if c == nil || c.split > 0 {
			continue
		}
		var m reindent
		ok, converted := true, 0
		if c.level == levelExact {
			// Placed letter for letter: an identity witness, if indented.
			if !slices.ContainsFunc(hunks[i].Lines, func(l Line) bool { return l.Kind != Add && indentOf(l.Text) != "" }) {
				continue
			}
		} else {
			ev := pl.evidence(preLines(hunks[i].Lines), c.align)
			if !ev.indented {
				continue
			}
			m, ok = ev.reindent(indentStyle{})
			for _, p := range append(ev.del, ev.ctx...) {
				if p[0] != p[1] && m.style.apply(p[0]) != p[0] {
					converted++
				}
			}
		}
		if !ok {
			continue // too little to tell: neither evidence nor conflict
		}
		st.addConv(m.style, converted)
		if st.seen && st.style != m.style {
			st.conflict = true
		}
		st.style, st.seen = m.style, true
		st.converted += converted
	}
	if st.conflict {
		st.style, st.converted = indentStyle{}, 0
	}
	return st
}

// strayAddsIn reports whether some hunk shows no indentation in its
// context and deleted lines, and adds lines indented as the file never
// indents (with spaces in a file of tabs).
func (pl *placer) strayAddsIn(hunks []*Hunk) bool {
	for _, h := range hunks {
		lines := h.Lines
		shows := slices.ContainsFunc(lines, func(l Line) bool { return l.Kind != Add && strings.TrimSpace(l.Text) != "" && indentOf(l.Text) != "" })
		if !shows && !pl.indentsFit(lines, reindent{}) {
			return true
		}
	}
	return false
}

// numbersHold reports whether the hunks' line numbers describe the file
// as it is, and by what: every hunk placed by a strict pass sits where
// its header says (a file changed since the diff was made, or numbers a
// model made up, shift them), and some hunk was so placed, or git made
// the diff (its "index" line) and no hunk says otherwise. A loose fit
// that rests on lines common in the file may then be pinned by its
// number.
func numbersHold(chosen []*candidate, hunks []*Hunk, gitMade bool) (bool, string) {
	seen := false
	for i, c := range chosen {
		if c == nil || c.pass == PassFuzzy || c.pass == PassFused {
			continue
		}
		if h := hunks[i]; !h.HasNumbers || h.OldStart-1 != c.start {
			return false, ""
		}
		seen = true
	}
	switch {
	case seen:
		return true, "as the numbers of the file's other hunks name theirs"
	case gitMade:
		return true, "and git made the diff, whose numbers name the file as it was"
	}
	return false, ""
}

// pinnedByNumber reports whether the header's line number pins a loose
// fit c of a hunk whose lines are common in the file (see distinctive):
// it names the fit's first line, the fit is off by one line at most (one
// context line lost or changed), and no other fit of the hunk (cs)
// overlaps it. In text made of a few lines repeated ("}", "if err != nil
// {"), the number may say where the hunk starts but not which of the like
// lines inside it were lost: a fit that loses more, or that another fit
// overlaps, is still refused.
func pinnedByNumber(h *Hunk, c *candidate, cs []candidate) bool {
	// A leading line the fit leaves out as absent from the file would sit
	// where the number says the hunk starts: the number contradicts it
	// (and the line may be an added one in disguise).
	if !h.HasNumbers || h.OldStart-1 != c.first() || c.cost >= 2*unit || slices.Contains(c.align, -1) {
		return false
	}
	for _, o := range cs {
		if o.start != c.start && o.start < c.end() && c.start < o.end() {
			return false
		}
	}
	return true
}

// atGitEdges keeps, of several places a git hunk fits, those at the end
// of the file its shape asks for: git writes as many context lines on
// each side of a hunk as everywhere in its diff wherever the file goes
// on, so a side with fewer puts the hunk at that end of the file (a
// README's closing lines, repeated further up, then the lines it
// appends). When no candidate, or every one, is at those ends, it returns
// them all.
//
// A hunk of a diff git did not make has any shape, even three lines on
// one side and none on the other: a model that adds a function after
// one of two test methods that end alike, and stops, means the one it
// read, and the end of the file is only one of them (FuzzPythonIndent).
func (pl *placer) atGitEdges(h *Hunk, cs []candidate) []candidate {
	n := pl.gitLines()
	// A loose fit's sides are not the hunk's as written: lines the patch
	// lost may lie on them.
	if n == 0 || slices.ContainsFunc(cs, func(c candidate) bool { return c.pass >= PassFuzzy }) {
		return cs
	}
	sh := hunkShape(h.Lines)
	if sh.lastChange < 0 || (sh.lead >= n && sh.trail >= n) {
		return cs
	}
	var at []candidate
	for _, c := range cs {
		if (sh.lead >= n || c.start == 0) && (sh.trail >= n || c.end() == len(pl.file)) {
			at = append(at, c)
		}
	}
	if len(at) == 0 || len(at) == len(cs) {
		return cs
	}
	edge := "end"
	if sh.lead < n {
		edge = "start"
	}
	for i := range at {
		at[i].notes = append(at[i].notes, fmt.Sprintf("%d places matched; chose the one at the %s of the file, where git's %d lines of context stop short", len(cs), edge, n))
	}
	return at
}

// choose picks among the candidates of hunk i, first keeping those that
// respect the order of the hunks already placed, then the one clearly
// nearest to the line the header names. It returns nil and the reason
// when the choice would be a guess.
func choose(i int, cs []candidate, chosen []*candidate, hunks []*Hunk) (*candidate, string) {
	h := hunks[i]
	lo, hi, by, ordered := orderBounds(i, chosen, hunks)
	if ordered {
		var in []candidate
		for _, c := range cs {
			if c.start >= lo && c.end() <= hi {
				in = append(in, c)
			}
		}
		if len(in) == 1 {
			c := in[0]
			c.notes = append(c.notes, fmt.Sprintf("%d places matched; chose the one between the neighbouring hunks", len(cs)))
			c.boundBy = by
			return &c, ""
		}
		if len(in) > 1 {
			cs = in
		}
	}
	where := fitsAt(cs)
	if !slices.ContainsFunc(cs, func(c candidate) bool { return c.start != cs[0].start }) {
		// One place, read in ways that change the file differently: no
		// line number chooses among them.
		return nil, "it fits at " + where
	}
	if !h.HasNumbers || h.OldStart == 0 {
		return nil, "it fits at " + where + " and the header has no line number to choose by"
	}
	hint := h.OldStart - 1
	sorted := slices.Clone(cs)
	slices.SortStableFunc(sorted, func(a, b candidate) int { return abs(a.first()-hint) - abs(b.first()-hint) })
	d1, d2 := abs(sorted[0].first()-hint), abs(sorted[1].first()-hint)
	if 2*d1 >= d2 {
		return nil, fmt.Sprintf("it fits at %s and none is clearly nearest to line %d", where, h.OldStart)
	}
	c := sorted[0]
	c.notes = append(c.notes, fmt.Sprintf("%d places matched; chose the one nearest line %d", len(cs), h.OldStart))
	return &c, ""
}

// fitsAt names the lines where candidates start, with how many ways each
// reads the hunk there when more than one does: "lines 12, 40", "line 3
// in 2 ways that change the file differently".
func fitsAt(cs []candidate) string {
	var starts []int
	ways := map[int]int{}
	for _, c := range cs {
		if ways[c.start] == 0 {
			starts = append(starts, c.start)
		}
		ways[c.start]++
	}
	parts := make([]string, len(starts))
	for i, s := range starts {
		parts[i] = fmt.Sprint(s + 1)
		if ways[s] > 1 {
			parts[i] += fmt.Sprintf(" (in %d ways)", ways[s])
		}
	}
	if len(starts) == 1 {
		return fmt.Sprintf("line %d in %d ways that change the file differently", starts[0]+1, ways[starts[0]])
	}
	return "lines " + strings.Join(parts, ", ")
}

// orderBounds returns the interval of old lines that hunk i must fall in
// if the patch lists its hunks in file order: after the nearest placed
// hunk before it and before the nearest placed hunk after it. ordered is
// false when the patch is not in file order: the placed hunks, or the
// line numbers of the hunk headers, go backwards.
func orderBounds(i int, chosen []*candidate, hunks []*Hunk) (lo, hi int, by []int, ordered bool) {
	// Evidence of order: two header line numbers, or two placed hunks,
	// in increasing order, and none going backwards.
	last, seen := -1, 0
	for _, h := range hunks {
		if h.HasNumbers && h.OldStart > 0 {
			if h.OldStart < last {
				return 0, 0, nil, false
			}
			last = h.OldStart
			seen++
		}
	}
	numbered := seen >= 2
	last, seen = -1, 0
	for _, c := range chosen {
		if c == nil {
			continue
		}
		if c.start < last {
			return 0, 0, nil, false
		}
		last = c.start
		seen++
	}
	if !numbered && seen < 2 {
		return 0, 0, nil, false
	}
	lo, hi = 0, 1<<62
	for j := i - 1; j >= 0; j-- {
		if chosen[j] != nil {
			lo = chosen[j].end()
			by = append(by, j)
			break
		}
	}
	for j := i + 1; j < len(chosen); j++ {
		if chosen[j] != nil {
			hi = chosen[j].start
			by = append(by, j)
			break
		}
	}
	return lo, hi, by, true
}

// place.go: the placement pipeline: candidates, readings, rules, then one choice per hunk.

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
	case PassConflict:
		return "conflict"
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
	// Rules is the hunk's trace: the ids of the rules that decided its
	// place and reading, in the order they did (see Rules and RuleByID).
	Rules []RuleID `json:",omitempty"`
}

// Label is the one-word placement shown to a reviewer: exact, offset,
// reduced, whitespace, indent, lookalike, fuzzy or fused. A hunk that
// fits letter for letter only with its outer context lines left out
// (git apply -C<n>, the rule reducedContext) is "reduced", not exact:
// the lines left out do not match the file.
func (r *Resolved) Label() string {
	if r.Pass == PassExact && slices.Contains(r.Rules, ruleReducedContext.ID) {
		return "reduced"
	}
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
	// Rules is the hunk's trace: the ids of the rules that decided it,
	// the last the one that refused it.
	Rules []RuleID
	// Skip is set when the hunk need not be applied, and is left out
	// rather than refused: it changes nothing where it fits strictly and
	// at one place only, its result is in the file already, or it repeats
	// an earlier hunk (see FilePlan.Skipped). Its rule says which.
	Skip bool
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
	old   string
	pl    *placer
	fd    *FileDiff
	hunks []hunkPlace // one per hunk of fd
	errs  []*PlacementError
	style styleSeen
	// staleDiff caches stale: 0 not yet known, 1 no, 2 yes.
	staleDiff int8
}

// hunkPlace is one hunk's state through placement: the place chosen for
// it (nil before, or once it is refused) and the trace of the rules that
// decided so far.
type hunkPlace struct {
	// h is the hunk as placement reads it: the patch's, but for a rule
	// that reads it otherwise (blankEdge).
	h      *Hunk
	chosen *candidate
	trace  []RuleID
	// strict is set when the hunk fits one place only, letter for letter
	// (see noOpSkipped).
	strict bool
}

// decided adds rule ids to hunk i's trace.
func (fp *filePlaces) decided(i int, ids ...RuleID) {
	fp.hunks[i].trace = append(fp.hunks[i].trace, ids...)
}

// fail refuses hunk i by the rule of that id.
func (fp *filePlaces) fail(i int, rule RuleID, err error, detail string, nearest []NumberedLine) *PlacementError {
	return fp.failTraced(i, traced(fp.hunks[i].trace, rule), err, detail, nearest)
}

// failTraced refuses hunk i with the whole trace given.
func (fp *filePlaces) failTraced(i int, trace []RuleID, err error, detail string, nearest []NumberedLine) *PlacementError {
	e := &PlacementError{Path: fp.fd.Path(), Hunk: i, Err: err, Detail: detail, Nearest: nearest, Rules: trace}
	var rule RuleID
	e.Interpreted, e.Misread, rule = fp.pl.interpret(i, fp.hunks[i].h, err)
	if rule != "" {
		e.Rules = append(e.Rules, rule)
	}
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
//
// The order is written down here once:
//
//  1. candidates, hunk by hunk: a hunk that changes nothing is refused
//     (changesSomething); the strictest pass that finds places gives
//     them (see candidates, with its own rules); in git's own diff of
//     another version of the file, only the places git apply finds are
//     kept, or the hunk is refused (contextAsGit); a hunk git apply pins
//     to an edge keeps the places there, or is refused (pinnedEdge); an
//     old side without a final newline keeps the places at the end
//     (noNewlineAtEnd); of several, a git hunk short of context keeps
//     those at that edge (atGitEdges); none left refuses it
//     (alreadyApplied, fitsSomewhere);
//  2. the choice: one place is taken (onePlace); twins take one place
//     each (assignTwins); the rest choose by their neighbours' places,
//     then the header's number, or are refused (choose);
//  3. a loose fit on common lines stands only where the numbers pin it
//     (pinnedByNumber, distinctive).
//
// finish then resolves the chosen places into readings and judges them.
func choosePlaces(old string, fd *FileDiff, context gitCtx) *filePlaces {
	pl := newPlacer(old)
	pl.goFile = language(fd.Path()) == "go"
	pl.blockComments = blockComments(fd.Path())
	if fd.Indexed {
		pl.context, pl.contextShown = context.n, context.shown
	}
	pl.opts = fd.Placing
	fp := &filePlaces{old: old, pl: pl, fd: fd, hunks: make([]hunkPlace, len(fd.Hunks))}
	hunks := slices.Clone(fd.Hunks) // as read: see blankEdge
	for i, h := range hunks {
		fp.hunks[i].h = h
	}
	fail := fp.fail
	pl.strayAdds = pl.strayAddsIn(hunks)

	// Step 1: the candidates of every hunk at its best pass.
	choices := make([][]candidate, len(hunks))
	seen := repeats{} // the hunks so far, for duplicateOnce
	for i, h := range hunks {
		if !h.Changes() {
			fail(i, ruleChangesSomething.ID, ErrNoOp, "it has no added or deleted lines", nil)
			continue
		}
		if pl.zeroContextHunk(h) {
			if cands := fp.zeroContext(i, h); cands != nil {
				fp.decided(i, ruleZeroContext.ID)
				choices[i] = cands
			}
			continue
		}
		if short, cs := pl.reducedContext(h); short != nil {
			hunks[i], fp.hunks[i].h = short, short
			fp.decided(i, ruleReducedContext.ID)
			choices[i] = cs
			continue
		}
		cands, trace, err := pl.candidates(h)
		if err == ErrAlreadyApplied && pl.appliedOnce(h) {
			fp.skip(i, ruleAppliedSkipped.ID, err, "its added lines are already in the file, at one place, and its old lines nowhere")
			continue
		}
		if err != nil {
			detail := ""
			if err == ErrAlreadyApplied {
				detail = "its added lines are already in the file"
			}
			fp.failTraced(i, trace, err, detail, pl.nearest(h))
			continue
		}
		if len(cands) == 0 {
			if bh, bc := pl.blankEdge(h); bh != nil {
				h, cands = bh, bc
				hunks[i], fp.hunks[i].h = bh, bh
				fp.decided(i, ruleBlankEdge.ID)
			}
		}
		if k := seen.of(i, h); k >= 0 && len(cands) == 1 && strictFit(cands[0]) {
			fp.skip(i, ruleDuplicateOnce.ID, ErrOverlap, fmt.Sprintf("it is hunk %d again, line for line; applied once", k+1))
			continue
		}
		fp.decided(i, trace...)
		if kept, decided := fp.contextAsGit(i, h, cands); decided {
			if kept == nil {
				continue
			}
			cands = kept
			fp.decided(i, ruleContextAsGit.ID)
		}
		if kept, decided := fp.pinnedEdge(i, h, cands); decided {
			if kept == nil {
				continue
			}
			cands = kept
			fp.decided(i, rulePinnedEdge.ID)
		}
		if h.OldNoNewline {
			if atEnd := pl.noNewlineAtEnd(cands); len(atEnd) > 0 {
				cands = atEnd
				fp.decided(i, ruleNoNewlineAtEnd.ID)
			}
		}
		if len(cands) > 1 {
			if at := pl.atGitEdges(h, cands); len(at) < len(cands) {
				cands = at
				fp.decided(i, ruleAtGitEdges.ID)
			}
		}
		if len(cands) == 0 {
			if pl.alreadyApplied(h) {
				fail(i, ruleAlreadyApplied.ID, ErrAlreadyApplied, "its added lines are already in the file", pl.nearest(h))
			} else if !fp.offerBlankRun(i, h) {
				fail(i, ruleFitsSomewhere.ID, ErrNoMatch, "", pl.nearest(h))
			}
			continue
		}
		choices[i] = cands
	}

	// Step 2: choose among several candidates by hunk order, then by the
	// header's line number.
	chosen := make([]*candidate, len(hunks))
	for i, cs := range choices {
		if len(cs) == 1 {
			chosen[i] = &cs[0]
			fp.hunks[i].strict = strictFit(cs[0])
			fp.decided(i, ruleOnePlace.ID)
		}
	}
	for _, i := range assignTwins(choices, hunks, chosen) {
		fp.decided(i, ruleAssignTwins.ID)
	}
	for i, cs := range choices {
		if len(cs) <= 1 || chosen[i] != nil {
			continue
		}
		c, rule, detail := choose(i, cs, chosen, hunks)
		if c == nil {
			fail(i, rule, ErrAmbiguous, detail, pl.around(cs))
			continue
		}
		fp.decided(i, rule)
		chosen[i] = c
	}

	// Step 3: loose fits on common lines.
	held, by := numbersHold(chosen, hunks, fd.Indexed)
	for i, c := range chosen {
		if c == nil || c.pass != PassFuzzy || c.distinct {
			continue
		}
		if h := hunks[i]; held && pinnedByNumber(h, c, choices[i]) {
			c.notes = append(c.notes, fmt.Sprintf("its lines are common in the file, but the header's line number, %d, names this place, %s", h.OldStart, by))
			fp.decided(i, rulePinnedByNumber.ID)
			continue
		}
		fail(i, ruleDistinctive.ID, ErrAmbiguous, "it fits only loosely, and only on lines that are common in the file", pl.nearest(hunks[i]))
		chosen[i] = nil
	}
	for i, c := range chosen {
		fp.hunks[i].chosen = c
	}
	fp.style = pl.fileStyle(hunks, chosen)
	return fp
}

// finish resolves the chosen places into readings (see readLines), then
// judges the file's readings together, in this order, which matters:
//
//  1. dropTwins, then dropBound: twins and hunks chosen by a refused
//     neighbour's place fall before any overlap is looked for;
//  2. noOverlap: hunks that disagree about the file are both refused;
//  3. dropBound, guard, dropBound: the syntax check sees only hunks that
//     stand, and what it refuses takes the hunks it chose with it;
//  4. chooseOrders, dropBound: a lost line's order is chosen by the
//     syntax check with every other hunk in place.
func (fp *filePlaces) finish() ([]Resolved, []*PlacementError) {
	var out []Resolved
	var open []openOrder // hunks whose order the syntax check may choose
	for i, hp := range fp.hunks {
		c := hp.chosen
		if c == nil {
			continue
		}
		rs, err := fp.resolve(i, c)
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
	kept := fp.noOverlap(out)
	kept = fp.dropBound(fp.guard(fp.dropBound(kept)))
	kept = fp.dropBound(fp.chooseOrders(kept, open))
	slices.SortFunc(fp.errs, func(a, b *PlacementError) int { return a.Hunk - b.Hunk })
	return kept, fp.errs
}

// resolve resolves hunk i at candidate c (see placer.resolve), with the
// hunk's trace before each reading's and each refusal's.
func (fp *filePlaces) resolve(i int, c *candidate) ([]Resolved, *resolveErr) {
	rs, err := fp.pl.resolve(i, fp.hunks[i].h, c)
	trace := fp.hunks[i].trace
	if err != nil {
		err.rules = traced(trace, err.rules...)
		if err.doubted != nil {
			err.doubted.Rules = err.rules
		}
		return nil, err
	}
	for k := range rs {
		rs[k].Rules = traced(trace, rs[k].Rules...)
	}
	return rs, nil
}

// skip leaves hunk i out by the rule of that id: it need not be applied.
func (fp *filePlaces) skip(i int, rule RuleID, err error, detail string) {
	e := fp.fail(i, rule, err, detail, fp.pl.nearest(fp.hunks[i].h))
	e.Skip, e.Interpreted, e.Misread = true, nil, nil
}

// refuse records the refusal of hunk i that resolving it gave.
func (fp *filePlaces) refuse(i int, err *resolveErr) {
	if err.err == ErrNoOp && fp.hunks[i].strict && fp.pl.converting().kind == 0 {
		// It changes nothing where it fits, strictly and at one place
		// only, and no other hunk says the patch lost a difference
		// between its lines (see unchangedPair).
		fp.skip(i, ruleNoOpSkipped.ID, err.err, err.detail)
		return
	}
	e := fp.failTraced(i, err.rules, err.err, err.detail, fp.pl.nearest(fp.hunks[i].h))
	if err.doubted != nil && e.Interpreted == nil {
		e.Interpreted = uncertain(*err.doubted, err.detail)
	}
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

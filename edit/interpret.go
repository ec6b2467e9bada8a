// interpret.go: interpreted readings: what a refused hunk got wrong about the file, for --interpret and the model.

package edit

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// An interpreted placement reads intent into a hunk that has no clean
// reading: small models write their change into a context line, drop the
// -/+ marks, add a no-op -x/+x pair, or lose the + of a new line. Such a
// hunk is refused by Place; the reading is attached to the refusal
// (PlacementError.Interpreted) and becomes a hunk only when the caller
// asks for it (FilePlan.Interpret): offered to a reviewer, or accepted
// under --interpret. It states every file line it changes that the patch
// did not mark.

// PassInterpreted marks a hunk placed by reading intent into lines the
// patch did not mark. Place never returns one (see FilePlan.Interpret).
const PassInterpreted = PassFused + 1

// PassUncertain marks a hunk placed where its reading is doubtful: a loose
// placement that breaks the file's syntax, or a hunk that probably lost
// its trailing context. Like an interpreted hunk, it rides on a refusal
// and is placed only on request (see FilePlan.Interpret); its notes give
// the reason.
const PassUncertain = PassInterpreted + 1

// OnRequest reports whether a hunk of this pass is placed only when the
// caller asks for the readings of refused hunks (FilePlan.Interpret):
// interpreted and uncertain hunks.
func (p Pass) OnRequest() bool { return p == PassInterpreted || p == PassUncertain }

// Help explains an interpreted or uncertain hunk to a reviewer, "" for any
// other.
func (p Pass) Help() string {
	switch p {
	case PassInterpreted:
		return InterpretedHelp
	case PassUncertain:
		return UncertainHelp
	}
	return ""
}

// Interpretation kinds.
const (
	// InterpretChanged: a context line that differs slightly from the file
	// line is taken as the model's new version of that line.
	InterpretChanged = "changed"
	// InterpretNoOp: a -x/+x pair whose x is not the file's line is taken
	// as a change of the file's similar line to x.
	InterpretNoOp = "no-op pair"
	// InterpretAdded: a context line absent from the file, between lines
	// that match, is taken as an added line whose + was lost.
	InterpretAdded = "added"
	// InterpretLeftOut: the patch's context goes on as if file line Line
	// (File) were not there; its lines after are the file's next ones.
	// Feedback only (Misread): no reading is made of it.
	InterpretLeftOut = "left out"
	// InterpretLater: the patch's context has file line Line (Model) one
	// line later than the file does: it has a line the file lacks before
	// it. Feedback only (Misread).
	InterpretLater = "later"
)

// InterpretedHelp explains an interpreted hunk to a reviewer.
const InterpretedHelp = "interpreted: the patch left unmarked a line that differs from the file " +
	"(its context says X where the file has Y, or a new line lost its +); " +
	"pair read it as the model's change, shown as -/+ in the hunk. " +
	"Approving also changes that line to the model's version; reject if the file's line was right."

// UncertainHelp explains an uncertain hunk to a reviewer.
const UncertainHelp = "uncertain: pair found a place for this hunk but doubts it, for the reason in its notes " +
	"(placed loosely, it makes the file fail a syntax check that the file passed; or its trailing context was " +
	"probably lost, so its added lines may belong further down). --yes alone refuses it. " +
	"Approve only if the hunk is right where it is shown."

// Interpretation is one file line an interpreted hunk changes although
// the patch did not mark it: Line is 1-based (for an added line, the line
// it goes before), File the file's text ("" for an added line), Model the
// patch's text.
type Interpretation struct {
	Kind  string `json:"kind"`
	Line  int    `json:"line"`
	File  string `json:"file,omitempty"`
	Model string `json:"model"`
}

// Explain says what approving the interpretation does, for a reviewer.
func (in Interpretation) Explain() string {
	switch in.Kind {
	case InterpretLeftOut, InterpretLater:
		return in.Describe()
	}
	if in.Kind == InterpretAdded {
		return fmt.Sprintf("the patch's context line %q is not in the file; approving adds it before line %d", in.Model, in.Line)
	}
	return fmt.Sprintf("the patch's context says %q where line %d has %q; approving changes line %d to the patch's version", in.Model, in.Line, in.File, in.Line)
}

// Teach says what the model got wrong about the line, for the model: what
// Describe says, and how to write the change it may have meant.
func (in Interpretation) Teach() string {
	switch {
	case in.Kind == InterpretAdded && strings.TrimSpace(in.Model) == "":
		return in.describe("your") + "; copy the context lines as the file has them"
	case in.Kind == InterpretAdded:
		return in.describe("your") + "; to add a line, mark it with +"
	case in.Kind == InterpretLeftOut, in.Kind == InterpretLater:
		return in.describe("your") + "; copy the context lines as the file has them"
	}
	return in.describe("your") + "; to change a line, mark it with - and +"
}

// Describe says what the patch got wrong about the line, for a person
// (a colleague's patch): Teach's words without the advice meant for a
// model, and the context is the patch's, not "yours".
func (in Interpretation) Describe() string { return in.describe("the patch's") }

// describe words the misreading, the context being whose.
func (in Interpretation) describe(whose string) string {
	switch in.Kind {
	case InterpretAdded:
		if strings.TrimSpace(in.Model) == "" {
			return fmt.Sprintf("%s context has a blank line that is not in the file (before line %d)", whose, in.Line)
		}
		return fmt.Sprintf("%s context line `%s` is not in the file (before line %d)", whose, in.Model, in.Line)
	case InterpretLeftOut:
		return fmt.Sprintf("%s context leaves out line %d, `%s`", whose, in.Line, in.File)
	case InterpretLater:
		return fmt.Sprintf("line %d is `%s`, which %s context has one line later", in.Line, in.Model, whose)
	}
	return fmt.Sprintf("line %d is `%s`, %s context says `%s`", in.Line, in.File, whose, in.Model)
}

// Interpretation limits.
const (
	interpretMax  = 3 // unmarked lines one hunk may change
	interpretNear = 3 // hunk lines between an interpreted line and a change
	// interpretMaxPre is the longest pre-image read for an interpretation:
	// every window is judged line by line, so longer hunks would cost
	// work quadratic in their length (a 10,000-line hunk took minutes).
	interpretMaxPre = 200
)

// window is one reading of a hunk against the file: pre-image line j is
// file line s+j, except lost (a line taken as added, or -1) and the lines
// after it, one lower.
type window struct {
	s, lost int
	// reads are the pre-image lines read as changes; matched counts the
	// non-blank lines that match.
	reads   []int
	matched int
}

func (w window) fileIndex(j int) int {
	if w.lost >= 0 && j > w.lost {
		return w.s + j - 1
	}
	return w.s + j
}

// interpret returns the interpreted reading of hunk i, refused with err,
// or nil when there is none or more than one. misread is the best
// window's differing lines, for feedback, even when there is no reading.
// rule is the rule that withheld a reading there would be, if one did.
func (pl *placer) interpret(i int, h *Hunk, err error) (r *Resolved, misread []Interpretation, rule RuleID) {
	if len(pl.file) == 0 || (!errors.Is(err, ErrNoMatch) && !errors.Is(err, ErrNoOp)) {
		return nil, nil, ""
	}
	if errors.Is(err, ErrNoOp) && h.Changes() {
		// The model may have written its fix into a context line, and
		// added a pair that changes nothing (-} +}): read the pair as the
		// context line it is (noOpAsContext).
		nh, ok := noOpAsContext(h)
		if !ok {
			return nil, nil, ""
		}
		h = nh
		defer func() {
			if r != nil {
				r.Rules = slices.Insert(r.Rules, len(r.Rules)-1, ruleNoOpAsContext.ID)
			}
		}()
	}
	pre := preLines(h.Lines)
	if len(pre) < 3 || len(pre) > interpretMaxPre {
		return nil, nil, ""
	}
	r, misread = pl.interpretAs(i, h, pre)
	if (r != nil || len(misread) > 0) && pl.contextFits(h, pre) {
		return nil, nil, ruleContextFits.ID
	}
	return r, misread, ""
}

// interpretAs is interpret of hunk i, whose pre-image is pre.
func (pl *placer) interpretAs(i int, h *Hunk, pre []preLine) (r *Resolved, misread []Interpretation) {
	pk := preKeys(pre, levelLookalike)
	var valid []window
	var best *window
	for _, w := range pl.windows(h, pre) {
		ok := pl.judge(h, pre, pk, &w)
		if ok && (w.lost < 0 || strings.TrimSpace(pre[w.lost].text) != "") {
			valid = append(valid, w)
		}
		if best == nil || w.matched > best.matched {
			best = &w
		}
	}
	if best != nil {
		misread = pl.shifted(pl.misreads(pre, *best), pre, *best)
	}
	if len(valid) != 1 {
		return nil, misread
	}
	w := valid[0]
	r = pl.readAs(i, h, pre, w)
	if r == nil {
		return nil, misread
	}
	return r, r.Interpreted
}

// windows returns the readings worth judging: those where some non-blank
// pre-image line matches a file line, with and without a lost line.
func (pl *placer) windows(h *Hunk, pre []preLine) []window {
	idx := pl.indexAt(levelLookalike)
	starts := map[int]bool{}
	for j, p := range pre {
		k := key(levelLookalike, p.text)
		if k == "" || len(idx[k]) > voterMaxOcc {
			continue
		}
		for _, fi := range idx[k] {
			starts[fi-j] = true
			starts[fi-j+1] = true
		}
	}
	var out []window
	for _, s := range slices.Sorted(func(yield func(int) bool) {
		for s := range starts {
			if !yield(s) {
				return
			}
		}
	}) {
		out = append(out, window{s: s, lost: -1})
		// A blank line the file lacks explains a refusal, but is never
		// read as an added line (interpretAs).
		for k := 1; k < len(pre)-1; k++ {
			if pre[k].kind == Context {
				out = append(out, window{s: s, lost: k})
			}
		}
	}
	return out
}

// judge counts the matching lines of w and the lines read as changes, and
// reports whether w is an acceptable interpretation. pk are the keys of
// pre at the look-alike level. It keeps only the first lines read as
// changes past the most a reading may have (enough for misreads).
func (pl *placer) judge(h *Hunk, pre []preLine, pk []string, w *window) bool {
	n := len(pre)
	if w.lost >= 0 {
		n--
	}
	if w.s < 0 || w.s+n > len(pl.file) {
		w.matched = -1
		return false
	}
	ok := true
	fk := pl.keysAt(levelLookalike)
	reads := 0
	for j, p := range pre {
		if j == w.lost {
			continue
		}
		fi := w.fileIndex(j)
		if pk[j] == fk[fi] {
			if pk[j] != "" {
				w.matched++
			}
			continue
		}
		reads++
		if reads > interpretMax+1 {
			ok = false
			continue
		}
		f := pl.file[fi]
		w.reads = append(w.reads, j)
		switch {
		case !smallEdit(p.text, f):
			ok = false
		case p.kind == Context && !nearChange(h.Lines, p.at, j, pre):
			ok = false
		case p.kind == Delete && !noOpPair(h.Lines, p.at):
			ok = false
		}
	}
	if w.lost >= 0 {
		// The lost line sits between lines that match.
		before, after := pre[w.lost-1], pre[w.lost+1]
		if slices.Contains(w.reads, w.lost-1) || slices.Contains(w.reads, w.lost+1) ||
			strings.TrimSpace(before.text) == "" && strings.TrimSpace(after.text) == "" {
			ok = false
		}
	}
	if w.lost >= 0 {
		reads++
	}
	return ok && reads > 0 && reads <= interpretMax && w.matched >= 2 && w.matched > reads
}

// smallEdit reports whether one line is a small edit of the other: at
// most a third of the longer one differs. Blank lines are never edits of
// others.
func smallEdit(a, b string) bool {
	a, b = key(levelLookalike, a), key(levelLookalike, b)
	if a == "" || b == "" {
		return false
	}
	budget := max(len(a), len(b)) / 3
	return abs(len(a)-len(b)) <= budget && editDistance(a, b, budget) <= budget
}

// nearChange reports whether hunk line at (pre-image line j) is close to
// a change; in a hunk without changes, whether it is inside the hunk.
func nearChange(lines []Line, at, j int, pre []preLine) bool {
	changed := false
	for i, l := range lines {
		if l.Kind != Context {
			changed = true
			if abs(i-at) <= interpretNear {
				return true
			}
		}
	}
	return !changed && j > 0 && j < len(pre)-1
}

// noOpPair reports whether the deleted line at is added back, unchanged,
// in the same group of changes.
func noOpPair(lines []Line, at int) bool {
	for i := at + 1; i < len(lines) && lines[i].Kind != Context; i++ {
		if lines[i].Kind == Add && lines[i].Text == lines[at].Text {
			return true
		}
	}
	return false
}

// misreads lists the lines where w's reading differs from the file.
func (pl *placer) misreads(pre []preLine, w window) []Interpretation {
	var out []Interpretation
	if w.matched < 2 {
		return nil
	}
	for _, j := range w.reads {
		fi := w.fileIndex(j)
		kind := InterpretChanged
		if pre[j].kind == Delete {
			kind = InterpretNoOp
		}
		out = append(out, Interpretation{Kind: kind, Line: fi + 1, File: pl.file[fi], Model: pre[j].text})
	}
	if w.lost >= 0 {
		out = append(out, Interpretation{Kind: InterpretAdded, Line: w.fileIndex(w.lost+1) + 1, Model: pre[w.lost].text})
	}
	slices.SortStableFunc(out, func(a, b Interpretation) int { return a.Line - b.Line })
	if len(out) > interpretMax {
		out = out[:interpretMax]
	}
	return out
}

// shifted rewrites misread, the lines where window w differs from the
// file, for feedback: a line the patch has where the file has it one line
// earlier or later is no changed line but a shift, which the lines after
// it in the same direction share. A shift by a line the patch left out is
// said once, as the line it left out (InterpretLeftOut); one by a line it
// has that the file lacks, as the first line it has one line later
// (InterpretLater). The other lines stay as they are.
func (pl *placer) shifted(misread []Interpretation, pre []preLine, w window) []Interpretation {
	if len(misread) == 0 {
		return misread
	}
	fk := pl.keysAt(levelLookalike)
	at := map[int]int{} // file index -> pre-image line read there
	for _, j := range w.reads {
		at[w.fileIndex(j)] = j
	}
	var out []Interpretation
	prev, prevAt := 0, -2 // the shift of the line read before, and its file index
	for _, in := range misread {
		fi := in.Line - 1
		j, ok := at[fi]
		if !ok || in.Kind == InterpretAdded {
			out = append(out, in)
			prev = 0
			continue
		}
		if prevAt != fi-1 {
			prev = 0
		}
		prevAt = fi
		k, d := key(levelLookalike, pre[j].text), 0
		switch {
		case k == fk[fi]:
		case fi+1 < len(fk) && k == fk[fi+1]:
			d = 1
		case fi > 0 && k == fk[fi-1]:
			d = -1
		}
		switch {
		case d == 0:
			out = append(out, in)
		case d == prev:
			// The same shift goes on.
		case d == 1:
			out = append(out, Interpretation{Kind: InterpretLeftOut, Line: fi + 1, File: pl.file[fi], Model: pre[j].text})
		default:
			out = append(out, Interpretation{Kind: InterpretLater, Line: fi, File: pl.file[fi-1], Model: pre[j].text})
		}
		prev = d
	}
	return out
}

// readAs rewrites h as w reads it, with the changes it reads into it
// marked, and places the rewritten hunk where w says.
func (pl *placer) readAs(i int, h *Hunk, pre []preLine, w window) *Resolved {
	byAt := map[int]int{} // hunk line -> pre-image line
	for j, p := range pre {
		byAt[p.at] = j
	}
	rh := *h
	rh.Lines = nil
	for at, l := range h.Lines {
		j, inPre := byAt[at]
		switch {
		case !inPre:
			rh.Lines = append(rh.Lines, l)
		case j == w.lost:
			rh.Lines = append(rh.Lines, Line{Kind: Add, Text: l.Text})
		case slices.Contains(w.reads, j) && l.Kind == Context:
			rh.Lines = append(rh.Lines, Line{Kind: Delete, Text: pl.file[w.fileIndex(j)]}, Line{Kind: Add, Text: l.Text})
		case slices.Contains(w.reads, j): // a no-op pair: delete the file's line
			rh.Lines = append(rh.Lines, Line{Kind: Delete, Text: pl.file[w.fileIndex(j)]})
		default:
			rh.Lines = append(rh.Lines, l)
		}
	}
	cs, trace, err := pl.candidates(&rh)
	if err != nil {
		return nil
	}
	at := slices.IndexFunc(cs, func(c candidate) bool { return c.start == w.s })
	if at < 0 || cs[at].split != 0 {
		return nil
	}
	rs, rerr := pl.resolve(i, &rh, &cs[at])
	if rerr != nil || len(rs) != 1 {
		return nil
	}
	r := rs[0]
	r.Rules = slices.Concat(trace, r.Rules, []RuleID{ruleInterpreted.ID})
	r.Pass = PassInterpreted
	r.Interpreted = pl.misreads(pre, w)
	for _, in := range r.Interpreted {
		r.Notes = append(r.Notes, "interpreted: "+in.Explain())
	}
	return &r
}

// uncertain returns r as an uncertain reading of its hunk, with the
// reason in its notes.
func uncertain(r Resolved, reason string) *Resolved {
	r.Pass = PassUncertain
	r.Notes = append(slices.Clone(r.Notes), "uncertain: "+reason)
	return &r
}

// Interpret turns the plan's interpreted and uncertain readings (see
// PlacementError.Interpreted) into hunks, where they overlap no placed
// hunk, and reports whether it took any.
func (p *FilePlan) Interpret() bool {
	took := false
	var errs []*PlacementError
	sc, ok := syntaxFor(p.Path())
	held := ok && sc.check(p.Old) == ""
	for _, e := range p.Errors {
		r := e.Interpreted
		if r == nil || slices.ContainsFunc(p.Hunks, func(o Resolved) bool { return sharesLines(*r, o) }) {
			errs = append(errs, e)
			continue
		}
		// A reading offered because the syntax check refused its hunk
		// (guard) is taken as the person asked, its reason in its notes.
		if held && !errors.Is(e.Err, ErrSyntax) {
			if why := readingBreaks(p.Old, p.Hunks, *r, sc); why != "" {
				e.Rules, e.Interpreted = traced(e.Rules, ruleReadingSyntax.ID), nil
				e.Detail = strings.TrimPrefix(e.Detail+"; ", "; ") + fmt.Sprintf("its %s reading would make the file fail the syntax check (%s) that it passed: %s", r.Label(), sc.name, why)
				errs = append(errs, e)
				continue
			}
		}
		p.Hunks = append(p.Hunks, *r)
		took = true
	}
	p.Errors = errs
	slices.SortStableFunc(p.Hunks, func(a, b Resolved) int { return a.Start - b.Start })
	return took
}

// Interpret calls FilePlan.Interpret on every plan and reports whether
// any took an interpreted or uncertain hunk.
func Interpret(plans []*FilePlan) bool {
	took := false
	for _, p := range plans {
		took = p.Interpret() || took
	}
	return took
}

// sharesLines reports whether two hunks cover a common file line, or insert
// at the same place.
func sharesLines(a, b Resolved) bool {
	ae, be := a.Start+a.OldCount(), b.Start+b.OldCount()
	return a.Start < be && b.Start < ae || a.Start == b.Start
}

// Teach returns the lines of feedback that tell the model what it got
// wrong about the file in the refused hunk, or "" when nothing is known.
func (e *PlacementError) Teach() string {
	var b strings.Builder
	for _, in := range e.Misread {
		b.WriteString(in.Teach() + "\n")
	}
	return b.String()
}

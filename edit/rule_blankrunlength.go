// rule_blankrunlength.go: the rule blankRunLength, one rule of the placement table.

package edit

import (
	"fmt"
	"slices"
	"strings"
)

// ruleBlankRunLength is the rule of that id; see its Statement.
var ruleBlankRunLength = Rule{
	ID:        "blankRunLength",
	Stage:     StageCandidates,
	Verdicts:  []Verdict{Likely},
	Statement: "A hunk that fits nowhere, but fits letter for letter at one place only where a run of blank lines is longer or shorter in the file than in the patch, is read with the file's run: only likely, since the patch may have meant to change that run.",
}

// offerBlankRun refuses hunk i, which fits nowhere, when it fits one
// place but for the length of a run of blank context lines (see
// blankRunLength), and offers the reading at that place as uncertain.
// It reports whether it did; if not, the hunk is still to be refused.
func (fp *filePlaces) offerBlankRun(i int, h *Hunk) bool {
	c, detail, ok := fp.pl.blankRunLength(h)
	if !ok {
		return false
	}
	rs, err := fp.pl.resolve(i, h, &c)
	if err != nil || len(rs) != 1 {
		return false
	}
	trace := traced(fp.hunks[i].trace, ruleBlankRunLength.ID)
	r := rs[0]
	r.Rules = traced(trace, r.Rules...)
	e := fp.failTraced(i, trace, ErrNoMatch, detail, fp.pl.nearest(h))
	if e.Interpreted == nil {
		e.Interpreted, e.Misread = uncertain(r, detail), nil
	}
	return true
}

// blankSpan is a span [from, to) of a hunk's pre-image lines: one line
// that must fit as written, or a run of blank context lines (run) whose
// length may differ from the file's.
type blankSpan struct {
	from, to int
	run      bool
}

// blankSpans cuts a pre-image into spans: each maximal run of blank
// lines that are all context lines, with no added line among them, is
// one span; every other line is a span of its own.
func blankSpans(pre []preLine) []blankSpan {
	blank := func(j int) bool { return strings.TrimSpace(pre[j].text) == "" }
	var out []blankSpan
	for j := 0; j < len(pre); {
		if !blank(j) {
			out = append(out, blankSpan{from: j, to: j + 1})
			j++
			continue
		}
		k := j + 1
		for k < len(pre) && blank(k) {
			k++
		}
		run := true
		for t := j; t < k; t++ {
			if pre[t].kind != Context || t > j && pre[t].at != pre[t-1].at+1 {
				run = false
			}
		}
		if run {
			out = append(out, blankSpan{from: j, to: k, run: true})
		} else {
			for t := j; t < k; t++ {
				out = append(out, blankSpan{from: t, to: t + 1})
			}
		}
		j = k
	}
	return out
}

// blankRunLength returns the one place where h's pre-image fits letter
// for letter but for the length of one or more of its runs of blank
// context lines, with the file's runs read for the patch's: a run
// longer in the patch leaves its extra lines out, one longer in the file
// keeps the file's extra lines as context (on the side of the run away
// from added lines). detail names the first run that differs. ok is
// false when no place fits so, or more than one does, or the pre-image
// has fewer than two non-blank lines to fit by.
func (pl *placer) blankRunLength(h *Hunk) (c candidate, detail string, ok bool) {
	pre := pl.preOf(h.Lines)
	spans := blankSpans(pre)
	anchor, fixed := -1, 0 // the first span that is a line, and how many are not blank
	for n, sp := range spans {
		if sp.run {
			continue
		}
		if anchor < 0 {
			anchor = n
		}
		if strings.TrimSpace(pre[sp.from].text) != "" {
			fixed++
		}
	}
	if anchor < 0 || fixed < 2 || !slices.ContainsFunc(spans, func(sp blankSpan) bool { return sp.run }) {
		return candidate{}, "", false
	}
	idx := pl.indexAt(levelExact)
	for _, sp := range spans {
		if !sp.run && len(idx[pre[sp.from].text]) == 0 {
			return candidate{}, "", false // a line the file does not have
		}
	}
	var found []int
	for _, o := range idx[pre[spans[anchor].from].text] {
		if al, d, fits := pl.fitRuns(h.Lines, pre, spans, anchor, o); fits {
			if found != nil {
				return candidate{}, "", false // two places
			}
			found, detail = al, d
		}
	}
	if found == nil {
		return candidate{}, "", false
	}
	return newCandidate(found, PassFuzzy, levelExact, unit), detail, true
}

// fitRuns aligns pre, cut into spans, with the file where span anchor
// (a line) sits on file line o: every line as written, and each run of
// blank lines on a run of the file, of any length but none. fits is
// true only when some run's length differs; detail says how the first
// one does.
func (pl *placer) fitRuns(lines []Line, pre []preLine, spans []blankSpan, anchor, o int) (align []int, detail string, fits bool) {
	blank := func(fi int) bool { return fi >= 0 && fi < len(pl.file) && strings.TrimSpace(pl.file[fi]) == "" }
	align = make([]int, len(pre))
	for j := range align {
		align[j] = -1
	}
	differs := func(k, r, at int) {
		if detail == "" {
			detail = fmt.Sprintf("it fits at one place only, where the file has %s before line %d and the patch %d: only the length of that run differs, and the patch may have meant to change it", plural(r, "blank line"), at+1, k)
		}
	}
	if anchor > 0 { // a leading run of k lines, at the hunk's edge
		k, r := spans[0].to, 0
		for blank(o - r - 1) {
			r++
		}
		if r == 0 {
			return nil, "", false
		}
		if r < k {
			differs(k, r, o)
		}
		for t := range min(k, r) {
			align[k-1-t] = o - 1 - t
		}
	}
	fi := o
	for n := anchor; n < len(spans); n++ {
		sp := spans[n]
		if !sp.run {
			if fi >= len(pl.file) || pl.file[fi] != pre[sp.from].text {
				return nil, "", false
			}
			align[sp.from] = fi
			fi++
			continue
		}
		k, r := sp.to-sp.from, 0
		for blank(fi + r) {
			r++
		}
		if r == 0 {
			return nil, "", false
		}
		last := n == len(spans)-1
		if last {
			r = min(r, k) // the file's run may go on past the hunk
		}
		if r != k {
			differs(k, r, fi+r)
		}
		from := fi // the file lines the run's lines sit on
		if r > k && lines[pre[sp.to-1].at+1].Kind == Add {
			from = fi + r - k // keep the file's extra lines away from the added lines
		}
		for t := range min(k, r) {
			align[sp.from+t] = from + t
		}
		fi += r
	}
	return align, detail, detail != ""
}

// rule_zerocontext.go: the rule zeroContext, one rule of the placement table.

package edit

import (
	"fmt"
	"slices"
	"strings"
)

// ruleZeroContext is the rule of that id; see its Statement.
var ruleZeroContext = Rule{
	ID:        "zeroContext",
	Stage:     StageCandidates,
	Verdicts:  []Verdict{Certain, Likely, Refuse},
	Statement: "A hunk with no context lines and line numbers (diff -U0) goes only where its numbers put it: its deleted lines at its old start, its added lines after the line it names; where they are not, it is refused, and a place elsewhere that holds its deleted lines is offered for review.",
}

// zeroContextHunk reports whether h is a hunk without context lines
// that its header's numbers place (diff -U0, git diff -U0): it changes
// something, its header's counts are its lines' (a header whose counts
// are wrong is no guide, and a hunk of another edit form has none), and
// it is not a file's first lines added to an empty file, which every
// hunk places alike.
func (pl *placer) zeroContextHunk(h *Hunk) bool {
	if !h.HasNumbers || !h.Changes() || slices.ContainsFunc(h.Lines, func(l Line) bool { return l.Kind == Context }) {
		return false
	}
	old, news := 0, 0
	for _, l := range h.Lines {
		if l.Kind == Add {
			news++
		} else {
			old++
		}
	}
	if h.OldLines != old || h.NewLines != news {
		return false
	}
	return len(pl.file) > 0 || old > 0
}

// zeroContext places hunk i, a hunk without context (see
// zeroContextHunk), where its header's numbers say, as git apply
// --unidiff-zero does, never by a search: with no context, its lines
// say nothing of where they go. Its deleted lines must be the file's at
// its old start (whitespace aside); its added lines alone go after the
// line its old start names (0: before the first). Elsewhere it is
// refused; when its deleted lines are at one nearest place, that place is
// offered for review as uncertain. It returns the hunk's one candidate,
// or nil when it refused the hunk.
func (fp *filePlaces) zeroContext(i int, h *Hunk) []candidate {
	pl := fp.pl
	pre := pl.preOf(h.Lines)
	refuse := func(err error, detail string) []candidate {
		fp.fail(i, ruleZeroContext.ID, err, detail, pl.nearest(h))
		return nil
	}
	if len(pre) == 0 {
		if h.OldStart == 0 && len(pl.file) > 0 && emptyBlob(fp.fd.OldID) {
			// git pins such a hunk to both ends of the file: its index
			// line says the file was empty.
			return refuse(ErrNoMatch, "it adds the first lines of a file its index line says was empty, and the file is not empty")
		}
		if h.OldStart > len(pl.file) {
			return refuse(ErrNoMatch, fmt.Sprintf("it has no context lines, so only its header places it: after line %d, and the file has %d lines", h.OldStart, len(pl.file)))
		}
		c := candidate{start: h.OldStart, pass: PassExact, asGit: true}
		return []candidate{c}
	}
	at := h.OldStart - 1
	if at < 0 {
		return refuse(ErrNoMatch, "it has no context lines, so only its header's numbers place it, and they name no line")
	}
	if c, ok := pl.zeroAt(pre, at); ok {
		return []candidate{c}
	}
	// The placement by content may agree with the numbers, where the
	// patch lost a line between two deleted lines (atEdge): the numbers
	// still name its place.
	if cs, trace, err := pl.candidates(h); err == nil {
		cs = slices.DeleteFunc(cs, func(c candidate) bool { return c.start != at })
		if len(cs) == 1 {
			fp.decided(i, trace...)
			return cs
		}
	}
	detail := fmt.Sprintf("it has no context lines, so only its header's numbers place it, and its deleted lines are not the file's at line %d", h.OldStart)
	if post := h.Post(); at+len(post) <= len(pl.file) && slices.Equal(pl.file[at:at+len(post)], post) {
		return refuse(ErrAlreadyApplied, fmt.Sprintf("its added lines are already at line %d, where its header puts it", h.OldStart))
	}
	elsewhere := pl.zeroElsewhere(pre, at)
	if elsewhere == nil {
		return refuse(ErrNoMatch, detail)
	}
	e := fp.fail(i, ruleZeroContext.ID, ErrNoMatch, detail+fmt.Sprintf("; they are at line %d", elsewhere.start+1), pl.nearest(h))
	if e.Interpreted == nil {
		if rs, err := pl.resolve(i, h, elsewhere); err == nil && len(rs) == 1 {
			rs[0].Rules = traced(e.Rules, rs[0].Rules...)
			e.Interpreted = uncertain(rs[0], fmt.Sprintf("a hunk without context placed at line %d, not at line %d where its header puts it", elsewhere.start+1, h.OldStart))
		}
	}
	return nil
}

// zeroAt returns the candidate placing pre at file line at, when its
// lines are the file's there: letter for letter, or with whitespace
// differences only.
func (pl *placer) zeroAt(pre []preLine, at int) (candidate, bool) {
	if at < 0 || at+len(pre) > len(pl.file) {
		return candidate{}, false
	}
	for lv := levelExact; lv <= levelWhitespace; lv++ {
		if slices.Equal(preKeys(pre, lv), pl.keysAt(lv)[at:at+len(pre)]) {
			align := make([]int, len(pre))
			for j := range align {
				align[j] = at + j
			}
			c := newCandidate(align, levelPass[lv], lv, 0)
			c.asGit = true
			return c, true
		}
	}
	return candidate{}, false
}

// zeroElsewhere returns the place nearest to at where pre's lines are the
// file's, if one is nearer than any other, or nil.
func (pl *placer) zeroElsewhere(pre []preLine, at int) *candidate {
	for lv := levelExact; lv <= levelWhitespace; lv++ {
		starts := pl.exact(preKeys(pre, lv), lv)
		if len(starts) == 0 {
			continue
		}
		best, tie := -1, false
		for _, s := range starts {
			switch d, bd := abs(s-at), abs(best-at); {
			case best < 0 || d < bd:
				best, tie = s, false
			case d == bd:
				tie = true
			}
		}
		if tie {
			return nil
		}
		c, _ := pl.zeroAt(pre, best)
		return &c
	}
	return nil
}

// emptyBlob reports whether id, a blob id of an index line as written
// (maybe abbreviated), is git's empty blob.
func emptyBlob(id string) bool {
	const empty = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
	return len(id) >= 7 && strings.HasPrefix(empty, id)
}

// rule_pinnededge.go: the rule pinnedEdge, one rule of the placement table.

package edit

import (
	"fmt"
	"slices"
)

// rulePinnedEdge is the rule of that id; see its Statement.
var rulePinnedEdge = Rule{
	ID:        "pinnedEdge",
	Stage:     StageCandidates,
	Verdicts:  []Verdict{Certain, Refuse},
	Statement: "A hunk whose header's counts are its lines', with no context after its last change, belongs at the end of the file, and one starting at line 1 with none before its first change at the start, as git apply reads them: of several places it takes that edge's, and where its result is the file's at that edge it was applied already and is refused.",
}

// edgePins says which ends of the file hunk h must reach, as git apply
// pins them (match_beginning, match_end in git's apply.c): a hunk with
// no context after its last change ends the file, and one numbered from
// line 1 with none before its first change starts it. Only a hunk whose
// header's counts are its lines' is read so: a model's hunk that lost
// its trailing context has no such header as a rule. A hunk without any
// context is zeroContext's.
func edgePins(h *Hunk) (start, end bool) {
	sh := hunkShape(h.Lines)
	if !h.HasNumbers || sh.lastChange < 0 || sh.lead == 0 && sh.trail == 0 {
		return false, false
	}
	old, news := 0, 0
	for _, l := range h.Lines {
		if l.Kind != Add {
			old++
		}
		if l.Kind != Delete {
			news++
		}
	}
	if h.OldLines != old || h.NewLines != news {
		return false, false
	}
	return sh.lead == 0 && h.OldStart <= 1, sh.trail == 0
}

// pinnedEdge keeps, of the places cs a hunk fits letter for letter (or
// whitespace aside), those at the ends of the file it is pinned to (see
// edgePins). When none is and its result is the file's at that edge, it
// refuses the hunk as applied already (git's t4113: the line it appends
// is the file's last already; applied after its context, it would be
// there twice). It returns the places kept (nil when it refused), and
// whether it decided.
func (fp *filePlaces) pinnedEdge(i int, h *Hunk, cs []candidate) ([]candidate, bool) {
	pl := fp.pl
	start, end := edgePins(h)
	if !start && !end || slices.ContainsFunc(cs, func(c candidate) bool { return c.pass >= PassFuzzy || c.split > 0 }) {
		return cs, false
	}
	at := slices.DeleteFunc(slices.Clone(cs), func(c candidate) bool {
		return start && c.start != 0 || end && c.end() != len(pl.file)
	})
	if len(at) == len(cs) {
		return cs, false
	}
	if len(at) > 0 {
		return at, true
	}
	edge, why := "end", "no context after its last change"
	if start {
		edge, why = "start", "no context before its first change, from line 1"
	}
	if start && end {
		edge, why = "start and end", "no context before its first change, from line 1, nor after its last"
	}
	post := h.Post()
	if n := len(post); n <= len(pl.file) && (end && slices.Equal(pl.file[len(pl.file)-n:], post) || start && slices.Equal(pl.file[:n], post)) {
		fp.fail(i, rulePinnedEdge.ID, ErrAlreadyApplied, fmt.Sprintf("it has %s, so it belongs at the %s of the file, and its result is the file's there already", why, edge), pl.nearest(h))
		return nil, true
	}
	// A hunk that fits away from its edge is a model's as often as a
	// diff of an older file: pair's other rules judge it, as before.
	return cs, false
}

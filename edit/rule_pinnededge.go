// rule_pinnededge.go: the rule pinnedEdge, one rule of the placement table.

package edit

import (
	"fmt"
	"slices"
	"strings"
)

// rulePinnedEdge is the rule of that id; see its Statement.
var rulePinnedEdge = Rule{
	ID:        "pinnedEdge",
	Stage:     StageCandidates,
	Verdicts:  []Verdict{Certain, Likely, Refuse},
	Statement: "A hunk whose header's counts are its lines', with no context after its last change, belongs at the end of the file, and one starting at line 1 with none before its first change at the start, as git apply reads them: of several places it takes that edge's, and where its result is the file's at that edge it was applied already and is refused. In git's own diff of another version of the file (an index line naming another blob, every hunk's numbers and context as git writes them) git's whole rule holds: a hunk from line 1 starts the file, context before it or not, and one that fits only away from its edge is refused, offered for review at the place pair's own reading gives it, where there is one.",
}

// edgePins says which ends of the file hunk h must reach, as git apply
// pins them (match_beginning, match_end in git's apply.c): a hunk with
// no context after its last change ends the file, and one numbered from
// line 1 with none before its first change starts it. Only a hunk whose
// header's counts are its lines' is read so: a model's hunk that lost
// its trailing context has no such header as a rule. A hunk without any
// context is zeroContext's. In git's own diff (whole), git's rule is
// whole too: a hunk numbered from line 1 starts the file whatever
// context it has before its first change.
func edgePins(h *Hunk, whole bool) (start, end bool) {
	sh := hunkShape(h.Lines)
	if !h.HasNumbers || sh.lastChange < 0 || sh.lead == 0 && sh.trail == 0 || !countsHold(h) {
		return false, false
	}
	return (sh.lead == 0 || whole) && h.OldStart <= 1, sh.trail == 0
}

// countsHold reports whether h's header counts its lines: as many old
// (context and deleted) and new (context and added) lines as it has.
func countsHold(h *Hunk) bool {
	old, news := 0, 0
	for _, l := range h.Lines {
		if l.Kind != Add {
			old++
		}
		if l.Kind != Delete {
			news++
		}
	}
	return h.OldLines == old && h.NewLines == news
}

// gitOwn reports whether fd reads as git's own output, every hunk as
// git writes it with n lines of context: a section a "diff --git" line
// opened, with an index line; every hunk numbered, its counts its
// lines'; the hunks in order, apart, each new start its old start moved
// by the lines the hunks before it add or delete; and n context lines on
// each side of every hunk, but before the first where it starts at line
// 1 and after the last, where git's file began or ended. A model that
// writes a header of git's rarely writes all of that; a hunk that lost
// its trailing context, in the middle of a diff or of the file, breaks
// it. Nor does git write an id by hand (see placeholderID).
func gitOwn(fd *FileDiff, n int) bool {
	if n == 0 || !fd.Indexed || fd.Names != nil || fd.OldID == "" || zeroID(fd.OldID) || placeholderID(fd.OldID) || len(fd.Hunks) == 0 {
		return false
	}
	// at is where a side of a hunk starts, 1-based: an empty side is
	// numbered by the line before it.
	at := func(start, count int) int {
		if count == 0 {
			return start + 1
		}
		return start
	}
	delta, next := 0, 1
	for k, h := range fd.Hunks {
		sh := hunkShape(h.Lines)
		if !h.HasNumbers || sh.lastChange < 0 || !countsHold(h) {
			return false
		}
		o, nw := at(h.OldStart, h.OldLines), at(h.NewStart, h.NewLines)
		if o < next || nw-o != delta {
			return false
		}
		if sh.lead != n && (k > 0 || sh.lead > n || h.OldStart > 1) {
			return false
		}
		if sh.trail != n && (k < len(fd.Hunks)-1 || sh.trail > n) {
			return false
		}
		delta += h.NewLines - h.OldLines
		next = o + h.OldLines
	}
	return true
}

// placeholderID reports whether id is one written by hand, as models
// and people fill an index line in: one digit repeated (1111111), or
// digits counting up, with one break at most (1234567, abc1234). Of
// git's ids, about one in 200,000 is so.
func placeholderID(id string) bool {
	const hex = "0123456789abcdef"
	same, breaks := true, 0
	for k := 1; k < len(id); k++ {
		same = same && id[k] == id[0]
		if a := strings.IndexByte(hex, id[k-1]); a < 0 || a+1 >= len(hex) || hex[a+1] != id[k] {
			breaks++
		}
	}
	return same || breaks <= 1
}

// staleGit reports whether fd is git's own diff (see gitOwn) of a file
// other than old: its index line names the blob it was made from, and
// old is not that blob. git's numbers and edges were exact in that
// file; here its pins are all that says where a hunk without context on
// one side goes. In the very file it was made from, a hunk that does not
// fit at its edge is no hunk git wrote, and pair's tolerance judges it.
func staleGit(old string, fd *FileDiff, n int) bool {
	return gitOwn(fd, n) && !strings.HasPrefix(fileBlob(old, fd), fd.OldID)
}

// fileBlob is the id of the blob git reads old, the file fd applies to,
// as: its bytes', or the one its filters make (FileDiff.FileBlob), of
// the index line's kind (SHA-1 or SHA-256).
func fileBlob(old string, fd *FileDiff) string {
	if fd.FileBlob != "" {
		return fd.FileBlob
	}
	return BlobID(old, fd.OldID)
}

// pinnedEdge keeps, of the places cs a hunk fits letter for letter (or
// whitespace aside), those at the ends of the file it is pinned to (see
// edgePins). When none is and its result is the file's at that edge, it
// refuses the hunk as applied already (git's t4113: the line it appends
// is the file's last already; applied after its context, it would be
// there twice). In git's own diff of another file (see staleGit) it
// reads the pins as git does, whole: loose places too, and a hunk with
// no place at its edge is refused, its one place elsewhere offered for
// review. git apply -C<n> drops the pins of a hunk with more context on
// a side than n, when it fits nowhere pinned; so does this. It returns
// the places kept (nil when it refused), and whether it decided.
func (fp *filePlaces) pinnedEdge(i int, h *Hunk, cs []candidate) ([]candidate, bool) {
	pl := fp.pl
	if start, end := edgePins(h, true); !start && !end || len(cs) == 0 {
		return cs, false
	}
	stale := fp.stale()
	start, end := edgePins(h, stale)
	if !start && !end {
		return cs, false
	}
	if !stale && slices.ContainsFunc(cs, func(c candidate) bool { return c.pass >= PassFuzzy || c.split > 0 }) {
		return cs, false
	}
	at := slices.DeleteFunc(slices.Clone(cs), func(c candidate) bool {
		return start && c.start != 0 || end && c.end() != len(pl.file)
	})
	if len(at) == len(cs) {
		return cs, false
	}
	edge, why := "end", "it has no context after its last change"
	switch {
	case start && end:
		edge = "start and end"
		why = "it has no context after its last change, and starts at line 1"
	case start && hunkShape(h.Lines).lead == 0:
		edge, why = "start", "it has no context before its first change, and starts at line 1"
	case start:
		edge, why = "start", "it starts at line 1"
	}
	whose := ""
	if stale {
		whose = fmt.Sprintf(", in git's own diff of blob %s (the file is blob %s)", fp.fd.OldID, fileBlob(fp.old, fp.fd)[:len(fp.fd.OldID)])
	}
	if len(at) > 0 {
		for k := range at {
			at[k].notes = append(at[k].notes, fmt.Sprintf("%d places matched; chose the one at the %s of the file: %s, so git apply pins it there%s", len(cs), edge, why, whose))
		}
		return at, true
	}
	if fp.pinsDropped(h) {
		return cs, false
	}
	post := h.Post()
	if n := len(post); n <= len(pl.file) && (end && slices.Equal(pl.file[len(pl.file)-n:], post) || start && slices.Equal(pl.file[:n], post)) {
		fp.fail(i, rulePinnedEdge.ID, ErrAlreadyApplied, fmt.Sprintf("%s, so it belongs at the %s of the file, and its result is the file's there already", why, edge), pl.nearest(h))
		return nil, true
	}
	if !stale {
		// A hunk that fits away from its edge is a model's as often as
		// a diff of an older file: pair's other rules judge it.
		return cs, false
	}
	places := "at line " + fmt.Sprint(cs[0].start+1)
	if len(cs) > 1 {
		places = fmt.Sprintf("at %d places", len(cs))
	}
	e := fp.fail(i, rulePinnedEdge.ID, ErrNoMatch, fmt.Sprintf("%s, so git apply pins it to the %s of the file%s, and it fits only %s", why, edge, whose, places), pl.nearest(h))
	if len(cs) == 1 {
		fp.offer(e, i, h, &cs[0], fmt.Sprintf("placed at line %d, away from the %s of the file where git apply pins it", cs[0].start+1, edge))
	}
	return nil, true
}

// stale reports, once for the file, whether its diff is git's own of
// another version of it (see staleGit).
func (fp *filePlaces) stale() bool {
	if fp.staleDiff == 0 {
		fp.staleDiff = 1
		if staleGit(fp.old, fp.fd, fp.pl.context) {
			fp.staleDiff = 2
		}
	}
	return fp.staleDiff == 2
}

// pinsDropped reports whether git apply -C<n> would try h again without
// its pins, where it fits nowhere pinned: it has more context on a side
// than the n lines git must keep.
func (fp *filePlaces) pinsDropped(h *Hunk) bool {
	o := fp.fd.Placing
	sh := hunkShape(h.Lines)
	return o.ContextGiven && (sh.lead > o.Context || sh.trail > o.Context)
}

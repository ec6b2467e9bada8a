// rule_contextasgit.go: the rule contextAsGit, one rule of the placement table.

package edit

import (
	"fmt"
	"slices"
)

// ruleContextAsGit is the rule of that id; see its Statement.
var ruleContextAsGit = Rule{
	ID:        "contextAsGit",
	Stage:     StageCandidates,
	Verdicts:  []Verdict{Certain, Likely, Refuse},
	Statement: "In git's own diff of another version of the file (an index line naming another blob, every hunk's numbers and context as git writes them) a hunk fits only where git apply finds it: its context and deleted lines the file's, one after another, letter for letter (runs of whitespace aside with --ignore-whitespace, whitespace fixed with --whitespace=fix). Where pair's tolerance alone finds it a place, it is refused, as git refuses it, and that place is offered for review.",
}

// contextAsGit keeps, of the places cs pair found for hunk i, those git
// apply finds too (see fitsAsGit), in git's own diff of another version
// of the file (see staleGit): there a hunk that fits only loosely is no
// model's slip but a change made to another file, and git refuses it.
// Where pair found none of git's places, it looks for them itself: pair
// prefers a loose reading to an exact place that breaks git's shape
// (a hunk without context after its change, away from the end of the
// file), git does not, and pinnedEdge then judges that place as git
// does. Where git has none, it refuses the hunk and offers pair's one
// place, if it has one, for review. It returns the places kept (nil
// when it refused), and whether it decided.
func (fp *filePlaces) contextAsGit(i int, h *Hunk, cs []candidate) ([]candidate, bool) {
	if len(cs) == 0 {
		return cs, false
	}
	pl := fp.pl
	pre := pl.preOf(h.Lines)
	fits := func(c candidate) bool { return pl.fitsAsGit(c, pre) }
	kept := slices.DeleteFunc(slices.Clone(cs), func(c candidate) bool { return !fits(c) })
	// Whether the diff is stale (a hash of the whole file) is asked only
	// when git would judge a place otherwise than pair.
	if len(kept) == len(cs) || !fp.stale() {
		return cs, false
	}
	if len(kept) > 0 {
		return kept, true
	}
	if kept = pl.gitPlaces(pre); len(kept) > 0 {
		return kept, true
	}
	why := fmt.Sprintf("it fits only loosely, at %d places", len(cs))
	if len(cs) == 1 {
		why = pl.misfit(cs[0], pre)
	}
	e := fp.fail(i, ruleContextAsGit.ID, ErrNoMatch, fmt.Sprintf("it is git's diff of another version of the file (blob %s; the file is %s), and its context differs from the file's: %s; git apply refuses it too",
		fp.fd.OldID, fileBlob(fp.old, fp.fd)[:len(fp.fd.OldID)], why), pl.nearest(h))
	if len(cs) == 1 {
		fp.offer(e, i, h, &cs[0], fmt.Sprintf("placed at line %d by pair's tolerance, where git apply finds no place: its context is not the file's", cs[0].start+1))
	}
	return nil, true
}

// offer gives refusal e of hunk i the reading of h at c, if it has one,
// as uncertain, for a person to take in review.
func (fp *filePlaces) offer(e *PlacementError, i int, h *Hunk, c *candidate, reason string) {
	if e.Interpreted != nil {
		return
	}
	if rs, err := fp.pl.resolve(i, h, c); err == nil && len(rs) == 1 {
		rs[0].Rules = traced(e.Rules, rs[0].Rules...)
		e.Interpreted = uncertain(rs[0], reason)
	}
}

// fitsAsGit reports whether git apply would take place c for the hunk
// whose old lines are pre: each of them the file's line, one after
// another from c's start, as matchesAsGit compares them.
func (pl *placer) fitsAsGit(c candidate, pre []preLine) bool {
	if c.split > 0 || c.pass >= PassFuzzy || len(c.align) != len(pre) || c.start < 0 || c.start+len(pre) > len(pl.file) {
		return false
	}
	for j, p := range pre {
		if c.align[j] != c.start+j || !pl.matchesAsGit(p.text, pl.file[c.start+j]) {
			return false
		}
	}
	return true
}

// gitPlaces returns every place the old lines pre fit as git apply
// finds them (see fitsAsGit), each at the strictest level its lines
// match at.
func (pl *placer) gitPlaces(pre []preLine) []candidate {
	lv := levelExact
	if pl.opts.IgnoreWhitespace || pl.opts.FixWhitespace != nil {
		lv = levelWhitespace // holds every line git matches so
	}
	cs := exactCandidates(pl.exact(preKeys(pre, lv), lv), len(pre), lv)
	cs = slices.DeleteFunc(cs, func(c candidate) bool { return !pl.fitsAsGit(c, pre) })
	if lv == levelExact || pl.ignoreWhitespace(cs, pre) {
		return cs
	}
	for k := range cs {
		c := &cs[k]
		for c.level > levelExact && pl.matchAt(*c, pre, c.level-1) {
			c.level--
		}
		c.pass = levelPass[c.level]
	}
	return cs
}

// matchAt reports whether c's lines match pre's at level lv.
func (pl *placer) matchAt(c candidate, pre []preLine, lv level) bool {
	fk := pl.keysAt(lv)
	for j, a := range c.align {
		if fk[a] != key(lv, pre[j].text) {
			return false
		}
	}
	return true
}

// matchesAsGit reports whether git apply takes the file's line for the
// patch's line: the same, letter for letter; with --ignore-whitespace,
// the same but for the length of runs of whitespace (see
// sameButSpace); with --whitespace=fix, the same once the file's line
// is fixed as the patch's was.
func (pl *placer) matchesAsGit(patch, file string) bool {
	switch {
	case patch == file:
		return true
	case pl.opts.IgnoreWhitespace && sameButSpace(patch, file):
		return true
	}
	return pl.opts.FixWhitespace != nil && pl.opts.FixWhitespace(file) == patch
}

// sameButSpace reports whether a and b differ only in the length of
// their runs of whitespace, as git apply --ignore-whitespace compares
// lines: a run in one must be a run in the other, at the start and the
// end of the line too.
func sameButSpace(a, b string) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if !asciiSpace(a[i]) {
			if a[i] != b[j] {
				return false
			}
			i, j = i+1, j+1
			continue
		}
		if !asciiSpace(b[j]) {
			return false
		}
		for i < len(a) && asciiSpace(a[i]) {
			i++
		}
		for j < len(b) && asciiSpace(b[j]) {
			j++
		}
	}
	return i == len(a) && j == len(b)
}

// asciiSpace reports whether c is whitespace as C's isspace has it.
func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// misfit names the first of pre's lines that c does not place as git
// apply would (see fitsAsGit), by its text and the file's line number.
func (pl *placer) misfit(c candidate, pre []preLine) string {
	prev := -1
	for j, p := range pre {
		a := c.align[j]
		kind := "context"
		if p.kind == Delete {
			kind = "deleted"
		}
		switch {
		case a < 0:
			return fmt.Sprintf("its %s line %q is not in the file there", kind, p.text)
		case prev >= 0 && a > prev+1:
			return fmt.Sprintf("the file's line %d, %q, is not in it", prev+2, pl.file[prev+1])
		case !pl.matchesAsGit(p.text, pl.file[a]):
			return fmt.Sprintf("its %s line %q is the file's line %d, %q", kind, p.text, a+1, pl.file[a])
		}
		prev = a
	}
	return "it fits only loosely"
}

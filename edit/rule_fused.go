// rule_fused.go: the rule fused, one rule of the placement table.

package edit

import (
	"fmt"
	"slices"
)

// ruleFused is the rule of that id; see its Statement.
var ruleFused = Rule{
	ID:        "fused",
	Stage:     StageCandidates,
	Verdicts:  []Verdict{Certain},
	Statement: "A hunk that fits nowhere whole, but as two hunks run together, is split at a context line and each part placed.",
}

// fused places a hunk that is really two hunks run together, with the
// file lines between them left out: it splits the pre-image between two
// adjacent context lines so that each part fits exactly (at any level
// short of fuzzy) and the second part follows the first. The split must
// be the only one that works.
//
// The places of every prefix and suffix of the pre-image are found in one
// pass each (see partFits), so a long hunk costs linear work, not a search
// per split.
func (pl *placer) fused(h *Hunk, pre []preLine) []candidate {
	m := len(pre)
	if m < 2*fusedMinPart {
		return nil
	}
	// changesBefore[i] counts the changed hunk lines before hunk line i.
	changesBefore := make([]int, len(h.Lines)+1)
	for i, l := range h.Lines {
		changesBefore[i+1] = changesBefore[i]
		if l.Kind != Context {
			changesBefore[i+1]++
		}
	}
	// rareBefore[j] counts the lines of pre[:j] rare in the file.
	idx := pl.indexAt(levelLookalike)
	rareBefore := make([]int, m+1)
	for j, k := range preKeys(pre, levelLookalike) {
		rareBefore[j+1] = rareBefore[j]
		if n := len(idx[k]); k != "" && n > 0 && n <= distinctMaxOcc {
			rareBefore[j+1]++
		}
	}
	// The splits worth trying: between two adjacent context lines, with a
	// change on each side and, in each part, three lines and a line rare in
	// the file (small parts of common lines fit anywhere in repetitive
	// code).
	var splits []int
	for k := fusedMinPart; k <= m-fusedMinPart; k++ {
		if pre[k-1].kind != Context || pre[k].kind != Context || pre[k].at != pre[k-1].at+1 {
			continue
		}
		at := pre[k].at
		if changesBefore[at] == 0 || changesBefore[len(h.Lines)]-changesBefore[at] == 0 {
			continue
		}
		if rareBefore[k] == 0 || rareBefore[m]-rareBefore[k] == 0 {
			continue
		}
		splits = append(splits, k)
	}
	if len(splits) == 0 {
		return nil
	}
	heads, ok := pl.partFits(pre, splits, false)
	if !ok {
		return nil
	}
	tails, ok := pl.partFits(pre, splits, true)
	if !ok {
		return nil
	}
	var found []candidate
	for n, k := range splits {
		as, bs := heads[n].starts, tails[n].starts
		if len(as) == 0 || len(bs) == 0 {
			continue // no reading splits here
		}
		if len(as)*len(bs) > fusedMaxPlaces {
			return nil
		}
		// A part that fits several places is not pinned by the other
		// part's place: each pair of places is a reading, for the hunk
		// order or the header's line number to choose among (see choose),
		// as for any hunk that fits several places.
		for _, sa := range as {
			for _, sb := range bs {
				// Between the parts lie at least two lines (git keeps hunks
				// closer than that apart as one) that are not equal to the
				// line either part ends on: a single lost context line, or
				// one of a run of equal lines (blank lines between Python
				// functions), is no gap between hunks.
				if pl.otherLines(sa+k-1, sb) < 2 {
					continue
				}
				align := make([]int, m)
				for j := range align {
					if j < k {
						align[j] = sa + j
					} else {
						align[j] = sb + j - k
					}
				}
				c := newCandidate(align, PassFused, max(heads[n].level, tails[n].level), 0)
				c.split = k
				c.notes = append(c.notes, fmt.Sprintf("two hunks run together: lines %d-%d of the file between them are left alone", sa+k+1, sb))
				found = append(found, c)
			}
		}
	}
	// Splits that change the file in the same way are one reading (a
	// context line at the split, like "}", that each part can end or
	// start with); more than one way to change it at one place: refuse.
	found = pl.sameEffect(h.Lines, found)
	for i, c := range found {
		if slices.ContainsFunc(found[i+1:], func(o candidate) bool { return o.start == c.start }) {
			return nil
		}
		if pl.fitsWithoutOne(pre, c) {
			// Another reading: an added line written as context, which
			// the file happens to have further on, where the split put
			// the second part. Two readings: refuse.
			return nil
		}
	}
	return found
}

// fitsWithoutOne reports whether pre, less one of its context lines, fits
// the file as one hunk (up to whitespace and look-alikes), where c reads
// it as two: the patch may have written an added line as context. As each
// part fits one place only, that hunk would keep one of them where it is:
// the first part, followed by the second less a line; or the second part,
// preceded by the first less a line. Linear in the hunk.
func (pl *placer) fitsWithoutOne(pre []preLine, c candidate) bool {
	pk := preKeys(pre, levelLookalike)
	fk := pl.keysAt(levelLookalike)
	k, sa, sb := c.split, c.align[0], c.align[c.split]
	// lessOne reports whether part, less one context line, equals the
	// file's lines from at.
	lessOne := func(part []preLine, keys []string, at int) bool {
		if at < 0 || at+len(keys)-1 > len(fk) {
			return false
		}
		skipped := false
		for j, i := 0, at; j < len(keys); j++ {
			if i < len(fk) && keys[j] == fk[i] {
				i++
				continue
			}
			if skipped || part[j].kind != Context {
				return false
			}
			skipped = true
		}
		return skipped || len(keys) > 0 && part[len(part)-1].kind == Context
	}
	return lessOne(pre[k:], pk[k:], sa+k) || lessOne(pre[:k], pk[:k], sb-k+1)
}

// otherLines counts the file lines strictly between lines a and b, less
// the run of lines equal to line a right after it and the run of lines
// equal to line b right before it: a run of equal lines (blank lines
// between Python functions) may be one line longer in the file than in
// the patch, and its extra line is no gap between hunks.
func (fx *fileIndex) otherLines(a, b int) int {
	lo, hi := a+1, b-1
	for lo <= hi && fx.file[lo] == fx.file[a] {
		lo++
	}
	for hi >= lo && fx.file[hi] == fx.file[b] {
		hi--
	}
	return max(0, hi-lo+1)
}

// fusedMinPart is the fewest pre-image lines each part of a fused hunk
// must have.
const fusedMinPart = 3

// fusedMaxPlaces is the most pairs of places the two parts of a fused
// hunk may fit, at one split.
const fusedMaxPlaces = 4

// fusedWork bounds the steps partFits may take per line of the file and
// the hunk: past it, the hunk's lines are too common to split by.
const fusedWork = 64

// partFit is where one part of a split pre-image fits exactly, at the
// strictest level that has any place.
type partFit struct {
	starts []int
	level  level
}

// partFits returns, for each split k (increasing), where pre[:k] fits
// exactly, or pre[k:] when tail is set. It grows the part one line at a
// time from the hunk's end, keeping at each level the places that still
// fit, so the work is the total number of places alive along the way.
// ok is false when that work passes its bound.
func (pl *placer) partFits(pre []preLine, splits []int, tail bool) (fits []partFit, ok bool) {
	m, nf := len(pre), len(pl.file)
	budget := fusedWork * (m + nf)
	fits = make([]partFit, len(splits))
	// alive[lv] holds, for parts of length n, the file index of the part's
	// outer end: its first line for a head, one past its last for a tail.
	var alive [numLevels][]int
	var pks [numLevels][]string
	for lv := range numLevels {
		pks[lv] = preKeys(pre, lv)
		first := 0
		if tail {
			first = m - 1
		}
		for _, i := range pl.indexAt(lv)[pks[lv][first]] {
			if tail {
				i++
			}
			alive[lv] = append(alive[lv], i)
		}
		budget -= len(alive[lv])
	}
	// want maps a part length to the splits that need it.
	lengthOf := func(n int) int {
		if tail {
			return m - splits[n]
		}
		return splits[n]
	}
	next := 0 // the next split to fill, in order of part length
	if tail {
		next = len(splits) - 1
	}
	for n := 1; n <= m; n++ {
		if n > 1 {
			for lv := range numLevels {
				fk := pl.keysAt(lv)
				kept := alive[lv][:0]
				for _, e := range alive[lv] {
					budget--
					pl.work++
					if tail {
						// The part grows by pre[m-n] at file line e-n.
						if i := e - n; i >= 0 && fk[i] == pks[lv][m-n] {
							kept = append(kept, e)
						}
					} else if i := e + n - 1; i < nf && fk[i] == pks[lv][n-1] {
						kept = append(kept, e)
					}
				}
				alive[lv] = kept
			}
			if budget < 0 {
				return nil, false
			}
			if !slices.ContainsFunc(alive[:], func(a []int) bool { return len(a) > 0 }) {
				break // no longer part fits anywhere
			}
		}
		for next >= 0 && next < len(splits) && lengthOf(next) == n {
			for lv := range numLevels {
				if len(alive[lv]) == 0 {
					continue
				}
				starts := slices.Clone(alive[lv])
				if tail {
					for i := range starts {
						starts[i] -= n
					}
				}
				fits[next] = partFit{starts: starts, level: lv}
				break
			}
			if tail {
				next--
			} else {
				next++
			}
		}
		if next < 0 || next >= len(splits) {
			break
		}
	}
	return fits, true
}

// match.go: the search levels: exact, trailing space, whitespace, look-alike characters.

package edit

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// level is how loosely two lines are compared. Each level forgives
// everything the levels before it forgive.
type level int

const (
	levelExact      level = iota // byte for byte
	levelTrailing                // trailing whitespace ignored
	levelWhitespace              // runs of whitespace, leading ones included, ignored
	levelLookalike               // and Unicode look-alikes folded to ASCII
	numLevels
)

func key(l level, s string) string {
	switch l {
	case levelExact:
		return s
	case levelTrailing:
		return strings.TrimRight(s, " \t\f\v\r")
	case levelWhitespace:
		return collapseSpace(s)
	default:
		return collapseSpace(foldLookalikes(s))
	}
}

// collapseSpace trims s and turns every run of whitespace into one space.
func collapseSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// lookalikes maps characters that models and word processors substitute
// for ASCII ones. The empty string removes the character.
var lookalikes = map[rune]string{
	'\u2018': "'", '\u2019': "'", '\u201a': "'", '\u201b': "'", '\u2032': "'",
	'\u201c': `"`, '\u201d': `"`, '\u201e': `"`, '\u201f': `"`, '\u2033': `"`,
	'\u00ab': `"`, '\u00bb': `"`,
	'\u2010': "-", '\u2011': "-", '\u2012': "-", '\u2013': "-", '\u2014': "-",
	'\u2015': "-", '\u2212': "-",
	'\u2026': "...",
	'\u00a0': " ", '\u2000': " ", '\u2001': " ", '\u2002': " ", '\u2003': " ",
	'\u2004': " ", '\u2005': " ", '\u2006': " ", '\u2007': " ", '\u2008': " ",
	'\u2009': " ", '\u200a': " ", '\u202f': " ", '\u205f': " ", '\u3000': " ",
	'\u200b': "", '\u200c': "", '\u200d': "", '\u2060': "", '\ufeff': "",
}

func foldLookalikes(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if rep, ok := lookalikes[r]; ok {
			b.WriteString(rep)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// lookalikesUsed returns the look-alike runes of patch that stand where
// file has their ASCII form, so that the same substitution can be undone
// in the added lines of the hunk.
func lookalikesUsed(patch, file string, into map[rune]bool) {
	if foldLookalikes(file) != file {
		return
	}
	for _, r := range patch {
		if _, ok := lookalikes[r]; ok {
			into[r] = true
		}
	}
}

func foldSome(s string, runes map[rune]bool) string {
	if len(runes) == 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if rep, ok := lookalikes[r]; ok && runes[r] {
			b.WriteString(rep)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// similar reports whether two lines are close enough for one to be a
// slightly stale copy of the other: a word changed in case or number, a
// character dropped or added. Blank lines are never similar to others.
func similar(a, b string) bool {
	return similarKeys(key(levelLookalike, a), key(levelLookalike, b))
}

// similarKeys is similar for lines already keyed at levelLookalike.
func similarKeys(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if strings.EqualFold(a, b) {
		return true
	}
	la, lb := len(a), len(b)
	longer := max(la, lb)
	if longer < 8 {
		return false
	}
	// At most a fifth of the longer line may differ.
	budget := longer / 5
	if abs(la-lb) > budget {
		return false
	}
	return editDistance(a, b, budget) <= budget
}

// shortStale reports whether a and b, lines too short for similarKeys to
// judge (under 8 bytes) but of 4 bytes or more, differ by one byte
// edited, as a word mistyped or misremembered ("fmt" as "ft" in quotes,
// "false," as "flse,"). Alone that proves nothing; the fuzzy pass takes
// such a line as changed only between two neighbours that fit exactly.
// Shorter lines ("}" and "b") are anything.
func shortStale(a, b string) bool {
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	if min(len(a), len(b)) < 4 || max(len(a), len(b)) >= 8 {
		return false
	}
	return editDistance(a, b, 1) <= 1
}

// editDistance returns the Levenshtein distance of a and b in bytes, or
// some value above bound once it is certain to exceed it.
func editDistance(a, b string, bound int) int {
	// Drop the common prefix and suffix: stale lines differ in one place.
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		a, b = a[1:], b[1:]
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	if len(a) == 0 || len(b) == 0 {
		return max(len(a), len(b))
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > bound {
			return bound + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// indentOf returns the leading whitespace of s.
func indentOf(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}

// reindent is a learned mapping from the indentation a patch used to the
// indentation the file uses: a change of style (tabs and spaces, indent
// width) followed by adding or removing a constant prefix.
type reindent struct {
	style  indentStyle
	add    string // prefix to add after the style change
	remove string // prefix to remove after the style change
}

type indentStyle struct {
	kind   int // 0 keep, 1 spaces to tabs, 2 tabs to spaces, 3 rescale spaces
	from   int // width of one level in the patch (spaces)
	to     int // width of one level in the file (spaces)
	unitTS int // for tabs to spaces: spaces per tab
}

func (st indentStyle) apply(ind string) string {
	switch st.kind {
	case 1:
		tabs, spaces := 0, 0
		for _, c := range ind {
			if c == '\t' {
				tabs++
			} else {
				spaces++
			}
		}
		return strings.Repeat("\t", tabs+spaces/st.from) + strings.Repeat(" ", spaces%st.from)
	case 2:
		return strings.ReplaceAll(ind, "\t", strings.Repeat(" ", st.unitTS))
	case 3:
		if strings.Contains(ind, "\t") {
			return ind
		}
		n := len(ind)
		return strings.Repeat(" ", n/st.from*st.to+n%st.from)
	}
	return ind
}

// describe says what the style reads in the patch, for messages.
func (st indentStyle) describe() string {
	switch st.kind {
	case 1:
		return fmt.Sprintf("tabs written as %d spaces", st.from)
	case 2:
		return fmt.Sprintf("%d spaces written as tabs", st.unitTS)
	case 3:
		return fmt.Sprintf("%d spaces a level written as %d", st.to, st.from)
	}
	return "as the file"
}

func (r reindent) apply(ind string) string {
	ind = r.style.apply(ind)
	if r.remove != "" {
		ind = strings.TrimPrefix(ind, r.remove)
	}
	return r.add + ind
}

// explains reports whether r maps the patch's indentation p[0] to the
// file's p[1]. A prefix to remove must be there: a mapping that removes
// four spaces says nothing of a line indented by two.
//
// A line the patch indents as the file does is evidence against any
// remapping: the mapping explains it only by leaving it alone through a
// change of style that does not touch it (spaces kept by a change of
// tabs), never by a rescaling that a removed prefix happens to undo.
func (r reindent) explains(p [2]string) bool {
	if p[0] == p[1] && p[0] != "" && !r.identity() {
		return r.add == "" && r.remove == "" && r.style.apply(p[0]) == p[0]
	}
	if r.remove != "" && !strings.HasPrefix(r.style.apply(p[0]), r.remove) {
		return false
	}
	return r.apply(p[0]) == p[1]
}

func (r reindent) identity() bool {
	return r.style.kind == 0 && r.add == "" && r.remove == ""
}

// line re-indents one added line. A line of whitespace only is all
// indentation; an empty line stays empty.
func (r reindent) line(s string) string {
	if r.identity() || s == "" {
		return s
	}
	ind := indentOf(s)
	return r.apply(ind) + s[len(ind):]
}

var indentStyles = func() []indentStyle {
	st := []indentStyle{{kind: 0}}
	for _, u := range []int{4, 2, 8} {
		st = append(st, indentStyle{kind: 1, from: u})
	}
	for _, u := range []int{4, 2, 8} {
		st = append(st, indentStyle{kind: 2, unitTS: u})
	}
	for _, pair := range [][2]int{{2, 4}, {4, 2}, {4, 8}, {8, 4}, {2, 8}, {8, 2}} {
		st = append(st, indentStyle{kind: 3, from: pair[0], to: pair[1]})
	}
	return st
}()

// learnReindent finds the mapping that explains the most (patch, file)
// indentation pairs, preferring the simplest on a tie (the identity first).
func learnReindent(pairs [][2]string) reindent { return learnReindentIn(pairs, nil) }

// learnReindentIn is learnReindent among the mappings that keep the
// patch's indentations in keep in their order (see keepsOrder).
func learnReindentIn(pairs [][2]string, keep []string) reindent {
	best, bestScore := reindent{}, -1
	for _, st := range indentStyles {
		// Prefix relations after the style change, most common wins.
		counts := map[reindent]int{}
		for _, p := range pairs {
			t, f := st.apply(p[0]), p[1]
			switch {
			case t == f:
				counts[reindent{style: st}]++
			case strings.HasSuffix(f, t):
				counts[reindent{style: st, add: f[:len(f)-len(t)]}]++
			case strings.HasPrefix(t, f) && f == "":
				counts[reindent{style: st, remove: t}]++
			case strings.HasSuffix(t, f):
				counts[reindent{style: st, remove: t[:len(t)-len(f)]}]++
			}
		}
		cands := []reindent{{style: st}}
		for r := range counts {
			if r.add != "" || r.remove != "" {
				cands = append(cands, r)
			}
		}
		for _, r := range cands {
			if !keepsOrder(r, keep) {
				continue
			}
			score := 0
			for _, p := range pairs {
				if r.explains(p) {
					score++
				}
			}
			if score > bestScore || (score == bestScore && simpler(r, best)) {
				best, bestScore = r, score
			}
		}
	}
	return best
}

// keepsOrder reports whether r maps the patch's indentations ind to
// widths in the same order, deeper staying deeper: a re-indentation moves
// every line of a level alike. A rescaling whose remainders land a line
// between levels (two spaces of a hunk read as indented by four, kept at
// two while four become two), or a prefix removed from lines that lack
// it, puts a line as deep as, or deeper than, one it was under, and
// cannot be how the patch was written.
func keepsOrder(r reindent, ind []string) bool {
	if r.identity() || len(ind) < 2 {
		return true
	}
	type pair struct{ from, to int }
	seen := map[string]bool{}
	var ps []pair
	for _, s := range ind {
		if !seen[s] {
			seen[s] = true
			ps = append(ps, pair{indentWidth(s), indentWidth(r.apply(s))})
		}
	}
	for _, a := range ps {
		for _, b := range ps {
			if a.from < b.from && a.to >= b.to {
				return false
			}
		}
	}
	return true
}

// simpler orders mappings for ties: the identity, then a style change
// alone, then prefixes, shorter first; the order is total so the choice
// does not depend on map iteration.
func simpler(a, b reindent) bool {
	ca, cb := complexity(a), complexity(b)
	if ca != cb {
		return ca < cb
	}
	if a.add != b.add {
		return a.add < b.add
	}
	return a.remove < b.remove
}

func complexity(r reindent) int {
	c := len(r.add) + len(r.remove)
	if r.style.kind != 0 {
		c += 100 * r.style.kind
	}
	return c
}

// rule_assigntwins.go: the rule assignTwins, one rule of the placement table.

package edit

import (
	"fmt"
	"slices"
)

// ruleAssignTwins is the rule of that id; see its Statement.
var ruleAssignTwins = Rule{
	ID:        "assignTwins",
	Stage:     StageChoice,
	Verdicts:  []Verdict{Certain},
	Statement: "Hunks that make the same change and fit the same places, as many places as hunks, take one place each, in the order of their headers' line numbers (else as the patch lists them): any other order writes the same file.",
}

// assignTwins places hunks that make the same change and fit the same
// places, as many places as hunks, one place each, in the order of
// their headers (see byHeader): any other assignment writes the same
// file (one line deleted from each of two test blocks the file repeats
// word for word). Only strict fits of
// one reading per place count, so that each hunk covers the same lines
// at each place; the hunks' added lines must be the same as written, and
// dropTwins checks that they resolve alike. It returns the hunks it
// placed.
func assignTwins(choices [][]candidate, hunks []*Hunk, chosen []*candidate) (placed []int) {
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
		for k, g := range byHeader(group, hunks) {
			grouped[g] = true
			at := slices.IndexFunc(choices[g], func(c candidate) bool { return c.start == starts[k] })
			c := choices[g][at]
			c.twins = group
			c.notes = append(slices.Clone(c.notes), fmt.Sprintf("%d hunks make the same change and fit the same %d places: one each, in the order of their headers' line numbers (else as the patch lists them), which writes the file as any other order would", len(group), len(starts)))
			chosen[g] = &c
			placed = append(placed, g)
		}
	}
	return placed
}

// byHeader returns the hunks of a group in the order of their headers'
// line numbers, when each has its own, else as the patch lists them:
// the file comes out the same, but each hunk then takes the place its
// header names (a review that rejects one keeps the other's change).
func byHeader(group []int, hunks []*Hunk) []int {
	seen := map[int]bool{}
	for _, g := range group {
		h := hunks[g]
		if !h.HasNumbers || h.OldStart <= 0 || seen[h.OldStart] {
			return group
		}
		seen[h.OldStart] = true
	}
	sorted := slices.Clone(group)
	slices.SortFunc(sorted, func(a, b int) int { return hunks[a].OldStart - hunks[b].OldStart })
	return sorted
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

// lostorder.go: the table of cases that order the lines a hunk lost.

package edit

import (
	"fmt"
	"slices"
	"sync"
)

// gapQuery is one gap of a reading: file lines the patch left out
// (skipped) where it also adds lines (pending), before hunk line
// lines[idx], which sits on file line next.
type gapQuery struct {
	pl      *placer
	c       *candidate
	lines   []Line
	idx     int
	out     []Line // the reading's lines so far
	skipped []Line
	pending []Line
	next    Line // the hunk line after the gap, as the file has it
	gap     int  // the first left-out file line
	// before, after and splits are the orders git's shape allows: the
	// left-out lines before the added ones, after them, or between two.
	before, after bool
	splits        int
}

// readings is how many orders git's shape allows.
func (g *gapQuery) readings() int {
	n := g.splits
	for _, ok := range []bool{g.before, g.after} {
		if ok {
			n++
		}
	}
	return n
}

// orderCase is one named case of the order of lost lines: when applies,
// arrange gives the gap's lines in their order, doubt (if set) makes the
// reading only likely, and refuse (if set) refuses the hunk.
type orderCase struct {
	Rule
	applies func(g *gapQuery) bool
	arrange func(g *gapQuery) []Line
	doubt   func(g *gapQuery) string
	refuse  func(g *gapQuery) string
	// open is set when the syntax check may still choose an order, or
	// confirm the likely one (see chooseOrders).
	open bool
}

func skippedFirst(g *gapQuery) []Line { return slices.Concat(g.skipped, g.pending) }
func pendingFirst(g *gapQuery) []Line { return slices.Concat(g.pending, g.skipped) }

// orderCases is the ordered table of the orders of lost lines: the first
// case that applies decides the gap.
var orderCases = sync.OnceValue(func() []orderCase {
	shape := Rule{ID: "orderByShape", Stage: StageReading, Verdicts: []Verdict{Certain},
		Statement: "A file line the patch left out next to added lines goes before, after or between them where only one of these keeps git's shape (as many context lines on each side as the rest of the diff)."}
	return []orderCase{
		{Rule: shape, applies: func(g *gapQuery) bool { return g.readings() == 1 && g.before }, arrange: skippedFirst},
		{Rule: shape, applies: func(g *gapQuery) bool { return g.readings() == 1 && g.after }, arrange: pendingFirst},
		{
			// A context line between the hunk's only two added lines,
			// two change groups (imports added before and after one).
			Rule:    shape,
			applies: func(g *gapQuery) bool { return g.readings() == 1 },
			arrange: func(g *gapQuery) []Line { return slices.Concat(g.pending[:1], g.skipped, g.pending[1:2]) },
		},
		{
			// git writes a change group's deleted lines before its added
			// ones: added lines right before a deleted line cannot be in
			// its group, so they end before the lines left out.
			Rule: Rule{ID: "gitOrder", Stage: StageReading, Verdicts: []Verdict{Certain},
				Statement: "Added lines right before a deleted line go before the file lines the patch left out there: git writes a change's deleted lines before its added ones."},
			applies: func(g *gapQuery) bool {
				return g.next.Kind == Delete && g.pl.context > 0 && gitOrder(g.lines, g.idx)
			},
			arrange: pendingFirst,
		},
		{
			Rule: Rule{ID: "blanksFit", Stage: StageReading, Verdicts: []Verdict{Likely},
				Statement: "A blank file line the patch left out next to added lines goes on the side that keeps the file's runs of blank lines no longer than they are anywhere: likely, not certain."},
			applies: func(g *gapQuery) bool { return g.pl.blanksFit(g.out, g.skipped, g.pending, g.next) },
			arrange: skippedFirst,
			doubt: func(g *gapQuery) string {
				return fmt.Sprintf("the patch leaves out blank file line %d next to where it adds lines; read as going before them, since after them it would make a longer run of blank lines than the file has anywhere, but that is a guess", g.gap+1)
			},
		},
		{
			Rule: Rule{ID: "blanksFit", Stage: StageReading, Verdicts: []Verdict{Likely}},
			applies: func(g *gapQuery) bool {
				return g.pl.blanksFit(g.out, g.pending, g.skipped, g.next)
			},
			arrange: pendingFirst,
			doubt: func(g *gapQuery) string {
				return fmt.Sprintf("the patch leaves out blank file line %d next to where it adds lines; read as going after them, since before them it would make a longer run of blank lines than the file has anywhere, but that is a guess", g.gap+1)
			},
		},
		{
			// One order, tried by the syntax check (see chooseOrder).
			Rule:    ruleChooseOrders,
			applies: func(g *gapQuery) bool { return g.c.order != nil && g.c.order.gap == g.gap },
			arrange: func(g *gapQuery) []Line {
				at := min(g.c.order.at, len(g.pending))
				return slices.Concat(g.pending[:at], g.skipped, g.pending[at:])
			},
		},
		{
			// The added lines edit the deleted lines before them, one for
			// one: likely an edit in place, which the left-out lines
			// follow. Read otherwise, the lines would have moved past
			// them as they changed, as 3 of 5,133 such groups in real git
			// diffs of CPython and npm packages did (an import, a call
			// and a raise moved a line down). Likely, not certain: offered
			// for review, never applied on --yes, unless the syntax check
			// chooses one order (see chooseOrders).
			Rule: Rule{ID: "editsInPlace", Stage: StageReading, Verdicts: []Verdict{Likely},
				Statement: "A file line the patch left out after added lines that each edit the deleted line before them goes after them, as an edit in place: likely, not certain."},
			applies: func(g *gapQuery) bool { return editsInPlace(g.lines, g.idx, len(g.pending), g.skipped) },
			arrange: pendingFirst,
			doubt: func(g *gapQuery) string {
				return fmt.Sprintf("the patch leaves out file line %d next to where it adds lines; read as going after them, since each added line edits the deleted line before it in place, but that is a guess", g.gap+1)
			},
			open: true,
		},
		{
			Rule: Rule{ID: "orderUnknown", Stage: StageReading, Verdicts: []Verdict{Refuse},
				Statement: "A file line the patch left out next to added lines, where no rule says whether it goes before or after them, refuses the hunk (unless the syntax check chooses: chooseOrders)."},
			applies: func(*gapQuery) bool { return true },
			refuse: func(g *gapQuery) string {
				return fmt.Sprintf("the patch leaves out file line %d, next to where it adds lines, so the order of the added lines and that line is unknown", g.gap+1)
			},
			open: true,
		},
	}
})

// orderGap decides the order of the lines of gap g by the first case of
// orderCases that applies; the last, orderUnknown, applies to every gap.
func orderGap(g *gapQuery) *orderCase {
	cases := orderCases()
	for k := range cases[:len(cases)-1] {
		if oc := &cases[k]; oc.applies(g) {
			return oc
		}
	}
	return &cases[len(cases)-1]
}

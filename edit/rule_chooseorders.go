// rule_chooseorders.go: the rule chooseOrders, one rule of the placement table.

package edit

import (
	"fmt"
	"slices"
)

// ruleChooseOrders is the rule of that id; see its Statement.
var ruleChooseOrders = Rule{
	ID:        "chooseOrders",
	Stage:     StageFile,
	Verdicts:  []Verdict{Certain},
	Statement: "Where the order of a lost file line and added lines is unknown, the one order that leaves the file passing its syntax check, when every other fails it, is taken.",
}

// gapOrder is one reading of a gap in a hunk's alignment where the patch
// left out file lines next to added lines: gap is the first left-out file
// line, and the left-out lines go after the first at of the n-1 added
// lines (n readings: before all of them, between two, after all).
type gapOrder struct {
	gap, at, n int
}

// openOrder is a hunk refused for the order of a gap alone (see
// resolveLines), which the file's syntax check may still choose.
type openOrder struct {
	hunk int
	err  *resolveErr
}

// orderMax is how many readings of a gap the syntax check tries.
const orderMax = 64

// chooseOrders places each hunk of open by the one reading of its gap
// that leaves the file passing its language's syntax check, with the
// hunks already kept, where the file passed it before and every other
// reading fails it: a closing bracket the patch lost after added lines
// goes after them, not before (Go's parser, Python's indentation and
// bracket balance tell). Where no check exists, or more than one reading
// passes, or none does, the hunk is refused as resolving it was.
func (fp *filePlaces) chooseOrders(kept []Resolved, open []openOrder) []Resolved {
	if len(open) == 0 {
		return kept
	}
	sc, ok := syntaxFor(fp.fd.Path())
	held := ok && sc.check(fp.old) == ""
	for _, o := range open {
		rs, at, ok := fp.chooseOrder(kept, o, sc, held)
		if !ok {
			fp.refuse(o.hunk, o.err)
			continue
		}
		for i := range rs {
			rs[i].Notes = append(rs[i].Notes, fmt.Sprintf("file line %d, which the patch leaves out next to its added lines, goes %s: every other order fails the syntax check (%s)", o.err.order.gap+1, orderWords(at, o.err.order.n), sc.name))
		}
		kept = append(kept, rs...)
		slices.SortStableFunc(kept, func(a, b Resolved) int { return a.Start - b.Start })
	}
	return kept
}

// chooseOrder tries every reading of o's gap and returns the one whose
// result passes the check, if exactly one result does.
func (fp *filePlaces) chooseOrder(kept []Resolved, o openOrder, sc syntaxCheck, held bool) ([]Resolved, int, bool) {
	n := o.err.order.n
	if !held || n > orderMax {
		return nil, 0, false
	}
	var pick []Resolved
	at, passing := 0, map[string]bool{}
	for k := range n {
		c := *fp.hunks[o.hunk].chosen
		c.order = &gapOrder{gap: o.err.order.gap, at: k}
		rs, err := fp.resolve(o.hunk, &c)
		if err != nil || clashes(kept, rs) {
			return nil, 0, false // another doubt: no reading is sure
		}
		all := slices.Concat(kept, rs)
		slices.SortStableFunc(all, func(a, b Resolved) int { return a.Start - b.Start })
		out, aerr := Apply(fp.old, all)
		if aerr != nil || sc.check(out) != "" {
			continue
		}
		if !passing[out] {
			pick, at = rs, k
		}
		passing[out] = true
	}
	if len(passing) != 1 {
		return nil, 0, false
	}
	return pick, at, true
}

// clashes reports whether some hunk of rs changes lines that a hunk of
// kept changes or keeps, or the other way round.
func clashes(kept, rs []Resolved) bool {
	for _, r := range rs {
		re := r.edits()
		for _, k := range kept {
			if conflict(re, k.edits()) || deletesContext(r, k) || deletesContext(k, r) {
				return true
			}
		}
	}
	return false
}

// orderWords says where reading at of n puts a gap's left-out lines.
func orderWords(at, n int) string {
	switch at {
	case 0:
		return "before the added lines"
	case n - 1:
		return "after the added lines"
	}
	return fmt.Sprintf("between added lines %d and %d", at, at+1)
}

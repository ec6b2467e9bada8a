// rule_droptwins.go: the rule dropTwins, one rule of the placement table.

package edit

import (
	"fmt"
	"slices"
	"strings"
)

// ruleDropTwins is the rule of that id; see its Statement.
var ruleDropTwins = Rule{
	ID:        "dropTwins",
	Stage:     StageFile,
	Verdicts:  []Verdict{Refuse},
	Statement: "Hunks placed one each by assignTwins whose added lines come out differently (one re-indented, another not) are refused: which goes where matters and is unknown.",
}

// dropTwins refuses hunks placed by assignTwins whose added lines did not
// resolve alike (one re-indented, another not): then which goes where
// matters, and is unknown. A twin refused for another reason takes the
// others with it, as in dropBound.
func (fp *filePlaces) dropTwins(rs []Resolved) []Resolved {
	twin := map[int]bool{}
	for _, hp := range fp.hunks {
		if c := hp.chosen; c != nil {
			for _, t := range c.twins {
				twin[t] = true
			}
		}
	}
	if len(twin) == 0 {
		return rs
	}
	added := map[int]string{}
	for _, r := range rs {
		if !twin[r.Hunk] {
			continue
		}
		var b strings.Builder
		for _, l := range r.Lines {
			if l.Kind == Add {
				b.WriteString(l.Text + "\n")
			}
		}
		added[r.Hunk] = b.String()
	}
	bad := map[int]string{}
	for i, hp := range fp.hunks {
		c := hp.chosen
		if c == nil || len(c.twins) == 0 {
			continue
		}
		for _, t := range c.twins {
			switch a, ok := added[t]; {
			case !ok:
				bad[i] = fmt.Sprintf("it fits the same places as hunk %d, which makes the same change and cannot be placed, so which place is this one's is unknown", t+1)
			case a != added[i]:
				bad[i] = "it fits the same places as other hunks that make the same change, but their added lines would be indented differently, so which goes where is unknown"
			}
		}
	}
	if len(bad) == 0 {
		return rs
	}
	kept := rs[:0]
	for _, r := range rs {
		if bad[r.Hunk] == "" {
			kept = append(kept, r)
		}
	}
	for i, detail := range bad {
		if !slices.ContainsFunc(fp.errs, func(e *PlacementError) bool { return e.Hunk == i }) {
			fp.fail(i, ruleDropTwins.ID, ErrAmbiguous, detail, fp.pl.nearest(fp.hunks[i].h))
		}
	}
	return kept
}

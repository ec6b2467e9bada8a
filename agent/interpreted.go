package agent

import (
	"fmt"
	"strings"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/audit"
)

// writeInterpreted tells the model, under the decision on an interpreted
// hunk, which lines pair read as its changes although it did not mark
// them, and what the person decided about that reading: so that it knows
// what the file now holds, and marks its changes next time.
func writeInterpreted(b *strings.Builder, plans []*edit.FilePlan, h HunkDecision) {
	writeKept(b, plans, h)
	if !h.Interpreted {
		return
	}
	r := interpretedHunk(plans, h)
	if r == nil {
		return
	}
	switch h.Decision {
	case audit.Rejected:
		b.WriteString("  pair could place it only by reading changes into lines you did not mark, and the person rejected that reading:\n")
	default:
		b.WriteString("  pair placed it by reading changes into lines you did not mark, and the person approved that reading:\n")
	}
	for _, in := range r.Interpreted {
		fmt.Fprintf(b, "  %s\n", in.Teach())
	}
}

// interpretedHunk finds the interpreted hunk a decision is about (see
// resolvedOf).
func interpretedHunk(plans []*edit.FilePlan, h HunkDecision) *edit.Resolved {
	_, r := resolvedOf(plans, h, func(r *edit.Resolved) bool { return r.Pass == edit.PassInterpreted })
	return r
}

// resolvedOf finds the placed hunk a decision is about, among those keep
// accepts (nil: all): the one of its file that starts at its line, or
// else covers it (a hunk split in review).
func resolvedOf(plans []*edit.FilePlan, h HunkDecision, keep func(*edit.Resolved) bool) (*edit.FilePlan, *edit.Resolved) {
	var covering *edit.Resolved
	var in *edit.FilePlan
	for _, p := range plans {
		if p.Path() != h.Path {
			continue
		}
		for i := range p.Hunks {
			r := &p.Hunks[i]
			if keep != nil && !keep(r) {
				continue
			}
			if r.Start+1 == h.Start {
				return p, r
			}
			if covering == nil && r.Start+1 <= h.Start && h.Start <= r.Start+max(r.OldCount(), 1) {
				covering, in = r, p
			}
		}
	}
	return in, covering
}

// writeKept tells the model, under the decision on a hunk placed by a
// three-way reading, which lines of its context the person had changed
// since it read the file: the hunk kept them as they are now.
func writeKept(b *strings.Builder, plans []*edit.FilePlan, h HunkDecision) {
	for _, p := range plans {
		if p.Path() != h.Path {
			continue
		}
		for _, r := range p.Hunks {
			if r.Start+1 != h.Start {
				continue
			}
			for _, n := range r.Notes {
				if k, ok := strings.CutPrefix(n, edit.NoteKept); ok {
					fmt.Fprintf(b, "  the file changed since you read it: %s\n", k)
				}
			}
			return
		}
	}
}

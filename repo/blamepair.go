// blamepair.go: what pair's record says of a blamed line: the model, the session and the decision of the hunk that wrote it.

package repo

import (
	"slices"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/pair-cli/pair/internal/audit"
)

// PairLine is what a pair commit's audit trailer says of a line it
// wrote. Only commits this pair made (see LogEntry.MadeHere) are read:
// the trailers of another commit are anyone's text.
type PairLine struct {
	Model   string // Pair-Model ("none" for pair apply)
	Session string // Pair-Session
	// Decision is the review's decision for the hunk that wrote the line:
	// approved, edited, or interpreted (an approved hunk placed by
	// interpretation, --interpret); "" when no hunk record of the commit
	// names the file.
	Decision string
	// Hunk is the record of that hunk; nil with Decision "".
	Hunk *audit.HunkRecord
}

// The decision of a hunk placed by interpretation, as Blame shows it.
const DecisionInterpreted = "interpreted"

// pairCommit is what attribute knows of one commit: its record when this
// pair made it.
type pairCommit struct {
	rec  audit.Record
	mine bool
}

// attribute fills the Pair of each line whose commit this pair made
// (made is its record of them). The hunk that wrote a line is the one of
// the commit's written hunks of the line's file that starts last at or
// before the line's place in the commit's first parent (firstAt): a
// hunk's Start is its first line in the file it changed.
func (b *blamer) attribute(lines []BlameLine, made *commitRecord) error {
	seen := map[string]*pairCommit{}
	for i := range lines {
		l := &lines[i]
		if l.Commit == "" {
			continue
		}
		pc, ok := seen[l.Commit]
		if !ok {
			c, err := b.commit(plumbing.NewHash(l.Commit))
			if err != nil {
				return err
			}
			pc = &pairCommit{}
			if rec, isPair, _ := audit.ParseMessage(c.Message); isPair && made.notMadeHere(c, rec) == "" {
				pc.rec, pc.mine = rec, true
			}
			seen[l.Commit] = pc
		}
		if !pc.mine {
			continue
		}
		l.Pair = &PairLine{Model: pc.rec.Model, Session: pc.rec.Session}
		if h := hunkAt(pc.rec.Hunks, l.Path, b.firstAt[i]); h != nil {
			l.Pair.Hunk = h
			l.Pair.Decision = string(h.Decision)
			if h.Interpreted {
				l.Pair.Decision = DecisionInterpreted
			}
		}
	}
	return nil
}

// hunkAt returns the written hunk of path among hunks that holds the
// place at (0-based, in the old file): the last to start at or before
// it, else the first; nil when no written hunk names path.
func hunkAt(hunks []audit.HunkRecord, path string, at int) *audit.HunkRecord {
	var mine []audit.HunkRecord
	for _, h := range hunks {
		if h.Path == path && h.Decision.Applies() {
			mine = append(mine, h)
		}
	}
	if len(mine) == 0 {
		return nil
	}
	slices.SortStableFunc(mine, func(x, y audit.HunkRecord) int { return x.Start - y.Start })
	best := mine[0]
	for _, h := range mine[1:] {
		if h.Start-1 <= at {
			best = h
		}
	}
	return &best
}

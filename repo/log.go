// log.go: Log and Stats, the pair commits read back from history with their audit trailers.

package repo

import (
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/repo/internal/gitobj"
)

// LogEntry is one pair commit, as Log reads it from git.
type LogEntry struct {
	Hash       string    // full commit hash
	Subject    string    // first paragraph of the message
	Model      string    // Pair-Model
	Session    string    // Pair-Session
	ReviewedBy string    // Pair-Reviewed-By
	Author     string    // "Name <email>"
	When       time.Time // author date, as git log shows it
	Approved   int       // Pair-Hunk records by decision
	Edited     int
	Rejected   int
	Hunks      []audit.HunkRecord
	// Warning says what is wrong with the commit's trailers (a Pair-Hunk
	// that does not parse, a missing Pair-Model); empty when nothing is.
	Warning string
	// NotMadeHere says why the commit, whose trailers say pair, is not
	// one this pair made (see MadeHere); empty when it is.
	NotMadeHere string
}

// MadeHere reports whether this pair made the commit: it is in pair's
// record of its own commits, with the trailers recorded. Only then are
// its trailers pair's word.
func (e LogEntry) MadeHere() bool { return e.NotMadeHere == "" }

// Total is the number of hunk records of the entry.
func (e LogEntry) Total() int { return e.Approved + e.Edited + e.Rejected }

// Log lists the pair commits reachable from HEAD by first parents, newest
// first: at most limit of them, or all when limit <= 0. Commits that are
// not pair commits are skipped. A commit whose trailers say pair but that
// this pair did not make is listed with NotMadeHere set. A repository
// without commits yet has an empty log.
func (t *Tree) Log(limit int) ([]LogEntry, error) {
	st, err := t.repo.gitStorage()
	if err != nil {
		return nil, err
	}
	c, err := headCommit(st)
	if c == nil || err != nil {
		return nil, err // nil, nil on an unborn branch
	}
	made, err := t.repo.readCommitRecord()
	if err != nil {
		return nil, err
	}
	var out []LogEntry
	for {
		if e, ok := logEntryOf(c, made); ok {
			out = append(out, e)
			if limit > 0 && len(out) >= limit {
				return out, nil
			}
		}
		parents := c.Parents()
		if len(parents) == 0 {
			return out, nil
		}
		h := parents[0]
		if c, err = gitobj.ReadCommit(st, h); err != nil {
			return out, fmt.Errorf("read commit %s: %w", h, err)
		}
	}
}

// logEntryOf reads a commit's message; ok is false when it is not a pair
// commit. made is the record of the commits this pair made.
func logEntryOf(c *gitobj.Commit, made *commitRecord) (LogEntry, bool) {
	rec, ok, perr := audit.ParseMessage(c.Message)
	if !ok {
		return LogEntry{}, false
	}
	author := c.Author()
	e := LogEntry{
		Hash:       c.Hash.String(),
		Subject:    rec.Subject,
		Model:      rec.Model,
		Session:    rec.Session,
		ReviewedBy: rec.ReviewedBy,
		Author:     fmt.Sprintf("%s <%s>", author.Name, author.Email),
		When:       author.When,
		Hunks:      rec.Hunks,
	}
	e.NotMadeHere = made.notMadeHere(c, rec)
	for _, h := range rec.Hunks {
		switch h.Decision {
		case audit.Approved:
			e.Approved++
		case audit.Edited:
			e.Edited++
		case audit.Rejected:
			e.Rejected++
		}
	}
	var warns []error
	if perr != nil {
		warns = append(warns, perr)
	}
	if rec.Model == "" {
		warns = append(warns, fmt.Errorf("no %s trailer", audit.TrailerModel))
	}
	if err := errors.Join(warns...); err != nil {
		e.Warning = err.Error()
	}
	return e, true
}

// ModelStats sums up the pair commits of one model.
type ModelStats struct {
	Model    string
	Commits  int
	Hunks    int
	Approved int
	Edited   int
	Rejected int
}

// Rate is the acceptance rate: approved and edited hunks over all hunks,
// or 0 when there are none.
func (s ModelStats) Rate() float64 {
	if s.Hunks == 0 {
		return 0
	}
	return float64(s.Approved+s.Edited) / float64(s.Hunks)
}

// Stats sums up log entries per model, sorted by model name. An entry
// without a model counts under "". Only commits this pair made count:
// the trailers of others are anyone's word.
func Stats(entries []LogEntry) []ModelStats {
	by := map[string]*ModelStats{}
	for _, e := range entries {
		if !e.MadeHere() {
			continue
		}
		s := by[e.Model]
		if s == nil {
			s = &ModelStats{Model: e.Model}
			by[e.Model] = s
		}
		s.Commits++
		s.Approved += e.Approved
		s.Edited += e.Edited
		s.Rejected += e.Rejected
		s.Hunks += e.Total()
	}
	out := make([]ModelStats, 0, len(by))
	for _, s := range by {
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Model < out[j].Model })
	return out
}

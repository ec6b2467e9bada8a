package history

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/internal/console"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/safetext"
	"github.com/pair-cli/pair/repo"
)

// LogOptions are the options of pair log.
type LogOptions struct {
	Dir   string
	Limit int // at most this many pair commits, 0 for all
	Stats bool
	JSON  bool
	IO    console.IO
	// OpenTree opens the working tree that holds a directory.
	OpenTree func(dir string) (*repo.Tree, error)
}

// LogReport is the --json output of pair log: Commits, or with --stats,
// Models.
type LogReport struct {
	Status  string       `json:"status"` // ok | failed
	Commits []Commit     `json:"commits,omitempty"`
	Models  []ModelStats `json:"models,omitempty"`
	// NotCounted is the number of commits --stats left out: their
	// trailers say pair, but this pair did not make them.
	NotCounted int    `json:"not_counted,omitempty"`
	Error      string `json:"error,omitempty"`
}

// Commit is a pair commit in the reports of pair log and pair undo.
type Commit struct {
	Hash       string `json:"hash"`
	Short      string `json:"short"`
	Date       string `json:"date"` // RFC 3339, the author date
	Subject    string `json:"subject"`
	Model      string `json:"model"`
	Session    string `json:"session"`
	ReviewedBy string `json:"reviewed_by"`
	Author     string `json:"author"`
	Approved   int    `json:"approved"`
	Edited     int    `json:"edited"`
	Rejected   int    `json:"rejected"`
	Hunks      []Hunk `json:"hunks"`
	Warning    string `json:"warning,omitempty"`
	// MadeHere: the commit is in pair's record of its own commits, so its
	// trailers are pair's word; NotMadeHere says why it is not.
	MadeHere    bool   `json:"made_here"`
	NotMadeHere string `json:"not_made_here,omitempty"`
}

// Hunk is a hunk's record in a pair commit.
type Hunk struct {
	Path     string         `json:"path"`
	Start    int            `json:"start"`
	Hash     string         `json:"hash"`
	Decision audit.Decision `json:"decision"`
}

// ModelStats are one model's numbers in pair log --stats.
type ModelStats struct {
	Model          string  `json:"model"`
	Commits        int     `json:"commits"`
	Hunks          int     `json:"hunks"`
	Approved       int     `json:"approved"`
	Edited         int     `json:"edited"`
	Rejected       int     `json:"rejected"`
	AcceptanceRate float64 `json:"acceptance_rate"` // (approved+edited)/hunks, 0 without hunks
}

func commitOf(e repo.LogEntry) Commit {
	lc := Commit{
		Hash: e.Hash, Short: shortHash(e.Hash), Date: e.When.Format(time.RFC3339),
		Subject: e.Subject, Model: e.Model, Session: e.Session, ReviewedBy: e.ReviewedBy, Author: e.Author,
		Approved: e.Approved, Edited: e.Edited, Rejected: e.Rejected,
		Hunks: []Hunk{}, Warning: e.Warning,
		MadeHere: e.MadeHere(), NotMadeHere: e.NotMadeHere,
	}
	for _, h := range e.Hunks {
		lc.Hunks = append(lc.Hunks, Hunk{Path: h.Path, Start: h.Start, Hash: h.Hash, Decision: h.Decision})
	}
	return lc
}

// Log runs pair log: it lists the pair commits on the branch, or with
// Stats the acceptance rate per model, on o.IO.Out.
func Log(ctx context.Context, o LogOptions) error {
	report := LogReport{}
	fail := func(err error) error {
		if o.JSON {
			report.Status, report.Error = "failed", err.Error()
			output.WriteJSON(o.IO.Out, report)
			return &output.ExitError{Code: output.Failure, Msg: "log: " + err.Error()}
		}
		return fmt.Errorf("log: %w", err)
	}
	tree, err := o.OpenTree(o.Dir)
	if err != nil {
		return fail(err)
	}
	defer tree.Close()
	if err := ctx.Err(); err != nil {
		return err
	}
	entries, err := tree.Log(o.Limit)
	if err != nil {
		return fail(err)
	}
	report.Status = "ok"
	if o.Stats {
		report.Models = []ModelStats{}
		for _, s := range repo.Stats(entries) {
			report.Models = append(report.Models, ModelStats{
				Model: s.Model, Commits: s.Commits, Hunks: s.Hunks,
				Approved: s.Approved, Edited: s.Edited, Rejected: s.Rejected,
				AcceptanceRate: s.Rate(),
			})
		}
		for _, e := range entries {
			if !e.MadeHere() {
				report.NotCounted++
			}
		}
	} else {
		report.Commits = []Commit{}
		for _, e := range entries {
			report.Commits = append(report.Commits, commitOf(e))
		}
	}
	switch {
	case o.JSON:
		output.WriteJSON(o.IO.Out, report)
	case len(entries) == 0:
		fmt.Fprintln(o.IO.Out, "no pair commits")
	case o.Stats:
		printStats(o.IO.Out, report.Models, report.NotCounted)
	default:
		printLog(o.IO.Out, entries)
	}
	return nil
}

// printLog lists the commits. Subjects and trailers are anyone's text in
// the repository's history: shown escaped (see internal/safetext).
func printLog(w io.Writer, entries []repo.LogEntry) {
	for i, e := range entries {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s %s %s\n", shortHash(e.Hash), e.When.Format("2006-01-02 15:04"), safetext.Line(e.Subject))
		if !e.MadeHere() {
			fmt.Fprintf(w, "\tnot made here: %s; its trailers are unchecked\n", safetext.Line(e.NotMadeHere))
		}
		fmt.Fprintf(w, "\tmodel:   %s\n", safetext.Line(orNone(e.Model)))
		fmt.Fprintf(w, "\tsession: %s\n", safetext.Line(orNone(e.Session)))
		fmt.Fprintf(w, "\thunks:   %d approved, %d edited, %d rejected\n", e.Approved, e.Edited, e.Rejected)
		if e.Warning != "" {
			fmt.Fprintf(w, "\twarning: %s\n", safetext.Line(e.Warning))
		}
	}
}

func printStats(w io.Writer, models []ModelStats, notCounted int) {
	if len(models) == 0 {
		fmt.Fprintln(w, "no pair commits made here")
	} else {
		tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
		fmt.Fprintln(tw, "MODEL\tCOMMITS\tHUNKS\tAPPROVED\tEDITED\tREJECTED\tACCEPTED")
		for _, m := range models {
			rate := "-"
			if m.Hunks > 0 {
				rate = fmt.Sprintf("%.1f%%", 100*m.AcceptanceRate)
			}
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%s\n", safetext.Name(orNone(m.Model)), m.Commits, m.Hunks, m.Approved, m.Edited, m.Rejected, rate)
		}
		tw.Flush()
	}
	if notCounted > 0 {
		fmt.Fprintf(w, "not counted: %d %s whose trailers say pair, but that this pair did not make (see pair log)\n", notCounted, output.Plural(notCounted, "commit"))
	}
}

// orNone shows an empty trailer value.
func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// shortHash is the abbreviated commit hash pair prints.
func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

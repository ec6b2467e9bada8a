package main

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/safetext"
	"github.com/pair-cli/pair/repo"
)

func logCommand(io stdio) *cli.Command {
	return &cli.Command{
		Name:      "log",
		Usage:     "list the pair commits and what was decided for their hunks",
		ArgsUsage: " ",
		Description: `Lists the pair commits on the current branch, newest first: the commits
reachable from HEAD by first parents whose message carries pair's audit
trailer (Pair-Session, Pair-Model, Pair-Reviewed-By, one Pair-Hunk per hunk).
Other commits are skipped. For each: the abbreviated hash, the date, the
subject, the model, the session and how many hunks were approved, edited
and rejected. A trailer that does not parse is shown as a warning.

Trailers are text anyone can write. pair records each commit it makes in
.git/pair/commits (shared by linked worktrees, never pushed). A commit whose
trailers say pair but that is not in that record (one pulled, applied with
git am, made by hand, or made by a pair that kept no record yet) is marked
"not made here": its model, reviewer and hunks are unchecked. A commit the
person amended with git commit --amend stays pair's.

With --stats, prints instead a table per model: the number of pair commits
and hunks, the hunks by decision, and the acceptance rate, (approved +
edited) / all hunks. Only commits made here count. -n limits both to the N
newest pair commits.

Exit status: 0 listed (even when there is no pair commit); 1 failure (for
example, not a git repository); 2 usage error.`,
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "n", Aliases: []string{"max-count"}, Usage: "list at most `N` pair commits (0: all)"},
			&cli.BoolFlag{Name: "stats", Usage: "print the acceptance rate per model instead"},
			&cli.BoolFlag{Name: "json", Usage: "print the commits (or the statistics) as one JSON object"},
			&cli.StringFlag{Name: "directory", Aliases: []string{"C"}, Usage: "run as if pair was started in `DIR`"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("log: takes no arguments (got %q)", c.Args().First())
			}
			if c.Int("n") < 0 {
				return usagef("log: -n must be 0 or more (got %d)", c.Int("n"))
			}
			return runLog(logOptions{
				Dir:   c.String("directory"),
				Limit: c.Int("n"),
				Stats: c.Bool("stats"),
				JSON:  c.Bool("json"),
				IO:    io,
			})
		},
	}
}

type logOptions struct {
	Dir   string
	Limit int
	Stats bool
	JSON  bool
	IO    stdio
}

// logReport is the --json output of pair log: Commits, or with --stats,
// Models.
type logReport struct {
	Status  string       `json:"status"` // ok | failed
	Commits []logCommit  `json:"commits,omitempty"`
	Models  []modelStats `json:"models,omitempty"`
	// NotCounted is the number of commits --stats left out: their
	// trailers say pair, but this pair did not make them.
	NotCounted int    `json:"not_counted,omitempty"`
	Error      string `json:"error,omitempty"`
}

type logCommit struct {
	Hash       string    `json:"hash"`
	Short      string    `json:"short"`
	Date       string    `json:"date"` // RFC 3339, the author date
	Subject    string    `json:"subject"`
	Model      string    `json:"model"`
	Session    string    `json:"session"`
	ReviewedBy string    `json:"reviewed_by"`
	Author     string    `json:"author"`
	Approved   int       `json:"approved"`
	Edited     int       `json:"edited"`
	Rejected   int       `json:"rejected"`
	Hunks      []logHunk `json:"hunks"`
	Warning    string    `json:"warning,omitempty"`
	// MadeHere: the commit is in pair's record of its own commits, so its
	// trailers are pair's word; NotMadeHere says why it is not.
	MadeHere    bool   `json:"made_here"`
	NotMadeHere string `json:"not_made_here,omitempty"`
}

type logHunk struct {
	Path     string         `json:"path"`
	Start    int            `json:"start"`
	Hash     string         `json:"hash"`
	Decision audit.Decision `json:"decision"`
}

type modelStats struct {
	Model          string  `json:"model"`
	Commits        int     `json:"commits"`
	Hunks          int     `json:"hunks"`
	Approved       int     `json:"approved"`
	Edited         int     `json:"edited"`
	Rejected       int     `json:"rejected"`
	AcceptanceRate float64 `json:"acceptance_rate"` // (approved+edited)/hunks, 0 without hunks
}

func logCommitOf(e repo.LogEntry) logCommit {
	lc := logCommit{
		Hash: e.Hash, Short: shortHash(e.Hash), Date: e.When.Format(time.RFC3339),
		Subject: e.Subject, Model: e.Model, Session: e.Session, ReviewedBy: e.ReviewedBy, Author: e.Author,
		Approved: e.Approved, Edited: e.Edited, Rejected: e.Rejected,
		Hunks: []logHunk{}, Warning: e.Warning,
		MadeHere: e.MadeHere(), NotMadeHere: e.NotMadeHere,
	}
	for _, h := range e.Hunks {
		lc.Hunks = append(lc.Hunks, logHunk{Path: h.Path, Start: h.Start, Hash: h.Hash, Decision: h.Decision})
	}
	return lc
}

func runLog(o logOptions) error {
	report := logReport{}
	fail := func(err error) error {
		if o.JSON {
			report.Status, report.Error = "failed", err.Error()
			output.WriteJSON(o.IO.Out, report)
			return &output.ExitError{Code: exitFailure, Msg: "log: " + err.Error()}
		}
		return fmt.Errorf("log: %w", err)
	}
	tree, err := openTree(o.Dir, o.IO.Err)
	if err != nil {
		return fail(err)
	}
	defer tree.Close()
	entries, err := tree.Log(o.Limit)
	if err != nil {
		return fail(err)
	}
	report.Status = "ok"
	if o.Stats {
		report.Models = []modelStats{}
		for _, s := range repo.Stats(entries) {
			report.Models = append(report.Models, modelStats{
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
		report.Commits = []logCommit{}
		for _, e := range entries {
			report.Commits = append(report.Commits, logCommitOf(e))
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

func printStats(w io.Writer, models []modelStats, notCounted int) {
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

package main

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/app/history"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/repo"
)

// newLogCmd is pair log; runF, when not nil, gets its options instead of
// history.Log (for tests).
func newLogCmd(f *factory, runF func(context.Context, history.LogOptions) error) *cli.Command {
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
			directoryFlag(),
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return output.Usagef("log: takes no arguments (got %q)", c.Args().First())
			}
			if c.Int("n") < 0 {
				return output.Usagef("log: -n must be 0 or more (got %d)", c.Int("n"))
			}
			o := history.LogOptions{
				Dir:      c.String("directory"),
				Limit:    c.Int("n"),
				Stats:    c.Bool("stats"),
				JSON:     c.Bool("json"),
				IO:       f.IO,
				OpenTree: func(dir string) (*repo.Tree, error) { return openTree(dir, f.IO.Err) },
			}
			if runF != nil {
				return runF(c.Context, o)
			}
			return history.Log(c.Context, o)
		},
	}
}

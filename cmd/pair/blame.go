package main

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/app/blame"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/repo"
)

// newBlameCmd is pair blame; runF, when not nil, gets its options instead
// of blame.Run (for tests).
func newBlameCmd(f *factory, runF func(context.Context, blame.Options) error) *cli.Command {
	return &cli.Command{
		Name:      "blame",
		Usage:     "show the commit that last changed each line of a file, and which lines a model wrote",
		ArgsUsage: "FILE | --stats [PATH...]",
		Description: `For each line of FILE, as it is in the working tree, prints the commit that
last changed it, as git blame does: the abbreviated hash, who wrote it, the
date, the line's number and the line. It follows the file across renames
(a file moved with at least half of it kept). A line not committed yet
shows 00000000.

A line written by a pair commit made here (one in .git/pair/commits, see
pair log) names the model instead of the author (the author for pair
apply, whose model is none) and, in brackets, the decision of the review
for the hunk that wrote it: approved, edited, or interpreted (an approved
hunk placed by interpretation, --interpret). Trailers of commits pair did
not make here are anyone's text: those lines show their author only.

-C also follows lines moved within the file, and blocks moved or copied
from the files the same commit changed, as git blame -C does.

--stats prints instead, for each file, its lines, those a model wrote and
their share, by decision, and those of pair apply. With no PATH it counts
every file of HEAD; a folder counts every file of HEAD in it. Binary files
are skipped.

--json prints one object: the lines, each with its commit, author, date,
the file and line in that commit, "pair" (model, decision, session and the
hunk's record) or null, and the text; or, with --stats, the files and the
total.

Exit status: 0 shown; 1 failure (a binary file, a path HEAD does not hold,
not a git repository); 2 usage error.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "C", Usage: "follow lines moved or copied from the files the same commit changed (git blame -C)"},
			&cli.BoolFlag{Name: "stats", Usage: "print the share of lines a model wrote, per file"},
			&cli.BoolFlag{Name: "json", Usage: "print the lines (or the statistics) as one JSON object"},
			&cli.StringFlag{Name: "directory", Hidden: true, Usage: "run as if pair was started in `DIR`"},
		},
		Action: func(c *cli.Context) error {
			if !c.Bool("stats") && c.NArg() != 1 {
				return output.Usagef("blame: name one file (or count lines with --stats)")
			}
			o := blame.Options{
				Dir:      c.String("directory"),
				Paths:    c.Args().Slice(),
				Copies:   c.Bool("C"),
				Stats:    c.Bool("stats"),
				JSON:     c.Bool("json"),
				IO:       f.IO,
				OpenTree: func(dir string) (*repo.Tree, error) { return openTree(dir, f.IO.Err) },
			}
			if runF != nil {
				return runF(c.Context, o)
			}
			return blame.Run(c.Context, o)
		},
	}
}

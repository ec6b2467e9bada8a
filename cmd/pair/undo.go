package main

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/app/history"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/repo"
)

// newUndoCmd is pair undo; runF, when not nil, gets its options instead of
// history.Undo (for tests).
func newUndoCmd(f *factory, runF func(context.Context, history.UndoOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "undo",
		Usage:     "take back the last pair commit",
		ArgsUsage: " ",
		Description: `Takes back the last pair commit: the branch (or a detached HEAD) moves to
the commit's parent, and the files the commit changed get the parent's
content and mode back in the index and the working tree; files the commit
added are removed. Every other file, staged or not, is left as it is.

pair undo refuses, and changes nothing, unless all of these hold; the
refusal names the rule that stopped it:

  in-progress    no merge, rebase, cherry-pick, revert or bisect is under way
  head-not-pair  HEAD is a pair commit (it has a Pair-Session trailer)
  not-made-here  this pair made HEAD: it is in .git/pair/commits, pair's
                 record of its own commits, or the person amended such a
                 commit (trailers pulled, applied with git am or written
                 by hand are anyone's word)
  root           HEAD has a parent
  merge          HEAD has only one parent
  pushed         HEAD is not on the branch's upstream, nor on any other
                 remote-tracking branch (use git revert for those)
  file-type      the commit changes only regular files
  amended        the commit changes exactly what its trailers record (a
                 commit amended with other files or versions is refused)
  edited-after   no file of the commit differs from HEAD, in the index or
                 in the working tree (commit, stash or discard such edits)

A detached HEAD is allowed: HEAD itself moves. Everything is read from git,
so pair undo works in any later session, and again for the commit before
when that one is a pair commit too. The reflog records the move: git reset
<hash> brings the commit back.

Exit status: 0 undone (or, with --dry-run, it could be); 1 refused or
failed; 2 usage error.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "dry-run", Usage: "change nothing; show what would be undone"},
			&cli.BoolFlag{Name: "json", Usage: "print the outcome as one JSON object"},
			directoryFlag(),
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return output.Usagef("undo: takes no arguments (got %q)", c.Args().First())
			}
			o := history.UndoOptions{
				Dir:      c.String("directory"),
				DryRun:   c.Bool("dry-run"),
				JSON:     c.Bool("json"),
				IO:       f.IO,
				OpenTree: func(dir string) (*repo.Tree, error) { return openTree(dir, f.IO.Err) },
			}
			if runF != nil {
				return runF(c.Context, o)
			}
			return history.Undo(c.Context, o)
		},
	}
}

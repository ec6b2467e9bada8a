package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/safetext"
	"github.com/pair-cli/pair/repo"
)

func undoCommand(io stdio) *cli.Command {
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
			&cli.StringFlag{Name: "directory", Aliases: []string{"C"}, Usage: "run as if pair was started in `DIR`"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("undo: takes no arguments (got %q)", c.Args().First())
			}
			return runUndo(c.Context, undoOptions{
				Dir:    c.String("directory"),
				DryRun: c.Bool("dry-run"),
				JSON:   c.Bool("json"),
				IO:     io,
			})
		},
	}
}

type undoOptions struct {
	Dir    string
	DryRun bool
	JSON   bool
	IO     stdio
}

// undoReport is the --json output of pair undo.
type undoReport struct {
	Status string `json:"status"` // ok | refused | failed
	DryRun bool   `json:"dry_run"`
	// Commit is the pair commit undone (or to be undone).
	Commit *logCommit `json:"commit,omitempty"`
	Parent string     `json:"parent,omitempty"`
	// Branch is the branch moved, "" for a detached HEAD.
	Branch string           `json:"branch,omitempty"`
	Files  []undoFileReport `json:"files"`
	// Rule names the rule that refused the undo; Error says why.
	Rule  string   `json:"rule,omitempty"`
	Error string   `json:"error,omitempty"`
	Paths []string `json:"paths,omitempty"` // the files a refusal is about
}

type undoFileReport struct {
	Path   string `json:"path"`
	Action string `json:"action"` // restore | remove
	Mode   string `json:"mode,omitempty"`
}

func runUndo(ctx context.Context, o undoOptions) error {
	report := undoReport{DryRun: o.DryRun, Files: []undoFileReport{}}
	fail := func(err error) error {
		var ref *repo.UndoRefusal
		if errors.As(err, &ref) {
			report.Status, report.Rule, report.Paths = "refused", ref.Rule, ref.Files
		} else {
			report.Status = "failed"
		}
		report.Error = err.Error()
		if o.JSON {
			output.WriteJSON(o.IO.Out, report)
		}
		return &output.ExitError{Code: exitFailure, Msg: "undo: " + err.Error()}
	}
	tree, err := openTree(o.Dir, o.IO.Err)
	if err != nil {
		return fail(err)
	}
	defer tree.Close()
	if err := ctx.Err(); err != nil {
		return err
	}
	res, err := tree.Undo(o.DryRun)
	if err != nil {
		return fail(err)
	}
	report.Status = "ok"
	lc := logCommitOf(res.Commit)
	report.Commit, report.Parent, report.Branch = &lc, res.Parent, res.Branch
	for _, f := range res.Files {
		report.Files = append(report.Files, undoFileReport{Path: f.Path, Action: f.Action, Mode: f.Mode})
	}
	if o.JSON {
		output.WriteJSON(o.IO.Out, report)
		return nil
	}
	printUndo(o.IO.Out, report)
	return nil
}

func printUndo(w io.Writer, r undoReport) {
	verb, would := "undid", ""
	if r.DryRun {
		verb, would = "would undo", "would "
	}
	// The subject and the names come from the repository: escaped.
	fmt.Fprintf(w, "%s %s %s\n", verb, r.Commit.Short, safetext.Line(r.Commit.Subject))
	for _, f := range r.Files {
		fmt.Fprintf(w, "\t%s%s %s\n", would, f.Action, safetext.Name(f.Path))
	}
	where := "HEAD"
	if r.Branch != "" {
		where = safetext.Name(shortBranch(r.Branch))
	}
	if r.DryRun {
		fmt.Fprintf(w, "%s would move to %s; nothing was changed (--dry-run)\n", where, shortHash(r.Parent))
		return
	}
	fmt.Fprintf(w, "%s is now at %s\n", where, shortHash(r.Parent))
}

func shortBranch(ref string) string {
	const heads = "refs/heads/"
	if len(ref) > len(heads) && ref[:len(heads)] == heads {
		return ref[len(heads):]
	}
	return ref
}

// shortHash is the abbreviated commit hash pair prints.
func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

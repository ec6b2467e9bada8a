package history

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/pair-cli/pair/internal/console"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/safetext"
	"github.com/pair-cli/pair/repo"
)

// UndoOptions are the options of pair undo (and of /undo in the chat).
type UndoOptions struct {
	Dir    string
	DryRun bool
	JSON   bool
	IO     console.IO
	// OpenTree opens the working tree that holds a directory.
	OpenTree func(dir string) (*repo.Tree, error)
}

// UndoReport is the --json output of pair undo.
type UndoReport struct {
	Status string `json:"status"` // ok | refused | failed
	DryRun bool   `json:"dry_run"`
	// Commit is the pair commit undone (or to be undone).
	Commit *Commit `json:"commit,omitempty"`
	Parent string  `json:"parent,omitempty"`
	// Branch is the branch moved, "" for a detached HEAD.
	Branch string           `json:"branch,omitempty"`
	Files  []UndoFileReport `json:"files"`
	// Rule names the rule that refused the undo; Error says why.
	Rule  string   `json:"rule,omitempty"`
	Error string   `json:"error,omitempty"`
	Paths []string `json:"paths,omitempty"` // the files a refusal is about
}

// UndoFileReport is what pair undo did (or would do) to one file.
type UndoFileReport struct {
	Path   string `json:"path"`
	Action string `json:"action"` // restore | remove
	Mode   string `json:"mode,omitempty"`
}

// Undo runs pair undo: it takes back the last pair commit (with DryRun,
// only says what that would do) and reports it on o.IO.Out.
func Undo(ctx context.Context, o UndoOptions) error {
	report := UndoReport{DryRun: o.DryRun, Files: []UndoFileReport{}}
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
		return &output.ExitError{Code: output.Failure, Msg: "undo: " + err.Error()}
	}
	tree, err := o.OpenTree(o.Dir)
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
	lc := commitOf(res.Commit)
	report.Commit, report.Parent, report.Branch = &lc, res.Parent, res.Branch
	for _, f := range res.Files {
		report.Files = append(report.Files, UndoFileReport{Path: f.Path, Action: f.Action, Mode: f.Mode})
	}
	if o.JSON {
		output.WriteJSON(o.IO.Out, report)
		return nil
	}
	printUndo(o.IO.Out, report)
	return nil
}

func printUndo(w io.Writer, r UndoReport) {
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

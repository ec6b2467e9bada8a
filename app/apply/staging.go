package apply

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/safetext"
	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/review"
)

// staging.go: git apply's --3way, --index and --cached around pair's
// review. --index writes the working tree and the index, --cached the
// index alone; both stage the result and commit nothing. --3way merges
// the files whose hunks do not place with the preimage blobs the patch's
// index lines name; a hunk both sides changed is offered with conflict
// markers, and a file written with them is never committed.

// Merged is the --3way reading of one file, in the report.
type Merged struct {
	Path string `json:"path"`
	// Base is the preimage blob; Missing that the repository lacks it.
	Base      string `json:"base,omitempty"`
	Missing   bool   `json:"missing,omitempty"`
	Merged    int    `json:"merged"`
	Conflicts int    `json:"conflicts"`
}

// staged reports whether the result goes to the index instead of a
// commit (--index, --cached).
func (o Options) staged() bool { return o.Index || o.Cached }

// indexed reports whether the working tree and the index both take the
// result, as with git apply --index: --index, and --3way that commits
// nothing, as git's --3way implies --index (one that commits updates the
// index with its commit).
func (o Options) indexed() bool { return !o.Cached && (o.Index || o.ThreeWay && o.NoCommit) }

// checkStaging refuses the options that do not go together, before
// anything is read.
func checkStaging(o Options) error {
	if !o.staged() {
		return nil
	}
	flag := "--index"
	if o.Cached {
		flag = "--cached"
	}
	if o.Message != "" {
		return output.Usagef("apply: %s stages the patch and commits nothing: -m has no commit to name", flag)
	}
	return nil
}

// prepare does, after placement and before the hunks are counted, what
// the staging options ask: --cached places the patch on the index's
// content; --index and --cached check the index as git does; --3way
// merges the files whose hunks did not all place.
func (a *applier) prepare(plans []*edit.FilePlan) error {
	o := a.o
	for _, x := range []struct {
		on   bool
		flag string
	}{{o.ThreeWay, "--3way"}, {o.Index && !o.Cached, "--index"}, {o.Cached, "--cached"}} {
		if x.on && !a.tree.Git {
			return fmt.Errorf("%s outside a repository", x.flag)
		}
	}
	if o.Cached {
		if err := a.tree.FromIndex(plans); err != nil {
			return err
		}
	}
	if o.staged() || o.indexed() {
		if err := a.tree.CheckIndex(plans, o.Cached); err != nil {
			return err
		}
	}
	if o.indexed() {
		if err := a.tree.KeepIndexModes(plans); err != nil {
			return err
		}
	}
	if !o.ThreeWay {
		return nil
	}
	merges, err := a.tree.ThreeWay(plans)
	if err != nil {
		return err
	}
	a.merges = merges
	for _, m := range merges {
		a.report.Merged = append(a.report.Merged, Merged{Path: m.Path, Base: m.Base, Missing: m.Missing, Merged: m.Merged, Conflicts: m.Conflicts})
		if o.JSON {
			continue
		}
		name := safetext.Name(m.Path)
		switch {
		case m.Missing:
			fmt.Fprintf(o.IO.Err, "pair: apply: %s: --3way: %s\n", name, repo.ErrNoPreimage)
		case m.Conflicts > 0:
			fmt.Fprintf(o.IO.Err, "pair: apply: %s: merged three-way with its preimage %s: %d %s with conflict markers, for review\n", name, m.Base[:7], m.Conflicts, output.Plural(m.Conflicts, "conflict"))
		case m.Merged > 0:
			fmt.Fprintf(o.IO.Err, "pair: apply: %s: merged three-way with its preimage %s: %d %s placed cleanly\n", name, m.Base[:7], m.Merged, output.Plural(m.Merged, "hunk"))
		}
	}
	return nil
}

// conflicted lists the files whose approved hunks write conflict markers.
func conflicted(rev *review.Review) []string {
	var out []string
	for i := range rev.Items {
		it := &rev.Items[i]
		if p := rev.FileOf(it).Path(); !it.Whole && it.Hunk.Pass == edit.PassConflict && it.Decision.Applies() && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// writeStaged writes the approved plans where the options say: the
// working tree (committed unless --no-commit), the working tree and the
// index (--index), or the index alone (--cached). A file written with
// conflict markers is never committed: it is left for the person to
// resolve, unmerged in the index with --index and --cached, as git
// apply --3way leaves it, and the run fails with what to do.
func (a *applier) writeStaged(ctx context.Context, rev *review.Review, plans []*edit.FilePlan, commit bool) (commitErr, err error) {
	conflicts := conflicted(rev)
	a.report.Conflicted = conflicts
	if len(conflicts) > 0 {
		commit = false
	}
	if !a.o.Cached {
		if commitErr, err = a.write(ctx, rev, plans, commit); err != nil || commitErr != nil {
			return commitErr, err
		}
	}
	if a.o.staged() || a.o.indexed() {
		if err := a.tree.Stage(plans, a.merges, conflicts, a.o.Cached); err != nil {
			if a.o.Cached {
				return nil, err
			}
			return fmt.Errorf("apply: the files are written but not staged: %w", err), nil
		}
		a.report.Status, a.report.Applied, a.report.Staged = StatusOK, true, true
	}
	if len(conflicts) == 0 {
		return nil, nil
	}
	names := make([]string, len(conflicts))
	for i, p := range conflicts {
		names[i] = safetext.Name(p)
	}
	what := "the files hold conflict markers"
	switch {
	case a.o.Cached:
		what = "the index holds the preimage, yours and the patch's version of each; the files are as they were"
	case a.o.indexed():
		what += ", and the index the preimage, yours and the patch's version of each"
	}
	msg := fmt.Sprintf("apply: conflicts in %s: %s; resolve them, then git add and commit; nothing was committed", strings.Join(names, ", "), what)
	a.report.Status, a.report.Error = StatusFailed, msg
	return fmt.Errorf("%s", msg), nil
}

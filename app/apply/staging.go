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
// result, as with git apply --index (which --3way without a commit
// implies, see checkStaging).
func (o Options) indexed() bool { return o.Index && !o.Cached }

// checkStaging refuses the options that do not go together, before
// anything is read, and gives --3way git's meaning: without a commit
// (--no-commit) it implies --index, unless --cached is given.
func checkStaging(o *Options) error {
	if o.ThreeWay && o.NoCommit && !o.Cached {
		o.Index = true
	}
	if err := checkIntentToAdd(o); err != nil {
		return err
	}
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

// placeStaged places the patch, and does what the staging options ask
// before the hunks are counted: --3way takes out the sections that
// create a file the index holds, to merge against an empty preimage (git's
// add/add); --cached places the patch on the index's content; --index
// and --cached check the index as git does; --3way merges the files
// whose hunks did not all place.
func (a *applier) placeStaged(patch *edit.Patch) ([]*edit.FilePlan, error) {
	o := a.o
	for _, x := range []struct {
		on   bool
		flag string
	}{{o.ThreeWay, "--3way"}, {o.Index && !o.Cached, "--index"}, {o.Cached, "--cached"}, {o.IntentToAdd, "--intent-to-add"}} {
		if x.on && !a.tree.Git {
			return nil, fmt.Errorf("%s outside a repository", x.flag)
		}
	}
	var added []*edit.FilePlan
	var addMerges []repo.Merge
	if o.ThreeWay {
		var err error
		if patch, added, addMerges, err = a.tree.AddAdds(patch, o.Access); err != nil {
			return nil, err
		}
	}
	var plans []*edit.FilePlan
	if len(patch.Files) > 0 || len(added) == 0 {
		place := a.tree.PlaceWith
		if o.Cached {
			place = a.tree.PlaceCached // on the index's content
		}
		var err error
		if plans, err = place(patch, o.Access); err != nil {
			return nil, err
		}
	}
	if o.staged() {
		if err := a.tree.CheckIndex(plans, o.Cached); err != nil {
			return nil, err
		}
	}
	if o.indexed() {
		if err := a.tree.KeepIndexModes(plans); err != nil {
			return nil, err
		}
	}
	if !o.ThreeWay {
		return plans, nil
	}
	// A conflict is never committed: the files are then left as git
	// apply --3way leaves them, staged as --index stages them, when the
	// index allows it.
	a.canStage = o.staged() || a.tree.CheckIndex(plans, false) == nil
	merges, err := a.tree.ThreeWay(plans)
	if err != nil {
		return nil, err
	}
	plans, merges = append(plans, added...), append(merges, addMerges...)
	a.merges = merges
	for _, m := range merges {
		a.report.Merged = append(a.report.Merged, Merged{Path: m.Path, Base: m.Base, Missing: m.Missing, Merged: m.Merged, Conflicts: m.Conflicts})
		if o.JSON {
			continue
		}
		name := safetext.Name(m.Path)
		base := "its preimage " + m.Base[:min(7, len(m.Base))]
		if m.Added {
			base = "an empty preimage, as the patch creates it and the index has it"
		}
		switch {
		case m.Missing:
			fmt.Fprintf(o.IO.Err, "pair: apply: %s: --3way: %s\n", name, repo.ErrNoPreimage)
		case m.Conflicts > 0:
			fmt.Fprintf(o.IO.Err, "pair: apply: %s: merged three-way with %s: %d %s with conflict markers, for review\n", name, base, m.Conflicts, output.Plural(m.Conflicts, "conflict"))
		case m.Added:
			fmt.Fprintf(o.IO.Err, "pair: apply: %s: merged three-way with %s: the same content on both sides\n", name, base)
		case m.Merged > 0:
			fmt.Fprintf(o.IO.Err, "pair: apply: %s: merged three-way with %s: %d %s placed cleanly\n", name, base, m.Merged, output.Plural(m.Merged, "hunk"))
		}
	}
	return plans, nil
}

// checkIntentToAdd gives -N (--intent-to-add) git's meaning where it
// has one: the files the patch creates in the working tree alone are
// marked in the index, as git add -N marks them. Where the new files are
// staged (--index, --cached, and --3way with --no-commit, which implies
// --index), it does nothing, as git ignores it there; pair says so. Where
// pair commits (its default, --3way included), the new files are
// committed: -N asks for what the commit would undo, so pair refuses it
// and names --no-commit. Call it once --3way has implied --index.
func checkIntentToAdd(o *Options) error {
	switch {
	case !o.IntentToAdd:
	case o.Index || o.Cached:
		flag := "--index"
		switch {
		case o.Cached:
			flag = "--cached"
		case o.ThreeWay:
			flag = "--3way"
		}
		if !o.JSON && !o.Quiet {
			fmt.Fprintf(o.IO.Err, "pair: apply: -N (--intent-to-add) does nothing with %s, which stages the new files (git ignores it too)\n", flag)
		}
		o.IntentToAdd = false
	case !o.NoCommit && !o.Check:
		return output.Usagef("apply: -N (--intent-to-add) marks the new files in the index when nothing is committed: add --no-commit (pair commits what it applies, new files included, by default)")
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

// resolveHint is what to do with a conflict that pair apply left; pair am
// says it otherwise (see applier.stop).
const resolveHint = "; resolve them, then git add and commit"

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
	if a.o.IntentToAdd && !commit && !a.o.staged() {
		marked, skipped, err := a.tree.IntendToAdd(plans)
		if err != nil {
			return fmt.Errorf("apply: the files are written but not marked intent-to-add: %w", err), nil
		}
		a.report.IntentToAdd = marked
		for _, u := range skipped {
			a.report.NotIntended = append(a.report.NotIntended, UncommittedFile{Path: u.Path, Reason: u.Reason})
		}
	}
	if a.o.staged() || len(conflicts) > 0 && a.canStage {
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
	case a.o.Index || a.canStage:
		what += ", and the index the preimage, yours and the patch's version of each"
	}
	msg := fmt.Sprintf("apply: conflicts in %s: %s%s; nothing was committed", strings.Join(names, ", "), what, resolveHint)
	a.report.Status, a.report.Error = StatusFailed, msg
	return fmt.Errorf("%s", msg), nil
}

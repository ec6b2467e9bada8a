// apply.go: ApplyPlans, placed plans written to the tree and committed with their audit record.

package repo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/audit"
)

// ApplyOptions says how ApplyPlans writes and commits.
type ApplyOptions struct {
	// Commit makes a pair commit of the written files (in a git
	// repository); Record is its message.
	Commit bool
	Record audit.Record
	// NoVerify skips the pre-commit and commit-msg hooks; HookOutput
	// receives their output.
	NoVerify   bool
	HookOutput io.Writer
	// Context stops the commit's hooks and signing when cancelled (nil:
	// never cancelled).
	Context context.Context
	// Author is the commit's author when it is not the person's (nil).
	Author *Author
	// Staged says the caller records the plans in the index (git apply
	// --index, see Stage): a submodule pointer, which the working tree
	// does not hold, may then change without a commit.
	Staged bool
}

// Applied is what ApplyPlans did.
type Applied struct {
	// Replaced lists the files that changed since their hunks were placed
	// and whose hunks were placed again before writing.
	Replaced []string
	// Written is set once the files are written.
	Written bool
	// Commit is the commit made, if any.
	Commit *CommitResult
}

// ErrNotCommitted wraps a commit failure after the files were written:
// they stay written, uncommitted.
var ErrNotCommitted = errors.New("the files are written but not committed")

// ApplyPlans writes fully placed plans (every hunk of each plan is
// written) all together or not at all, and commits them when opts.Commit
// is set. The plans apply one after another, as the patch's sections do
// (see sequence): each is placed again where its file changed since it
// was placed, on disk or because hunks of an earlier section of the file
// were rejected, and what is written is each path's final state. The
// plans are updated in place when they are placed again. A commit failure returns the Applied with Written set
// and an error wrapping ErrNotCommitted.
//
// One pair process at a time writes a tree: ApplyPlans holds the writer
// lock from the re-check of the files to the end of the commit, and waits
// for another process that holds it (see LockWait), or fails with a
// *BusyError.
func (t *Tree) ApplyPlans(plans []*edit.FilePlan, opts ApplyOptions) (*Applied, error) {
	res := &Applied{}
	release, err := t.lockWrites()
	if err != nil {
		return res, err
	}
	defer release()
	// A submodule the plans delete may give its place to a file or a
	// folder (see checkReplaced).
	fds := make([]*edit.FileDiff, 0, len(plans))
	for _, p := range plans {
		if p.Diff != nil {
			fds = append(fds, p.Diff)
		}
	}
	defer t.submodules.leave(t.deletedGitlinks(fds))()
	// Under the lock, the files are what they will be when written. The
	// plans apply one after another (see settle): what is written is the
	// final state of each path.
	changes, commits, replaced, err := t.finalState(plans)
	if err != nil {
		return res, err
	}
	res.Replaced = replaced

	// Before writing: every check that could refuse the write set, or
	// the commit that follows it, belongs here, so that a refusal leaves
	// the tree untouched (all or nothing). Write checks each path
	// (checkWritePath) before it touches anything.
	commit := opts.Commit && t.Git
	if err := checkGitlinkPlans(plans, commit || opts.Staged && t.Git); err != nil {
		return res, err
	}
	if commit {
		if err := t.CheckCommit(); err != nil {
			return res, err
		}
		if err := t.checkFilters(opts.Context, changes); err != nil {
			return res, err
		}
	}
	restore, err := t.clearReplaced(plans)
	if err != nil {
		return res, err
	}
	if err := t.write(changes, commit); err != nil {
		restore()
		return res, err
	}
	res.Written = true
	if !commit {
		if opts.Staged {
			t.disk.gitlinkFolders(plans)
		}
		return res, nil
	}
	t.journal.crash("apply: written")
	// Made or refused, the commit is over: a crash after this no longer
	// leaves files that the next run must report.
	defer t.journal.forgetWritten()
	c, err := t.Commit(commits(), CommitOptions{Record: opts.Record, NoVerify: opts.NoVerify, HookOutput: opts.HookOutput, Context: opts.Context, Author: opts.Author})
	if err != nil {
		return res, fmt.Errorf("%w: %w", ErrNotCommitted, err)
	}
	res.Commit = c
	t.disk.gitlinkFolders(plans)
	return res, nil
}

// finalState is what ApplyPlans writes for plans, and what it commits.
// Files and symbolic links, text and binary, follow the patch's sections
// in order (see settle); the sections of one submodule pointer are taken
// together (see foldGitlinks), checked again on disk (see Refresh): the
// pointer is in the index and the commit only.
func (t *Tree) finalState(plans []*edit.FilePlan) (changes []Change, commits func() []FileCommit, replaced []string, err error) {
	var rest, links []*edit.FilePlan
	var at []int // the index in plans of each of rest
	for i, p := range plans {
		if gitlinkPlan(p) {
			links = append(links, p)
		} else {
			rest, at = append(rest, p), append(at, i)
		}
	}
	if len(links) > 0 {
		if links, err = foldGitlinks(links); err != nil {
			return nil, nil, nil, err
		}
		if replaced, err = t.refresh(links, deletedPaths(rest)); err != nil {
			return nil, nil, nil, err
		}
	}
	final, more, err := t.settle(rest)
	if err != nil {
		return nil, nil, nil, err
	}
	for k, i := range at {
		plans[i] = rest[k] // placed again by settle
	}
	return final.changes(), func() []FileCommit { return append(final.commits(), CommitsOf(links, nil)...) }, append(replaced, more...), nil
}

// foldGitlinks takes the sections of a patch that move one submodule
// pointer one after another (git apply p1 p2) as one, from the first's
// pointer to the last's.
func foldGitlinks(plans []*edit.FilePlan) ([]*edit.FilePlan, error) {
	var out []*edit.FilePlan
	last := map[string]int{} // a path to the index in out of the plan that wrote it
	for _, p := range plans {
		k, ok := last[p.OldPath]
		if !ok || p.OldPath == "" || p.Diff.Renamed || p.Diff.Copied {
			if p.NewPath != "" {
				last[p.NewPath] = len(out)
			}
			out = append(out, p)
			continue
		}
		prev := out[k]
		after, err := p.Result(nil)
		if err != nil {
			return nil, err
		}
		d := *p.Diff
		d.OldPath, d.OldMode, d.OldID, d.New = prev.Diff.OldPath, prev.Diff.OldMode, prev.Diff.OldID, prev.Diff.New
		out[k] = &edit.FilePlan{OldPath: prev.OldPath, NewPath: p.NewPath, Diff: &d, Old: prev.Old, Hunks: edit.Diff(prev.Old, after)}
		delete(last, p.OldPath)
		if p.NewPath != "" {
			last[p.NewPath] = k
		}
	}
	return out, nil
}

// ChangesOf computes the write set of fully placed plans.
func ChangesOf(plans []*edit.FilePlan) ([]Change, error) {
	var out []Change
	for _, p := range withoutGitlinks(plans) {
		content, err := p.Result(nil)
		if err != nil {
			return nil, err
		}
		if p.NewPath != "" && (linkResult(p.Diff) || linkSource(p.Diff)) {
			out = append(out, linkChange(p, content))
			if p.OldPath != "" && p.OldPath != p.NewPath && p.Diff.Renamed {
				out = append(out, Change{Path: p.OldPath, Delete: true, WasLink: linkSource(p.Diff)})
			}
			continue
		}
		mode, err := modeOf(p.Diff)
		if err != nil {
			return nil, err
		}
		switch {
		case p.NewPath == "":
			out = append(out, Change{Path: p.OldPath, Delete: true, WasLink: linkSource(p.Diff)})
		default:
			out = append(out, Change{Path: p.NewPath, Content: []byte(content), Mode: mode})
			if p.OldPath != "" && p.OldPath != p.NewPath && p.Diff.Renamed {
				out = append(out, Change{Path: p.OldPath, Delete: true})
			}
		}
	}
	return out, nil
}

// CommitsOf describes written plans for Commit.
func CommitsOf(plans []*edit.FilePlan, changes []Change) []FileCommit {
	content := map[string]Change{}
	for _, c := range changes {
		content[c.Path] = c
	}
	var out []FileCommit
	for _, p := range plans {
		fc := FileCommit{Path: p.Path(), Before: p.Old, Hunks: p.Hunks, Whole: p.Diff != nil && p.Diff.Binary}
		switch {
		case p.NewPath == "":
			fc.Delete = true
		case p.OldPath == "":
			fc.Create = true
		case p.OldPath != p.NewPath:
			fc.OldPath = p.OldPath
		}
		if c, ok := content[p.NewPath]; ok && !fc.Delete {
			fc.After, fc.Mode, fc.Link = string(c.Content), c.Mode, c.Link
		}
		if gitlinkPlan(p) {
			fc, _ = gitlinkCommit(p, fc) // checked by checkGitlinkPlans
		}
		out = append(out, fc)
	}
	return out
}

// modeOf turns a git mode from the patch into permission bits to set, or
// 0 to keep the file's own mode.
func modeOf(fd *edit.FileDiff) (fs.FileMode, error) {
	if !fd.ModeChange() && !(fd.New && fd.NewMode != "") {
		return 0, nil
	}
	switch fd.NewMode {
	case "100644":
		return 0o644, nil
	case "100755":
		return 0o755, nil
	case linkMode, gitlinkMode: // written as a link, or not at all
		return 0, nil
	}
	if _, err := strconv.ParseUint(fd.NewMode, 8, 32); err != nil {
		return 0, fmt.Errorf("%s: bad file mode %q", fd.Path(), fd.NewMode)
	}
	return 0, errors.New(fd.Path() + ": only regular files (mode 100644 or 100755) can be written, not mode " + fd.NewMode)
}

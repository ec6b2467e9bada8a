package repo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"

	"github.com/pair-cli/pair/edit"
)

// ApplyOptions says how ApplyPlans writes and commits.
type ApplyOptions struct {
	// Commit makes a pair commit of the written files (in a git
	// repository); Record is its message.
	Commit bool
	Record Record
	// NoVerify skips the pre-commit and commit-msg hooks; HookOutput
	// receives their output.
	NoVerify   bool
	HookOutput io.Writer
	// Context stops the commit's hooks and signing when cancelled (nil:
	// never cancelled).
	Context context.Context
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
// written) all together or not at all, after placing them again on any
// file that changed since they were placed (see Refresh), and commits
// them when opts.Commit is set. The plans are updated in place when they
// are placed again. A commit failure returns the Applied with Written set
// and an error wrapping ErrNotCommitted.
func (t *Tree) ApplyPlans(plans []*edit.FilePlan, opts ApplyOptions) (*Applied, error) {
	res := &Applied{}
	replaced, err := t.Refresh(plans)
	if err != nil {
		return res, err
	}
	res.Replaced = replaced
	changes, err := ChangesOf(plans)
	if err != nil {
		return res, err
	}
	if opts.Commit && t.Git {
		if err := t.CheckCommit(); err != nil {
			return res, err
		}
	}
	if err := t.Write(changes); err != nil {
		return res, err
	}
	res.Written = true
	if !opts.Commit || !t.Git {
		return res, nil
	}
	c, err := t.Commit(CommitsOf(plans, changes), CommitOptions{Record: opts.Record, NoVerify: opts.NoVerify, HookOutput: opts.HookOutput, Context: opts.Context})
	if err != nil {
		return res, fmt.Errorf("%w: %w", ErrNotCommitted, err)
	}
	res.Commit = c
	return res, nil
}

// ChangesOf computes the write set of fully placed plans.
func ChangesOf(plans []*edit.FilePlan) ([]Change, error) {
	var out []Change
	for _, p := range plans {
		content, err := p.Result(nil)
		if err != nil {
			return nil, err
		}
		mode, err := modeOf(p.Diff)
		if err != nil {
			return nil, err
		}
		switch {
		case p.NewPath == "":
			out = append(out, Change{Path: p.OldPath, Delete: true})
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
		fc := FileCommit{Path: p.Path(), Before: p.Old, Hunks: p.Hunks}
		switch {
		case p.NewPath == "":
			fc.Delete = true
		case p.OldPath == "":
			fc.Create = true
		case p.OldPath != p.NewPath:
			fc.OldPath = p.OldPath
		}
		if c, ok := content[p.NewPath]; ok && !fc.Delete {
			fc.After, fc.Mode = string(c.Content), c.Mode
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
	}
	if _, err := strconv.ParseUint(fd.NewMode, 8, 32); err != nil {
		return 0, fmt.Errorf("%s: bad file mode %q", fd.Path(), fd.NewMode)
	}
	return 0, errors.New(fd.Path() + ": only regular files (mode 100644 or 100755) can be written, not mode " + fd.NewMode)
}

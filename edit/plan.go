// plan.go: PlanFile and PlanFiles: a file's hunks placed, as a FilePlan.

package edit

import (
	"fmt"
	"slices"
)

// FilePlan is one file of a patch placed against the file's content: the
// hunks that will be written and those that could not be placed.
type FilePlan struct {
	// OldPath is the file the hunks were placed against, "" for a created
	// file; NewPath is where the result goes, "" for a deleted file. They
	// differ for a rename.
	OldPath, NewPath string
	Diff             *FileDiff
	// Old is the content the hunks were placed against.
	Old    string
	Hunks  []Resolved
	Errors []*PlacementError
	// Skipped are the hunks left out because they need not be applied
	// (PlacementError.Skip): reported, but neither written nor refused.
	Skipped []*PlacementError
}

// Path returns the path the plan writes, or deletes.
func (p *FilePlan) Path() string {
	if p.NewPath != "" {
		return p.NewPath
	}
	return p.OldPath
}

// Guard marks every hunk of p as one that only a person who sees it may
// approve (Resolved.Guard), with why, also shown as a note.
func (p *FilePlan) Guard(why string) {
	for i := range p.Hunks {
		p.Hunks[i].Guard = why
		p.Hunks[i].Notes = append(p.Hunks[i].Notes, why)
	}
}

// PlanFile places the hunks of fd against old, the content of oldPath.
func PlanFile(oldPath, newPath, old string, fd *FileDiff) *FilePlan {
	p := &FilePlan{OldPath: oldPath, NewPath: newPath, Diff: fd, Old: old}
	p.Hunks, p.Errors = Place(old, fd)
	for _, e := range p.Errors {
		e.Path = p.Path()
	}
	p.noteNumbered()
	p.splitSkipped()
	nothingToApply([]*FilePlan{p})
	return p
}

// PlanInput is one file of a patch to place: see PlanFile.
type PlanInput struct {
	OldPath, NewPath, Old string
	Diff                  *FileDiff
}

// PlanFiles places the files of one patch together (see PlaceFiles).
func PlanFiles(in []PlanInput) []*FilePlan {
	olds := make([]string, len(in))
	fds := make([]*FileDiff, len(in))
	for i, x := range in {
		olds[i], fds[i] = x.Old, x.Diff
	}
	rs, errs := PlaceFiles(olds, fds)
	plans := make([]*FilePlan, len(in))
	for i, x := range in {
		p := &FilePlan{OldPath: x.OldPath, NewPath: x.NewPath, Diff: x.Diff, Old: x.Old, Hunks: rs[i], Errors: errs[i]}
		for _, e := range p.Errors {
			e.Path = p.Path()
		}
		p.noteNumbered()
		p.splitSkipped()
		plans[i] = p
	}
	nothingToApply(plans)
	return plans
}

// splitSkipped moves the hunks left out (PlacementError.Skip) from
// p.Errors to p.Skipped.
func (p *FilePlan) splitSkipped() {
	var errs []*PlacementError
	for _, e := range p.Errors {
		if e.Skip {
			p.Skipped = append(p.Skipped, e)
		} else {
			errs = append(errs, e)
		}
	}
	p.Errors = errs
}

// noteNumbered gives the placed hunks whose lines lost their line
// numbers (Hunk.Numbered) the note that says so, first.
func (p *FilePlan) noteNumbered() {
	for i, r := range p.Hunks {
		if r.Hunk < len(p.Diff.Hunks) && p.Diff.Hunks[r.Hunk].Numbered && !slices.Contains(r.Notes, NumberedNote) {
			p.Hunks[i].Notes = append([]string{NumberedNote}, r.Notes...)
		}
	}
}

// Result applies the plan's hunks (all of them, or those keep accepts when
// keep is not nil) and returns the new content. A deletion must remove
// every line of the file.
func (p *FilePlan) Result(keep func(Resolved) bool) (string, error) {
	if p.Diff != nil && p.Diff.Binary {
		return p.Diff.ApplyBinary(p.Old)
	}
	hs := p.Hunks
	if keep != nil {
		hs = nil
		for _, h := range p.Hunks {
			if keep(h) {
				hs = append(hs, h)
			}
		}
	}
	out, err := Apply(p.Old, hs)
	if err != nil {
		return "", fmt.Errorf("%s: %w", p.Path(), err)
	}
	if p.NewPath == "" && out != "" {
		return "", fmt.Errorf("%s: the patch deletes the file but leaves %d bytes in it", p.OldPath, len(out))
	}
	return out, nil
}

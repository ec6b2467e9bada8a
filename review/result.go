// result.go: what a review decided: summaries, the audit records and the plans to write.

package review

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/audit"
)

// FileSummary counts the decisions of one file's items, and its hunks
// that could not be placed.
type FileSummary struct {
	Path                                          string
	Approved, Edited, Rejected, Undecided, Failed int
	// Already counts the hunks of Failed whose result the file already
	// holds: they are said as such, not as hunks that could not be placed.
	Already int
	// Changes names what the file's change does besides editing content,
	// as in "deleted" or "mode 100644 → 100755" (see File.Changes).
	Changes string
}

// Text is the summary's line for the file after its name: the counts,
// then what the change does besides editing content, as in
// "1 approved (deleted)". It is "" when there is nothing to count.
func (s FileSummary) Text() string {
	var parts []string
	for _, c := range []struct {
		n    int
		what string
	}{{s.Approved, "approved"}, {s.Edited, "edited"}, {s.Rejected, "rejected"}, {s.Failed - s.Already, "not placed"}, {s.Already, "already in the file"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	text := strings.Join(parts, ", ")
	if s.Changes != "" {
		text += " (" + s.Changes + ")"
	}
	return text
}

// Applies reports whether anything of the file will be written.
func (s FileSummary) Applies() bool { return s.Approved+s.Edited > 0 }

// Summary counts the decisions per file, in the proposal's order.
func (r *Review) Summary() []FileSummary {
	out := make([]FileSummary, len(r.Proposal.Files))
	for i := range r.Proposal.Files {
		out[i].Path = r.Proposal.Files[i].Path()
		out[i].Failed = len(r.Proposal.Files[i].Failed)
		for _, f := range r.Proposal.Files[i].Failed {
			if f.Already {
				out[i].Already++
			}
		}
		out[i].Changes = strings.Join(r.Proposal.Files[i].Changes(), ", ")
	}
	for _, it := range r.Items {
		s := &out[it.File]
		switch it.Decision {
		case audit.Approved:
			s.Approved++
		case audit.Edited:
			s.Edited++
		case audit.Rejected:
			s.Rejected++
		default:
			s.Undecided++
		}
	}
	return out
}

// HunkRecord is what the audit keeps of an item: the path of its file,
// the first line the hunk covers (0 for an item of a whole file, such as
// a pure rename), the hash of its content, and its decision.
func (r *Review) HunkRecord(it *Item) audit.HunkRecord {
	h := audit.HunkRecord{Path: r.FileOf(it).Path(), Start: it.Hunk.Start + 1, Hash: it.Hunk.Hash(), Decision: it.Decision,
		Interpreted: it.Hunk.Pass == edit.PassInterpreted, Uncertain: it.Hunk.Pass == edit.PassUncertain}
	if it.Whole {
		h.Start, h.Hash = 0, r.FileOf(it).changeHash()
		if s := r.FileOf(it).wholeHash(); s != "" {
			h.Hash = s
		}
	}
	return h
}

// changeHash is the hash the audit records for a file change without
// lines (a rename, a copy, a mode change, an empty file made or deleted):
// of what it does, as a hunk's is of its lines, so that two such changes
// differ in the record.
func (f *File) changeHash() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\x00%s\x00%s", f.Action(), f.OldPath, f.NewPath)
	if d := f.Diff; d != nil {
		fmt.Fprintf(&b, "\x00%s\x00%s", d.OldMode, d.NewMode)
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:])[:12]
}

// Totals adds the summary up over the files.
func (r *Review) Totals() FileSummary {
	var t FileSummary
	for _, s := range r.Summary() {
		t.Approved += s.Approved
		t.Edited += s.Edited
		t.Rejected += s.Rejected
		t.Undecided += s.Undecided
		t.Failed += s.Failed
		t.Already += s.Already
	}
	return t
}

// Accepted returns the hunks of file fi that will be written (approved
// and edited ones), in file order.
func (r *Review) Accepted(fi int) []edit.Resolved {
	var out []edit.Resolved
	for _, it := range r.Items {
		if it.File == fi && !it.Whole && it.Decision.Applies() {
			out = append(out, it.Hunk)
		}
	}
	slices.SortStableFunc(out, func(a, b edit.Resolved) int { return a.Start - b.Start })
	return out
}

// fileApplies reports whether any item of file fi is approved. A file's
// mode change, creation or deletion goes with its hunks: it is done when
// at least one of them is approved. A rename with hunks is its own item:
// it is done when that item is approved.
func (r *Review) fileApplies(fi int) bool {
	if r.Proposal.Files[fi].renamedWithLines() {
		for _, it := range r.Items {
			if it.File == fi && it.Whole {
				return it.Decision.Applies()
			}
		}
	}
	for _, it := range r.Items {
		if it.File == fi && it.Decision.Applies() {
			return true
		}
	}
	return false
}

// ErrRenameRejected is the refusal of Plans when a file's rename was
// rejected but some of its hunks approved: the hunks are the renamed
// file's.
var ErrRenameRejected = errors.New("its rename was rejected, but some of its hunks approved; approve the rename, or reject its hunks")

// ErrPartialDeletion is the refusal of Plans when only some hunks of a
// file's deletion were approved: a deletion is written whole or not at
// all.
var ErrPartialDeletion = errors.New("a deletion is all or nothing")

// Plans returns what to write: for each file with an approved item, a
// plan holding exactly its approved and edited hunks, placed against the
// content the proposal was placed against. A plan whose hunks were split
// or edited in review carries a diff rendered from them, so that the file
// can be placed again if it changes before it is written.
func (r *Review) Plans() ([]*edit.FilePlan, error) {
	var out []*edit.FilePlan
	for fi := range r.Proposal.Files {
		if !r.fileApplies(fi) {
			if r.Proposal.Files[fi].renamedWithLines() && len(r.Accepted(fi)) > 0 {
				return nil, fmt.Errorf("%s: %w", r.Proposal.Files[fi].Path(), ErrRenameRejected)
			}
			continue
		}
		f := &r.Proposal.Files[fi]
		hunks := r.Accepted(fi)
		if len(f.Failed) == 0 && (f.whole() || slices.EqualFunc(hunks, f.Hunks, sameHunk)) {
			out = append(out, &edit.FilePlan{OldPath: f.OldPath, NewPath: f.NewPath, Diff: f.Diff, Old: f.Old, Hunks: f.Hunks})
			continue
		}
		if f.NewPath == "" {
			return nil, fmt.Errorf("%s: %w, but only some of its hunks were approved", f.OldPath, ErrPartialDeletion)
		}
		text, err := edit.Render(f.OldPath, f.NewPath, f.Diff.NewMode, f.Old, hunks)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Path(), err)
		}
		p, err := edit.Parse(text)
		if err != nil || len(p.Files) != 1 {
			if err == nil {
				err = fmt.Errorf("%d files", len(p.Files))
			}
			return nil, fmt.Errorf("%s: the reviewed hunks do not render as one file's diff: %v", f.Path(), err)
		}
		fd := p.Files[0]
		fd.OldMode, fd.NewMode = f.Diff.OldMode, f.Diff.NewMode
		fd.Renamed, fd.Copied = f.Diff.Renamed, f.Diff.Copied
		// Placed again on the same content, the rendered diff must give
		// exactly what the reviewed hunks give; it is what gets written,
		// and what is placed again if the file changes before that.
		np := edit.PlanFile(f.OldPath, f.NewPath, f.Old, fd)
		want, err := edit.Apply(f.Old, hunks)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Path(), err)
		}
		if got, err := np.Result(nil); err != nil || len(np.Errors) > 0 || got != want {
			return nil, fmt.Errorf("%s: the reviewed hunks do not place again as reviewed; nothing was written", f.Path())
		}
		out = append(out, np)
	}
	return out, nil
}

func sameHunk(a, b edit.Resolved) bool {
	return a.Start == b.Start && a.FinalNewline == b.FinalNewline && slices.Equal(a.Lines, b.Lines)
}

// listing.go: Mode, where the decisions come from, and PrintPlacements, the placement listing.

package review

import (
	"fmt"
	"io"
	"strings"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/safetext"
)

// Action is what a patch does to a file.
type Action string

// The actions on a file.
const (
	ActionModify Action = "modify"
	ActionCreate Action = "create"
	ActionDelete Action = "delete"
	ActionRename Action = "rename"
	ActionCopy   Action = "copy"
)

// FileReport is a file of a placement or a review, as pair apply --json
// reports it.
type FileReport struct {
	Path    string `json:"path"`
	OldPath string `json:"old_path,omitempty"`
	Action  Action `json:"action"`
	Mode    string `json:"mode,omitempty"`
	// Change describes a change that is not lines of text, decided as
	// one item: a binary file, a symbolic link, a submodule pointer.
	Change string       `json:"change,omitempty"`
	Hunks  []HunkReport `json:"hunks"`
}

// HunkReport is a hunk of a FileReport.
type HunkReport struct {
	Hunk      int      `json:"hunk"` // 1-based, as in the patch
	Part      int      `json:"part,omitempty"`
	Start     int      `json:"start"` // 1-based first old line
	End       int      `json:"end"`
	OldLines  int      `json:"old_lines"`
	NewLines  int      `json:"new_lines"`
	Placement string   `json:"placement"`
	Offset    int      `json:"offset"`
	Notes     []string `json:"notes,omitempty"`
	// Rules is the placement's trace: the ids of the rules that decided
	// it (see edit.Rules).
	Rules []edit.RuleID `json:"rules,omitempty"`
	// ID, Decision and Note are the review's: the item's id ("3", or
	// "3.2" for a piece of a split hunk), approved, edited or rejected.
	ID       string `json:"id,omitempty"`
	Decision string `json:"decision,omitempty"`
	Note     string `json:"note,omitempty"`
}

// HunkFailure is a hunk that could not be placed.
type HunkFailure struct {
	Path    string              `json:"path"`
	Hunk    int                 `json:"hunk"`
	Reason  string              `json:"reason"`
	Detail  string              `json:"detail,omitempty"`
	Nearest []edit.NumberedLine `json:"nearest,omitempty"`
	// Misread is what the hunk got wrong about the file; Interpretable
	// says an interpreted or uncertain reading exists (--interpret accepts
	// it), Reading which ("interpreted" or "uncertain").
	Misread       []edit.Interpretation `json:"misread,omitempty"`
	Interpretable bool                  `json:"interpretable,omitempty"`
	Reading       string                `json:"reading,omitempty"`
	// Rules is the refusal's trace: the ids of the rules that decided
	// it, the refusing rule last (see edit.Rules).
	Rules []edit.RuleID `json:"rules,omitempty"`
}

// Mode is where a review's decisions come from.
type Mode int

const (
	DecideCheck    Mode = iota // --check: nothing is decided
	DecideYes                  // --yes: every hunk approved
	DecideLetters              // --decisions yny
	DecideTerminal             // single keys on the terminal
	DecideLines                // one per line on standard input
)

func (h Mode) String() string {
	switch h {
	case DecideYes:
		return "--yes"
	case DecideLetters:
		return "--decisions"
	case DecideTerminal:
		return "review in the terminal"
	case DecideLines:
		return "decisions on standard input"
	}
	return "--check"
}

// FileReportsOf reports the files' placements, as FileReportOf, with
// each submodule pointer that is half of a typechange described so.
func FileReportsOf(plans []*edit.FilePlan) []FileReport {
	files := make([]File, len(plans))
	for i, p := range plans {
		files[i] = File{OldPath: p.OldPath, NewPath: p.NewPath, Diff: p.Diff}
	}
	markTypechanges(files)
	out := make([]FileReport, len(plans))
	for i, p := range plans {
		out[i] = fileReportOf(p, files[i].Typechange)
	}
	return out
}

// FileReportOf reports a file's placement: its action and its hunks.
func FileReportOf(p *edit.FilePlan) FileReport { return fileReportOf(p, "") }

// fileReportOf is FileReportOf for a file whose Typechange is given.
func fileReportOf(p *edit.FilePlan, typechange string) FileReport {
	fr := FileReport{Path: p.Path(), Hunks: []HunkReport{}}
	switch {
	case p.OldPath == "":
		fr.Action = ActionCreate
	case p.NewPath == "":
		fr.Action = ActionDelete
	case p.OldPath != p.NewPath && p.Diff.Copied:
		fr.Action, fr.OldPath = ActionCopy, p.OldPath
	case p.OldPath != p.NewPath:
		fr.Action, fr.OldPath = ActionRename, p.OldPath
	default:
		fr.Action = ActionModify
	}
	if p.Diff.ModeChange() || (fr.Action == ActionCreate && p.Diff.NewMode != "") {
		fr.Mode = p.Diff.NewMode
	}
	f := File{OldPath: p.OldPath, NewPath: p.NewPath, Diff: p.Diff, Old: p.Old, Hunks: p.Hunks, Typechange: typechange}
	if fr.Change = f.special(); fr.Change != "" {
		return fr // one item, the file change: no hunk to place
	}
	for _, h := range p.Hunks {
		oc := h.OldCount()
		fr.Hunks = append(fr.Hunks, HunkReport{
			Hunk: h.Hunk + 1, Part: h.Part,
			Start: h.Start + 1, End: h.Start + max(oc, 1),
			OldLines: oc, NewLines: h.NewCount(),
			Placement: h.Label(), Offset: h.Offset, Notes: h.Notes, Rules: h.Rules,
		})
	}
	return fr
}

// FileReports reports a finished review: each file with its items as
// decided (pieces of split hunks and edits included).
func FileReports(rev *Review) []FileReport {
	out := make([]FileReport, 0, len(rev.Proposal.Files))
	for fi := range rev.Proposal.Files {
		f := &rev.Proposal.Files[fi]
		fr := FileReportOf(&edit.FilePlan{OldPath: f.OldPath, NewPath: f.NewPath, Diff: f.Diff})
		fr.Change = f.special()
		for _, it := range rev.Items {
			if it.File != fi {
				continue
			}
			h := HunkReport{ID: it.ID, Decision: it.Decision.String(), Note: it.Note}
			if !it.Whole {
				oc := it.Hunk.OldCount()
				h.Hunk, h.Part = it.Hunk.Hunk+1, it.Hunk.Part
				h.Start, h.End = it.Hunk.Start+1, it.Hunk.Start+max(oc, 1)
				h.OldLines, h.NewLines = oc, it.Hunk.NewCount()
				h.Placement, h.Offset, h.Notes, h.Rules = it.Hunk.Label(), it.Hunk.Offset, it.Hunk.Notes, it.Hunk.Rules
			}
			fr.Hunks = append(fr.Hunks, h)
		}
		out = append(out, fr)
	}
	return out
}

// PrintPlacements lists the files and hunks of a placement (form is the
// patch's edit format) and the hunks that could not be placed. Names and lines from
// the patch or the files are shown escaped (see internal/safetext).
func PrintPlacements(w io.Writer, form edit.Form, files []FileReport, failures []HunkFailure) {
	printPlacements(w, form, files, failures, false)
}

// PrintExplained is PrintPlacements with each hunk's trace: the rules
// that placed or refused it, each with its statement (pair apply
// --check --explain).
func PrintExplained(w io.Writer, form edit.Form, files []FileReport, failures []HunkFailure) {
	printPlacements(w, form, files, failures, true)
}

// PrintRules writes the rules of a trace, one a line after prefix, each
// with what it says.
func PrintRules(w io.Writer, prefix string, ids []edit.RuleID) {
	for _, id := range ids {
		if r, ok := edit.RuleByID(id); ok {
			fmt.Fprintf(w, "%srule %s (%s): %s\n", prefix, id, r.Stage, r.Statement)
		} else {
			fmt.Fprintf(w, "%srule %s\n", prefix, id)
		}
	}
}

func printPlacements(w io.Writer, form edit.Form, files []FileReport, failures []HunkFailure, explain bool) {
	if form != "" && form != edit.FormUnified {
		fmt.Fprintf(w, "form %s\n", form)
	}
	for _, f := range files {
		path := safetext.Name(f.Path)
		if f.Change != "" {
			printChange(w, f)
			continue
		}
		lines := 0
		for _, h := range f.Hunks {
			lines += max(h.NewLines, h.OldLines)
		}
		switch f.Action {
		case ActionCreate:
			fmt.Fprintf(w, "create %s (%d %s)\n", path, lines, output.Plural(lines, "line"))
		case ActionDelete:
			fmt.Fprintf(w, "delete %s (%d %s)\n", path, lines, output.Plural(lines, "line"))
		case ActionRename, ActionCopy:
			fmt.Fprintf(w, "%s %s -> %s\n", f.Action, safetext.Name(f.OldPath), path)
		}
		if f.Mode != "" && f.Action != ActionCreate {
			fmt.Fprintf(w, "mode %s %s\n", safetext.Name(f.Mode), path)
		}
		if f.Action == ActionCreate || f.Action == ActionDelete {
			// The whole file is the hunk.
			if len(f.Hunks) == 1 && f.Hunks[0].Decision == "rejected" {
				fmt.Fprintf(w, "%s\trejected\n", path)
			}
			continue
		}
		for _, h := range f.Hunks {
			if h.Placement == "" { // the file change itself (a pure rename)
				if h.Decision != "" {
					fmt.Fprintf(w, "%s\t%s\n", path, h.Decision)
				}
				continue
			}
			label := h.Placement
			if h.Offset != 0 {
				label += fmt.Sprintf(" (%+d %s)", h.Offset, output.Plural(abs(h.Offset), "line"))
			}
			if h.Decision != "" {
				label += "\t" + h.Decision
				if h.Note != "" {
					label += ": " + safetext.Line(h.Note)
				}
			}
			fmt.Fprintf(w, "%s:%d-%d\t%s\n", path, h.Start, h.End, label)
			for _, n := range h.Notes {
				fmt.Fprintf(w, "\t%s\n", safetext.Line(n))
			}
			if explain {
				PrintRules(w, "\t", h.Rules)
			}
		}
	}
	for _, e := range failures {
		path := safetext.Name(e.Path)
		fmt.Fprintf(w, "%s: hunk %d: FAILED: %s", path, e.Hunk, safetext.Text(e.Reason))
		if e.Detail != "" {
			fmt.Fprintf(w, ": %s", safetext.Text(e.Detail))
		}
		fmt.Fprintln(w)
		if explain {
			PrintRules(w, "\t", e.Rules)
		}
		printMisread(w, e)
		if len(e.Nearest) > 0 {
			fmt.Fprintf(w, "\tnearest lines of %s:\n", path)
			prev := 0
			for _, l := range e.Nearest {
				if prev != 0 && l.N != prev+1 {
					fmt.Fprintf(w, "\t%6s |\n", "...")
				}
				fmt.Fprintf(w, "\t%6d | %s\n", l.N, safetext.Line(strings.ReplaceAll(l.Text, "\t", "    ")))
				prev = l.N
			}
		}
	}
}

// PrintSkipped lists the hunks left out because they need not be
// applied, with their rules when explain is set.
func PrintSkipped(w io.Writer, skipped []HunkFailure, explain bool) {
	for _, e := range skipped {
		fmt.Fprintf(w, "%s: hunk %d: skipped: %s", safetext.Name(e.Path), e.Hunk, safetext.Text(e.Reason))
		if e.Detail != "" {
			fmt.Fprintf(w, ": %s", safetext.Text(e.Detail))
		}
		fmt.Fprintln(w)
		if explain {
			PrintRules(w, "\t", e.Rules)
		}
	}
}

// printMisread tells what a refused hunk got wrong about the file, and
// whether --interpret would accept it.
func printMisread(w io.Writer, e HunkFailure) {
	for _, m := range e.Misread {
		fmt.Fprintf(w, "\t%s\n", safetext.Line(m.Describe())) // a person's words: no advice for a model
	}
	switch {
	case e.Reading == "uncertain":
		fmt.Fprintf(w, "\tit has an uncertain reading, placed as described: --interpret accepts it\n")
	case e.Interpretable:
		fmt.Fprintf(w, "\tit has one interpreted reading, which changes the line(s) above: --interpret accepts it\n")
	}
}

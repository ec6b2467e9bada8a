package apply

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/internal/console"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/safetext"
	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/review"
)

type Options struct {
	Patch string // file name, "-" or "" for standard input
	// More are patch files that follow Patch, read as one patch with it:
	// their sections apply after its own, in order, as git apply p1 p2
	// applies them, in one review.
	More  []string
	Dir   string
	Check bool
	Yes   bool
	// Interpret accepts interpreted hunks when deciding ahead; a review
	// in the terminal always offers them.
	Interpret bool
	// Decisions are the answers given ahead, one letter per hunk.
	Decisions string
	JSON      bool
	IO        console.IO

	// OpenTree opens the working tree that holds a directory.
	OpenTree func(dir string) (*repo.Tree, error)

	NoCommit bool   // write but do not commit
	Message  string // commit subject
	NoVerify bool   // skip hooks
	Access   repo.Access
}

// Status is how pair apply ended, in its report.
type Status string

// The statuses of pair apply.
const (
	StatusOK     Status = "ok"
	StatusFailed Status = "failed"
)

type UncommittedFile struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Report is the --json output of pair apply.
type Report struct {
	Status Status `json:"status"`
	// Form is the edit format of the patch: unified, search-replace, v4a
	// or whole-file; Ignored lists its fenced blocks that were not edits.
	Form    edit.Form            `json:"form,omitempty"`
	Ignored []edit.Ignored       `json:"ignored,omitempty"`
	Check   bool                 `json:"check"`
	Applied bool                 `json:"applied"`
	Files   []review.FileReport  `json:"files"`
	Errors  []review.HunkFailure `json:"errors"`
	Error   string               `json:"error,omitempty"`
	Summary map[string]int       `json:"summary"`
	// Commit is the pair commit made, if any; Uncommitted lists files
	// written but left out of it, with why.
	Commit      string            `json:"commit,omitempty"`
	Uncommitted []UncommittedFile `json:"uncommitted,omitempty"`
	// HookChanged lists the committed files the pre-commit hook changed;
	// the commit holds its version.
	HookChanged []string `json:"hook_changed,omitempty"`
	// StagedLost lists committed files whose staged changes could not be
	// kept in the index, with why.
	StagedLost []UncommittedFile `json:"staged_lost,omitempty"`
	// Warnings are what went wrong around a commit that was made.
	Warnings []string `json:"warnings,omitempty"`
}

// howToDecide works out, before anything is read, where the decisions
// will come from, or fails with the flags to use.
func howToDecide(o Options) (review.Mode, *os.File, error) {
	switch {
	case o.Yes && o.Decisions != "":
		return 0, nil, output.Usagef("apply: --yes and --decisions cannot be used together")
	case o.Check:
		return review.DecideCheck, nil, nil
	case o.Yes:
		return review.DecideYes, nil, nil
	case o.Decisions != "":
		return review.DecideLetters, nil, nil
	}
	fromStdin := o.Patch == "" || o.Patch == "-"
	if kb := o.IO.Keyboard; kb != nil && !fromStdin {
		return review.DecideTerminal, kb, nil
	}
	if !fromStdin {
		return review.DecideLines, nil, nil
	}
	return 0, nil, output.Usagef("apply: the patch comes from standard input, so no one can be asked about its hunks: " +
		"give --decisions (one letter per hunk, e.g. yny), --yes to approve every hunk, or the patch as a file to review it in the terminal; --check shows the placements without changing anything")
}

// Run applies the patch of o: it places the hunks, has them decided,
// writes and commits the approved ones, and reports on o.IO.
func Run(ctx context.Context, o Options) error {
	how, kb, err := howToDecide(o)
	if err != nil {
		return err
	}
	var letters []review.Answer
	if how == review.DecideLetters {
		if letters, err = review.ParseLetters(o.Decisions); err != nil {
			return output.Usagef("apply: --decisions: %v", err)
		}
	}
	text, err := readPatch(o)
	if err != nil {
		return err
	}
	tree, err := o.OpenTree(o.Dir)
	if err != nil {
		return fmt.Errorf("apply: %w", err)
	}
	defer tree.Close()

	report := Report{Check: o.Check, Files: []review.FileReport{}, Errors: []review.HunkFailure{}}
	fail := func(err error) error {
		if o.JSON {
			report.Status, report.Error = StatusFailed, err.Error()
			output.WriteJSON(o.IO.Out, report)
			return &output.ExitError{Code: output.Failure, Msg: "apply: " + err.Error()}
		}
		return fmt.Errorf("apply: %w", err)
	}
	edits, err := edit.ParseEdits(text)
	if err != nil {
		return fail(err)
	}
	report.Form = edits.Form
	patch, err := edits.Patch(func(p string) (string, error) {
		return tree.ReadEditTarget(p, o.Access)
	})
	report.Ignored = edits.Ignored
	if err == nil {
		err = patch.CheckHunks()
	}
	if err != nil {
		return fail(err)
	}
	if !o.JSON {
		for _, ig := range edits.Ignored {
			fmt.Fprintf(o.IO.Err, "pair: apply: ignored the block at line %d: %s\n", ig.Line, ig.Reason)
		}
	}
	plans, err := tree.PlaceWith(patch, o.Access)
	if err != nil {
		return fail(err)
	}
	if o.Interpret || how == review.DecideTerminal {
		edit.Interpret(plans)
	}
	// Deleting a file with changes HEAD does not have loses them: shown,
	// and for a person to approve.
	for _, p := range plans {
		if p.NewPath == "" && p.OldPath != "" {
			if why := tree.DeletionLoss(p.OldPath, p.Old); why != "" {
				p.Guard(why)
			}
		}
	}
	placed, failed := 0, 0
	for _, p := range plans {
		report.Files = append(report.Files, review.FileReportOf(p))
		placed += len(p.Hunks)
		for _, e := range p.Errors {
			failed++
			report.Errors = append(report.Errors, review.HunkFailure{
				Path: e.Path, Hunk: e.Hunk + 1, Reason: e.Err.Error(), Detail: e.Detail, Nearest: e.Nearest,
				Misread: e.Misread, Interpretable: e.Interpreted != nil,
			})
			if e.Interpreted != nil {
				report.Errors[len(report.Errors)-1].Reading = e.Interpreted.Label()
			}
		}
	}
	report.Summary = map[string]int{"files": len(plans), "placed": placed, "failed": failed}

	// Unplaceable hunks stop everything, except in a review in the
	// terminal, where the person sees them and may still apply the others.
	// Decisions given ahead were meant for the patch's hunks in order: with
	// one missing they would fall on the wrong hunks.
	if failed > 0 && (how != review.DecideTerminal || placed == 0) || o.Check {
		report.Status = StatusOK
		if failed > 0 {
			report.Status = StatusFailed
		}
		if o.JSON {
			output.WriteJSON(o.IO.Out, report)
		} else {
			// One write, not one per line: a large patch has thousands.
			out := bufio.NewWriter(o.IO.Out)
			printReport(out, report)
			out.Flush()
		}
		if failed > 0 {
			what := "nothing was written"
			if o.Check {
				what = "nothing would be written"
			}
			return &output.ExitError{Code: output.Failure, Msg: fmt.Sprintf("apply: %d of %d %s could not be placed; %s", failed, failed+placed, output.Plural(failed+placed, "hunk"), what)}
		}
		return nil
	}

	commit := tree.Git && !o.NoCommit
	if commit {
		// Know who commits, and that nothing stops the commit, before
		// anyone reviews or anything is written.
		if err := tree.CheckCommitSettings(); err != nil {
			return fail(fmt.Errorf("%w (or use --no-commit)", err))
		}
		var written []string
		for _, p := range plans {
			if p.NewPath != "" {
				written = append(written, p.NewPath)
			}
		}
		if err := tree.CheckFilters(written); err != nil {
			return fail(fmt.Errorf("%w (or use --no-commit)", err))
		}
	}

	rev := review.New(review.FromPlans(plans), nil)
	abandoned := false // no at the summary
	switch how {
	case review.DecideYes:
		for i := range rev.Items {
			if g := rev.Items[i].Hunk.Guard; g != "" {
				return fail(fmt.Errorf("%s: %s; --yes does not approve it: review it on a terminal, without --yes", safetext.Name(rev.FileOf(&rev.Items[i]).Path()), g))
			}
		}
		if left := rev.ApproveAhead(); len(left) > 0 {
			fmt.Fprintln(o.IO.Err, review.NotAhead(left, "--yes"))
		}
	case review.DecideLetters:
		if err := rev.Play(review.Letters(letters)); err != nil {
			return answersError(err, "--decisions", len(rev.Items))
		}
	case review.DecideLines:
		if err := rev.Play(review.LineAnswers(o.IO.In)); err != nil {
			return answersError(err, "standard input", len(rev.Items))
		}
	case review.DecideTerminal:
		screen := o.IO
		if o.JSON {
			screen = o.IO.OutToErr() // standard output stays one JSON object
		}
		if failed > 0 {
			review.PrintPlacements(screen.Out, "", nil, report.Errors)
			fmt.Fprintf(screen.Out, "%d of %d %s could not be placed and will not be offered.\n", failed, failed+placed, output.Plural(failed+placed, "hunk"))
		}
		verb := "write"
		if commit {
			verb = "write and commit"
		}
		switch err := review.InTerminal(ctx, kb, &review.Terminal{Out: screen.Out, Color: screen.Color, Verb: verb, Editor: console.Editor(kb, screen)}, rev); {
		case errors.Is(err, review.ErrInterrupted):
			return &output.ExitError{Code: output.Interrupted, Msg: "apply: review interrupted; nothing was written"}
		case errors.Is(err, review.ErrAbandoned):
			abandoned = true
			for i := range rev.Items {
				rev.Items[i].Decision = audit.Rejected
			}
		case err != nil:
			return fail(err)
		}
	}
	report.Files = review.FileReports(rev)
	totals := rev.Totals()
	report.Summary["approved"], report.Summary["edited"], report.Summary["rejected"] = totals.Approved, totals.Edited, totals.Rejected

	plans, err = rev.Plans()
	if err != nil {
		return fail(err)
	}
	if len(plans) == 0 {
		report.Status = StatusOK
		if o.JSON {
			output.WriteJSON(o.IO.Out, report)
		} else {
			if how != review.DecideTerminal {
				printReport(o.IO.Out, report)
			}
			if abandoned {
				fmt.Fprintln(o.IO.Out, "review abandoned at the summary; nothing was written")
			} else {
				fmt.Fprintln(o.IO.Out, "no hunk approved; nothing was written")
			}
		}
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	// The files may have changed while the hunks were placed or reviewed:
	// ApplyPlans places them again, or refuses.
	res, err := tree.ApplyPlans(plans, repo.ApplyOptions{
		Commit:     commit,
		Record:     recordOf(rev, o, how),
		NoVerify:   o.NoVerify,
		HookOutput: o.IO.Err,
		Context:    ctx,
	})
	for _, p := range res.Replaced {
		fmt.Fprintf(o.IO.Err, "pair: %s changed since the patch was placed; its hunks were placed again\n", safetext.Name(p))
	}
	if len(res.Replaced) > 0 { // report where the hunks go now
		byPath := map[string]*edit.FilePlan{}
		for _, p := range plans {
			byPath[p.Path()] = p
		}
		for i, f := range report.Files {
			if p := byPath[f.Path]; p != nil && slices.Contains(res.Replaced, f.Path) {
				report.Files[i] = review.FileReportOf(p)
			}
		}
	}
	var commitErr error
	switch {
	case errors.Is(err, repo.ErrNotCommitted):
		report.Status, report.Applied = StatusFailed, true
		report.Error = err.Error()
		commitErr = fmt.Errorf("apply: %w", err)
	case err != nil:
		return fail(err)
	default:
		report.Status, report.Applied = StatusOK, true
		if res.Commit != nil {
			report.Commit = res.Commit.Hash
			report.HookChanged = res.Commit.HookChanged
			for _, u := range res.Commit.StagedLost {
				report.StagedLost = append(report.StagedLost, UncommittedFile{Path: u.Path, Reason: u.Reason})
			}
			report.Warnings = res.Commit.Warnings
			for _, u := range res.Commit.Uncommitted {
				report.Uncommitted = append(report.Uncommitted, UncommittedFile{Path: u.Path, Reason: u.Reason})
			}
		}
	}
	if o.JSON {
		output.WriteJSON(o.IO.Out, report)
	} else {
		switch how {
		case review.DecideYes: // every hunk approved: no need to say so on each
			printReport(o.IO.Out, withoutDecisions(report))
		case review.DecideLetters, review.DecideLines:
			printReport(o.IO.Out, report)
		}
		n := 0 // hunks, not file changes without lines
		for _, it := range rev.Items {
			if !it.Whole && it.Decision.Applies() {
				n++
			}
		}
		fmt.Fprintf(o.IO.Out, "applied %d %s to %d %s", n, output.Plural(n, "hunk"), len(plans), output.Plural(len(plans), "file"))
		if totals.Rejected > 0 {
			fmt.Fprintf(o.IO.Out, " (%d rejected)", totals.Rejected)
		}
		fmt.Fprintln(o.IO.Out)
		if report.Commit != "" {
			fmt.Fprintf(o.IO.Out, "committed %s\n", report.Commit[:12])
		}
		for _, p := range report.HookChanged {
			fmt.Fprintf(o.IO.Out, "pre-commit hook changed %s; committed its version\n", safetext.Name(p))
		}
		for _, u := range report.StagedLost {
			fmt.Fprintf(o.IO.Out, "staging not kept: %s: %s\n", safetext.Name(u.Path), safetext.Text(u.Reason))
		}
		for _, u := range report.Uncommitted {
			fmt.Fprintf(o.IO.Out, "not committed: %s: %s\n", safetext.Name(u.Path), safetext.Text(u.Reason))
		}
	}
	for _, w := range report.Warnings {
		fmt.Fprintf(o.IO.Err, "pair: warning: %s\n", safetext.Text(w))
	}
	if commitErr != nil {
		code := output.Failure
		if errors.Is(commitErr, context.Canceled) {
			code = output.Interrupted
		}
		return &output.ExitError{Code: code, Msg: commitErr.Error()}
	}
	return nil
}

// answersError explains decisions given ahead that do not fit the hunks.
func answersError(err error, from string, items int) error {
	if errors.Is(err, review.ErrNoAnswers) {
		var ae *review.AnswersError
		if errors.As(err, &ae) && ae.Used == 0 && from == "standard input" {
			return output.Usagef("apply: standard input is not a terminal and gave no decisions: give --decisions (one letter per hunk, e.g. %s), one decision per line on standard input, or --yes to approve every hunk; nothing was written",
				strings.Repeat("y", min(items, 3)))
		}
		return output.Usagef("apply: %s: %v; the patch has %d %s to decide: give one decision per hunk with --decisions (e.g. %s), one per line on standard input, or --yes to approve every hunk; nothing was written",
			from, err, items, output.Plural(items, "hunk"), strings.Repeat("y", min(items, 3)))
	}
	return output.Usagef("apply: %s: %v; nothing was written", from, err)
}

// recordOf writes the commit record of a review: every item of the
// proposal with its decision, and the notes that went with rejections.
func recordOf(rev *review.Review, o Options, how review.Mode) audit.Record {
	var hunks []audit.HunkRecord
	var paths []string
	var notes []audit.Note
	for _, s := range rev.Summary() {
		if s.Applies() {
			paths = append(paths, s.Path)
		}
	}
	for i := range rev.Items {
		h := rev.HunkRecord(&rev.Items[i])
		hunks = append(hunks, h)
		notes = append(notes, audit.Note{Path: h.Path, Start: h.Start, Text: rev.Items[i].Note})
	}
	r := audit.Reviewed(audit.NewSessionID("apply"), "none", hunks)
	r.Subject = o.Message
	if r.Subject == "" {
		r.Subject = "pair apply: " + summarizePaths(paths)
	}
	src := o.Patch
	if src == "" || src == "-" {
		src = "standard input"
	}
	t := rev.Totals()
	var b strings.Builder
	fmt.Fprintf(&b, "Applied with pair apply from %s (%s): %d of %d %s",
		src, how, t.Approved+t.Edited, len(rev.Items), output.Plural(len(rev.Items), "hunk"))
	var parts []string
	if t.Approved > 0 {
		parts = append(parts, fmt.Sprintf("%d approved", t.Approved))
	}
	if t.Edited > 0 {
		parts = append(parts, fmt.Sprintf("%d edited", t.Edited))
	}
	if t.Rejected > 0 {
		parts = append(parts, fmt.Sprintf("%d rejected", t.Rejected))
	}
	fmt.Fprintf(&b, " (%s)", strings.Join(parts, ", "))
	fmt.Fprintf(&b, " in %d %s.", len(paths), output.Plural(len(paths), "file"))
	if t.Failed > 0 {
		fmt.Fprintf(&b, " %d %s could not be placed and %s not offered.", t.Failed, output.Plural(t.Failed, "hunk"), map[bool]string{true: "was", false: "were"}[t.Failed == 1])
	}
	if n := audit.NotesText(notes); n != "" {
		b.WriteString("\n\n" + n)
	}
	r.Body = b.String()
	return r
}

// summarizePaths names up to three paths and counts the rest.
func summarizePaths(paths []string) string {
	if len(paths) <= 3 {
		return strings.Join(paths, ", ")
	}
	return fmt.Sprintf("%s and %d more files", strings.Join(paths[:2], ", "), len(paths)-2)
}

func readPatch(o Options) (string, error) {
	if o.Patch != "" && o.Patch != "-" {
		var b strings.Builder
		for _, name := range append([]string{o.Patch}, o.More...) {
			s, err := readString(name)
			if err != nil {
				return "", fmt.Errorf("apply: read patch: %w", err)
			}
			b.WriteString(s)
			if s != "" && !strings.HasSuffix(s, "\n") {
				b.WriteByte('\n')
			}
		}
		return b.String(), nil
	}
	// A terminal is not a patch; /dev/null (a character device too) is
	// an empty one.
	if o.IO.Keyboard != nil {
		return "", output.Usagef("apply: give a patch file, or pipe the patch to standard input")
	}
	b, err := io.ReadAll(o.IO.In)
	if err != nil {
		return "", fmt.Errorf("apply: read standard input: %w", err)
	}
	if strings.TrimSpace(string(b)) == "" {
		return "", errors.New("apply: standard input is empty: no patch to apply")
	}
	return string(b), nil
}

// readString is os.ReadFile for a string: the file is copied once, into
// the string, where converting os.ReadFile's slice would copy it twice (a
// large patch is megabytes).
func readString(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var b strings.Builder
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() < 1<<30 {
		b.Grow(int(fi.Size()))
	}
	if _, err := io.Copy(&b, f); err != nil {
		return "", err
	}
	return b.String(), nil
}

// printReport lists the placements of r.
func printReport(w io.Writer, r Report) { review.PrintPlacements(w, r.Form, r.Files, r.Errors) }

// withoutDecisions copies a report without the review's decisions.
func withoutDecisions(r Report) Report {
	files := make([]review.FileReport, len(r.Files))
	for i, f := range r.Files {
		f.Hunks = slices.Clone(f.Hunks)
		for j := range f.Hunks {
			f.Hunks[j].Decision, f.Hunks[j].Note = "", ""
		}
		files[i] = f
	}
	r.Files = files
	return r
}

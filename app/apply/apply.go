package apply

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/edit/mail"
	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/internal/config"
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
	More []string
	// Dir is the directory pair runs in, "" for the current one: the
	// tree is the one that holds it, and a traditional diff's names are
	// relative to it.
	Dir   string
	Check bool
	Yes   bool
	// Interpret accepts interpreted hunks when deciding ahead; a review
	// in the terminal always offers them.
	Interpret bool
	// Decisions are the answers given ahead, one letter per hunk.
	Decisions string
	JSON      bool
	// Explain lists with each hunk the rules that placed or refused it.
	Explain bool
	IO      console.IO

	// OpenTree opens the working tree that holds a directory.
	OpenTree func(dir string) (*repo.Tree, error)

	// Paths say how the patch's paths are read: -p, --directory,
	// --include, --exclude and -R, as git apply reads them.
	Paths Paths
	// Placing is git apply's -C<n> and --ignore-whitespace, given to
	// every file of the patch.
	Placing edit.PlaceOptions

	NoCommit bool   // write but do not commit
	Message  string // commit subject
	NoVerify bool   // skip hooks
	Access   repo.Access
	// ThreeWay, Index and Cached are git apply's --3way, --index and
	// --cached (see staging.go). For mail, ThreeWay is git am's --3way,
	// and NoThreeWay its --no-3way: without either, the repository's
	// am.threeWay decides, as for git am.
	ThreeWay, Index, Cached bool
	NoThreeWay              bool

	// Reports are git apply's --stat, --numstat, --summary and --apply:
	// without Apply (or Check) they are printed instead of applying.
	Reports Reports
	// Reject is --reject: the hunks that place are applied, the others
	// written to <file>.rej as git writes them, and pair apply fails.
	Reject bool
	// Whitespace is --whitespace: nowarn, warn, fix (or strip), error or
	// error-all; "" takes apply.whitespace from git's configuration (see
	// whitespace.go).
	Whitespace string
	// AllowEmpty is --allow-empty: a patch with no change in it succeeds
	// doing nothing.
	AllowEmpty bool
	// Recount is --recount: the hunks' line counts are taken from their
	// lines, not from their headers.
	Recount bool
	// Quiet is --quiet: nothing printed on success but warnings;
	// Verbose is --verbose: each file is named on standard error as it
	// is checked, as git apply -v names it.
	Quiet, Verbose bool

	// Verify runs the test command on the approved hunks before writing
	// (--verify; verify: true in .pair.yml does too). LoadConfig loads
	// the tree's configuration, for the test command (nil: none).
	Verify     bool
	LoadConfig func(dir, stateDir string) (config.Config, error)

	// Mail reads the patch as mail, one commit per message, as git am
	// does (pair am); a patch that is a mailbox is read so anyway.
	Mail bool
	// Continue, Skip and Abort go on with a series of mails that
	// stopped: the stopped mail again, the mail after it, or none, the
	// series' commits taken back.
	Continue, Skip, Abort bool
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
	Form    edit.Form      `json:"form,omitempty"`
	Ignored []edit.Ignored `json:"ignored,omitempty"`
	// LeftOut lists the files --include and --exclude left out.
	LeftOut []string             `json:"left_out,omitempty"`
	Check   bool                 `json:"check"`
	Applied bool                 `json:"applied"`
	Files   []review.FileReport  `json:"files"`
	Errors  []review.HunkFailure `json:"errors"`
	// Skipped are the hunks left out because they need not be applied:
	// they change nothing, are applied already, or repeat another.
	Skipped []review.HunkFailure `json:"skipped,omitempty"`
	Error   string               `json:"error,omitempty"`
	// NotAhead are the files --yes left unwritten because pair or git
	// reads them as configuration (see audit.ConfigFile): pair apply
	// then exits 1, as the patch was not applied whole.
	NotAhead []string       `json:"not_approved_ahead,omitempty"`
	Summary  map[string]int `json:"summary"`
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
	// Verify is the outcome of --verify.
	Verify *review.VerifyResult `json:"verify,omitempty"`
	// Merged are the files --3way merged; Conflicted those written with
	// conflict markers; Staged says the result went to the index.
	Merged     []Merged `json:"merged,omitempty"`
	Conflicted []string `json:"conflicted,omitempty"`
	Staged     bool     `json:"staged,omitempty"`
}

// errNoPatch is a bare pair apply on a terminal: no patch file, and
// standard input is the keyboard.
var errNoPatch = output.Usagef("apply: no patch given: give the patch as a file, or pipe it to standard input\nusage: pair apply [options] [PATCH|-] (see 'pair apply --help')")

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
	fromStdin := (o.Patch == "" || o.Patch == "-") && !o.Continue && !o.Skip && !o.Abort // a stopped series is in the git directory
	if kb := o.IO.Keyboard; kb != nil && !fromStdin {
		return review.DecideTerminal, kb, nil
	}
	if !fromStdin {
		return review.DecideLines, nil, nil
	}
	if o.IO.Keyboard != nil {
		// Standard input is the terminal: no patch comes from it.
		return 0, nil, errNoPatch
	}
	// The patch takes standard input: the keys come from the terminal,
	// when there is one.
	if o.IO.OpenTerminal != nil {
		if tty, err := o.IO.OpenTerminal(); err == nil {
			return review.DecideTerminal, tty, nil
		}
	}
	return 0, nil, output.Usagef("apply: the patch comes from standard input and there is no terminal to ask about its hunks: " +
		"give --decisions (one letter per hunk, e.g. yny), --yes to approve every hunk, or the patch as a file to review it in the terminal; --check shows the placements without changing anything")
}

// Run applies the patch of o: it places the hunks, has them decided,
// writes and commits the approved ones, and reports on o.IO.
func Run(ctx context.Context, o Options) error {
	if o.Continue || o.Skip || o.Abort {
		return resume(ctx, o)
	}
	if o.Reports.Apply {
		o.Check = false // --apply applies, whatever --check says
	}
	if o.Reject && o.ThreeWay {
		return output.Usagef("apply: --reject and --3way cannot be used together")
	}
	if err := checkStaging(&o); err != nil {
		return err
	}
	a, err := newApplier(o)
	if err != nil {
		return err
	}
	if a.kb != nil && a.kb != o.IO.Keyboard {
		defer a.kb.Close() // the terminal opened for the keys
	}
	text, err := readPatch(o)
	if o.AllowEmpty && errors.Is(err, ErrEmptyInput) {
		return nil
	}
	if err != nil {
		return err
	}
	if a.tree, err = a.openTree(); err != nil {
		return fmt.Errorf("apply: %w", err)
	}
	defer a.tree.Close()
	if o.AllowEmpty {
		if _, err := edit.ParseEdits(text); errors.Is(err, edit.ErrNoEdits) {
			return nil // the mail of an empty commit, or no patch at all
		}
	}
	if o.Mail || mail.IsMailbox(text) {
		return a.mailbox(ctx, text)
	}
	return a.apply(ctx, text)
}

// applier is one run of pair apply: its options, where its decisions
// come from, the tree, and the report it builds.
type applier struct {
	o       Options
	how     review.Mode
	kb      *os.File        // the keyboard, for a review in the terminal
	letters []review.Answer // the decisions given ahead
	tree    *repo.Tree
	report  Report
	// mail is the mail being applied, whose author, subject and message
	// the commit takes; nil for a plain patch.
	mail *mail.Mail
	// verifier tests the candidate (see verify.go); verifyFirst says
	// to, before writing.
	verifier    review.CommandVerifier
	verifyFirst bool
	// merges are the files --3way merged; canStage says that a conflict
	// may be left in the index, which matches the files.
	merges   []repo.Merge
	canStage bool
	// statOut is where --stat, --numstat and --summary go: standard
	// output; reported says they were printed instead of applying.
	statOut  io.Writer
	reported bool
	// rejects are the hunks --reject writes to .rej files, of the
	// files rejectPlans.
	// wsFixed are the whitespace rules of each file --whitespace=fix
	// fixed, for fixContext.
	wsFixed     map[*edit.FileDiff]wsRules
	rejects     []*edit.PlacementError
	rejectPlans []*edit.FilePlan
}

// newApplier works out where the decisions come from, before anything is
// read.
func newApplier(o Options) (*applier, error) {
	how, kb, err := howToDecide(o)
	if err != nil {
		return nil, err
	}
	a := &applier{o: o, how: how, kb: kb, statOut: o.IO.Out}
	if o.Reports.any() && !o.JSON {
		// Standard output holds the reports, as git prints them, for
		// scripts; what pair says of the patch goes to standard error.
		a.o.IO = o.IO.OutToErr()
	}
	if o.Quiet && !o.JSON {
		a.o.IO.Out = io.Discard
	}
	if how == review.DecideLetters {
		if a.letters, err = review.ParseLetters(o.Decisions); err != nil {
			return nil, output.Usagef("apply: --decisions: %v", err)
		}
	}
	return a, nil
}

// openTree opens the tree of the directory pair runs in. With --cached,
// which writes the index alone, a directory inside the git directory
// stands for the top of the working tree, as git apply --cached reads the
// patch's names there; anything else refuses to run there.
func (a *applier) openTree() (*repo.Tree, error) {
	t, err := a.o.OpenTree(a.o.Dir)
	var in *repo.GitDirError
	if err == nil || !a.o.Cached || !errors.As(err, &in) {
		return t, err
	}
	a.o.Dir = in.Top()
	return a.o.OpenTree(a.o.Dir)
}

// apply places, decides, writes and commits the patch text, and reports.
func (a *applier) apply(ctx context.Context, text string) error {
	a.report = Report{Check: a.o.Check, Files: []review.FileReport{}, Errors: []review.HunkFailure{}}
	patch, err := a.read(text)
	if err != nil {
		if a.o.AllowEmpty && errors.Is(err, edit.ErrNoEdits) {
			return nil
		}
		return a.fail(err)
	}
	if a.reported {
		return nil
	}
	if patch == nil {
		// Nothing left to apply, which git apply takes as done.
		a.report.Status, a.report.Summary = StatusOK, map[string]int{"files": 0, "placed": 0, "failed": 0}
		if a.o.JSON {
			output.WriteJSON(a.o.IO.Out, a.report)
		}
		return nil
	}
	if a.o.Reports.only(a.o.Check) {
		// Whole files, diffed against the files: reported, not applied.
		a.o.Reports.write(a.statOut, patch.Files, a.o.Paths.Reverse)
		return nil
	}
	if a.o.Recount {
		recount(patch)
	}
	if err := a.whitespace(patch); err != nil {
		return a.fail(err)
	}
	placing := a.o.Placing
	if !placing.IgnoreWhitespace && a.tree.Git {
		// git's apply.ignoreWhitespace, when the option is not given.
		if placing.IgnoreWhitespace, err = a.tree.ApplyIgnoresWhitespace(); err != nil {
			return a.fail(err)
		}
	}
	patch.SetPlacing(placing)
	plans, err := a.placeStaged(patch)
	if err != nil {
		return a.fail(err)
	}
	a.fixContext(plans)
	a.verbose(plans)
	placed, failed := a.place(plans)
	if a.o.Reject && failed > 0 && !a.o.Check {
		// --reject: the hunks that place go on; the others go to .rej
		// files when the rest is written.
		a.rejectLater(plans)
		if placed == 0 {
			printReport(a.o.IO.Out, a.report, a.o.Explain)
			return a.writeRejects()
		}
	} else if failed > 0 && (a.how != review.DecideTerminal || placed == 0) || a.o.Check {
		// Unplaceable hunks stop everything, except in a review in the
		// terminal, where the person sees them and may still apply the
		// others. Decisions given ahead were meant for the patch's hunks
		// in order: with one missing they would fall on the wrong hunks.
		err := a.placedOnly(placed, failed)
		if err == nil && a.o.Check {
			a.o.Reports.write(a.statOut, patch.Files, a.o.Paths.Reverse)
		}
		return err
	}
	commit := a.tree.Git && !a.o.NoCommit && !a.o.staged()
	if commit {
		if err := a.checkCommit(plans); err != nil {
			return a.fail(fmt.Errorf("%w (or use --no-commit)", err))
		}
	}
	if err := a.setUpVerify(); err != nil {
		return a.fail(err)
	}
	rev, abandoned, err := a.decide(ctx, plans, placed, failed, commit)
	if err != nil {
		return err
	}
	a.report.Files = review.FileReports(rev)
	totals := rev.Totals()
	a.report.Summary["approved"], a.report.Summary["edited"], a.report.Summary["rejected"] = totals.Approved, totals.Edited, totals.Rejected

	if plans, err = rev.Plans(); err != nil {
		return a.fail(err)
	}
	if len(plans) == 0 {
		a.nothingApproved(abandoned)
		if err := a.writeRejects(); err != nil {
			return err
		}
		return a.notAhead()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := a.verifyBeforeWrite(ctx, rev); err != nil {
		return err
	}
	commitErr, err := a.writeStaged(ctx, rev, plans, commit)
	if err != nil {
		return a.fail(err)
	}
	a.printOutcome(rev, plans)
	a.o.Reports.write(a.statOut, patch.Files, a.o.Paths.Reverse)
	if err := a.writeRejects(); err != nil {
		return err
	}
	if commitErr != nil {
		code := output.Failure
		if errors.Is(commitErr, context.Canceled) {
			code = output.Interrupted
		}
		return &output.ExitError{Code: code, Msg: commitErr.Error()}
	}
	return a.notAhead()
}

// ErrNotAhead is returned when --yes left a file unwritten that pair or
// git reads as configuration, which only a person approves: the rest of
// the patch was applied, not all of it.
var ErrNotAhead = errors.New("--yes never approves an edit to a file that pair or git reads as configuration")

// notAhead fails pair apply --yes when it left configuration files
// unwritten, after writing the rest: the patch was not applied whole.
func (a *applier) notAhead() error {
	if len(a.report.NotAhead) == 0 {
		return nil
	}
	return &output.ExitError{Code: output.Failure, Err: ErrNotAhead,
		Msg: strings.TrimPrefix(review.NotAhead(a.report.NotAhead, "--yes"), "pair: ") + " (review without --yes, or answer with --decisions)"}
}

// fail reports err: in the JSON report with --json, else as the error.
func (a *applier) fail(err error) error {
	if a.o.JSON {
		a.report.Status, a.report.Error = StatusFailed, err.Error()
		output.WriteJSON(a.o.IO.Out, a.report)
		return &output.ExitError{Code: output.Failure, Err: fmt.Errorf("apply: %w", err)}
	}
	return fmt.Errorf("apply: %w", err)
}

// read parses the patch text in any edit form, names its files as git
// apply would (see Paths), reads them from the tree, and says which
// blocks it ignored. A nil patch without error means --include and
// --exclude left nothing to apply.
func (a *applier) read(text string) (*edit.Patch, error) {
	edits, err := edit.ParseEdits(text)
	if err != nil {
		return nil, err
	}
	a.report.Form = edits.Form
	prefix, err := cwdPrefix(a.tree.Dir, a.o.Dir)
	if err != nil {
		return nil, err
	}
	a.report.LeftOut, err = a.o.Paths.name(edits, prefix, func(p string) bool {
		c, err := a.tree.Clean(p)
		if err != nil {
			return false
		}
		fi, err := a.tree.Stat(c)
		return err == nil && fi.Mode().IsRegular()
	})
	if err != nil {
		return nil, err
	}
	if len(a.report.LeftOut) > 0 && !a.o.JSON {
		fmt.Fprintf(a.o.IO.Err, "pair: apply: left out by --include/--exclude: %s\n", safetext.Text(strings.Join(a.report.LeftOut, ", ")))
	}
	if len(edits.Files)+len(edits.Whole) == 0 && len(a.report.LeftOut) > 0 {
		return nil, nil
	}
	if a.o.Reports.only(a.o.Check) && len(edits.Whole) == 0 && len(edits.Files) > 0 {
		// git apply --stat reads the patch only, not the files.
		a.o.Reports.write(a.statOut, edits.Files, a.o.Paths.Reverse)
		a.reported = true
		return nil, nil
	}
	patch, err := edits.Patch(func(p string) (string, error) {
		return a.tree.ReadEditTarget(p, a.o.Access)
	})
	a.report.Ignored = edits.Ignored
	if err == nil {
		err = patch.CheckHunks()
	}
	if err != nil {
		return nil, err
	}
	if !a.o.JSON {
		for _, ig := range edits.Ignored {
			fmt.Fprintf(a.o.IO.Err, "pair: apply: ignored the block at line %d: %s\n", ig.Line, ig.Reason)
		}
	}
	return patch, nil
}

// place readies the placed plans for review and lists them in the
// report: placed and failed count the hunks.
func (a *applier) place(plans []*edit.FilePlan) (placed, failed int) {
	if a.o.Interpret || a.how == review.DecideTerminal {
		edit.Interpret(plans)
	}
	// Deleting a file with changes HEAD does not have loses them: shown,
	// and for a person to approve.
	for _, p := range plans {
		if p.NewPath == "" && p.OldPath != "" {
			if why := a.tree.DeletionLoss(p.OldPath, p.Old); why != "" {
				p.Guard(why)
			}
		}
	}
	for _, p := range plans {
		a.report.Files = append(a.report.Files, review.FileReportOf(p))
		placed += len(p.Hunks)
		for _, e := range p.Errors {
			failed++
			a.report.Errors = append(a.report.Errors, review.HunkFailure{
				Path: e.Path, Hunk: e.Hunk + 1, Reason: e.Err.Error(), Detail: e.Detail, Nearest: e.Nearest,
				Misread: e.Misread, Interpretable: e.Interpreted != nil, Rules: e.Rules,
			})
			if e.Interpreted != nil {
				a.report.Errors[len(a.report.Errors)-1].Reading = e.Interpreted.Label()
			}
		}
		for _, e := range p.Skipped {
			a.report.Skipped = append(a.report.Skipped, review.HunkFailure{
				Path: e.Path, Hunk: e.Hunk + 1, Reason: e.Err.Error(), Detail: e.Detail, Rules: e.Rules,
			})
		}
	}
	a.report.Summary = map[string]int{"files": len(plans), "placed": placed, "failed": failed}
	if len(a.report.Skipped) > 0 {
		a.report.Summary["skipped"] = len(a.report.Skipped)
	}
	return placed, failed
}

// ErrUnplaced is returned when a hunk could not be placed and nothing was
// written (with --yes, --decisions or --check).
var ErrUnplaced = errors.New("a hunk could not be placed")

// ErrEmptyInput is returned when the patch on standard input is empty.
var ErrEmptyInput = errors.New("standard input is empty")

// placedOnly reports the placements without a review: for --check, or
// when a hunk could not be placed.
func (a *applier) placedOnly(placed, failed int) error {
	a.report.Status = StatusOK
	if failed > 0 {
		a.report.Status = StatusFailed
	}
	if a.o.JSON {
		output.WriteJSON(a.o.IO.Out, a.report)
	} else {
		// One write, not one per line: a large patch has thousands.
		out := bufio.NewWriter(a.o.IO.Out)
		printReport(out, a.report, a.o.Explain)
		out.Flush()
	}
	if failed == 0 {
		return nil
	}
	what := "nothing was written"
	if a.o.Check {
		what = "nothing would be written"
	}
	return &output.ExitError{Code: output.Failure, Err: ErrUnplaced,
		Msg: fmt.Sprintf("apply: %d of %d %s could not be placed; %s", failed, failed+placed, output.Plural(failed+placed, "hunk"), what)}
}

// checkCommit knows who commits, and that nothing stops the commit,
// before anyone reviews or anything is written.
func (a *applier) checkCommit(plans []*edit.FilePlan) error {
	if err := a.tree.CheckCommitSettings(); err != nil {
		return err
	}
	var written []string
	for _, p := range plans {
		if p.NewPath != "" {
			written = append(written, p.NewPath)
		}
	}
	return a.tree.CheckFilters(written)
}

// decide has the placed hunks decided, as a.how says; abandoned is a no
// at the summary of a review in the terminal.
func (a *applier) decide(ctx context.Context, plans []*edit.FilePlan, placed, failed int, commit bool) (rev *review.Review, abandoned bool, err error) {
	rev = review.New(review.FromPlans(plans), nil)
	switch a.how {
	case review.DecideYes:
		for i := range rev.Items {
			if g := rev.Items[i].Hunk.Guard; g != "" {
				return nil, false, a.fail(fmt.Errorf("%s: %s; --yes does not approve it: review it on a terminal, without --yes", safetext.Name(rev.FileOf(&rev.Items[i]).Path()), g))
			}
		}
		a.report.NotAhead = rev.ApproveAhead()
	case review.DecideLetters:
		if err := rev.Play(review.Letters(a.letters)); err != nil {
			return nil, false, answersError(err, "--decisions", len(rev.Items))
		}
	case review.DecideLines:
		if err := rev.Play(review.LineAnswers(a.o.IO.In)); err != nil {
			return nil, false, answersError(err, "standard input", len(rev.Items))
		}
	case review.DecideTerminal:
		abandoned, err = a.reviewInTerminal(ctx, rev, placed, failed, commit)
	}
	return rev, abandoned, err
}

// reviewInTerminal has the person decide rev on the terminal.
func (a *applier) reviewInTerminal(ctx context.Context, rev *review.Review, placed, failed int, commit bool) (abandoned bool, err error) {
	screen := a.o.IO
	if a.o.JSON {
		screen = a.o.IO.OutToErr() // standard output stays one JSON object
	}
	if failed > 0 {
		review.PrintPlacements(screen.Out, "", nil, a.report.Errors)
		fmt.Fprintf(screen.Out, "%d of %d %s could not be placed and will not be offered.\n", failed, failed+placed, output.Plural(failed+placed, "hunk"))
	}
	verb := "write"
	if commit {
		verb = "write and commit"
	}
	switch err := review.InTerminal(ctx, a.kb, &review.Terminal{Out: screen.Out, Color: screen.Color, Verb: verb, Editor: console.Editor(a.kb, screen), Pager: console.TextPager(ctx, screen),
		Verifier: a.verifier, VerifyFirst: a.verifyFirst}, rev); {
	case errors.Is(err, review.ErrInterrupted):
		return false, &output.ExitError{Code: output.Interrupted, Msg: "apply: review interrupted; nothing was written"}
	case errors.Is(err, review.ErrAbandoned):
		for i := range rev.Items {
			rev.Items[i].Decision = audit.Rejected
		}
		return true, nil
	case err != nil:
		return false, a.fail(err)
	}
	return false, nil
}

// nothingApproved reports a review that approved no hunk.
func (a *applier) nothingApproved(abandoned bool) {
	a.report.Status = StatusOK
	if a.o.JSON {
		output.WriteJSON(a.o.IO.Out, a.report)
		return
	}
	if a.how != review.DecideTerminal {
		printReport(a.o.IO.Out, a.report, a.o.Explain)
	}
	if abandoned {
		fmt.Fprintln(a.o.IO.Out, "review abandoned at the summary; nothing was written")
	} else {
		fmt.Fprintln(a.o.IO.Out, "no hunk approved; nothing was written")
	}
}

// write writes the approved plans and commits them, and fills the report.
// commitErr is a commit that was not made though the files were written;
// err is a failure that wrote nothing.
func (a *applier) write(ctx context.Context, rev *review.Review, plans []*edit.FilePlan, commit bool) (commitErr, err error) {
	// The files may have changed while the hunks were placed or reviewed:
	// ApplyPlans places them again, or refuses.
	rec, author := recordOf(rev, a.o, a.how), (*repo.Author)(nil)
	if m := a.mail; m != nil {
		rec.Subject, rec.Body, rec.BodyTrailers = m.Subject, m.Body, m.Trailers
		if n := notesOf(rev); n != "" {
			rec.Body = strings.TrimSpace(rec.Body + "\n\n" + n)
		}
		author = &repo.Author{Name: m.Name, Email: m.Email, When: m.Date}
	}
	res, err := a.tree.ApplyPlans(plans, repo.ApplyOptions{
		Commit:     commit,
		Record:     rec,
		NoVerify:   a.o.NoVerify,
		HookOutput: a.o.IO.Err,
		Context:    ctx,
		Author:     author,
		Staged:     a.o.staged(),
	})
	for _, p := range res.Replaced {
		fmt.Fprintf(a.o.IO.Err, "pair: %s changed since the patch was placed; its hunks were placed again\n", safetext.Name(p))
	}
	if len(res.Replaced) > 0 { // report where the hunks go now
		byPath := map[string]*edit.FilePlan{}
		for _, p := range plans {
			byPath[p.Path()] = p
		}
		for i, f := range a.report.Files {
			if p := byPath[f.Path]; p != nil && slices.Contains(res.Replaced, f.Path) {
				a.report.Files[i] = review.FileReportOf(p)
			}
		}
	}
	r := &a.report
	switch {
	case errors.Is(err, repo.ErrNotCommitted):
		r.Status, r.Applied = StatusFailed, true
		r.Error = err.Error()
		return fmt.Errorf("apply: %w", err), nil
	case err != nil:
		return nil, err
	}
	r.Status, r.Applied = StatusOK, true
	if c := res.Commit; c != nil {
		r.Commit = c.Hash
		r.HookChanged = c.HookChanged
		for _, u := range c.StagedLost {
			r.StagedLost = append(r.StagedLost, UncommittedFile{Path: u.Path, Reason: u.Reason})
		}
		r.Warnings = c.Warnings
		for _, u := range c.Uncommitted {
			r.Uncommitted = append(r.Uncommitted, UncommittedFile{Path: u.Path, Reason: u.Reason})
		}
	}
	return nil, nil
}

// printOutcome reports what was written and committed.
func (a *applier) printOutcome(rev *review.Review, plans []*edit.FilePlan) {
	out, r := a.o.IO.Out, a.report
	if a.o.JSON {
		output.WriteJSON(out, r)
	} else {
		switch a.how {
		case review.DecideYes: // every hunk approved: no need to say so on each
			printReport(out, withoutDecisions(r), a.o.Explain)
		case review.DecideLetters, review.DecideLines:
			printReport(out, r, a.o.Explain)
		}
		n := 0 // hunks, not file changes without lines
		for _, it := range rev.Items {
			if !it.Whole && it.Decision.Applies() {
				n++
			}
		}
		fmt.Fprintf(out, "applied %d %s to %d %s", n, output.Plural(n, "hunk"), len(plans), output.Plural(len(plans), "file"))
		if rejected := rev.Totals().Rejected; rejected > 0 {
			fmt.Fprintf(out, " (%d rejected)", rejected)
		}
		fmt.Fprintln(out)
		if r.Commit != "" {
			fmt.Fprintf(out, "committed %s\n", r.Commit[:12])
		}
		if r.Staged {
			fmt.Fprintln(out, "staged in the index; nothing committed")
		}
		for _, p := range r.HookChanged {
			fmt.Fprintf(out, "pre-commit hook changed %s; committed its version\n", safetext.Name(p))
		}
		for _, u := range r.StagedLost {
			fmt.Fprintf(out, "staging not kept: %s: %s\n", safetext.Name(u.Path), safetext.Text(u.Reason))
		}
		for _, u := range r.Uncommitted {
			fmt.Fprintf(out, "not committed: %s: %s\n", safetext.Name(u.Path), safetext.Text(u.Reason))
		}
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(a.o.IO.Err, "pair: warning: %s\n", safetext.Text(w))
	}
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
	for _, s := range rev.Summary() {
		if s.Applies() {
			paths = append(paths, s.Path)
		}
	}
	for i := range rev.Items {
		hunks = append(hunks, rev.HunkRecord(&rev.Items[i]))
	}
	r := audit.Reviewed(audit.NewSessionID("apply"), "none", hunks)
	r.Subject = o.Message
	if r.Subject == "" {
		r.Subject = "pair apply: " + summarizePaths(paths)
	}
	// The file's name, not where it lies: the message is shared, the
	// person's folders are not.
	src := filepath.Base(o.Patch)
	if o.Patch == "" || o.Patch == "-" {
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
	if n := notesOf(rev); n != "" {
		b.WriteString("\n\n" + n)
	}
	r.Body = b.String()
	return r
}

// notesOf writes the notes that went with the review's rejections.
func notesOf(rev *review.Review) string {
	var notes []audit.Note
	for i := range rev.Items {
		h := rev.HunkRecord(&rev.Items[i])
		notes = append(notes, audit.Note{Path: h.Path, Start: h.Start, Text: rev.Items[i].Note})
	}
	return audit.NotesText(notes)
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
		return "", errNoPatch
	}
	b, err := io.ReadAll(o.IO.In)
	if err != nil {
		return "", fmt.Errorf("apply: read standard input: %w", err)
	}
	if strings.TrimSpace(string(b)) == "" {
		return "", fmt.Errorf("apply: %w: no patch to apply", ErrEmptyInput)
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

// printReport lists the placements of r, with each hunk's rules when
// explain is set.
func printReport(w io.Writer, r Report, explain bool) {
	if explain {
		review.PrintExplained(w, r.Form, r.Files, r.Errors)
	} else {
		review.PrintPlacements(w, r.Form, r.Files, r.Errors)
	}
	review.PrintSkipped(w, r.Skipped, explain)
}

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

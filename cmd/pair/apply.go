package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/internal/display"
	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/review"
)

func applyCommand(io stdio) *cli.Command {
	return &cli.Command{
		Name:      "apply",
		Usage:     "review a unified diff hunk by hunk and apply (and commit) the approved hunks",
		ArgsUsage: "[PATCH|-]",
		Description: `Reads a unified diff from PATCH, or from standard input when PATCH is "-"
or missing, and applies it to the working tree (the top of the git repository
that holds the current directory, or the current directory itself).

Other edit forms are read too, and the output says which it was (form): Aider's
SEARCH/REPLACE blocks under a path line, the V4A apply_patch form (*** Begin
Patch), and a whole file in a fenced block under its path, diffed against the
current file. Fenced blocks that are not edits are listed as ignored.

Each hunk is placed by its content, with its line numbers used only to choose
between equally good places. Placement tolerates what models get wrong: line
numbers and counts, trailing whitespace, indentation, curly quotes, a missing
or slightly changed context line, two hunks run together. A hunk that matches
two places equally well is refused, never guessed.

A hunk with no clean reading may have one interpreted reading: a context
line that is a small edit of the file's line taken as the model's new
version, a -x/+x pair whose x is not the file's line read as a change of
it, a context line missing from the file taken as an added line. It is
labelled "interpreted" and shows the extra line as -/+. The terminal
review offers it; --yes and --decisions refuse it unless --interpret is
given. A refused hunk's report names the lines it got wrong.

A hunk placed where its reading is doubtful is "uncertain", with the
reason in its notes: placed loosely, it makes the file fail a syntax check
that the file passed (Go: go/parser; Python: indentation; C-like, JSON,
YAML: brackets and quotes), or it ends with added lines that leave a
block the file continues, with no trailing context (which was probably
lost). Like an interpreted hunk, the terminal review offers it; --yes
and --decisions refuse it unless --interpret is given; the trailer marks
an approved one "uncertain".

Then each placed hunk is reviewed, as with git add -p. On a terminal,
single keys decide:

  y  approve this hunk              n  reject this hunk
  r  reject with a note             q  reject the rest, go to the summary
  a  approve the rest of the file   d  reject the rest of the file
  A  approve this file's hunks for the rest of the session
  s  split the hunk at the context lines between its changes
  e  edit the hunk in $EDITOR (else $VISUAL, else vi)
  j  next undecided hunk            k  previous undecided hunk
  J  next hunk (down arrow)         K  previous hunk (up arrow)
  g  go to a hunk by number         /  search hunks by regular expression
  p  show the hunk again            ?  help

A summary per file comes before anything is written; Ctrl-C writes
nothing. Hunks that cannot be placed are listed and not offered.

Without a terminal, decisions come from --decisions (one letter per hunk:
y, n, a, d, A or q), or from standard input when the patch is a file (one
per line; "n REASON" rejects with a note); --yes approves every hunk.
Decisions given ahead, and --yes, refuse a patch with a hunk that cannot
be placed: nothing is written and each failure is explained with the
nearest lines of the real file. With no way to decide, apply fails at
once naming these flags.

In a git repository the approved and edited hunks are committed with a
Pair-Hunk trailer recording every hunk's decision.

Exit status: 0 applied, or nothing approved (with --check: every hunk
placed); 1 a hunk could not be placed (with --yes, --decisions or
answers on standard input) or a file could not be written;
2 usage error, or decisions that do not fit the hunks; 130 interrupted.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "check", Usage: "change nothing; show where each hunk goes and how it was placed"},
			&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "approve every hunk without asking"},
			&cli.BoolFlag{Name: "interpret", Usage: "with --yes, --decisions or --check: accept interpreted hunks (that change lines the patch did not mark) and uncertain ones (placed where their reading is doubtful)"},
			&cli.StringFlag{Name: "decisions", Aliases: []string{"d"}, Usage: "decide without a terminal: one `LETTERS` per hunk, in order (y approve, n reject, a/d approve/reject the rest of the file, q reject the rest), e.g. yny"},
			&cli.BoolFlag{Name: "json", Usage: "print the placements and the outcome as one JSON object"},
			&cli.StringFlag{Name: "directory", Aliases: []string{"C"}, Usage: "run as if pair was started in `DIR`"},
			&cli.BoolFlag{Name: "no-commit", Usage: "write the files but do not commit them (in a git repository, pair commits by default)"},
			&cli.StringFlag{Name: "message", Aliases: []string{"m"}, Usage: "the commit's subject `TEXT` (default: what the patch changes)"},
			&cli.BoolFlag{Name: "no-verify", Usage: "do not run the pre-commit and commit-msg hooks"},
			&cli.BoolFlag{Name: "allow-ignored", Usage: "let the patch read and write files git ignores"},
			&cli.BoolFlag{Name: "allow-secrets", Usage: "let the patch read and write files that look like secrets (.env, keys, credentials)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usagef("apply: one patch at a time (got %d arguments)", c.NArg())
			}
			opts := applyOptions{
				Patch: c.Args().First(),
				Dir:   c.String("directory"),
				Check: c.Bool("check"),
				Yes:   c.Bool("yes"),

				Interpret: c.Bool("interpret"),

				Decisions: c.String("decisions"),
				JSON:      c.Bool("json"),
				IO:        io,

				NoCommit: c.Bool("no-commit"),
				Message:  c.String("message"),
				NoVerify: c.Bool("no-verify"),
				Access:   repo.Access{Ignored: c.Bool("allow-ignored"), Secrets: c.Bool("allow-secrets")},
			}
			return runApply(c, opts)
		},
	}
}

type applyOptions struct {
	Patch string // file name, "-" or "" for standard input
	Dir   string
	Check bool
	Yes   bool
	// Interpret accepts interpreted hunks when deciding ahead; a review
	// in the terminal always offers them.
	Interpret bool
	// Decisions are the answers given ahead, one letter per hunk.
	Decisions string
	JSON      bool
	IO        stdio

	NoCommit bool   // write but do not commit
	Message  string // commit subject
	NoVerify bool   // skip hooks
	Access   repo.Access
}

// applyReport is the --json output of pair apply.
type applyReport struct {
	Status string `json:"status"` // ok | failed
	// Form is the edit format of the patch: unified, search-replace, v4a
	// or whole-file; Ignored lists its fenced blocks that were not edits.
	Form    edit.Form      `json:"form,omitempty"`
	Ignored []edit.Ignored `json:"ignored,omitempty"`
	Check   bool           `json:"check"`
	Applied bool           `json:"applied"`
	Files   []fileReport   `json:"files"`
	Errors  []hunkFailure  `json:"errors"`
	Error   string         `json:"error,omitempty"`
	Summary map[string]int `json:"summary"`
	// Commit is the pair commit made, if any; Uncommitted lists files
	// written but left out of it, with why.
	Commit      string            `json:"commit,omitempty"`
	Uncommitted []uncommittedFile `json:"uncommitted,omitempty"`
	// HookChanged lists the committed files the pre-commit hook changed;
	// the commit holds its version.
	HookChanged []string `json:"hook_changed,omitempty"`
	// StagedLost lists committed files whose staged changes could not be
	// kept in the index, with why.
	StagedLost []uncommittedFile `json:"staged_lost,omitempty"`
	// Warnings are what went wrong around a commit that was made.
	Warnings []string `json:"warnings,omitempty"`
}

type uncommittedFile struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

type fileReport struct {
	Path    string       `json:"path"`
	OldPath string       `json:"old_path,omitempty"`
	Action  string       `json:"action"` // modify | create | delete | rename
	Mode    string       `json:"mode,omitempty"`
	Hunks   []hunkReport `json:"hunks"`
}

type hunkReport struct {
	Hunk      int      `json:"hunk"` // 1-based, as in the patch
	Part      int      `json:"part,omitempty"`
	Start     int      `json:"start"` // 1-based first old line
	End       int      `json:"end"`
	OldLines  int      `json:"old_lines"`
	NewLines  int      `json:"new_lines"`
	Placement string   `json:"placement"`
	Offset    int      `json:"offset"`
	Notes     []string `json:"notes,omitempty"`
	// ID, Decision and Note are the review's: the item's id ("3", or
	// "3.2" for a piece of a split hunk), approved, edited or rejected.
	ID       string `json:"id,omitempty"`
	Decision string `json:"decision,omitempty"`
	Note     string `json:"note,omitempty"`
}

type hunkFailure struct {
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
}

// howDecided is where a review's decisions come from.
type howDecided int

const (
	decideCheck    howDecided = iota // --check: nothing is decided
	decideYes                        // --yes: every hunk approved
	decideLetters                    // --decisions yny
	decideTerminal                   // single keys on the terminal
	decideLines                      // one per line on standard input
)

func (h howDecided) String() string {
	switch h {
	case decideYes:
		return "--yes"
	case decideLetters:
		return "--decisions"
	case decideTerminal:
		return "review in the terminal"
	case decideLines:
		return "decisions on standard input"
	}
	return "--check"
}

// howToDecide works out, before anything is read, where the decisions
// will come from, or fails with the flags to use.
func howToDecide(o applyOptions) (howDecided, *os.File, error) {
	switch {
	case o.Yes && o.Decisions != "":
		return 0, nil, usagef("apply: --yes and --decisions cannot be used together")
	case o.Check:
		return decideCheck, nil, nil
	case o.Yes:
		return decideYes, nil, nil
	case o.Decisions != "":
		return decideLetters, nil, nil
	}
	fromStdin := o.Patch == "" || o.Patch == "-"
	if kb := keyboard(o.IO); kb != nil && !fromStdin {
		return decideTerminal, kb, nil
	}
	if !fromStdin {
		return decideLines, nil, nil
	}
	return 0, nil, usagef("apply: the patch comes from standard input, so no one can be asked about its hunks: " +
		"give --decisions (one letter per hunk, e.g. yny), --yes to approve every hunk, or the patch as a file to review it in the terminal; --check shows the placements without changing anything")
}

func runApply(c *cli.Context, o applyOptions) error {
	how, kb, err := howToDecide(o)
	if err != nil {
		return err
	}
	var letters []review.Answer
	if how == decideLetters {
		if letters, err = review.ParseLetters(o.Decisions); err != nil {
			return usagef("apply: --decisions: %v", err)
		}
	}
	text, err := readPatch(o)
	if err != nil {
		return err
	}
	tree, err := openTree(o.Dir, o.IO.Err)
	if err != nil {
		return fmt.Errorf("apply: %w", err)
	}
	defer tree.Close()

	report := applyReport{Check: o.Check, Files: []fileReport{}, Errors: []hunkFailure{}}
	fail := func(err error) error {
		if o.JSON {
			report.Status, report.Error = "failed", err.Error()
			writeJSON(o.IO.Out, report)
			return &exitError{code: exitFailure, msg: "apply: " + err.Error()}
		}
		return fmt.Errorf("apply: %w", err)
	}
	edits, err := edit.ParseEdits(text)
	if err != nil {
		return fail(err)
	}
	report.Form = edits.Form
	patch, err := edits.Patch(func(p string) (string, error) {
		s, _, err := tree.ReadText(p, o.Access, 0)
		return s, err
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
	if o.Interpret || how == decideTerminal {
		edit.Interpret(plans)
	}
	placed, failed := 0, 0
	for _, p := range plans {
		report.Files = append(report.Files, fileReportOf(p))
		placed += len(p.Hunks)
		for _, e := range p.Errors {
			failed++
			report.Errors = append(report.Errors, hunkFailure{
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
	if failed > 0 && (how != decideTerminal || placed == 0) || o.Check {
		report.Status = "ok"
		if failed > 0 {
			report.Status = "failed"
		}
		if o.JSON {
			writeJSON(o.IO.Out, report)
		} else {
			printPlacements(o.IO.Out, report)
		}
		if failed > 0 {
			what := "nothing was written"
			if o.Check {
				what = "nothing would be written"
			}
			return &exitError{code: exitFailure, msg: fmt.Sprintf("apply: %d of %d %s could not be placed; %s", failed, failed+placed, plural(failed+placed, "hunk"), what)}
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
	}

	rev := review.New(review.FromPlans(plans), nil)
	abandoned := false // no at the summary
	switch how {
	case decideYes:
		for !rev.Done() {
			if err := rev.Approve(); err != nil {
				return fail(err)
			}
		}
	case decideLetters:
		if err := rev.Play(review.Letters(letters)); err != nil {
			return answersError(err, "--decisions", len(rev.Items))
		}
	case decideLines:
		if err := rev.Play(review.LineAnswers(o.IO.In)); err != nil {
			return answersError(err, "standard input", len(rev.Items))
		}
	case decideTerminal:
		screen := o.IO
		if o.JSON {
			screen.Out = o.IO.Err // standard output stays one JSON object
		}
		if failed > 0 {
			printPlacements(screen.Out, applyReport{Errors: report.Errors})
			fmt.Fprintf(screen.Out, "%d of %d %s could not be placed and will not be offered.\n", failed, failed+placed, plural(failed+placed, "hunk"))
		}
		verb := "write"
		if commit {
			verb = "write and commit"
		}
		switch err := reviewInTerminal(c.Context, kb, screen, rev, verb); {
		case errors.Is(err, review.ErrInterrupted):
			return &exitError{code: exitInterrupted, msg: "apply: review interrupted; nothing was written"}
		case errors.Is(err, review.ErrAbandoned):
			abandoned = true
			for i := range rev.Items {
				rev.Items[i].Decision = audit.Rejected
			}
		case err != nil:
			return fail(err)
		}
	}
	report.Files = fileReportsOf(rev)
	totals := rev.Totals()
	report.Summary["approved"], report.Summary["edited"], report.Summary["rejected"] = totals.Approved, totals.Edited, totals.Rejected

	plans, err = rev.Plans()
	if err != nil {
		return fail(err)
	}
	if len(plans) == 0 {
		report.Status = "ok"
		if o.JSON {
			writeJSON(o.IO.Out, report)
		} else {
			if how != decideTerminal {
				printPlacements(o.IO.Out, report)
			}
			if abandoned {
				fmt.Fprintln(o.IO.Out, "review abandoned at the summary; nothing was written")
			} else {
				fmt.Fprintln(o.IO.Out, "no hunk approved; nothing was written")
			}
		}
		return nil
	}
	if err := c.Context.Err(); err != nil {
		return err
	}
	// The files may have changed while the hunks were placed or reviewed:
	// ApplyPlans places them again, or refuses.
	res, err := tree.ApplyPlans(plans, repo.ApplyOptions{
		Commit:     commit,
		Record:     recordOf(rev, o, how),
		NoVerify:   o.NoVerify,
		HookOutput: o.IO.Err,
		Context:    c.Context,
	})
	for _, p := range res.Replaced {
		fmt.Fprintf(o.IO.Err, "pair: %s changed since the patch was placed; its hunks were placed again\n", display.Name(p))
	}
	if len(res.Replaced) > 0 { // report where the hunks go now
		byPath := map[string]*edit.FilePlan{}
		for _, p := range plans {
			byPath[p.Path()] = p
		}
		for i, f := range report.Files {
			if p := byPath[f.Path]; p != nil && slices.Contains(res.Replaced, f.Path) {
				report.Files[i] = fileReportOf(p)
			}
		}
	}
	var commitErr error
	switch {
	case errors.Is(err, repo.ErrNotCommitted):
		report.Status, report.Applied = "failed", true
		report.Error = err.Error()
		commitErr = fmt.Errorf("apply: %w", err)
	case err != nil:
		return fail(err)
	default:
		report.Status, report.Applied = "ok", true
		if res.Commit != nil {
			report.Commit = res.Commit.Hash
			report.HookChanged = res.Commit.HookChanged
			for _, u := range res.Commit.StagedLost {
				report.StagedLost = append(report.StagedLost, uncommittedFile{Path: u.Path, Reason: u.Reason})
			}
			report.Warnings = res.Commit.Warnings
			for _, u := range res.Commit.Uncommitted {
				report.Uncommitted = append(report.Uncommitted, uncommittedFile{Path: u.Path, Reason: u.Reason})
			}
		}
	}
	if o.JSON {
		writeJSON(o.IO.Out, report)
	} else {
		switch how {
		case decideYes: // every hunk approved: no need to say so on each
			printPlacements(o.IO.Out, withoutDecisions(report))
		case decideLetters, decideLines:
			printPlacements(o.IO.Out, report)
		}
		n := 0 // hunks, not file changes without lines
		for _, it := range rev.Items {
			if !it.Whole && it.Decision.Applies() {
				n++
			}
		}
		fmt.Fprintf(o.IO.Out, "applied %d %s to %d %s", n, plural(n, "hunk"), len(plans), plural(len(plans), "file"))
		if totals.Rejected > 0 {
			fmt.Fprintf(o.IO.Out, " (%d rejected)", totals.Rejected)
		}
		fmt.Fprintln(o.IO.Out)
		if report.Commit != "" {
			fmt.Fprintf(o.IO.Out, "committed %s\n", report.Commit[:12])
		}
		for _, p := range report.HookChanged {
			fmt.Fprintf(o.IO.Out, "pre-commit hook changed %s; committed its version\n", p)
		}
		for _, u := range report.StagedLost {
			fmt.Fprintf(o.IO.Out, "staging not kept: %s: %s\n", u.Path, u.Reason)
		}
		for _, u := range report.Uncommitted {
			fmt.Fprintf(o.IO.Out, "not committed: %s: %s\n", display.Name(u.Path), display.Text(u.Reason))
		}
	}
	for _, w := range report.Warnings {
		fmt.Fprintf(o.IO.Err, "pair: warning: %s\n", w)
	}
	if commitErr != nil {
		code := exitFailure
		if errors.Is(commitErr, context.Canceled) {
			code = exitInterrupted
		}
		return &exitError{code: code, msg: commitErr.Error()}
	}
	return nil
}

// answersError explains decisions given ahead that do not fit the hunks.
func answersError(err error, from string, items int) error {
	if errors.Is(err, review.ErrNoAnswers) {
		var ae *review.AnswersError
		if errors.As(err, &ae) && ae.Used == 0 && from == "standard input" {
			return usagef("apply: standard input is not a terminal and gave no decisions: give --decisions (one letter per hunk, e.g. %s), one decision per line on standard input, or --yes to approve every hunk; nothing was written",
				strings.Repeat("y", min(items, 3)))
		}
		return usagef("apply: %s: %v; the patch has %d %s to decide: give one decision per hunk with --decisions (e.g. %s), one per line on standard input, or --yes to approve every hunk; nothing was written",
			from, err, items, plural(items, "hunk"), strings.Repeat("y", min(items, 3)))
	}
	return usagef("apply: %s: %v; nothing was written", from, err)
}

// recordOf writes the commit record of a review: every item of the
// proposal with its decision, and the notes that went with rejections.
func recordOf(rev *review.Review, o applyOptions, how howDecided) audit.Record {
	var hunks []audit.HunkRecord
	var paths, notes []string
	for _, s := range rev.Summary() {
		if s.Applies() {
			paths = append(paths, s.Path)
		}
	}
	for i := range rev.Items {
		h := rev.HunkRecord(&rev.Items[i])
		hunks = append(hunks, h)
		if note := rev.Items[i].Note; note != "" {
			notes = append(notes, fmt.Sprintf("- %s:%d: %s", h.Path, h.Start, note))
		}
	}
	r := audit.Reviewed(newSessionID("apply"), "none", hunks)
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
		src, how, t.Approved+t.Edited, len(rev.Items), plural(len(rev.Items), "hunk"))
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
	fmt.Fprintf(&b, " in %d %s.", len(paths), plural(len(paths), "file"))
	if t.Failed > 0 {
		fmt.Fprintf(&b, " %d %s could not be placed and %s not offered.", t.Failed, plural(t.Failed, "hunk"), map[bool]string{true: "was", false: "were"}[t.Failed == 1])
	}
	if len(notes) > 0 {
		b.WriteString("\n\nRejected with a note:\n" + strings.Join(notes, "\n"))
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

// newSessionID returns a fresh session name: the kind, the time and random
// digits ("apply-20261129-212730-1a2b3c").
func newSessionID(kind string) string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s-%s-%x", kind, time.Now().UTC().Format("20060102-150405"), b)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func readPatch(o applyOptions) (string, error) {
	if o.Patch != "" && o.Patch != "-" {
		b, err := os.ReadFile(o.Patch)
		if err != nil {
			return "", fmt.Errorf("apply: read patch: %w", err)
		}
		return string(b), nil
	}
	// A terminal is not a patch; /dev/null (a character device too) is
	// an empty one.
	if f, ok := o.IO.In.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return "", usagef("apply: give a patch file, or pipe the patch to standard input")
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

func fileReportOf(p *edit.FilePlan) fileReport {
	fr := fileReport{Path: p.Path(), Hunks: []hunkReport{}}
	switch {
	case p.OldPath == "":
		fr.Action = "create"
	case p.NewPath == "":
		fr.Action = "delete"
	case p.OldPath != p.NewPath:
		fr.Action, fr.OldPath = "rename", p.OldPath
	default:
		fr.Action = "modify"
	}
	if p.Diff.ModeChange() || (fr.Action == "create" && p.Diff.NewMode != "") {
		fr.Mode = p.Diff.NewMode
	}
	for _, h := range p.Hunks {
		oc := h.OldCount()
		fr.Hunks = append(fr.Hunks, hunkReport{
			Hunk: h.Hunk + 1, Part: h.Part,
			Start: h.Start + 1, End: h.Start + max(oc, 1),
			OldLines: oc, NewLines: h.NewCount(),
			Placement: h.Label(), Offset: h.Offset, Notes: h.Notes,
		})
	}
	return fr
}

// fileReportsOf reports a finished review: each file with its items as
// decided (pieces of split hunks and edits included).
func fileReportsOf(rev *review.Review) []fileReport {
	out := make([]fileReport, 0, len(rev.Proposal.Files))
	for fi := range rev.Proposal.Files {
		f := &rev.Proposal.Files[fi]
		fr := fileReportOf(&edit.FilePlan{OldPath: f.OldPath, NewPath: f.NewPath, Diff: f.Diff})
		for _, it := range rev.Items {
			if it.File != fi {
				continue
			}
			h := hunkReport{ID: it.ID, Decision: it.Decision.String(), Note: it.Note}
			if !it.Whole {
				oc := it.Hunk.OldCount()
				h.Hunk, h.Part = it.Hunk.Hunk+1, it.Hunk.Part
				h.Start, h.End = it.Hunk.Start+1, it.Hunk.Start+max(oc, 1)
				h.OldLines, h.NewLines = oc, it.Hunk.NewCount()
				h.Placement, h.Offset, h.Notes = it.Hunk.Label(), it.Hunk.Offset, it.Hunk.Notes
			}
			fr.Hunks = append(fr.Hunks, h)
		}
		out = append(out, fr)
	}
	return out
}

// printPlacements lists the files and hunks of r. Names and lines from
// the patch or the files are shown escaped (see internal/display).
func printPlacements(w io.Writer, r applyReport) {
	if r.Form != "" && r.Form != edit.FormUnified {
		fmt.Fprintf(w, "form %s\n", r.Form)
	}
	for _, f := range r.Files {
		path := display.Name(f.Path)
		lines := 0
		for _, h := range f.Hunks {
			lines += max(h.NewLines, h.OldLines)
		}
		switch f.Action {
		case "create":
			fmt.Fprintf(w, "create %s (%d %s)\n", path, lines, plural(lines, "line"))
		case "delete":
			fmt.Fprintf(w, "delete %s (%d %s)\n", path, lines, plural(lines, "line"))
		case "rename":
			fmt.Fprintf(w, "rename %s -> %s\n", display.Name(f.OldPath), path)
		}
		if f.Mode != "" && f.Action != "create" {
			fmt.Fprintf(w, "mode %s %s\n", display.Name(f.Mode), path)
		}
		if f.Action == "create" || f.Action == "delete" {
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
				label += fmt.Sprintf(" (%+d %s)", h.Offset, plural(abs(h.Offset), "line"))
			}
			if h.Decision != "" {
				label += "\t" + h.Decision
				if h.Note != "" {
					label += ": " + display.Line(h.Note)
				}
			}
			fmt.Fprintf(w, "%s:%d-%d\t%s\n", path, h.Start, h.End, label)
			for _, n := range h.Notes {
				fmt.Fprintf(w, "\t%s\n", display.Line(n))
			}
		}
	}
	for _, e := range r.Errors {
		path := display.Name(e.Path)
		fmt.Fprintf(w, "%s: hunk %d: FAILED: %s", path, e.Hunk, display.Text(e.Reason))
		if e.Detail != "" {
			fmt.Fprintf(w, ": %s", display.Text(e.Detail))
		}
		fmt.Fprintln(w)
		printMisread(w, e)
		if len(e.Nearest) > 0 {
			fmt.Fprintf(w, "\tnearest lines of %s:\n", path)
			prev := 0
			for _, l := range e.Nearest {
				if prev != 0 && l.N != prev+1 {
					fmt.Fprintf(w, "\t%6s |\n", "...")
				}
				fmt.Fprintf(w, "\t%6d | %s\n", l.N, display.Line(strings.ReplaceAll(l.Text, "\t", "    ")))
				prev = l.N
			}
		}
	}
}

// withoutDecisions copies a report without the review's decisions.
func withoutDecisions(r applyReport) applyReport {
	files := make([]fileReport, len(r.Files))
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

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

// printMisread tells what a refused hunk got wrong about the file, and
// whether --interpret would accept it.
func printMisread(w io.Writer, e hunkFailure) {
	for _, m := range e.Misread {
		fmt.Fprintf(w, "\t%s\n", display.Line(m.Teach()))
	}
	switch {
	case e.Reading == "uncertain":
		fmt.Fprintf(w, "\tit has an uncertain reading, placed as described: --interpret accepts it\n")
	case e.Interpretable:
		fmt.Fprintf(w, "\tit has one interpreted reading, which changes the line(s) above: --interpret accepts it\n")
	}
}

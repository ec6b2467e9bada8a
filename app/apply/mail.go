package apply

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/pair-cli/pair/edit/mail"
	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/safetext"
	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/review"
)

// seriesDir is the folder of the git directory that holds a series of
// mails being applied: each mail as a file (0001, 0002, …) and
// state.json. It is not pair's own folder, whose leftovers mean a write
// to recover.
const seriesDir = "pair-am"

// ErrSeriesStopped is wrapped by the refusal of a new mailbox while a
// series of mails stopped part way (go on with it, skip or abort first).
var ErrSeriesStopped = errors.New("a series of mails stopped")

// ErrNoSeries is wrapped by the refusal of pair am --continue, --skip or
// --abort when no series of mails is in progress.
var ErrNoSeries = errors.New("no series of mails in progress")

// ErrNoAuthor stops a series at a mail without an author (no From:
// header, or an empty one), which git am refuses too ("empty ident
// name"): its commit would have none.
var ErrNoAuthor = errors.New("the mail has no author: its From: header is missing or empty")

// series is a mailbox being applied, one mail after the other, as saved
// in the git directory between runs.
type series struct {
	dir     string
	Total   int      `json:"total"`
	Next    int      `json:"next"`    // the mail to apply next, from 0
	Commits []string `json:"commits"` // the commits made, in order
	// Resolve is the mail s.Next stopped at with a three-way conflict
	// left for the person: its commit's record, which pair am --continue
	// commits their resolution with.
	Resolve *resolution `json:"resolve,omitempty"`
}

// resolution is a mail stopped at a three-way conflict: the record of
// its review and the files left with conflict markers, with the hash of
// each as pair left it (repo.Tree.WorkHashes), by which --skip and
// --abort tell the person's later work from the conflict.
type resolution struct {
	Record     audit.Record      `json:"record"`
	Conflicted []string          `json:"conflicted"`
	Written    map[string]string `json:"written,omitempty"`
}

// file is the file that holds mail i (from 0).
func (s *series) file(i int) string { return filepath.Join(s.dir, fmt.Sprintf("%04d", i+1)) }

func (s *series) save() error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(s.dir, "state.json"), b, 0o644)
}

// loadSeries reads the series saved in the tree's git directory; it is
// nil when there is none.
func loadSeries(tree *repo.Tree) (*series, error) {
	s := &series{dir: filepath.Join(tree.GitDir(), seriesDir)}
	b, err := os.ReadFile(filepath.Join(s.dir, "state.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err == nil {
		err = json.Unmarshal(b, s)
	}
	if err != nil {
		return nil, fmt.Errorf("read the stopped series of mails: %w", err)
	}
	return s, nil
}

// mailbox applies each mail of the patch files in turn, one review and
// one commit per mail, as git am does. At the first mail that fails it
// stops, with the series saved in the git directory for resume. The
// files are split one by one: a mail that does not start with a "From "
// line starts where its file does. pair apply given mail and plain
// diffs together applies them as one patch that nothing commits, or
// refuses to commit them.
func (a *applier) mailbox(ctx context.Context, parts []string) error {
	var msgs []string
	var diffs []bool        // a file given with mail that is not mail
	plain, mailed := "", "" // the names of one of each
	for i, p := range parts {
		if len(parts) > 1 && !a.o.Mail && !mail.IsMailbox(p) {
			plain = a.partName(i)
			msgs, diffs = append(msgs, p), append(diffs, true)
			continue
		}
		mailed = a.partName(i)
		for _, m := range mail.Split(p) {
			msgs, diffs = append(msgs, m), append(diffs, false)
		}
	}
	if len(msgs) == 0 {
		return errors.New("apply: the mailbox holds no mail")
	}
	if !a.o.Mail && (a.o.NoCommit || a.o.staged() || a.o.ThreeWay) {
		return a.mailDiffs(ctx, msgs, diffs)
	}
	if plain != "" {
		return output.Usagef("apply: %s is mail and %s is not: mail becomes one commit per message, with its author and message, which a plain diff has not; apply %s on its own, or all of them with --no-commit (their diffs as one patch, as git apply applies them)", mailed, plain, plain)
	}
	if err := a.mailRules(len(msgs)); err != nil {
		return err
	}
	if err := a.amThreeWay(); err != nil {
		return err
	}
	if a.o.Check { // one mail (mailRules): nothing is saved
		m, err := mail.Parse(msgs[0])
		if err != nil {
			return fmt.Errorf("apply: mail 1: %w", err)
		}
		return a.apply(ctx, m.Patch)
	}
	if s, err := loadSeries(a.tree); err != nil || s != nil {
		if err != nil {
			return err
		}
		return output.Usagef("apply: %w at mail %d of %d: go on with pair am --continue or --skip, or end it with pair am --abort, before you apply another", ErrSeriesStopped, s.Next+1, s.Total)
	}
	s := &series{dir: filepath.Join(a.tree.GitDir(), seriesDir), Total: len(msgs)}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return fmt.Errorf("apply: save the series: %w", err)
	}
	for i, m := range msgs {
		if err := os.WriteFile(s.file(i), []byte(m), 0o644); err != nil {
			return fmt.Errorf("apply: save the series: %w", err)
		}
	}
	if err := s.save(); err != nil {
		return fmt.Errorf("apply: save the series: %w", err)
	}
	return a.series(ctx, s)
}

// mailDiffs applies the diffs of msgs (a plain one where plain says
// so), one after the other, as one patch that nothing commits: what git apply does with mail, and what
// pair apply does with it under --no-commit, --index, --cached or
// --3way. The mails' authors and messages are not used.
func (a *applier) mailDiffs(ctx context.Context, msgs []string, plain []bool) error {
	var diffs strings.Builder
	for i, msg := range msgs {
		if plain[i] {
			diffs.WriteString(msg) // a plain diff given with mail
			continue
		}
		m, err := mail.Parse(msg)
		if errors.Is(err, mail.ErrNoPatch) {
			continue // as git apply skips what is not a diff
		}
		if err != nil {
			return fmt.Errorf("apply: mail %d: %w", i+1, err)
		}
		d := diffOnly(m.Patch)
		diffs.WriteString(d)
		if d != "" && !strings.HasSuffix(d, "\n") {
			diffs.WriteString("\n")
		}
	}
	return a.apply(ctx, diffs.String())
}

// partName is the name of patch file i, without its folders: messages
// name no local path.
func (a *applier) partName(i int) string {
	if i == 0 {
		return filepath.Base(a.o.Patch)
	}
	return filepath.Base(a.o.More[i-1])
}

// diffOnly drops what comes before a mail's diff (its diffstat), whose
// lines, after the diff of the mail before, would read as its context.
func diffOnly(patch string) string {
	for at := 0; at < len(patch); {
		line, _, _ := strings.Cut(patch[at:], "\n")
		if strings.HasPrefix(line, "diff ") || strings.HasPrefix(line, "Index: ") || strings.HasPrefix(line, "--- ") {
			return patch[at:]
		}
		at += len(line) + 1
	}
	return patch
}

// mailRules refuses what a series of n mails cannot do.
func (a *applier) mailRules(n int) error {
	switch {
	case !a.tree.Git:
		return output.Usagef("apply: mail becomes one commit per message: apply it in a git repository (or apply its diff alone)")
	case a.o.NoCommit:
		return output.Usagef("apply: --no-commit: mail becomes one commit per message; apply its diff alone to write it without committing")
	case a.o.Message != "":
		return output.Usagef("apply: --message: each mail gives its own commit's message")
	case a.o.staged():
		return output.Usagef("apply: --index and --cached apply a diff, not mail, which becomes one commit per message (git am has neither): apply its diff alone with them")
	case n > 1 && a.o.Check:
		return output.Usagef("apply: --check: the mailbox holds %d mails, and each is placed on what the ones before it made; check them one at a time", n)
	case n > 1 && (a.how == review.DecideLetters || a.how == review.DecideLines):
		return output.Usagef("apply: the mailbox holds %d mails, and decisions given ahead would fall on the wrong mail's hunks: give --yes, or review it in the terminal", n)
	}
	return nil
}

// series applies the mails of s from s.Next on.
func (a *applier) series(ctx context.Context, s *series) error {
	progress := a.o.IO.Out
	if a.o.JSON {
		progress = a.o.IO.Err // standard output holds the reports
	}
	for ; s.Next < s.Total; s.Next++ {
		raw, err := os.ReadFile(s.file(s.Next))
		if err != nil {
			return a.stop(s, err)
		}
		m, err := mail.Parse(string(raw))
		if err == nil && strings.TrimSpace(m.Name) == "" {
			err = ErrNoAuthor
		}
		if err != nil {
			return a.stop(s, err)
		}
		fmt.Fprintf(progress, "applying mail %d of %d: %s\n", s.Next+1, s.Total, safetext.Text(m.Subject))
		a.mail = &m
		if err := a.apply(ctx, m.Patch); err != nil {
			return a.stop(s, err)
		}
		if a.report.Commit != "" {
			s.Commits = append(s.Commits, a.report.Commit)
		}
		if err := s.save(); err != nil {
			return fmt.Errorf("apply: save the series: %w", err)
		}
	}
	if err := os.RemoveAll(s.dir); err != nil {
		return fmt.Errorf("apply: remove the finished series: %w", err)
	}
	if s.Total > 1 {
		fmt.Fprintf(progress, "applied %d %s: %d %s\n", s.Total, output.Plural(s.Total, "mail"), len(s.Commits), output.Plural(len(s.Commits), "commit"))
	}
	return nil
}

// stop saves s, stopped at its mail s.Next, and says why and how to go
// on.
func (a *applier) stop(s *series, err error) error {
	conflicts := len(a.report.Conflicted) > 0 && a.record != nil
	if conflicts {
		// --3way left conflicts: --continue commits the person's
		// resolution as the mail's commit, as git am --continue does.
		s.Resolve = &resolution{Record: *a.record, Conflicted: a.report.Conflicted}
		w, werr := a.tree.WorkHashes(a.report.Conflicted)
		if werr != nil {
			return fmt.Errorf("apply: %w; and the conflicted files could not be read: %w", err, werr)
		}
		s.Resolve.Written = w
	}
	if serr := s.save(); serr != nil {
		return fmt.Errorf("apply: %w; and the series could not be saved: %w", err, serr)
	}
	code, why := output.Failure, err.Error()
	var ee *output.ExitError
	var ue *output.UsageError
	switch {
	case errors.As(err, &ee):
		code = ee.Code
	case errors.As(err, &ue):
		code = output.Usage
	}
	why = strings.TrimPrefix(why, "apply: ")
	if why == "" { // already reported, as JSON
		why = "see the report"
	}
	if conflicts {
		return &output.ExitError{Code: code, Msg: fmt.Sprintf(
			"apply: stopped at mail %d of %d: %s\n"+
				"When you have resolved them and staged the result (git add), pair am --continue commits it as this mail's and goes on;\n"+
				"pair am --skip goes on without this mail; pair am --abort takes back this series' %d %s and ends it.",
			s.Next+1, s.Total, strings.Replace(why, resolveHint, "", 1),
			len(s.Commits), output.Plural(len(s.Commits), "commit"))}
	}
	return &output.ExitError{Code: code, Msg: fmt.Sprintf(
		"apply: stopped at mail %d of %d: %s\n"+
			"When you have fixed it (the files it applies to, or the mail in %s), run pair am --continue;\n"+
			"pair am --skip goes on without this mail; pair am --abort takes back this series' %d %s and ends it.",
		s.Next+1, s.Total, why, a.shown(s.file(s.Next)), len(s.Commits), output.Plural(len(s.Commits), "commit"))}
}

// resume goes on with the series saved in the git directory: the
// stopped mail again (Continue), the mail after it (Skip), or none, the
// series' commits taken back (Abort).
func resume(ctx context.Context, o Options) error {
	n := 0
	for _, b := range []bool{o.Continue, o.Skip, o.Abort} {
		if b {
			n++
		}
	}
	if n > 1 {
		return output.Usagef("apply: --continue, --skip and --abort go one at a time")
	}
	if o.Patch != "" {
		return output.Usagef("apply: --continue, --skip and --abort take no patch: the series is in the git directory")
	}
	a, err := newApplier(o)
	if err != nil {
		return err
	}
	if a.tree, err = o.OpenTree(o.Dir); err != nil {
		return fmt.Errorf("apply: %w", err)
	}
	defer a.tree.Close()
	if !a.tree.Git {
		return output.Usagef("apply: no series of mails here: this is not a git repository")
	}
	s, err := loadSeries(a.tree)
	if err != nil {
		return fmt.Errorf("apply: %w", err)
	}
	if s == nil {
		return output.Usagef("apply: %w (pair am MAILBOX starts one)", ErrNoSeries)
	}
	rest := s.Total - s.Next
	switch {
	case o.Abort:
		if err := a.resetConflicts(ctx, s, "--abort"); err != nil {
			return err
		}
		return a.abort(s)
	case o.Skip:
		if err := a.resetConflicts(ctx, s, "--skip"); err != nil {
			return err
		}
		fmt.Fprintf(a.o.IO.Out, "skipped mail %d of %d\n", s.Next+1, s.Total)
		s.Next++
		s.Resolve = nil
		rest--
	case s.Resolve != nil:
		rest-- // the stopped mail is committed, not applied again
	}
	if err := a.mailRules(max(rest, 1)); err != nil {
		return err
	}
	if err := a.amThreeWay(); err != nil {
		return err
	}
	if s.Resolve != nil {
		if err := a.commitResolution(ctx, s); err != nil {
			return err
		}
	}
	return a.series(ctx, s)
}

// resetConflicts puts the files the mail s stopped at left conflicted
// back as HEAD has them, as git am --skip and --abort do; unlike git, it
// refuses when the person changed one since, naming it and how to keep
// or drop that work. flag is the option run.
func (a *applier) resetConflicts(ctx context.Context, s *series, flag string) error {
	r := s.Resolve
	if r == nil {
		return nil
	}
	err := a.tree.ResetConflicts(ctx, r.Conflicted, r.Written)
	var ce *repo.ChangedSinceConflict
	if errors.As(err, &ce) {
		names := make([]string, len(ce.Files))
		for i, p := range ce.Files {
			names[i] = safetext.Name(p)
		}
		return output.Usagef("apply: %s: %s (mail %d of %d stopped there): putting it back as HEAD has it would lose that work; keep it (git stash, or a copy) or drop it (git checkout HEAD -- %s), then run pair am %s again",
			flag, safetext.Text(ce.Error()), s.Next+1, s.Total, strings.Join(names, " "), flag)
	}
	if err != nil {
		return fmt.Errorf("apply: %s: %w", flag, err)
	}
	return nil
}

// commitResolution commits what the person staged for the mail s
// stopped at with a three-way conflict, as git am --continue does: the
// mail's author and message, the record of its review, and the files
// they resolved (audit.TrailerResolved). It refuses while a path is
// unmerged, and when nothing is staged.
func (a *applier) commitResolution(ctx context.Context, s *series) error {
	raw, err := os.ReadFile(s.file(s.Next))
	if err != nil {
		return fmt.Errorf("apply: --continue: %w", err)
	}
	m, err := mail.Parse(string(raw))
	if err != nil {
		return fmt.Errorf("apply: --continue: mail %d: %w", s.Next+1, err)
	}
	rec := s.Resolve.Record
	rec.Resolved = s.Resolve.Conflicted
	res, err := a.tree.CommitIndex(repo.CommitOptions{
		Record:     rec,
		NoVerify:   a.o.NoVerify,
		HookOutput: a.o.IO.Err,
		Context:    ctx,
		Author:     &repo.Author{Name: m.Name, Email: m.Email, When: m.Date},
	})
	switch {
	case errors.Is(err, repo.ErrNothingStaged):
		return output.Usagef("apply: --continue: no changes staged for mail %d of %d: did you forget to git add your resolution? If nothing is left to stage, the change may be in already: pair am --skip goes on without this mail", s.Next+1, s.Total)
	case err != nil:
		return fmt.Errorf("apply: --continue: mail %d of %d: %w; git add each file once it is resolved, then run pair am --continue again", s.Next+1, s.Total, err)
	}
	progress := a.o.IO.Out
	if a.o.JSON {
		progress = a.o.IO.Err
	}
	if res.Hash == "" {
		// The pre-commit hook took every change back.
		return output.Usagef("apply: --continue: the pre-commit hook took back every staged change for mail %d of %d; nothing was committed", s.Next+1, s.Total)
	}
	fmt.Fprintf(progress, "committed %s: mail %d of %d, %s, with your resolution of %s\n", res.Hash[:12], s.Next+1, s.Total, safetext.Text(m.Subject), safetext.Text(strings.Join(s.Resolve.Conflicted, ", ")))
	for _, w := range res.Warnings {
		fmt.Fprintf(a.o.IO.Err, "pair: warning: %s\n", safetext.Text(w))
	}
	s.Commits = append(s.Commits, res.Hash)
	s.Next++
	s.Resolve = nil
	if err := s.save(); err != nil {
		return fmt.Errorf("apply: save the series: %w", err)
	}
	return nil
}

// amThreeWay gives mail git am's three-way fallback when the repository's
// am.threeWay asks for it and neither --3way nor --no-3way was given:
// each mail whose hunks do not place is merged with the preimage blobs
// its index lines name (see placeStaged); a clean merge is committed as
// the mail's, a conflict stops the series.
func (a *applier) amThreeWay() error {
	switch {
	case a.o.ThreeWay && a.o.NoThreeWay:
		return output.Usagef("apply: --3way and --no-3way cannot be used together")
	case a.o.ThreeWay || a.o.NoThreeWay:
		return nil
	}
	on, err := a.tree.ConfigBool("am", "threeWay")
	if err != nil {
		return fmt.Errorf("apply: %w", err)
	}
	a.o.ThreeWay = on
	return nil
}

// abort takes back the series' commits, newest first, with pair undo's
// rules, and forgets the series. When one cannot be taken back, nothing
// more is, and the series stays.
func (a *applier) abort(s *series) error {
	for i := len(s.Commits) - 1; i >= 0; i-- {
		want := s.Commits[i]
		plan, err := a.tree.Undo(true)
		if err == nil && plan.Commit.Hash != want {
			err = fmt.Errorf("HEAD is %.12s, not the series' commit %.12s: the branch moved since", plan.Commit.Hash, want)
		}
		if err == nil {
			_, err = a.tree.Undo(false)
		}
		if err != nil {
			return fmt.Errorf("apply: --abort: %w; %d of the series' commits were taken back, the series is kept: fix that and run pair am --abort again, or remove %s to forget the series", err, len(s.Commits)-1-i, a.shown(s.dir))
		}
		s.Commits = s.Commits[:i]
		if err := s.save(); err != nil {
			return fmt.Errorf("apply: --abort: %w", err)
		}
	}
	if err := os.RemoveAll(s.dir); err != nil {
		return fmt.Errorf("apply: --abort: %w", err)
	}
	fmt.Fprintln(a.o.IO.Out, "series aborted: its commits were taken back")
	return nil
}

// shown is p as the person finds it: relative to the working tree when
// it is inside it.
func (a *applier) shown(p string) string {
	if rel, err := filepath.Rel(a.tree.Dir, p); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return p
}

package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/internal/console"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/safetext"
	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/review"
)

// cliReviewer decides the agent's proposals and commands for the person:
// on the terminal, from --decisions letters (shared by every proposal of
// the request, in order), or with --yes. Letters and --yes answer hunks
// only: a command or an MCP call is then answered agent.ErrHunksOnly.
// With none of these it answers agent.ErrNeedsReview and the turn pauses.
type cliReviewer struct {
	how     review.Mode
	kb      *os.File
	screen  console.IO
	letters []review.Answer
	verb    string
	// interpret accepts interpreted hunks under --yes or --decisions.
	interpret bool
	// approve is the paused command or MCP call that pair review
	// --approve-command approves: that one call, once.
	approve *agent.Pending
	// verifier tests the approved hunks (the summary's v key);
	// verifyFirst does before every write (see verify.go).
	verifier    review.CommandVerifier
	verifyFirst bool
}

// errInterrupted ends a request at Ctrl-C during a review.
var errInterrupted = errors.New("review interrupted; nothing was written")

func (c *cliReviewer) ReviewEdits(ctx context.Context, p *agent.Proposal) (*agent.Outcome, error) {
	rev := startReview(p, c.screen.Err)
	if rep := failuresOf(p.Plans); len(rep) > 0 && c.how == review.DecideTerminal {
		review.PrintPlacements(c.screen.Out, "", nil, rep)
	}
	switch c.how {
	case review.DecideYes:
		before := c.ahead(rev)
		guarded := 0
		for i := range rev.Items {
			// Only a person who sees a guarded hunk approves it.
			if it := &rev.Items[i]; it.Decision == audit.Undecided && it.Hunk.Guard != "" {
				guarded++
				fmt.Fprintf(c.screen.Err, "pair: %s: %s; --yes does not approve it\n", safetext.Name(rev.FileOf(it).Path()), safetext.Line(it.Hunk.Guard))
			}
		}
		left := rev.ApproveAhead()
		if err := before.refuse(p, rev, "--yes"); err != nil {
			return nil, err
		}
		if len(left) > 0 {
			fmt.Fprintln(c.screen.Err, review.NotAhead(left, "--yes"))
		}
		if guarded > 0 {
			fmt.Fprintf(c.screen.Err, "pair: the review waits: decide %s with pair review on a terminal or with --web\n", map[bool]string{true: "it", false: "them"}[guarded == 1])
			return pauseReview(p, rev)
		}
		if err := c.verifyAhead(ctx, rev); err != nil {
			return nil, err
		}
	case review.DecideLetters:
		before := c.ahead(rev)
		for !rev.Done() && len(c.letters) > 0 {
			a := c.letters[0]
			c.letters = c.letters[1:]
			if err := rev.Answer(a); err != nil {
				return nil, err
			}
		}
		if err := before.refuse(p, rev, "--decisions"); err != nil {
			return nil, err
		}
		if !rev.Done() {
			return pauseReview(p, rev)
		}
		if err := c.verifyAhead(ctx, rev); err != nil {
			return nil, err
		}
	case review.DecideTerminal:
		if len(rev.Items) == 0 {
			break
		}
		fmt.Fprintln(c.screen.Out)
		tm := &review.Terminal{Out: c.screen.Out, Color: c.screen.Color, Verb: c.verb, Editor: console.Editor(c.kb, c.screen), Pager: console.TextPager(ctx, c.screen),
			Verifier: c.verifier, VerifyFirst: c.verifyFirst}
		switch err := review.InTerminal(ctx, c.kb, tm, rev); {
		case errors.Is(err, review.ErrInterrupted):
			return nil, errInterrupted
		case errors.Is(err, review.ErrAbandoned):
			// Abandoned after the tests failed: the failure is the
			// model's feedback.
			if v := tm.LastVerify(rev); v != nil && !v.Pass {
				failureNotes(rev, *v)
			}
			for i := range rev.Items {
				rev.Items[i].Decision = audit.Rejected
			}
		case err != nil:
			return nil, err
		}
	default:
		if !rev.Done() {
			return pauseReview(p, rev)
		}
	}
	return outcomeOf(rev)
}

// aheadReview is a review as it was before decisions given ahead (--yes,
// --decisions) were taken, when those do not accept interpreted hunks:
// such a review has them only when it was saved at a pause that offered
// them to a person (see agent.Pending.Interpret).
type aheadReview struct {
	notices   io.Writer
	saved     []byte          // the review before
	undecided int             // its undecided hunks
	taken     map[string]bool // the ids of its approved and edited hunks
}

// ahead records rev before decisions given ahead, or returns nil when
// they accept interpreted hunks (--interpret).
func (c *cliReviewer) ahead(rev *review.Review) *aheadReview {
	if c.interpret {
		return nil
	}
	b, err := json.Marshal(rev)
	if err != nil {
		return nil
	}
	a := &aheadReview{notices: c.screen.Err, saved: b, undecided: rev.Undecided(), taken: map[string]bool{}}
	for _, it := range rev.Items {
		if it.Decision == audit.Approved || it.Decision == audit.Edited {
			a.taken[it.ID] = true
		}
	}
	return a
}

// refuse undoes the decisions given ahead (flag) when they approved an
// interpreted hunk, as pair apply --yes refuses one: it names the hunks,
// keeps the review as it was, and pauses the turn again.
func (a *aheadReview) refuse(p *agent.Proposal, rev *review.Review, flag string) error {
	if a == nil {
		return nil
	}
	n := 0
	for i := range rev.Items {
		it := &rev.Items[i]
		rec := rev.HunkRecord(it)
		if !rec.Interpreted || a.taken[it.ID] || it.Decision != audit.Approved && it.Decision != audit.Edited {
			continue
		}
		n++
		fmt.Fprintf(a.notices, "pair: hunk %s (%s line %d) is interpreted: it changes lines the model did not mark; %s does not accept it without --interpret\n",
			it.ID, safetext.Name(rec.Path), rec.Start, flag)
	}
	if n == 0 {
		return nil
	}
	fmt.Fprintf(a.notices, "pair: nothing was decided: the review still waits (add --interpret to accept %s, or decide %s with pair review on a terminal or with --web)\n",
		map[bool]string{true: "it", false: "them"}[n == 1], map[bool]string{true: "it", false: "them"}[n == 1])
	p.Saved, p.Undecided, p.Refused = a.saved, a.undecided, flag
	return agent.ErrNeedsReview
}

// startReview starts the review of a proposal, or goes on with the one
// saved when it last paused, if the files are still what it was placed
// against.
func startReview(p *agent.Proposal, notices io.Writer) *review.Review {
	rev := review.New(review.FromPlans(p.Plans), p.Grants)
	if len(p.Saved) > 0 {
		// A review saved at a pause goes on where it stopped, if the files
		// are still what it was placed against.
		saved := &review.Review{}
		if err := json.Unmarshal(p.Saved, saved); err == nil && sameProposal(saved, rev) {
			for _, g := range p.Grants {
				if !slices.Contains(saved.Grants, g) {
					saved.Grants = append(saved.Grants, g)
				}
			}
			rev = saved
			if n := len(rev.Items) - rev.Undecided(); n > 0 {
				fmt.Fprintf(notices, "pair: continuing the saved review: %d of %d %s decided\n", n, len(rev.Items), output.Plural(len(rev.Items), "hunk"))
			}
		} else {
			fmt.Fprintln(notices, "pair: the files changed since the review was saved: its hunks were placed again and are offered afresh")
		}
	}
	return rev
}

// pauseReview pauses the review of a proposal: it saves in p what rev
// has decided so far, for the review to go on where it stopped when the
// turn resumes, and answers agent.ErrNeedsReview.
func pauseReview(p *agent.Proposal, rev *review.Review) (*agent.Outcome, error) {
	if b, err := json.Marshal(rev); err == nil {
		p.Saved = b
	}
	p.Undecided = rev.Undecided()
	return nil, agent.ErrNeedsReview
}

// outcomeOf is what a finished review decided, for the agent.
func outcomeOf(rev *review.Review) (*agent.Outcome, error) {
	plans, err := rev.Plans()
	if err != nil {
		return nil, err
	}
	out := &agent.Outcome{Plans: plans, Grants: rev.Grants}
	for i := range rev.Items {
		it := &rev.Items[i]
		rec := rev.HunkRecord(it)
		h := agent.HunkDecision{Path: rec.Path, Start: rec.Start, Hash: rec.Hash, Decision: rec.Decision, Note: it.Note, Interpreted: rec.Interpreted, Uncertain: rec.Uncertain}
		switch it.Decision {
		case audit.Edited:
			h.Text = hunkText(it.Hunk)
		case audit.Undecided:
			// Left by --yes (review.ApproveAhead): not written.
			h.Refused = notAheadReason(rec.Path)
		}
		out.Hunks = append(out.Hunks, h)
	}
	return out, nil
}

// notAheadReason tells the model why a hunk of path, a configuration
// file, was not applied under --yes.
func notAheadReason(path string) string {
	return path + " is a file that pair or git reads as configuration; pair applies an edit to it only when the person reviews it, " +
		"and this session approves edits with --yes, so nobody did. Do not propose it again in this session; " +
		"in your final answer, tell the person what to change in it and why."
}

// sameProposal reports whether a saved review is of the same proposal as
// a fresh one: the same files, placed against the same content.
func sameProposal(saved, fresh *review.Review) bool {
	a, b := saved.Proposal.Files, fresh.Proposal.Files
	if len(a) != len(b) || len(saved.Items) == 0 {
		return false
	}
	for i := range a {
		if a[i].Path() != b[i].Path() || a[i].OldPath != b[i].OldPath || a[i].Old != b[i].Old || len(a[i].Hunks) != len(b[i].Hunks) {
			return false
		}
		for j := range a[i].Hunks {
			if !slices.Equal(a[i].Hunks[j].Lines, b[i].Hunks[j].Lines) || a[i].Hunks[j].Start != b[i].Hunks[j].Start {
				return false
			}
		}
	}
	return true
}

func hunkText(h edit.Resolved) string {
	var b strings.Builder
	for _, l := range h.Lines {
		b.WriteByte(byte(l.Kind))
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// failuresOf reports the hunks of plans that could not be placed.
func failuresOf(plans []*edit.FilePlan) []review.HunkFailure {
	var r []review.HunkFailure
	for _, p := range plans {
		for _, e := range p.Errors {
			r = append(r, review.HunkFailure{Path: e.Path, Hunk: e.Hunk + 1, Reason: e.Err.Error(), Detail: e.Detail, Nearest: e.Nearest})
		}
	}
	return r
}

func (c *cliReviewer) ReviewCommand(ctx context.Context, req *agent.CommandRequest) (agent.CommandDecision, error) {
	if p := c.approve; p != nil && isPending(req, p) {
		c.approve = nil
		return agent.CommandDecision{Approved: true}, nil
	}
	switch c.how {
	case review.DecideYes, review.DecideLetters:
		// The letters and --yes are for hunks: a y meant for a hunk never
		// runs a command.
		return agent.CommandDecision{}, agent.ErrHunksOnly
	case review.DecideTerminal:
		return askToRun(ctx, c.kb, c.screen, req)
	}
	return agent.CommandDecision{}, agent.ErrNeedsReview
}

// isPending reports whether req asks for the call p waits for.
func isPending(req *agent.CommandRequest, p *agent.Pending) bool {
	switch p.Kind {
	case agent.KindCommand:
		return req.Kind == agent.KindCommand && req.Command == p.Command
	case agent.KindMCP:
		return req.Kind == agent.KindMCP && req.Tool == p.Tool && req.Arguments == p.Arguments
	}
	return false
}

// askToRun asks on the terminal whether a command may run, or an MCP
// tool may be called, with the review front end's Confirm.
func askToRun(ctx context.Context, kb *os.File, screen console.IO, req *agent.CommandRequest) (agent.CommandDecision, error) {
	// What the model asks for is shown escaped: a hidden part of a
	// command would run all the same (see internal/safetext).
	title, what, notes := "The model wants to run a command:", safetext.Text(req.Command), ""
	if req.Kind == agent.KindMCP {
		title = "The model wants to call " + safetext.Name(req.Tool) + " with:"
		what = safetext.Text(mcpArgsText(req.Arguments, ""))
		notes = "(a tool of the MCP server " + safetext.Name(req.Server) + "; it may change things outside the repository)"
	}
	if req.Reason != "" {
		notes = strings.TrimPrefix(notes+"\n("+safetext.Text(req.Reason)+")", "\n")
	}
	detail := what
	if notes != "" {
		detail += "\n\n" + notes
	}
	t := &review.Terminal{In: kb, Out: screen.Out, CRLF: true, Color: screen.Color}
	var yes bool
	err := console.WithRaw(kb, func() error {
		var err error
		yes, _, err = t.Confirm(ctx, title, detail)
		return err
	})
	switch {
	case errors.Is(err, review.ErrInterrupted):
		return agent.CommandDecision{}, errInterrupted
	case errors.Is(err, review.ErrInputEnded):
		return agent.CommandDecision{}, errors.New("the terminal closed")
	case err != nil:
		return agent.CommandDecision{}, err
	}
	return agent.CommandDecision{Approved: yes}, nil
}

// mcpArgsText shows a call's arguments (a JSON object) for the person:
// indented, each line after prefix, cut after a few thousand characters.
func mcpArgsText(args, prefix string) string {
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(args), prefix, "  "); err != nil {
		b.Reset()
		b.WriteString(args)
	}
	text := prefix + b.String()
	if len(text) > 4000 {
		text = text[:4000] + "\n" + prefix + "(cut: " + fmt.Sprint(len(args)) + " bytes in all)"
	}
	return text
}

// allowFlag returns msg, the text of err, naming the flag that allows
// the secret or ignored path err refused: pair edit, ask and review all
// take them.
func allowFlag(msg string, err error) string {
	var ae *repo.AccessError
	if !errors.As(err, &ae) {
		return msg
	}
	return ae.Reword(msg, "--"+ae.Flag()+" allows it")
}

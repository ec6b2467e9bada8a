package main

import (
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
	"github.com/pair-cli/pair/internal/display"
	"github.com/pair-cli/pair/review"
)

// cliReviewer decides the agent's proposals and commands for the person:
// on the terminal, from --decisions letters (shared by every proposal of
// the request, in order), or with --yes (edits only; never commands).
// With none of these it answers agent.ErrNeedsReview and the turn pauses.
type cliReviewer struct {
	how     howDecided
	kb      *os.File
	screen  stdio
	letters []review.Answer
	verb    string
}

// errInterrupted ends a request at Ctrl-C during a review.
var errInterrupted = errors.New("review interrupted; nothing was written")

func (c *cliReviewer) ReviewEdits(ctx context.Context, p *agent.Proposal) (*agent.Outcome, error) {
	rev := startReview(p, c.screen.Err)
	if rep := failuresOf(p.Plans); len(rep.Errors) > 0 && c.how == decideTerminal {
		printPlacements(c.screen.Out, rep)
	}
	switch c.how {
	case decideYes:
		for !rev.Done() {
			if err := rev.Approve(); err != nil {
				return nil, err
			}
		}
	case decideLetters:
		for !rev.Done() {
			if len(c.letters) == 0 {
				return pauseReview(p, rev)
			}
			a := c.letters[0]
			c.letters = c.letters[1:]
			if err := rev.Answer(a); err != nil {
				return nil, err
			}
		}
	case decideTerminal:
		if len(rev.Items) == 0 {
			break
		}
		fmt.Fprintln(c.screen.Out)
		switch err := reviewInTerminal(ctx, c.kb, c.screen, rev, c.verb); {
		case errors.Is(err, review.ErrInterrupted):
			return nil, errInterrupted
		case errors.Is(err, review.ErrAbandoned):
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
				fmt.Fprintf(notices, "pair: continuing the saved review: %d of %d %s decided\n", n, len(rev.Items), plural(len(rev.Items), "hunk"))
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
		if it.Decision == audit.Edited {
			h.Text = hunkText(it.Hunk)
		}
		out.Hunks = append(out.Hunks, h)
	}
	return out, nil
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
func failuresOf(plans []*edit.FilePlan) applyReport {
	var r applyReport
	for _, p := range plans {
		for _, e := range p.Errors {
			r.Errors = append(r.Errors, hunkFailure{Path: e.Path, Hunk: e.Hunk + 1, Reason: e.Err.Error(), Detail: e.Detail, Nearest: e.Nearest})
		}
	}
	return r
}

func (c *cliReviewer) ReviewCommand(ctx context.Context, req *agent.CommandRequest) (agent.CommandDecision, error) {
	switch c.how {
	case decideLetters:
		if len(c.letters) == 0 {
			return agent.CommandDecision{}, agent.ErrNeedsReview
		}
		a := c.letters[0]
		c.letters = c.letters[1:]
		return agent.CommandDecision{Approved: a.Key == 'y', Note: a.Note}, nil
	case decideTerminal:
		return askToRun(ctx, c.kb, c.screen, req)
	}
	// --yes approves edits, never commands.
	return agent.CommandDecision{}, agent.ErrNeedsReview
}

// askToRun asks on the terminal whether a command may run, or an MCP
// tool may be called.
func askToRun(ctx context.Context, kb *os.File, screen stdio, req *agent.CommandRequest) (agent.CommandDecision, error) {
	color := useColor(screen.Out)
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return code + s + "\x1b[m"
	}
	// What the model asks for is shown escaped: a hidden part of a
	// command would run all the same (see internal/display).
	if req.Kind == "mcp" {
		fmt.Fprintf(screen.Out, "\n%s\n%s\n", paint("\x1b[1m", "The model wants to call "+display.Name(req.Tool)+" with:"), paint("\x1b[33m", display.Text(mcpArgsText(req.Arguments, "  "))))
		fmt.Fprintf(screen.Out, "  (a tool of the MCP server %s; it may change things outside the repository)\n", display.Name(req.Server))
	} else {
		fmt.Fprintf(screen.Out, "\n%s\n  %s\n", paint("\x1b[1m", "The model wants to run a command:"), paint("\x1b[33m", display.Text(req.Command)))
	}
	if req.Reason != "" {
		fmt.Fprintf(screen.Out, "  (%s)\n", display.Text(req.Reason))
	}
	for {
		fmt.Fprint(screen.Out, paint("\x1b[1;34m", "Run it [y,n]?")+" ")
		k, err := readKey(ctx, kb)
		if err != nil {
			return agent.CommandDecision{}, err
		}
		switch k {
		case 'y':
			fmt.Fprintln(screen.Out, "y")
			return agent.CommandDecision{Approved: true}, nil
		case 'n':
			fmt.Fprintln(screen.Out, "n")
			return agent.CommandDecision{Approved: false}, nil
		case 3:
			fmt.Fprintln(screen.Out)
			return agent.CommandDecision{}, errInterrupted
		}
		fmt.Fprintln(screen.Out)
	}
}

// readKey reads one key press from the terminal in raw mode.
func readKey(ctx context.Context, kb *os.File) (byte, error) {
	var got byte
	err := withRaw(kb, func() error {
		var b [1]byte
		done := make(chan error, 1)
		go func() {
			_, err := kb.Read(b[:])
			done <- err
		}()
		select {
		case <-ctx.Done():
			return errInterrupted
		case err := <-done:
			if err == io.EOF {
				return errors.New("the terminal closed")
			}
			got = b[0]
			return err
		}
	})
	return got, err
}

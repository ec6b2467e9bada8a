package chat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/review"
)

// webReviewer decides proposals and commands in the local web page.
type webReviewer struct {
	web     *review.Web
	notices io.Writer
	// verify tests the submitted hunks before they are written, when
	// verify is on (--verify, verify: true; see verifyAhead).
	verify *cliReviewer
}

func (w *webReviewer) ReviewEdits(ctx context.Context, p *agent.Proposal) (*agent.Outcome, error) {
	rev := startReview(p, w.notices)
	if len(rev.Items) == 0 || rev.Done() {
		return outcomeOf(rev)
	}
	err := w.web.Review(ctx, rev)
	switch {
	case err == nil:
		if w.verify != nil {
			if err := w.verify.verifyAhead(ctx, rev); err != nil {
				return nil, err
			}
		}
		return outcomeOf(rev)
	case errors.Is(err, review.ErrInterrupted), errors.Is(err, review.ErrWebClosed):
		// The page was left before it submitted: keep what it decided,
		// and pause; pair review (here or in a terminal) goes on.
		return pauseReview(p, rev)
	}
	return nil, err
}

func (w *webReviewer) ReviewCommand(ctx context.Context, req *agent.CommandRequest) (agent.CommandDecision, error) {
	title, detail := "The model wants to run a command", req.Command
	if req.Kind == agent.KindMCP {
		title = "The model wants to call " + req.Tool
		detail = mcpArgsText(req.Arguments, "") + "\n\n(a tool of the MCP server " + req.Server + "; it may change things outside the repository)"
	}
	if req.Reason != "" {
		detail += "\n\n" + req.Reason
	}
	yes, note, err := w.web.Confirm(ctx, title, detail)
	if err != nil {
		if errors.Is(err, review.ErrInterrupted) || errors.Is(err, review.ErrWebClosed) {
			return agent.CommandDecision{}, agent.ErrNeedsReview
		}
		return agent.CommandDecision{}, err
	}
	return agent.CommandDecision{Approved: yes, Note: note}, nil
}

// webEvents shows the loop's events in the page, and on the terminal.
func webEvents(w *review.Web, term *eventPrinter) func(agent.Event) {
	return func(e agent.Event) {
		term.event(e)
		switch e.Kind {
		case agent.EventToken:
			w.Publish(review.WebEvent{Kind: review.EventToken, Text: e.Text})
		case agent.EventRequestStarted:
			w.SetStatus("working")
		case agent.EventToolCall:
			w.Publish(review.WebEvent{Kind: review.EventTool, Text: e.Tool + " " + output.OneLine(e.Text, 200)})
		case agent.EventBlocked:
			w.Publish(review.WebEvent{Kind: review.EventLog, Text: fmt.Sprintf("blocked %s %s: %s", e.Tool, e.Text, e.Detail)})
		case agent.EventFeedback:
			w.Publish(review.WebEvent{Kind: review.EventMessage, Role: "system", Text: e.Text})
		case agent.EventApplied, agent.EventNeedsDecision, agent.EventCommand, agent.EventSuggestion, agent.EventNotice:
			w.Publish(review.WebEvent{Kind: review.EventLog, Text: strings.TrimSpace(string(e.Kind) + ": " + e.Text)})
		case agent.EventFinal:
			w.Publish(review.WebEvent{Kind: review.EventMessage, Role: "assistant", Text: e.Text})
		}
	}
}

// replay shows a session's conversation so far in the page.
func replay(w *review.Web, st *agent.State) {
	for _, m := range st.Messages {
		switch {
		case m.Role == agent.RoleUser && m.Request != "":
			w.Publish(review.WebEvent{Kind: review.EventMessage, Role: "user", Text: m.Request})
		case m.Role == agent.RoleUser && strings.TrimSpace(m.Content) != "":
			// What pair told the model (review outcomes, test failures).
			w.Publish(review.WebEvent{Kind: review.EventMessage, Role: "system", Text: m.Content})
		case m.Role == agent.RoleAssistant && strings.TrimSpace(m.Content) != "":
			w.Publish(review.WebEvent{Kind: review.EventMessage, Role: "assistant", Text: m.Content})
		}
	}
}

// serveWeb runs a session in the local web page: a pending review first,
// then each message typed in the page as a request, until Ctrl-C (or, for
// pair review --web, until the resumed turn ends).
func serveWeb(ctx context.Context, o Options, a *agent.Agent, st *agent.State, show *eventPrinter, rv *cliReviewer) error {
	opts := review.WebOptions{Port: o.Port, Title: "pair · " + st.Session, Verb: rv.verb}
	if rv.verifier != nil {
		opts.Verifier = rv.verifier
	}
	w, err := review.NewWeb(opts)
	if err != nil {
		return fmt.Errorf("web: %w (another --port?)", err)
	}
	defer w.Close()
	a.Reviewer = &webReviewer{web: w, notices: o.IO.Err, verify: rv}
	a.Emit = webEvents(w, show)
	replay(w, st)
	fmt.Fprintf(o.IO.Err, "pair: session %s in your browser at\n  %s\n(the address holds a token: keep it to yourself; Ctrl-C stops)\n", st.Session, w.URL())
	publishEnd := func(err error) {
		w.SetStatus("idle")
		switch {
		case err == nil:
		case errors.Is(err, agent.ErrPaused):
			w.Publish(review.WebEvent{Kind: review.EventMessage, Role: "error", Text: "paused: " + st.Turn.ReviewReason})
		default:
			w.Publish(review.WebEvent{Kind: review.EventMessage, Role: "error", Text: err.Error()})
		}
	}
	if o.Resume || st.Turn.Pending != nil {
		w.SetStatus("review")
		err := a.Resume(ctx, st)
		publishEnd(err)
		if o.Resume {
			return finishTurn(ctx, o, st, err, show)
		}
	}
	w.SetStatus("idle")
	for {
		select {
		case <-ctx.Done():
			fmt.Fprintln(o.IO.Err, "pair: stopped serving the page")
			return nil
		case msg, ok := <-w.Messages():
			if !ok {
				return nil
			}
			w.SetStatus("working")
			err := a.Run(ctx, st, msg)
			show.endLine()
			publishEnd(err)
			if ctx.Err() != nil {
				return nil
			}
		}
	}
}

package chat

import (
	"context"
	"errors"
	"testing"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/review"
)

// TestLettersAnswerHunksOnly checks that decisions given ahead never
// approve a command or an MCP call, nor use up a letter meant for a hunk,
// and that --approve-command approves the one paused call, once.
func TestLettersAnswerHunksOnly(t *testing.T) {
	cmd := &agent.CommandRequest{Kind: agent.KindCommand, Command: "touch pwned"}
	call := &agent.CommandRequest{Kind: agent.KindMCP, Tool: "notes.add", Arguments: `{"text":"x"}`}
	ctx := context.Background()
	for _, how := range []review.Mode{review.DecideYes, review.DecideLetters} {
		rv := &cliReviewer{how: how, letters: []review.Answer{{Key: 'y'}}}
		for _, req := range []*agent.CommandRequest{cmd, call} {
			d, err := rv.ReviewCommand(ctx, req)
			if !errors.Is(err, agent.ErrHunksOnly) || d.Approved {
				t.Errorf("how %d, %s: got %+v, %v; want agent.ErrHunksOnly", how, req.Kind, d, err)
			}
		}
		if len(rv.letters) != 1 {
			t.Errorf("how %d: %d letters left, want the 1 meant for a hunk", how, len(rv.letters))
		}
	}
	if _, err := (&cliReviewer{how: decideNone}).ReviewCommand(ctx, cmd); !errors.Is(err, agent.ErrNeedsReview) {
		t.Errorf("no one to ask: got %v, want agent.ErrNeedsReview", err)
	}

	// --approve-command: the paused call only, once.
	for _, tc := range []struct {
		pending *agent.Pending
		req     *agent.CommandRequest
		want    bool
	}{
		{&agent.Pending{Kind: agent.KindCommand, Command: "touch pwned"}, cmd, true},
		{&agent.Pending{Kind: agent.KindCommand, Command: "touch other"}, cmd, false},
		{&agent.Pending{Kind: agent.KindMCP, Tool: "notes.add", Arguments: `{"text":"x"}`}, call, true},
		{&agent.Pending{Kind: agent.KindMCP, Tool: "notes.add", Arguments: `{"text":"y"}`}, call, false},
		{&agent.Pending{Kind: agent.KindCommand, Command: "notes.add"}, &agent.CommandRequest{Kind: agent.KindMCP, Tool: "notes.add"}, false},
	} {
		rv := &cliReviewer{how: review.DecideLetters, approve: tc.pending}
		d, err := rv.ReviewCommand(ctx, tc.req)
		if d.Approved != tc.want || tc.want && err != nil || !tc.want && !errors.Is(err, agent.ErrHunksOnly) {
			t.Errorf("pending %+v, request %+v: got %+v, %v; want approved %v", tc.pending, tc.req, d, err, tc.want)
		}
		if d, err := rv.ReviewCommand(ctx, tc.req); d.Approved || !errors.Is(err, agent.ErrHunksOnly) {
			t.Errorf("pending %+v asked again: got %+v, %v; want agent.ErrHunksOnly", tc.pending, d, err)
		}
	}
}

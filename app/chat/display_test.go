package chat

import (
	"strings"
	"testing"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/internal/console"
)

// TestEventPrinterEscapes: the model's streamed words, cut anywhere into
// tokens, and its tool calls reach the terminal with their escape
// sequences and bidi controls shown, each such line marked.
func TestEventPrinterEscapes(t *testing.T) {
	var out, errOut strings.Builder
	p := &eventPrinter{io: console.IO{Out: &out, Err: &errOut}, st: &agent.State{}}
	for _, tok := range []string{"Done: \x1b", "[2K\x1b[1Aall ", "good\xe2\x80", "\xae.\nNext line\n"} {
		p.event(agent.Event{Kind: agent.EventToken, Text: tok})
	}
	p.event(agent.Event{Kind: agent.EventToolCall, Tool: "read_file", Text: "a\x1b]0;x\a.go"})
	p.event(agent.Event{Kind: agent.EventFinal})
	if want := "Done: ^[[2K^[[1Aall good\\u202e. ⚠ control characters\nNext line\n"; out.String() != want {
		t.Errorf("streamed: got %q, want %q", out.String(), want)
	}
	if want := "→ read_file a^[]0;x^G.go ⚠ control characters\n"; errOut.String() != want {
		t.Errorf("tool call: got %q, want %q", errOut.String(), want)
	}
}

// TestEventPrinterReviewSummary: after a review the person reads its
// summary, on a line of its own, never the text the model is told (the
// event's Detail, and the tool's results) but with --verbose, marked.
func TestEventPrinterReviewSummary(t *testing.T) {
	model := "Review of your edit:\n- app.go:3: rejected by the person\nNothing was written.\n"
	for _, tc := range []struct {
		verbose bool
		want    string
	}{
		{false, "→ propose_diff {}\nReview: 1 hunk rejected. Nothing was written.\n→ read_file {}\n"},
		{true, "→ propose_diff {}\nReview: 1 hunk rejected. Nothing was written.\n" +
			"  model ← Review of your edit:\n  model ← - app.go:3: rejected by the person\n  model ← Nothing was written.\n" +
			"→ read_file {}\n  model ← error: no such file\n"},
	} {
		var out, errOut strings.Builder
		p := &eventPrinter{io: console.IO{Out: &out, Err: &errOut}, st: &agent.State{}, verbose: tc.verbose}
		p.event(agent.Event{Kind: agent.EventToolCall, Tool: "propose_diff", Text: "{}"})
		p.event(agent.Event{Kind: agent.EventFeedback, Tool: "propose_diff", Text: "Review: 1 hunk rejected. Nothing was written.", Detail: model})
		p.event(agent.Event{Kind: agent.EventToolResult, Tool: "propose_diff", Text: model, Detail: "error"})
		p.event(agent.Event{Kind: agent.EventToolCall, Tool: "read_file", Text: "{}"})
		p.event(agent.Event{Kind: agent.EventToolResult, Tool: "read_file", Text: "error: no such file", Detail: "error"})
		if errOut.String() != tc.want {
			t.Errorf("verbose %v: got %q, want %q", tc.verbose, errOut.String(), tc.want)
		}
	}
}

// TestEventPrinterNoUsage: a server that sends no token counts gets no
// line of zeros; one that does gets its counts.
func TestEventPrinterNoUsage(t *testing.T) {
	var out, errOut strings.Builder
	p := &eventPrinter{io: console.IO{Out: &out, Err: &errOut}, st: &agent.State{}}
	p.event(agent.Event{Kind: agent.EventUsage, Detail: "reply"})
	if errOut.String() != "" {
		t.Errorf("no counts printed %q, want nothing", errOut.String())
	}
	p.st.Usage = agent.Usage{PromptTokens: 12, CompletionTokens: 3, TotalTokens: 15}
	p.event(agent.Event{Kind: agent.EventUsage, Usage: p.st.Usage, Detail: "reply"})
	if want := "(tokens: 12 in, 3 out; session 15)\n"; errOut.String() != want {
		t.Errorf("counts printed %q, want %q", errOut.String(), want)
	}
}

// TestEventPrinterAsking: the person reads which model is asked, not the
// task type pair classified the request as.
func TestEventPrinterAsking(t *testing.T) {
	var out, errOut strings.Builder
	p := &eventPrinter{io: console.IO{Out: &out, Err: &errOut}, st: &agent.State{Model: "m"}}
	p.event(agent.Event{Kind: agent.EventRequestStarted, Text: "add a test", Detail: "test_workflow"})
	if want := "pair: asking m…\n"; errOut.String() != want {
		t.Errorf("got %q, want %q", errOut.String(), want)
	}
}

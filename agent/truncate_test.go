package agent_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/agent/agenttest"
)

// logged returns the details of the action log's entries of kind.
func logged(st *agent.State, kind agent.ActionKind) []string {
	var out []string
	for _, e := range st.Log {
		if e.Kind == kind {
			out = append(out, e.Detail)
		}
	}
	return out
}

func TestTruncatedAnswerIsNotOK(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	st, _, err := run(t, tree, &reviewer{}, "ask", nil, "what does app.go do?",
		agenttest.Reply{Text: "app.go greets people: Greet returns", FinishReason: "length"})
	if !errors.Is(err, agent.ErrTruncated) {
		t.Fatalf("Run: got %v, want ErrTruncated", err)
	}
	if st.Turn.Status != "truncated" || st.Turn.Final != "app.go greets people: Greet returns" || st.Turn.Error == "" {
		t.Errorf("got status %q, final %q, error %q; want truncated, the text, and the reason", st.Turn.Status, st.Turn.Final, st.Turn.Error)
	}
	if got := logged(st, "truncated"); len(got) != 1 || !strings.Contains(got[0], "length limit") {
		t.Errorf("action log: got truncated entries %q, want one", got)
	}
}

func TestTruncatedEditIsAskedAgainOnce(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	rv := &reviewer{}
	// The cut call holds a whole diff: still, it is not applied.
	st, srv, err := run(t, tree, rv, "edit", nil, "make the greeting friendlier",
		agenttest.Reply{ToolCalls: []agenttest.Call{call("propose_diff", map[string]any{"diff": greetDiff, "message": "cut"})}, FinishReason: "length"},
		agenttest.Reply{ToolCalls: []agenttest.Call{call("propose_diff", map[string]any{"diff": greetDiff, "message": "app: a friendlier greeting"})}},
		agenttest.Reply{Text: "Done."},
	)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if len(rv.proposals) != 1 || rv.proposals[0].Message != "app: a friendlier greeting" {
		t.Errorf("got %d proposals, want only the second, complete one", len(rv.proposals))
	}
	if got := logged(st, "truncated"); len(got) != 1 || !strings.Contains(got[0], "unfinished edit that was not applied") {
		t.Errorf("action log: got truncated entries %q", got)
	}
	reqs := srv.Requests()
	last := reqs[1].Messages[len(reqs[1].Messages)-1]
	if last.Role != "user" || !strings.Contains(last.Content, "cut off at your output length limit") {
		t.Errorf("the second request ends with %s %q, want the request for a shorter edit", last.Role, last.Content)
	}
	for _, m := range reqs[1].Messages {
		if len(m.ToolCalls) > 0 {
			t.Errorf("the cut call was sent back as a call: %+v", m)
		}
	}
	if st.Turn.Status != "ok" {
		t.Errorf("status %q, want ok", st.Turn.Status)
	}
}

func TestTruncatedEditTwiceFails(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	rv := &reviewer{}
	cut := "Here is the change:\n\n```diff\n--- a/app.go\n+++ b/app.go\n@@ -3,4 +3,4 @@\n // Greet returns a greeting.\n func Greet(name string) string {\n-\treturn \"hello \" + name\n+\treturn \"hello, \" + name + \"!\"\n"
	st, _, err := run(t, tree, rv, "edit", nil, "make the greeting friendlier",
		agenttest.Reply{Text: cut, FinishReason: "length"},
		agenttest.Reply{Text: cut, FinishReason: "length"},
	)
	if !errors.Is(err, agent.ErrTruncated) || !strings.Contains(err.Error(), "not applied") {
		t.Fatalf("Run: got %v, want ErrTruncated saying the edit was not applied", err)
	}
	if len(rv.proposals) != 0 || readFile(t, tree, "app.go") != appGo {
		t.Errorf("a cut edit was offered (%d proposals) or written", len(rv.proposals))
	}
	if st.Turn.Status != "truncated" || len(logged(st, "truncated")) != 2 {
		t.Errorf("status %q, truncated entries %q", st.Turn.Status, logged(st, "truncated"))
	}
}

func TestRetriesAreLogged(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	st, _, err := run(t, tree, &reviewer{}, "ask", nil, "what does app.go do?",
		agenttest.Reply{Status: 503},
		agenttest.Reply{Text: "It greets."})
	if err != nil {
		t.Fatal(err)
	}
	if got := logged(st, "retry"); len(got) != 1 || !strings.Contains(got[0], "503") || !strings.Contains(got[0], "attempt 2 of 4") {
		t.Errorf("action log: got retry entries %q, want the 503 and the second attempt", got)
	}
}

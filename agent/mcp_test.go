package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/agent/agenttest"
)

// The gate for external tools, with fake tools; agent/mcp tests it with
// real MCP servers.

// fakeTool is an external tool that counts its calls.
func fakeTool(server, name string, risk agent.Risk, n *atomic.Int32) agent.ExternalTool {
	return agent.ExternalTool{
		Server: server, Tool: name, Description: "a fake tool", Risk: risk,
		Schema: json.RawMessage(`{"type":"object"}`),
		Call: func(_ context.Context, args json.RawMessage) (string, error) {
			n.Add(1)
			return "called with " + string(args), nil
		},
	}
}

func TestExternalWireNames(t *testing.T) {
	for _, tc := range []struct{ server, tool, want string }{
		{"docs", "search", "docs__search"},
		{"my docs", "find.page/v2", "my_docs__find_page_v2"},
		{"s", strings.Repeat("x", 80), "s__" + strings.Repeat("x", 52) + "_"},
	} {
		tl := agent.ExternalTool{Server: tc.server, Tool: tc.tool}
		got := tl.WireName()
		if !strings.HasPrefix(got, tc.want) || len(got) > 64 {
			t.Errorf("WireName(%s, %s): got %q, want %q (at most 64 bytes)", tc.server, tc.tool, got, tc.want)
		}
	}
}

// TestExternalApplyingNotRepeated finds an approved call marked applying
// (pair died while making it) and does not make it again.
func TestExternalApplyingNotRepeated(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	var n atomic.Int32
	st := agent.NewState("s", "m", "edit", nil)
	st.Messages = []agent.Message{{Role: agent.RoleUser, Content: "x"}, {Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{{ID: "c1", Name: "srv__write"}}}}
	st.Turn.Pending = &agent.Pending{ID: "mc1", Kind: "mcp", Tool: "srv.write", CallID: "c1", Arguments: "{}", Phase: "applying"}
	a := &agent.Agent{Tree: tree, Reviewer: &reviewer{cmds: []bool{true}}, External: []agent.ExternalTool{fakeTool("srv", "write", agent.RiskReview, &n)}}
	err := a.Resume(context.Background(), st)
	if !errors.Is(err, agent.ErrApplyInterrupted) || !strings.Contains(err.Error(), "srv.write") {
		t.Fatalf("got %v, want ErrApplyInterrupted naming the call", err)
	}
	if n.Load() != 0 || st.Turn.Pending != nil {
		t.Errorf("calls %d, pending %+v", n.Load(), st.Turn.Pending)
	}
	if last := st.Messages[len(st.Messages)-1]; last.ToolCallID != "c1" || !strings.Contains(last.Content, "not made again") {
		t.Errorf("the model was not told: %+v", last)
	}
}

// TestExternalResumeWithoutTheTool resumes a paused call when its server
// is not there: the call is not made, and the model is told.
func TestExternalResumeWithoutTheTool(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	srv := agenttest.NewServer(t,
		agenttest.Reply{ToolCalls: []agenttest.Call{call("srv__write", map[string]any{"x": 1})}},
		agenttest.Reply{Text: "ok"},
	)
	var n atomic.Int32
	st := agent.NewState("s", "m", "edit", nil)
	a := &agent.Agent{Model: agent.NewClient(srv.Config()), Tree: tree, Reviewer: &reviewer{},
		External: []agent.ExternalTool{fakeTool("srv", "write", agent.RiskReview, &n)}}
	if err := a.Run(context.Background(), st, "write it"); !errors.Is(err, agent.ErrPaused) {
		t.Fatalf("Run: got %v", err)
	}
	// A tampered record is refused.
	saved := *st.Turn.Pending
	st.Turn.Pending.Arguments = `{"x":2}`
	b := &agent.Agent{Model: agent.NewClient(srv.Config()), Tree: tree, Reviewer: &reviewer{cmds: []bool{true}}}
	if err := b.Resume(context.Background(), st); !errors.Is(err, agent.ErrPendingMismatch) {
		t.Errorf("a tampered pending call: got %v, want ErrPendingMismatch", err)
	}
	st.Turn.Pending = &saved
	if err := b.Resume(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	last := reqs[1].Messages[len(reqs[1].Messages)-1]
	if !strings.Contains(last.Content, "srv.write is not available now") || n.Load() != 0 {
		t.Errorf("got %q, %d calls", last.Content, n.Load())
	}
}

// TestExternalCallThatNeverReturns is left behind after its time limit
// instead of hanging the turn.
func TestExternalCallThatNeverReturns(t *testing.T) {
	t.Parallel()
	tree := newRepo(t, map[string]string{"app.go": appGo})
	stuck := make(chan struct{})
	defer close(stuck)
	tl := agent.ExternalTool{Server: "srv", Tool: "stuck", Risk: agent.RiskRead, Timeout: 50 * time.Millisecond,
		Call: func(context.Context, json.RawMessage) (string, error) {
			<-stuck // ignores its context
			return "", nil
		}}
	srv := agenttest.NewServer(t,
		agenttest.Reply{ToolCalls: []agenttest.Call{call("srv__stuck", map[string]any{})}},
		agenttest.Reply{Text: "ok"},
	)
	st := agent.NewState("s", "m", "edit", nil)
	a := &agent.Agent{Model: agent.NewClient(srv.Config()), Tree: tree, Reviewer: &reviewer{}, External: []agent.ExternalTool{tl}}
	begin := time.Now()
	if err := a.Run(context.Background(), st, "go"); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(begin); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	if r := st.Results[0]; r.OK || !strings.Contains(r.Result, "did not answer within 50ms") {
		t.Errorf("got %+v", r)
	}
}

// TestExternalToolsMakeOutsideRequestsPossible: a request pair alone
// cannot do goes to the model when tools that reach outside are offered.
func TestExternalToolsMakeOutsideRequestsPossible(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	var n atomic.Int32
	srv := agenttest.NewServer(t,
		agenttest.Reply{ToolCalls: []agenttest.Call{call("chat__post", map[string]any{"text": "hi"})}},
		agenttest.Reply{Text: "Posted."},
	)
	st := agent.NewState("s", "m", "edit", nil)
	a := &agent.Agent{Model: agent.NewClient(srv.Config()), Tree: tree, Reviewer: &reviewer{cmds: []bool{true}},
		External: []agent.ExternalTool{fakeTool("chat", "post", agent.RiskReview, &n)}}
	if err := a.Run(context.Background(), st, "send an email to the team"); err != nil {
		t.Fatal(err)
	}
	if n.Load() != 1 || st.Turn.Final != "Posted." {
		t.Errorf("calls %d, final %q", n.Load(), st.Turn.Final)
	}
	if !strings.Contains(srv.Requests()[0].Messages[0].Content, "SERVER__TOOL") {
		t.Errorf("the system prompt does not mention the MCP tools")
	}
}

// TestExternalInterruptedAfterApproval: Ctrl-C while an approved call is
// being made leaves it "applying"; pair review then tells the model its
// outcome is unknown and does not make it again.
func TestExternalInterruptedAfterApproval(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var n atomic.Int32
	tl := agent.ExternalTool{Server: "srv", Tool: "send", Risk: agent.RiskReview,
		Call: func(ctx context.Context, _ json.RawMessage) (string, error) {
			n.Add(1)
			cancel() // Ctrl-C while the call is under way
			<-ctx.Done()
			return "", ctx.Err()
		}}
	srv := agenttest.NewServer(t,
		agenttest.Reply{ToolCalls: []agenttest.Call{call("srv__send", map[string]any{})}},
	)
	st := agent.NewState("s", "m", "edit", nil)
	a := &agent.Agent{Model: agent.NewClient(srv.Config()), Tree: tree, Reviewer: &reviewer{cmds: []bool{true}}, External: []agent.ExternalTool{tl}}
	if err := a.Run(ctx, st, "send it"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: got %v, want context.Canceled", err)
	}
	if p := st.Turn.Pending; p == nil || p.Phase != "applying" || p.Kind != "mcp" {
		t.Fatalf("pending: got %+v, want the call applying", p)
	}
	a.Reviewer = &reviewer{cmds: []bool{true}}
	if err := a.Resume(context.Background(), st); !errors.Is(err, agent.ErrApplyInterrupted) {
		t.Fatalf("Resume: got %v, want ErrApplyInterrupted", err)
	}
	if n.Load() != 1 {
		t.Errorf("made %d times, want once", n.Load())
	}
}

package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/agent/agenttest"
	"github.com/pair-cli/pair/agent/mcp"
	"github.com/pair-cli/pair/repo"
)

type mcpConfig = mcp.Config

// person is a scripted reviewer of commands and MCP calls: it answers
// each request with the next decision, and pauses (ErrNeedsReview) when
// none are left. Edits are not expected.
type person struct {
	t       *testing.T
	answers []agent.CommandDecision
	asked   []agent.CommandRequest
}

func (p *person) ReviewEdits(context.Context, *agent.Proposal) (*agent.Outcome, error) {
	p.t.Errorf("unexpected review of edits")
	return nil, agent.ErrNeedsReview
}

func (p *person) ReviewCommand(_ context.Context, c *agent.CommandRequest) (agent.CommandDecision, error) {
	p.asked = append(p.asked, *c)
	if len(p.answers) == 0 {
		return agent.CommandDecision{}, agent.ErrNeedsReview
	}
	d := p.answers[0]
	p.answers = p.answers[1:]
	return d, nil
}

// start starts the servers and stops them at the end of the test.
func start(t *testing.T, configs ...mcp.Config) *mcp.Set {
	t.Helper()
	set := mcp.Start(context.Background(), configs)
	t.Cleanup(set.Close)
	for _, s := range set.Servers {
		if s.Err != nil && !strings.HasPrefix(s.Name(), "broken") {
			t.Fatalf("server %s: %v", s.Name(), s.Err)
		}
	}
	return set
}

// testServer is the good test server, named "test", writing its notes to
// the returned file.
func testServer(t *testing.T, extra ...string) (mcp.Config, string) {
	t.Helper()
	notes := filepath.Join(t.TempDir(), "notes.txt")
	return serverConfig(t, "test", "good", append([]string{"PAIR_MCP_TEST_NOTES=" + notes}, extra...)...), notes
}

func newAgent(t *testing.T, srv *agenttest.Server, set *mcp.Set, rv agent.Reviewer) *agent.Agent {
	t.Helper()
	tree, err := repo.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tree.Close() })
	client := agent.NewClient(srv.Config())
	client.Sleep = func(context.Context, time.Duration) error { return nil }
	return &agent.Agent{Model: client, Tree: tree, Reviewer: rv, External: set.Tools(), Settings: agent.Settings{MaxSteps: 6}}
}

func call(name string, args any) agenttest.Call {
	b, _ := json.Marshal(args)
	return agenttest.Call{Name: name, Arguments: string(b)}
}

func calls(cs ...agenttest.Call) agenttest.Reply { return agenttest.Reply{ToolCalls: cs} }

// lastTool is the content of the last tool message of request i.
func lastTool(t *testing.T, srv *agenttest.Server, i int) string {
	t.Helper()
	reqs := srv.Requests()
	if i >= len(reqs) {
		t.Fatalf("got %d requests, want more than %d", len(reqs), i)
	}
	msgs := reqs[i].Messages
	for j := len(msgs) - 1; j >= 0; j-- {
		if msgs[j].Role == "tool" {
			return msgs[j].Content
		}
	}
	t.Fatalf("request %d has no tool message", i)
	return ""
}

func offered(srv *agenttest.Server, i int) []string {
	var names []string
	for _, tl := range srv.Requests()[i].Tools {
		names = append(names, tl.Function.Name)
	}
	return names
}

func readNotes(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

func logHas(st *agent.State, kind agent.ActionKind, tool, detail string) bool {
	for _, a := range st.Log {
		if a.Kind == kind && a.Tool == tool && strings.Contains(a.Detail, detail) {
			return true
		}
	}
	return false
}

func TestClassify(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		readOnly bool
		override string
		want     agent.Risk
	}{
		{true, "", agent.RiskRead},
		{false, "", agent.RiskReview},
		{true, mcp.Review, agent.RiskReview},
		{true, mcp.Deny, agent.RiskDeny},
		{false, mcp.Deny, agent.RiskDeny},
		{false, mcp.Allow, agent.RiskAllow},
		{true, mcp.Allow, agent.RiskRead},
		{false, "nonsense", agent.RiskReview},
	} {
		if got := mcp.Classify(tc.readOnly, tc.override); got != tc.want {
			t.Errorf("Classify(%v, %q): got %q, want %q", tc.readOnly, tc.override, got, tc.want)
		}
	}
}

func TestListedToolsAndRisks(t *testing.T) {
	t.Parallel()
	cfg, _ := testServer(t)
	cfg.Tools = map[string]string{"fail": mcp.Deny, "whoami": mcp.Review, "nosuchtool": mcp.Allow}
	set := start(t, cfg)
	got := map[string]agent.Risk{}
	for _, tl := range set.Servers[0].Tools {
		got[tl.Name] = tl.Risk
		if tl.Unchecked != "" {
			t.Errorf("%s: arguments unchecked: %s", tl.Name, tl.Unchecked)
		}
	}
	want := map[string]agent.Risk{"lookup": agent.RiskRead, "create_note": agent.RiskReview, "hang": agent.RiskRead,
		"crash": agent.RiskRead, "fail": agent.RiskDeny, "whoami": agent.RiskReview}
	for name, risk := range want {
		if got[name] != risk {
			t.Errorf("%s: got risk %q, want %q", name, got[name], risk)
		}
	}
	if u := set.Servers[0].Unmatched(); len(u) != 1 || u[0] != "nosuchtool" {
		t.Errorf("Unmatched: got %v, want [nosuchtool]", u)
	}
}

func TestReadOnlyToolRunsAtOnce(t *testing.T) {
	t.Parallel()
	cfg, _ := testServer(t)
	set := start(t, cfg)
	srv := agenttest.NewServer(t,
		calls(call("test__lookup", map[string]any{"key": "colour"})),
		agenttest.Reply{Text: "It is 42."},
	)
	rv := &person{t: t}
	a := newAgent(t, srv, set, rv)
	st := agent.NewState("s", "m", "edit", nil)
	if err := a.Run(context.Background(), st, "what is the colour?"); err != nil {
		t.Fatal(err)
	}
	if len(rv.asked) != 0 {
		t.Errorf("a read-only tool went to review: %+v", rv.asked)
	}
	if got := lastTool(t, srv, 1); got != "the value of colour is 42" {
		t.Errorf("the model got %q", got)
	}
	if len(st.Plan) != 1 || st.Plan[0].Tool != "test.lookup" || st.Plan[0].Risk != agent.RiskRead {
		t.Errorf("plan: got %+v", st.Plan)
	}
	if len(st.Results) != 1 || !st.Results[0].OK || st.Results[0].Tool != "test.lookup" {
		t.Errorf("tool results: got %+v", st.Results)
	}
	if !logHas(st, "review", "test.lookup", "read-only") || !logHas(st, "mcp", "test.lookup", "ok") {
		t.Errorf("the action log lacks the decision or the call: %+v", st.Log)
	}
	// Every tool but the denied ones is offered, under its wire name; the
	// side-effecting one says it is reviewed.
	var note string
	for _, tl := range srv.Requests()[0].Tools {
		if tl.Function.Name == "test__create_note" {
			note = tl.Function.Description
			if !strings.Contains(string(tl.Function.Parameters), `"title"`) {
				t.Errorf("create_note's schema was not passed on: %s", tl.Function.Parameters)
			}
		}
	}
	if !strings.Contains(note, "test.create_note") || !strings.Contains(note, "reviews each call") {
		t.Errorf("create_note: got description %q", note)
	}
}

func TestAskOffersReadOnlyToolsOnly(t *testing.T) {
	t.Parallel()
	cfg, notes := testServer(t)
	cfg.Tools = map[string]string{"whoami": mcp.Allow}
	set := start(t, cfg)
	srv := agenttest.NewServer(t,
		calls(call("test__create_note", map[string]any{"title": "x"})),
		agenttest.Reply{Text: "I cannot."},
	)
	a := newAgent(t, srv, set, &person{t: t})
	st := agent.NewState("s", "m", "ask", nil)
	if err := a.Run(context.Background(), st, "where is the notebook?"); err != nil {
		t.Fatal(err)
	}
	names := strings.Join(offered(srv, 0), " ")
	if !strings.Contains(names, "test__lookup") || strings.Contains(names, "test__create_note") || !strings.Contains(names, "test__whoami") {
		t.Errorf("pair ask offered %s", names)
	}
	if len(st.Blocked) != 1 || st.Blocked[0].Tool != "test.create_note" {
		t.Errorf("blocked: got %+v", st.Blocked)
	}
	if readNotes(t, notes) != nil {
		t.Errorf("the side-effecting tool ran in pair ask")
	}
	if !strings.Contains(lastTool(t, srv, 1), "read-only") {
		t.Errorf("the model was not told: %q", lastTool(t, srv, 1))
	}
}

// TestSideEffectPausesThenRunsOnce pauses on a side-effecting call, saves
// the session, and resumes it with new server processes, as pair review
// does in another process: the call is made exactly once.
func TestSideEffectPausesThenRunsOnce(t *testing.T) {
	t.Parallel()
	cfg, notes := testServer(t)
	store := agent.Sessions{Dir: filepath.Join(t.TempDir(), "sessions")}
	srv := agenttest.NewServer(t,
		calls(call("test__create_note", map[string]any{"title": "water the plants"}), call("test__lookup", map[string]any{"key": "k"})),
		agenttest.Reply{Text: "The note is there."},
	)
	first := start(t, cfg)
	a := newAgent(t, srv, first, &person{t: t})
	a.Checkpoint = store.Save
	st := agent.NewState("s1", "m", "edit", nil)
	if err := a.Run(context.Background(), st, "note: water the plants"); !errors.Is(err, agent.ErrPaused) {
		t.Fatalf("Run: got %v, want ErrPaused", err)
	}
	p := st.Turn.Pending
	if p == nil || p.Kind != "mcp" || p.Tool != "test.create_note" || p.Arguments != `{"title":"water the plants"}` || p.Phase != "review" {
		t.Fatalf("pending: got %+v", p)
	}
	if !strings.Contains(st.Turn.ReviewReason, "test.create_note") {
		t.Errorf("review reason: %q", st.Turn.ReviewReason)
	}
	if readNotes(t, notes) != nil {
		t.Fatalf("the call was made before the review")
	}
	first.Close()

	loaded, err := store.Load("s1")
	if err != nil {
		t.Fatal(err)
	}
	second := start(t, cfg)
	rv := &person{t: t, answers: []agent.CommandDecision{{Approved: true}}}
	b := newAgent(t, srv, second, rv)
	b.Checkpoint = store.Save
	if err := b.Resume(context.Background(), loaded); err != nil {
		t.Fatalf("Resume: %v", err)
	}
	if len(rv.asked) != 1 {
		t.Fatalf("asked %d times, want once", len(rv.asked))
	}
	if q := rv.asked[0]; q.Kind != "mcp" || q.Server != "test" || q.Tool != "test.create_note" || q.Arguments != `{"title":"water the plants"}` {
		t.Errorf("the reviewer was asked %+v", q)
	}
	if got := readNotes(t, notes); len(got) != 1 || got[0] != "water the plants" {
		t.Errorf("notes: got %q, want the one note", got)
	}
	answered := map[string]string{}
	for _, m := range srv.Requests()[1].Messages {
		if m.Role == "tool" {
			answered[m.ToolCallID] = m.Content
		}
	}
	if len(answered) != 2 || !strings.Contains(strings.Join(mapValues(answered), "|"), "created the note") {
		t.Errorf("tool answers: got %v", answered)
	}
	if loaded.Turn.Status != "ok" || !logHas(loaded, "review", "test.create_note", "approved") {
		t.Errorf("after resume: status %q, log %+v", loaded.Turn.Status, loaded.Log)
	}
	again, err := store.Load("s1")
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Resume(context.Background(), again); !errors.Is(err, agent.ErrNothingPending) {
		t.Errorf("second Resume: got %v, want ErrNothingPending", err)
	}
	if got := readNotes(t, notes); len(got) != 1 {
		t.Errorf("notes after a second resume: got %q", got)
	}
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

func TestRejectionReachesModel(t *testing.T) {
	t.Parallel()
	cfg, notes := testServer(t)
	set := start(t, cfg)
	srv := agenttest.NewServer(t,
		calls(call("test__create_note", map[string]any{"title": "water the plants"})),
		agenttest.Reply{Text: "Understood."},
	)
	rv := &person{t: t, answers: []agent.CommandDecision{{Approved: false, Note: "not in the shared notebook"}}}
	st := agent.NewState("s", "m", "edit", nil)
	if err := newAgent(t, srv, set, rv).Run(context.Background(), st, "note: water the plants"); err != nil {
		t.Fatal(err)
	}
	got := lastTool(t, srv, 1)
	if !strings.Contains(got, "declined") || !strings.Contains(got, "not in the shared notebook") {
		t.Errorf("the model got %q", got)
	}
	if readNotes(t, notes) != nil {
		t.Errorf("a rejected call was made")
	}
	if !logHas(st, "review", "test.create_note", "rejected") {
		t.Errorf("the rejection is not in the log: %+v", st.Log)
	}
}

func TestInvalidArgumentsGoBack(t *testing.T) {
	t.Parallel()
	cfg, notes := testServer(t)
	set := start(t, cfg)
	srv := agenttest.NewServer(t,
		calls(call("test__create_note", map[string]any{"title": 5}), call("test__lookup", map[string]any{"key": "k", "extra": true})),
		calls(agenttest.Call{Name: "test__lookup", Arguments: `{"key": `}),
		agenttest.Reply{Text: "I give up."},
	)
	rv := &person{t: t}
	st := agent.NewState("s", "m", "edit", nil)
	if err := newAgent(t, srv, set, rv).Run(context.Background(), st, "note it"); err != nil {
		t.Fatal(err)
	}
	if len(rv.asked) != 0 || readNotes(t, notes) != nil {
		t.Errorf("a call with invalid arguments was reviewed or made")
	}
	for i, want := range []string{"invalid arguments for test.create_note: /properties/title: type", "invalid arguments for test.lookup: unexpected additional properties", "not valid JSON"} {
		if i >= len(st.Results) || !strings.Contains(st.Results[i].Result, want) || st.Results[i].OK {
			t.Errorf("result %d: got %+v, want it to say %q", i, st.Results, want)
		}
	}
}

func TestHangingToolTimesOut(t *testing.T) {
	t.Parallel()
	cfg, _ := testServer(t)
	cfg.Timeout = 300 * time.Millisecond
	set := start(t, cfg)
	srv := agenttest.NewServer(t,
		calls(call("test__hang", map[string]any{})),
		calls(call("test__lookup", map[string]any{"key": "k"})),
		agenttest.Reply{Text: "done"},
	)
	st := agent.NewState("s", "m", "edit", nil)
	begin := time.Now()
	if err := newAgent(t, srv, set, &person{t: t}).Run(context.Background(), st, "go"); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(begin); d > 10*time.Second {
		t.Errorf("the turn took %v", d)
	}
	if got := lastTool(t, srv, 1); !strings.Contains(got, "did not answer within 300ms") {
		t.Errorf("the model got %q", got)
	}
	// The server is still there for the next call.
	if got := lastTool(t, srv, 2); got != "the value of k is 42" {
		t.Errorf("after the timeout the model got %q", got)
	}
	if !logHas(st, "mcp", "test.hang", "did not answer") {
		t.Errorf("the timeout is not in the log")
	}
}

func TestCrashIsReported(t *testing.T) {
	t.Parallel()
	cfg, _ := testServer(t)
	set := start(t, cfg)
	srv := agenttest.NewServer(t,
		calls(call("test__crash", map[string]any{})),
		calls(call("test__lookup", map[string]any{"key": "k"})),
		agenttest.Reply{Text: "The server is gone."},
	)
	var shown []string
	a := newAgent(t, srv, set, &person{t: t})
	a.Emit = func(e agent.Event) {
		if e.Kind == agent.EventToolResult && e.Detail != "ok" {
			shown = append(shown, e.Text)
		}
	}
	st := agent.NewState("s", "m", "edit", nil)
	if err := a.Run(context.Background(), st, "go"); err != nil {
		t.Fatal(err)
	}
	got := lastTool(t, srv, 1)
	for _, want := range []string{"test crashed (exit status 3)", "test.crash", "panic: the test server crashed on purpose"} {
		if !strings.Contains(got, want) {
			t.Errorf("the model got %q, want it to say %q", got, want)
		}
	}
	if got := lastTool(t, srv, 2); !strings.Contains(got, "is down") || !strings.Contains(got, "test.lookup was not called") {
		t.Errorf("the call after the crash: got %q", got)
	}
	if len(shown) != 2 {
		t.Errorf("the person was shown %q, want both failures", shown)
	}
	if d := set.Servers[0].Down(); !strings.Contains(d, "crashed") {
		t.Errorf("Down: got %q", d)
	}
}

func TestMalformedResult(t *testing.T) {
	t.Parallel()
	set := start(t, serverConfig(t, "junk", "garbage"))
	srv := agenttest.NewServer(t,
		calls(call("junk__weird", map[string]any{})),
		agenttest.Reply{Text: "odd"},
	)
	st := agent.NewState("s", "m", "edit", nil)
	if err := newAgent(t, srv, set, &person{t: t}).Run(context.Background(), st, "go"); err != nil {
		t.Fatal(err)
	}
	if got := lastTool(t, srv, 1); !strings.Contains(got, "the MCP server junk sent a malformed answer to the call of junk.weird") {
		t.Errorf("the model got %q", got)
	}
}

func TestServersThatDoNotStart(t *testing.T) {
	t.Parallel()
	cfg, _ := testServer(t)
	silent := serverConfig(t, "broken-silent", "silent")
	silent.StartTimeout = 300 * time.Millisecond
	set := start(t,
		mcp.Config{Name: "broken-missing", Command: filepath.Join(t.TempDir(), "no-such-server")},
		serverConfig(t, "broken-exit", "exit"),
		silent,
		mcp.Config{Name: "broken-config"},
		cfg,
	)
	for i, want := range []string{"cannot start", "stopped before it answered", "no answer within 300ms", "give a command"} {
		if err := set.Servers[i].Err; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error saying %q", set.Servers[i].Name(), err, want)
		}
	}
	if err := set.Servers[1].Err; err == nil || !strings.Contains(err.Error(), "cannot open the database") {
		t.Errorf("the server's own message is missing: %v", err)
	}
	for _, tl := range set.Tools() {
		if tl.Server != "test" {
			t.Errorf("a tool of a server that did not start is offered: %s", tl.Name())
		}
	}
}

// TestNoOrphans checks that Close stops the server and what it started,
// also after Ctrl-C in the middle of a hanging call.
func TestNoOrphans(t *testing.T) {
	t.Parallel()
	cfg, _ := testServer(t, "PAIR_MCP_TEST_CHILD=1")
	set := mcp.Start(context.Background(), []mcp.Config{cfg})
	defer set.Close()
	var who struct{ PID, Child int }
	for _, tl := range set.Tools() {
		if tl.Tool == "whoami" {
			out, err := tl.Call(context.Background(), json.RawMessage(`{}`))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(out), &who); err != nil || who.PID == 0 || who.Child == 0 {
				t.Fatalf("whoami: %q %v", out, err)
			}
		}
	}
	srv := agenttest.NewServer(t, calls(call("test__hang", map[string]any{})))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a := newAgent(t, srv, set, &person{t: t})
	a.Emit = func(e agent.Event) {
		if e.Kind == agent.EventToolCall {
			time.AfterFunc(200*time.Millisecond, cancel) // Ctrl-C
		}
	}
	st := agent.NewState("s", "m", "edit", nil)
	begin := time.Now()
	if err := a.Run(ctx, st, "go"); !errors.Is(err, context.Canceled) {
		t.Errorf("Run: got %v, want context.Canceled", err)
	}
	if d := time.Since(begin); d > 5*time.Second {
		t.Errorf("Ctrl-C took %v to end the turn", d)
	}
	set.Close()
	waitGone(t, "the server", who.PID)
	waitGone(t, "the server's child", who.Child)
}

func TestToolErrorIsAFailedResult(t *testing.T) {
	t.Parallel()
	cfg, _ := testServer(t)
	set := start(t, cfg)
	srv := agenttest.NewServer(t, calls(call("test__fail", map[string]any{})), agenttest.Reply{Text: "ok"})
	st := agent.NewState("s", "m", "edit", nil)
	if err := newAgent(t, srv, set, &person{t: t}).Run(context.Background(), st, "go"); err != nil {
		t.Fatal(err)
	}
	if r := st.Results[0]; r.OK || !strings.Contains(r.Result, "test.fail failed: no such key") {
		t.Errorf("got %+v", r)
	}
}

func TestDenyAndAllowOverrides(t *testing.T) {
	t.Parallel()
	cfg, notes := testServer(t)
	cfg.Tools = map[string]string{"lookup": mcp.Deny, "*": mcp.Allow}
	set := start(t, cfg)
	srv := agenttest.NewServer(t,
		calls(call("test__lookup", map[string]any{"key": "k"}), call("test.create_note", map[string]any{"title": "t"})),
		agenttest.Reply{Text: "ok"},
	)
	rv := &person{t: t}
	st := agent.NewState("s", "m", "edit", nil)
	if err := newAgent(t, srv, set, rv).Run(context.Background(), st, "go"); err != nil {
		t.Fatal(err)
	}
	if names := strings.Join(offered(srv, 0), " "); strings.Contains(names, "test__lookup") {
		t.Errorf("a denied tool was offered: %s", names)
	}
	if len(st.Blocked) != 1 || st.Blocked[0].Tool != "test.lookup" || !strings.Contains(st.Blocked[0].Reason, "denied") {
		t.Errorf("blocked: got %+v", st.Blocked)
	}
	// "*": allow lets create_note run without asking, and by its
	// server.tool name too.
	if len(rv.asked) != 0 || len(readNotes(t, notes)) != 1 {
		t.Errorf("asked %+v; notes %q", rv.asked, readNotes(t, notes))
	}
	if st.Plan[1].Risk != agent.RiskAllow || !logHas(st, "review", "test.create_note", "allowed by the configuration") {
		t.Errorf("plan %+v", st.Plan)
	}
}

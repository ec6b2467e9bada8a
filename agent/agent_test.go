package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/agent/agenttest"
	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/repo"
)

// git runs the real git in dir, ignoring the machine's configuration.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=test@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

const appGo = `package app

// Greet returns a greeting.
func Greet(name string) string {
	return "hello " + name
}

// Bye returns a farewell.
func Bye(name string) string {
	return "bye " + name
}
`

// newRepo makes a committed git repository with files and opens it.
func newRepo(t *testing.T, files map[string]string) *repo.Tree {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "config", "user.name", "Test")
	git(t, dir, "config", "user.email", "test@example.com")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "initial")
	tree, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tree.Close() })
	return tree
}

// reviewer is a scripted person: it answers each hunk in order from
// decisions ('y' approve, 'n' reject with note), commands from cmds.
type reviewer struct {
	decisions string
	note      string
	cmds      []bool
	needs     bool // answer ErrNeedsReview
	proposals []*agent.Proposal
}

func (r *reviewer) ReviewEdits(_ context.Context, p *agent.Proposal) (*agent.Outcome, error) {
	r.proposals = append(r.proposals, p)
	if r.needs {
		return nil, agent.ErrNeedsReview
	}
	out := &agent.Outcome{Grants: p.Grants}
	for _, fp := range p.Plans {
		var keep []edit.Resolved
		for _, h := range fp.Hunks {
			d := audit.Approved
			if r.decisions != "" {
				if r.decisions[0] == 'n' {
					d = audit.Rejected
				}
				r.decisions = r.decisions[1:]
			}
			hd := agent.HunkDecision{Path: fp.Path(), Start: h.Start + 1, Hash: h.Hash(), Decision: d}
			if d == audit.Rejected {
				hd.Note = r.note
			} else {
				keep = append(keep, h)
			}
			out.Hunks = append(out.Hunks, hd)
		}
		if len(keep) > 0 {
			np := *fp
			np.Hunks, np.Errors = keep, nil
			if len(keep) != len(fp.Hunks) || len(fp.Errors) > 0 {
				// Only some: write exactly those.
				text, err := edit.Render(fp.OldPath, fp.NewPath, "", fp.Old, keep)
				if err != nil {
					return nil, err
				}
				pp, err := edit.Parse(text)
				if err != nil {
					return nil, err
				}
				np = *edit.PlanFile(fp.OldPath, fp.NewPath, fp.Old, pp.Files[0])
			}
			out.Plans = append(out.Plans, &np)
		}
	}
	return out, nil
}

func (r *reviewer) ReviewCommand(_ context.Context, c *agent.CommandRequest) (agent.CommandDecision, error) {
	if len(r.cmds) == 0 {
		return agent.CommandDecision{}, agent.ErrNeedsReview
	}
	ok := r.cmds[0]
	r.cmds = r.cmds[1:]
	return agent.CommandDecision{Approved: ok, Note: map[bool]string{false: "not now"}[ok]}, nil
}

// run runs one request against scripted replies and returns the state.
func run(t *testing.T, tree *repo.Tree, rv agent.Reviewer, mode agent.Mode, files []string, request string, replies ...agenttest.Reply) (*agent.State, *agenttest.Server, error) {
	t.Helper()
	srv := agenttest.NewServer(t, replies...)
	client := agent.NewClient(srv.Config())
	client.Sleep = func(context.Context, time.Duration) error { return nil }
	st := agent.NewState("test-session", "test-model", mode, files)
	a := &agent.Agent{Model: client, Tree: tree, Reviewer: rv, Settings: agent.Settings{Commit: true, MaxSteps: 6, MaxRetries: 2}}
	err := a.Run(context.Background(), st, request)
	return st, srv, err
}

func call(name string, args any) agenttest.Call {
	b, _ := json.Marshal(args)
	return agenttest.Call{Name: name, Arguments: string(b)}
}

const greetDiff = `--- a/app.go
+++ b/app.go
@@ -3,4 +3,4 @@
 // Greet returns a greeting.
 func Greet(name string) string {
-	return "hello " + name
+	return "hello, " + name + "!"
 }
`

func readFile(t *testing.T, tree *repo.Tree, p string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(tree.Dir, p))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReadThenProposeCommits(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	rv := &reviewer{}
	st, srv, err := run(t, tree, rv, "edit", nil, "make the greeting friendlier",
		agenttest.Reply{ToolCalls: []agenttest.Call{call("read_file", map[string]any{"path": "app.go"})}},
		agenttest.Reply{ToolCalls: []agenttest.Call{call("propose_diff", map[string]any{"diff": greetDiff, "message": "app: a friendlier greeting"})}},
		agenttest.Reply{Text: "Done: Greet now says hello, NAME!"},
	)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if got := readFile(t, tree, "app.go"); !strings.Contains(got, `"hello, " + name + "!"`) {
		t.Errorf("app.go was not changed:\n%s", got)
	}
	msg := git(t, tree.Dir, "log", "-1", "--format=%B")
	for _, want := range []string{"app: a friendlier greeting", "Pair-Model: test-model", "Pair-Session: test-session", "Pair-Hunk: app.go:3 "} {
		if !strings.Contains(msg, want) {
			t.Errorf("commit message lacks %q:\n%s", want, msg)
		}
	}
	if st.Turn.Status != "ok" || st.Turn.Final != "Done: Greet now says hello, NAME!" || st.Turn.TaskType != agent.TaskCodeChange {
		t.Errorf("got status %q final %q type %q", st.Turn.Status, st.Turn.Final, st.Turn.TaskType)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("got %d requests, want 3", len(reqs))
	}
	// The tool result answers the call by id, and carries the file.
	last := reqs[1].Messages[len(reqs[1].Messages)-1]
	if last.Role != "tool" || last.ToolCallID == "" || !strings.Contains(last.Content, "hello ") {
		t.Errorf("second request's last message: got %+v, want the read_file result", last)
	}
	fb := reqs[2].Messages[len(reqs[2].Messages)-1].Content
	if !strings.Contains(fb, "app.go:3: applied") || !strings.Contains(fb, "Committed as") {
		t.Errorf("feedback to the model: got %q", fb)
	}
	if len(st.Turn.Commits) != 1 || st.Turn.Applied != 1 {
		t.Errorf("got commits %v applied %d, want 1 and 1", st.Turn.Commits, st.Turn.Applied)
	}
}

func TestMalformedArgumentsFixedNextTurn(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	st, srv, err := run(t, tree, &reviewer{}, "edit", nil, "what does Bye do?",
		agenttest.Reply{ToolCalls: []agenttest.Call{{Name: "read_file", Arguments: `{"path": 3}`}}},
		agenttest.Reply{ToolCalls: []agenttest.Call{{Name: "read_file", Arguments: `{"path": "app.go", "max_chars": 20`}}},
		agenttest.Reply{ToolCalls: []agenttest.Call{call("read_file", map[string]any{"path": "app.go"})}},
		agenttest.Reply{Text: "It says bye."},
	)
	if err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	for i, want := range []string{"path must be a string, not a number", "not valid JSON"} {
		got := reqs[i+1].Messages[len(reqs[i+1].Messages)-1].Content
		if !strings.Contains(got, want) {
			t.Errorf("result %d: got %q, want it to say %q", i+1, got, want)
		}
	}
	if !st.Results[2].OK || st.Results[0].OK {
		t.Errorf("results: got %+v", st.Results)
	}
}

func TestUnknownToolAndEscapesAreBlocked(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo, ".env": "API_TOKEN=s3cr3t-value\n"})
	st, srv, err := run(t, tree, &reviewer{}, "edit", nil, "look around",
		agenttest.Reply{ToolCalls: []agenttest.Call{
			call("delete_everything", map[string]any{}),
			call("read_file", map[string]any{"path": "../outside.txt"}),
			call("read_file", map[string]any{"path": ".env"}),
			call("propose_diff", map[string]any{"diff": "--- a/../x\n+++ b/../x\n@@ -1 +1 @@\n-a\n+b\n"}),
		}},
		agenttest.Reply{Text: "I cannot."},
	)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Blocked) != 4 {
		t.Fatalf("got blocked %+v, want 4 entries", st.Blocked)
	}
	if st.Blocked[0].Tool != "delete_everything" || st.Blocked[0].Reason != "unknown tool" {
		t.Errorf("got %+v", st.Blocked[0])
	}
	for _, r := range srv.Requests() {
		if strings.Contains(string(r.Raw), "s3cr3t") {
			t.Fatalf("the secret reached the server: %s", r.Raw)
		}
	}
	if strings.Contains(git(t, tree.Dir, "status", "--porcelain"), "M") {
		t.Errorf("something was written")
	}
}

func TestRejectionWithNoteReachesModel(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	rv := &reviewer{decisions: "n", note: "keep the old wording"}
	st, srv, err := run(t, tree, rv, "edit", nil, "change the greeting",
		agenttest.Reply{ToolCalls: []agenttest.Call{call("propose_diff", map[string]any{"diff": greetDiff})}},
		agenttest.Reply{Text: "Understood, I left it."},
	)
	if err != nil {
		t.Fatal(err)
	}
	fb := srv.Requests()[1].Messages
	got := fb[len(fb)-1].Content
	if !strings.Contains(got, `rejected by the person, who said: "keep the old wording"`) {
		t.Errorf("feedback: got %q", got)
	}
	if readFile(t, tree, "app.go") != appGo || len(st.Turn.Commits) != 0 {
		t.Errorf("a rejected hunk was written or committed")
	}
}

func TestUnplaceableThenCorrected(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	bad := strings.Replace(greetDiff, "// Greet returns a greeting.", "// Greet says hi.", 1)
	bad = strings.Replace(bad, " func Greet(name string) string {", " func Greet(n string) string {", 1)
	st, srv, err := run(t, tree, &reviewer{}, "edit", nil, "change the greeting",
		agenttest.Reply{ToolCalls: []agenttest.Call{call("propose_diff", map[string]any{"diff": bad})}},
		agenttest.Reply{ToolCalls: []agenttest.Call{call("propose_diff", map[string]any{"diff": greetDiff})}},
		agenttest.Reply{Text: "Fixed."},
	)
	if err != nil {
		t.Fatal(err)
	}
	first := srv.Requests()[1].Messages
	got := first[len(first)-1].Content
	if !strings.Contains(got, "could be placed") || !strings.Contains(got, "\n4\tfunc Greet(name string) string {\n") {
		t.Errorf("failure report: got %q, want the reason and the nearest lines", got)
	}
	if st.Turn.Retries != 1 || st.Turn.Applied != 1 {
		t.Errorf("got retries %d applied %d, want 1 and 1", st.Turn.Retries, st.Turn.Applied)
	}
}

func TestMaxStepsReached(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	var replies []agenttest.Reply
	for range 6 {
		replies = append(replies, agenttest.Reply{ToolCalls: []agenttest.Call{call("list_files", map[string]any{})}})
	}
	st, _, err := run(t, tree, &reviewer{}, "edit", nil, "loop forever", replies...)
	if !errors.Is(err, agent.ErrMaxSteps) || st.Turn.Status != "failed" {
		t.Fatalf("got %v, status %q; want ErrMaxSteps, failed", err, st.Turn.Status)
	}
}

func TestFencedDiffReply(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	st, _, err := run(t, tree, &reviewer{}, "edit", nil, "change the greeting",
		agenttest.Reply{Text: "Here is the change:\n\n```diff\n" + greetDiff + "```\n"},
	)
	if err != nil {
		t.Fatal(err)
	}
	if st.Turn.Applied != 1 || !strings.Contains(st.Turn.Final, "Here is the change") {
		t.Errorf("got applied %d final %q", st.Turn.Applied, st.Turn.Final)
	}
}

func TestNeedsReviewPauses(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	st, _, err := run(t, tree, &reviewer{needs: true}, "edit", nil, "change the greeting",
		agenttest.Reply{ToolCalls: []agenttest.Call{call("propose_diff", map[string]any{"diff": greetDiff})}},
	)
	if !errors.Is(err, agent.ErrPaused) || st.Turn.Status != "needs_review" || st.Turn.Pending == nil {
		t.Fatalf("got %v status %q pending %v", err, st.Turn.Status, st.Turn.Pending)
	}
	if readFile(t, tree, "app.go") != appGo {
		t.Errorf("a paused proposal was written")
	}
}

func TestAskIsReadOnly(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	st, srv, err := run(t, tree, &reviewer{}, "ask", []string{"app.go"}, "where is Greet defined?",
		agenttest.Reply{ToolCalls: []agenttest.Call{call("propose_diff", map[string]any{"diff": greetDiff})}},
		agenttest.Reply{Text: "In app.go.\nFiles: app.go"},
	)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Blocked) != 1 || readFile(t, tree, "app.go") != appGo {
		t.Errorf("got blocked %+v; the edit must be blocked and nothing written", st.Blocked)
	}
	for _, tl := range srv.Requests()[0].Tools {
		if tl.Function.Name == "propose_diff" || tl.Function.Name == "run_command" || tl.Function.Name == "write_file" {
			t.Errorf("ask offered %s", tl.Function.Name)
		}
	}
	if st.Turn.TaskType != agent.TaskRepoQnA {
		t.Errorf("task type: got %q", st.Turn.TaskType)
	}
	if !strings.Contains(srv.Requests()[0].Messages[1].Content, "return \"hello \" + name") {
		t.Errorf("the file in context was not sent")
	}
}

func TestCommandsNeedApproval(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	rv := &reviewer{cmds: []bool{false}}
	srv := agenttest.NewServer(t,
		agenttest.Reply{ToolCalls: []agenttest.Call{
			call("run_command", map[string]any{"command": "echo allowed"}),
			call("run_command", map[string]any{"command": "echo asked"}),
		}},
		agenttest.Reply{Text: "ok"},
	)
	st := agent.NewState("s", "m", "edit", nil)
	a := &agent.Agent{Model: agent.NewClient(srv.Config()), Tree: tree, Reviewer: rv,
		Settings: agent.Settings{AllowCommands: []string{"echo allowed"}}}
	if err := a.Run(context.Background(), st, "run things"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(st.Results[0].Result, "exit code 0\nallowed") {
		t.Errorf("allowlisted command: got %q", st.Results[0].Result)
	}
	if !strings.Contains(st.Results[1].Result, "declined") {
		t.Errorf("declined command: got %q", st.Results[1].Result)
	}
}

func TestEmptyRequest(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	st, _, err := run(t, tree, &reviewer{}, "edit", nil, "   ")
	if !errors.Is(err, agent.ErrEmptyRequest) || st.Turn.Status != "failed" {
		t.Fatalf("got %v, %q", err, st.Turn.Status)
	}
}

func TestCanceledMidStream(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	srv := agenttest.NewServer(t, agenttest.Reply{Text: strings.Repeat("word ", 200), Chunk: 5})
	ctx, cancel := context.WithCancel(context.Background())
	st := agent.NewState("s", "m", "edit", nil)
	n := 0
	a := &agent.Agent{Model: agent.NewClient(srv.Config()), Tree: tree, Reviewer: &reviewer{},
		Emit: func(e agent.Event) {
			if e.Kind == agent.EventToken {
				if n++; n == 3 {
					cancel()
				}
			}
		}}
	err := a.Run(ctx, st, "talk")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if st.Turn.Status != "failed" {
		t.Errorf("status %q", st.Turn.Status)
	}
	srv.Verify()
}

func TestTestCommandFailureGoesBack(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	srv := agenttest.NewServer(t,
		agenttest.Reply{ToolCalls: []agenttest.Call{call("propose_diff", map[string]any{"diff": greetDiff})}},
		agenttest.Reply{Text: "done"},
	)
	st := agent.NewState("s", "m", "edit", nil)
	a := &agent.Agent{Model: agent.NewClient(srv.Config()), Tree: tree, Reviewer: &reviewer{},
		Settings: agent.Settings{MaxRetries: 2, TestCmd: "grep -q 'hello, ' app.go && echo FAIL-CHECK && exit 1"}}
	if err := a.Run(context.Background(), st, "change it"); err != nil {
		t.Fatal(err)
	}
	fb := srv.Requests()[1].Messages
	got := fb[len(fb)-1].Content
	if !strings.Contains(got, "The tests fail") || !strings.Contains(got, "FAIL-CHECK") {
		t.Errorf("feedback: got %q", got)
	}
}

// TestPauseThenResume pauses a turn, saves and loads the session as another
// process would, resumes it with a person who decides, and checks that the
// change is written once and the model finishes its turn.
func TestPauseThenResume(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	store := agent.Sessions{Dir: filepath.Join(t.TempDir(), "sessions")}
	srv := agenttest.NewServer(t,
		agenttest.Reply{ToolCalls: []agenttest.Call{
			call("propose_diff", map[string]any{"diff": greetDiff}),
			call("list_files", map[string]any{}),
		}},
		agenttest.Reply{Text: "done"},
	)
	st := agent.NewState("s1", "m", "edit", nil)
	a := &agent.Agent{Model: agent.NewClient(srv.Config()), Tree: tree, Reviewer: &reviewer{needs: true},
		Settings: agent.Settings{Commit: true}, Checkpoint: store.Save}
	if err := a.Run(context.Background(), st, "change it"); !errors.Is(err, agent.ErrPaused) {
		t.Fatalf("Run: got %v, want ErrPaused", err)
	}
	// The call after the paused one is answered as not run.
	last := st.Messages[len(st.Messages)-1]
	if last.Role != agent.RoleTool || !strings.Contains(last.Content, "not run") {
		t.Errorf("got last message %+v, want the later call answered as not run", last)
	}

	loaded, err := store.Load("s1")
	if err != nil {
		t.Fatal(err)
	}
	if loaded.Turn.Pending == nil || loaded.Turn.Pending.Phase != "review" {
		t.Fatalf("loaded pending: %+v", loaded.Turn.Pending)
	}
	b := &agent.Agent{Model: agent.NewClient(srv.Config()), Tree: tree, Reviewer: &reviewer{},
		Settings: agent.Settings{Commit: true}, Checkpoint: store.Save}
	if err := b.Resume(context.Background(), loaded); err != nil {
		t.Fatalf("Resume: %v", err)
	}
	if loaded.Turn.Status != "ok" || loaded.Turn.Final != "done" || loaded.Turn.Pending != nil {
		t.Errorf("after resume: status %q final %q pending %v", loaded.Turn.Status, loaded.Turn.Final, loaded.Turn.Pending)
	}
	if got := readFile(t, tree, "app.go"); !strings.Contains(got, `"hello, " + name + "!"`) {
		t.Errorf("the approved hunk was not written")
	}
	// Every tool call of the reply has its answer, the paused one with the
	// review's outcome.
	req := srv.Requests()[1]
	answered := map[string]string{}
	for _, m := range req.Messages {
		if m.Role == "tool" {
			answered[m.ToolCallID] = m.Content
		}
	}
	if len(answered) != 2 {
		t.Errorf("got %d tool answers, want 2: %v", len(answered), answered)
	}
	again, err := store.Load("s1")
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Resume(context.Background(), again); !errors.Is(err, agent.ErrNothingPending) {
		t.Errorf("second Resume: got %v, want ErrNothingPending", err)
	}
	if n := strings.Count(git(t, tree.Dir, "log", "--oneline"), "\n"); n != 2 {
		t.Errorf("got %d commits, want 2 (initial and the pair commit)", n)
	}
}

// TestResumeAfterCrashWhileApplying finds an action marked applying and
// does not write it again.
func TestResumeAfterCrashWhileApplying(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	st := agent.NewState("s2", "m", "edit", nil)
	st.Messages = []agent.Message{{Role: agent.RoleUser, Content: "x"}, {Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{{ID: "c1", Name: "propose_diff"}}}}
	st.Turn.Pending = &agent.Pending{ID: "p1", Kind: "edit", Tool: "propose_diff", CallID: "c1", Diff: greetDiff, Phase: "applying"}
	a := &agent.Agent{Model: nil, Tree: tree, Reviewer: &reviewer{}}
	err := a.Resume(context.Background(), st)
	if !errors.Is(err, agent.ErrApplyInterrupted) {
		t.Fatalf("got %v, want ErrApplyInterrupted", err)
	}
	if readFile(t, tree, "app.go") != appGo || st.Turn.Pending != nil {
		t.Errorf("the interrupted action was repeated, or is still pending")
	}
	last := st.Messages[len(st.Messages)-1]
	if last.ToolCallID != "c1" || !strings.Contains(last.Content, "not known") {
		t.Errorf("the model was not told: %+v", last)
	}
}

func TestSessionVersions(t *testing.T) {
	store := agent.Sessions{Dir: t.TempDir()}
	if err := os.WriteFile(filepath.Join(store.Dir, "future.json"), []byte(`{"version": 99, "session": "future"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Load("future"); !errors.Is(err, agent.ErrSessionVersion) {
		t.Errorf("got %v, want ErrSessionVersion", err)
	}
	if _, err := store.Load("../etc/passwd"); !errors.Is(err, agent.ErrBadSessionName) {
		t.Errorf("got %v, want ErrBadSessionName", err)
	}
	if _, err := store.Load("missing"); !errors.Is(err, agent.ErrNoSession) {
		t.Errorf("got %v, want ErrNoSession", err)
	}
	st := agent.NewState("ok-1", "m", "edit", []string{"a.go"})
	if err := store.Save(st); err != nil {
		t.Fatal(err)
	}
	got, err := store.Load("ok-1")
	if err != nil || got.Files[0] != "a.go" {
		t.Fatalf("round trip: %v %+v", err, got)
	}
	list, err := store.List()
	if err != nil || len(list) != 2 || list[0].Name != "ok-1" || list[1].Err == "" {
		t.Errorf("List: %v %+v", err, list)
	}
}

// TestInterruptedCallsAnsweredNextTurn: a turn canceled in the middle of
// a reply's tool calls leaves them unanswered; the next turn answers them
// as not run before anything is sent, so the server gets a well-formed
// conversation.
func TestInterruptedCallsAnsweredNextTurn(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	srv := agenttest.NewServer(t, agenttest.Reply{Text: "fine"})
	st := agent.NewState("s", "m", "edit", nil)
	st.Messages = []agent.Message{
		{Role: agent.RoleSystem, Content: "sys"},
		{Role: agent.RoleUser, Content: "first"},
		{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{{ID: "a", Name: "list_files"}, {ID: "b", Name: "run_command"}}},
		{Role: agent.RoleTool, ToolCallID: "a", Content: "files"},
	}
	a := &agent.Agent{Model: agent.NewClient(srv.Config()), Tree: tree, Reviewer: &reviewer{}}
	if err := a.Run(context.Background(), st, "second"); err != nil {
		t.Fatal(err)
	}
	msgs := srv.Requests()[0].Messages
	var roles []string
	for _, m := range msgs {
		roles = append(roles, m.Role+":"+m.ToolCallID)
	}
	if got, want := strings.Join(roles, " "), "system: user: assistant: tool:a tool:b user:"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestSessionLock(t *testing.T) {
	store := agent.Sessions{Dir: t.TempDir()}
	unlock, err := store.Lock("s1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Lock("s1"); !errors.Is(err, agent.ErrSessionBusy) {
		t.Errorf("second Lock: got %v, want ErrSessionBusy", err)
	}
	if err := store.Remove("s1"); !errors.Is(err, agent.ErrSessionBusy) {
		t.Errorf("Remove of a session in use: got %v, want ErrSessionBusy", err)
	}
	unlock()
	again, err := store.Lock("s1")
	if err != nil {
		t.Fatalf("Lock after unlock: %v", err)
	}
	again()
}

func TestSearchReplaceReply(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	reply := "I will change the farewell.\n\napp.go\n```go\n<<<<<<< SEARCH\nfunc Bye(name string) string {\n\treturn \"bye \" + name\n}\n=======\nfunc Bye(name string) string {\n\treturn \"goodbye \" + name\n}\n>>>>>>> REPLACE\n```\n\nTry it with:\n```sh\ngo test ./...\n```\n"
	st, srv, err := run(t, tree, &reviewer{}, "edit", nil, "a longer farewell", agenttest.Reply{Text: reply})
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, tree, "app.go"); !strings.Contains(got, `"goodbye " + name`) || !strings.Contains(got, `"hello " + name`) {
		t.Errorf("app.go:\n%s", got)
	}
	if st.Turn.Applied != 1 || len(st.Turn.Commits) != 1 {
		t.Errorf("got applied %d commits %v, want 1 and 1", st.Turn.Applied, st.Turn.Commits)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("got %d requests, want 1: the reply's edit was complete", n)
	}
	msg := git(t, tree.Dir, "log", "-1", "--format=%(trailers:key=Pair-Hunk,valueonly)")
	if !strings.HasPrefix(msg, "app.go:9 ") || !strings.Contains(msg, " approved") {
		t.Errorf("Pair-Hunk trailer: got %q, want app.go:9 approved", msg)
	}
	if !logHas(st, "search-replace edit: ignored the block at line 17: no SEARCH/REPLACE block in it") {
		t.Errorf("the example block is not in the action log: %+v", st.Log)
	}
}

func TestV4AProposeAddFile(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	patch := "*** Begin Patch\n*** Add File: docs/usage.md\n+# Usage\n+\n+Call Greet.\n*** Update File: app.go\n@@ func Bye(name string) string {\n-\treturn \"bye \" + name\n+\treturn \"goodbye \" + name\n*** End Patch\n"
	st, srv, err := run(t, tree, &reviewer{}, "edit", nil, "document it",
		agenttest.Reply{ToolCalls: []agenttest.Call{call("propose_diff", map[string]any{"diff": patch, "message": "docs: usage"})}},
		agenttest.Reply{Text: "Added docs/usage.md."},
	)
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, tree, "docs/usage.md"); got != "# Usage\n\nCall Greet.\n" {
		t.Errorf("docs/usage.md: %q", got)
	}
	if got := readFile(t, tree, "app.go"); !strings.Contains(got, `"goodbye " + name`) {
		t.Errorf("app.go:\n%s", got)
	}
	if st.Turn.Applied != 2 || len(st.Turn.Commits) != 1 {
		t.Errorf("got applied %d commits %v, want 2 and 1", st.Turn.Applied, st.Turn.Commits)
	}
	msg := git(t, tree.Dir, "log", "-1", "--format=%(trailers:key=Pair-Hunk,valueonly)")
	for _, want := range []string{"docs/usage.md:1 ", "app.go:10 "} {
		if !strings.Contains(msg, want) {
			t.Errorf("Pair-Hunk trailers %q lack %q", msg, want)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("got %d requests, want 2", len(reqs))
	}
	if fb := reqs[1].Messages[len(reqs[1].Messages)-1].Content; !strings.Contains(fb, "docs/usage.md") || !strings.Contains(fb, "Committed as") {
		t.Errorf("feedback to the model: %q", fb)
	}
	// V4A is read, but the model is taught the unified diff only.
	for _, menu := range []string{"Begin Patch", "V4A", "SEARCH/REPLACE", "any of these forms"} {
		if strings.Contains(string(reqs[0].Raw), menu) {
			t.Errorf("the first request offers another edit form: %q", menu)
		}
	}
}

// TestExampleCodeReplyIsNotAnEdit: a reply with code in a fence and no
// path is an answer, and a quoted file that is unchanged is no edit.
func TestExampleCodeReplyIsNotAnEdit(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	reply := "Call it like this:\n```go\nfmt.Println(app.Greet(\"x\"))\n```\nThe file as it is:\n\napp.go\n```go\n" + appGo + "```\n"
	st, _, err := run(t, tree, &reviewer{}, "edit", nil, "how do I call Greet?", agenttest.Reply{Text: reply})
	if err != nil {
		t.Fatal(err)
	}
	if st.Turn.Applied != 0 || st.Turn.Final != reply {
		t.Errorf("got applied %d final %q, want the reply as the answer", st.Turn.Applied, st.Turn.Final)
	}
}

func logHas(st *agent.State, text string) bool {
	for _, e := range st.Log {
		if strings.Contains(e.Detail, text) {
			return true
		}
	}
	return false
}

// TestMalformedSearchReplaceReply: a broken block is not taken as the
// answer: the model is told the line, and its corrected block applies.
func TestMalformedSearchReplaceReply(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	broken := "app.go\n```go\n<<<<<<< SEARCH\n\treturn \"bye \" + name\n=======\n\treturn \"goodbye \" + name\n```\n"
	fixed := "app.go\n```go\n<<<<<<< SEARCH\n\treturn \"bye \" + name\n=======\n\treturn \"goodbye \" + name\n>>>>>>> REPLACE\n```\n"
	st, srv, err := run(t, tree, &reviewer{}, "edit", nil, "a longer farewell", agenttest.Reply{Text: broken}, agenttest.Reply{Text: fixed})
	if err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("got %d requests, want 2", len(reqs))
	}
	fb := reqs[1].Messages[len(reqs[1].Messages)-1].Content
	if !strings.Contains(fb, "search-replace: line 7: the text ends before the block opened at line 3") {
		t.Errorf("feedback to the model: %q", fb)
	}
	if st.Turn.Applied != 1 || !strings.Contains(readFile(t, tree, "app.go"), `"goodbye " + name`) {
		t.Errorf("got applied %d", st.Turn.Applied)
	}
}

func TestSessionLockFilesGo(t *testing.T) {
	dir := t.TempDir()
	store := agent.Sessions{Dir: dir}
	// A lock file left by a process that was killed, and one held now.
	if err := os.WriteFile(filepath.Join(dir, "old.lock"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	held, err := store.Lock("busy")
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := store.Lock("s1")
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	var left []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if got, want := strings.Join(left, " "), "busy.lock"; got != want {
		t.Errorf("lock files left: got %q, want %q (the stale one and s1's gone, the held one kept)", got, want)
	}
	if _, err := store.Lock("busy"); !errors.Is(err, agent.ErrSessionBusy) {
		t.Errorf("Lock of the held session: got %v, want ErrSessionBusy", err)
	}
	held()
	if _, err := os.Stat(filepath.Join(dir, "busy.lock")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after unlock: busy.lock: got %v, want it removed", err)
	}
}

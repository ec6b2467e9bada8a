package agent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/agent/agenttest"
)

// runTextOnly runs a request against a server that refuses tools.
func runTextOnly(t *testing.T, st *agent.State, mode, request string, settings agent.Settings, replies ...agenttest.Reply) (*agent.Agent, *agenttest.Server, []agent.Event, error) {
	t.Helper()
	tree := newRepo(t, map[string]string{"app.go": appGo})
	srv := agenttest.NewServer(t, replies...)
	srv.RefuseTools("")
	client := agent.NewClient(srv.Config())
	client.Sleep = func(context.Context, time.Duration) error { return nil }
	var events []agent.Event
	settings.Commit, settings.MaxSteps, settings.MaxRetries = true, 6, 2
	a := &agent.Agent{Model: client, Tree: tree, Reviewer: &reviewer{}, Settings: settings, Emit: func(e agent.Event) { events = append(events, e) }}
	err := a.Run(context.Background(), st, request)
	return a, srv, events, err
}

func TestTextOnlyEdit(t *testing.T) {
	st := agent.NewState("s", "phi3:mini", "edit", nil)
	fenced := "Here is the change:\n\n```diff\n" + greetDiff + "```\n"
	a, srv, events, err := runTextOnly(t, st, "edit", "make the greeting friendlier", agent.Settings{},
		agenttest.Reply{Text: "I need to see the function first.\nREAD app.go 3-6"},
		agenttest.Reply{Text: fenced},
	)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if got := readFile(t, a.Tree, "app.go"); !strings.Contains(got, `"hello, " + name + "!"`) {
		t.Errorf("app.go was not changed:\n%s", got)
	}
	if !st.NoTools || st.Turn.Status != "ok" {
		t.Errorf("NoTools %v, status %q; want true, ok", st.NoTools, st.Turn.Status)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 || len(reqs[0].Tools) == 0 || len(reqs[1].Tools) != 0 || len(reqs[2].Tools) != 0 {
		t.Fatalf("got %d requests; want 3: with tools (refused), then without", len(reqs))
	}
	if sys := reqs[1].Messages[0].Content; !strings.Contains(sys, "READ path 10-80") || strings.Contains(sys, "propose_diff") {
		t.Errorf("the system prompt without tools does not describe the text protocol:\n%s", sys)
	}
	last := reqs[2].Messages[len(reqs[2].Messages)-1]
	want := "READ app.go 3-6\napp.go: lines 3-6 of 11\n3\t// Greet returns a greeting.\n4\tfunc Greet(name string) string {\n5\t\treturn \"hello \" + name\n6\t}\n"
	if last.Role != "user" || last.Content != strings.TrimRight(want, "\n") {
		t.Errorf("the answer to READ: got %s %q, want %q", last.Role, last.Content, want)
	}
	notices := 0
	for _, e := range events {
		if e.Kind == agent.EventNotice && strings.Contains(e.Text, "has no tool support") {
			notices++
		}
	}
	if notices != 1 {
		t.Errorf("got %d notices of the missing tool support, want 1", notices)
	}
	if len(st.Plan) != 1 || st.Plan[0].Tool != "read_file" || len(st.Results) != 1 || !st.Results[0].OK {
		t.Errorf("plan %+v, results %+v: want the READ as a read_file", st.Plan, st.Results)
	}

	// The session remembers: the next request sends no tools at all.
	srv.Add(agenttest.Reply{Text: "Nothing else to do."})
	if err := a.Run(context.Background(), st, "anything else?"); err != nil {
		t.Fatal(err)
	}
	if reqs := srv.Requests(); len(reqs) != 4 || len(reqs[3].Tools) != 0 {
		t.Errorf("the next request offered tools again")
	}
}

func TestTextOnlyAskBlocksSecrets(t *testing.T) {
	st := agent.NewState("s", "phi3:mini", "ask", nil)
	_, srv, _, err := runTextOnly(t, st, "ask", "what does app.go do?", agent.Settings{},
		agenttest.Reply{Text: "READ app.go\nREAD .git/config\nREAD app.go 99-100"},
		agenttest.Reply{Text: "It greets.\nFiles: app.go"},
	)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	last := srv.Requests()[2].Messages
	text := last[len(last)-1].Content
	for _, want := range []string{"app.go: lines 1-11 of 11\n 1\tpackage app\n", "READ .git/config\n{\"error\":", `READ app.go 99-100
{"error":"app.go has 11 lines: line 99 is past its end","path":"app.go"}`} {
		if !strings.Contains(text, want) {
			t.Errorf("the answer lacks %q:\n%s", want, text)
		}
	}
	if len(st.Blocked) != 1 || st.Turn.Final != "It greets.\nFiles: app.go" {
		t.Errorf("blocked %+v, final %q", st.Blocked, st.Turn.Final)
	}
}

func TestTextOnlyForced(t *testing.T) {
	st := agent.NewState("s", "m", "ask", nil)
	_, srv, events, err := runTextOnly(t, st, "ask", "what does app.go do?", agent.Settings{NoTools: true},
		agenttest.Reply{Text: "It greets."},
	)
	if err != nil {
		t.Fatal(err)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || len(reqs[0].Tools) != 0 {
		t.Errorf("got %d requests, want one without tools", len(reqs))
	}
	for _, e := range events {
		if e.Kind == agent.EventNotice {
			t.Errorf("a notice when text-only mode is asked for: %q", e.Text)
		}
	}
}

func TestTextOnlyNotForOtherErrors(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	st, srv, err := run(t, tree, &reviewer{}, "ask", nil, "what does app.go do?",
		agenttest.Reply{Status: 400, Text: "the prompt is too long"},
		agenttest.Reply{Status: 400, Text: "the prompt is too long"},
	)
	if err == nil || !strings.Contains(err.Error(), "the prompt is too long") {
		t.Fatalf("Run: got %v, want the server's error", err)
	}
	if st.NoTools {
		t.Errorf("the session went text-only for an error that is not about tools")
	}
	if reqs := srv.Requests(); len(reqs) != 2 || len(reqs[1].Tools) != 0 {
		t.Errorf("got %d requests, want 2: with tools, then once without", len(reqs))
	}
	if sys := st.Messages[0].Content; strings.Contains(sys, "READ path") {
		t.Errorf("the system prompt stayed the text-only one")
	}
}

// TestTextOnlyEditForms: in text-only mode a reply's edit is proposed in
// every form pair reads, not only a fenced unified diff, also when the
// reply asks to read a file as well (the edit is proposed, the READ left).
func TestTextOnlyEditForms(t *testing.T) {
	bye := strings.Replace(appGo, `"bye " + name`, `"goodbye " + name`, 1)
	tests := []struct{ name, reply string }{{
		name:  "search/replace",
		reply: "app.go\n```go\n<<<<<<< SEARCH\n\treturn \"bye \" + name\n=======\n\treturn \"goodbye \" + name\n>>>>>>> REPLACE\n```\n",
	}, {
		name:  "v4a",
		reply: "*** Begin Patch\n*** Update File: app.go\n@@ func Bye(name string) string {\n-\treturn \"bye \" + name\n+\treturn \"goodbye \" + name\n*** End Patch\n",
	}, {
		name:  "whole file",
		reply: "app.go\n```go\n" + bye + "```\n",
	}, {
		name:  "search/replace with a READ line",
		reply: "READ app.go\n\napp.go\n```go\n<<<<<<< SEARCH\n\treturn \"bye \" + name\n=======\n\treturn \"goodbye \" + name\n>>>>>>> REPLACE\n```\n",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := agent.NewState("s", "phi3:mini", "edit", nil)
			a, srv, _, err := runTextOnly(t, st, "edit", "a longer farewell", agent.Settings{NoTools: true},
				agenttest.Reply{Text: tt.reply})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if got := readFile(t, a.Tree, "app.go"); got != bye {
				t.Errorf("app.go:\n%s", got)
			}
			if st.Turn.Applied != 1 || len(st.Turn.Commits) != 1 || len(srv.Requests()) != 1 {
				t.Errorf("applied %d, commits %v, %d requests; want 1, 1, 1", st.Turn.Applied, st.Turn.Commits, len(srv.Requests()))
			}
		})
	}
}

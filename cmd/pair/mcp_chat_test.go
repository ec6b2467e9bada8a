//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/agent/agenttest"
	"github.com/pair-cli/pair/internal/config"
)

// TestChatMCPCallApproved: in the terminal chat, the model calls a
// side-effecting tool of an MCP server; pair shows the server, the tool
// and the arguments and asks; y makes the call once and the model goes
// on. A read-only tool runs without asking.
func TestChatMCPCallApproved(t *testing.T) {
	t.Parallel()
	r := newChatRepo(t)
	r.writeFile(t, ".pair.yml", "mcp_servers:\n  - name: notebook\n    command: pair-test-mcp\n")
	r.git(t, "add", "-A")
	r.git(t, "commit", "-q", "-m", "config")
	// The person's own configuration: trusted (pair trust).
	if err := (config.TrustStore{Dir: filepath.Join(r.dir, ".git", "pair")}).Trust(filepath.Join(r.dir, ".pair.yml")); err != nil {
		t.Fatal(err)
	}
	srv := agenttest.NewServer(t,
		agenttest.Reply{ToolCalls: []agenttest.Call{chatCall(t, "call_look", "notebook__lookup", map[string]string{"key": "standup"})}},
		agenttest.Reply{ToolCalls: []agenttest.Call{chatCall(t, "call_note", "notebook__create_note", map[string]string{"title": "standup at 9"})}},
		agenttest.Reply{Text: "The note is in the notebook."},
	)
	s := r.start(t, chatModelEnv(srv), "edit")
	s.chatLine("note the standup")
	s.expect("The model wants to call notebook.create_note with:")
	s.expect(`"title": "standup at 9"`)
	s.expect("a tool of the MCP server notebook")
	s.expect("Run it [y,n]?")
	s.send("y")
	s.expect("The note is in the notebook.")
	s.chatLine("/quit")
	screen := s.wait(0)

	if strings.Count(screen, "Run it [y,n]?") != 1 {
		t.Errorf("asked %d times, want once (the lookup runs without asking):\n%s", strings.Count(screen, "Run it [y,n]?"), printable(screen))
	}
	r.wantFile(t, "notes.txt", "standup at 9\n")
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	if body := string(reqs[2].Raw); !strings.Contains(body, `"role":"tool","content":"added the note"`) {
		t.Errorf("the model was not given the call's result:\n%s", body)
	}
}

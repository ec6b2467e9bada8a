package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/agent/agenttest"
)

// TestSecretsStayOut runs, with the model's key in pair's environment, a
// command and a test that print the usual secret variables, a read and a
// search of a file that holds the key, and an MCP tool that answers it.
// The commands see none of the secrets; the key reaches neither the
// model's requests, nor the session file, nor the events shown, nor the
// state the caller reports.
func TestSecretsStayOut(t *testing.T) {
	const key = "sk-test-0123456789abcdef"
	t.Setenv("OPENAI_API_KEY", key)
	t.Setenv("MY_PROVIDER_KEY", "sk-provider-key-from-file")
	t.Setenv("GITHUB_TOKEN", "ghp-secret-token")
	t.Setenv("CLIENT_SECRET", "client-secret-value")
	t.Setenv("PAIR_TEST_VISIBLE", "visible")
	t.Setenv("KEY_COPY", key)
	leak := "echo key=[$OPENAI_API_KEY] copy=[$KEY_COPY] mine=[$MY_PROVIDER_KEY] gh=[$GITHUB_TOKEN] cs=[$CLIENT_SECRET] seen=[$PAIR_TEST_VISIBLE]\n"
	tree := newRepo(t, map[string]string{
		"app.go":    appGo,
		"leak.sh":   leak,
		"notes.txt": "the key is " + key + "\n",
	})
	srv := agenttest.NewServer(t,
		agenttest.Reply{ToolCalls: []agenttest.Call{call("run_command", map[string]any{"command": "sh leak.sh"})}},
		agenttest.Reply{ToolCalls: []agenttest.Call{
			call("read_file", map[string]any{"path": "notes.txt"}),
			call("search_files", map[string]any{"pattern": "key is"}),
			{Name: "vault__get", Arguments: `{}`},
		}},
		agenttest.Reply{ToolCalls: []agenttest.Call{call("propose_diff", map[string]any{"diff": greetDiff})}},
		agenttest.Reply{Text: "done"},
	)
	store := agent.Sessions{Dir: filepath.Join(t.TempDir(), "sessions")}
	var shown strings.Builder
	st := agent.NewState("s", "m", "edit", nil)
	a := &agent.Agent{
		Model: agent.NewClient(srv.Config()), Tree: tree, Reviewer: &reviewer{}, Checkpoint: store.Save,
		Emit: func(e agent.Event) { shown.WriteString(e.Tool + " " + e.Text + " " + e.Detail + "\n") },
		External: []agent.ExternalTool{{Server: "vault", Tool: "get", Risk: agent.RiskRead,
			Call: func(context.Context, json.RawMessage) (string, error) { return "the vault says " + key, nil }}},
		Settings: agent.Settings{
			MaxSteps: 6, MaxRetries: 2, TestCmd: "sh leak.sh; cat notes.txt; exit 1", AllowCommands: []string{"sh leak.sh"},
			APIKey: key, KeyEnv: "MY_PROVIDER_KEY",
		},
	}
	if err := a.Run(context.Background(), st, "change it"); err != nil {
		t.Fatal(err)
	}

	// The commands ran without the secrets, with the rest of pair's
	// environment.
	clean := "key=[] copy=[] mine=[] gh=[] cs=[] seen=[visible]"
	var sent strings.Builder
	for _, r := range srv.Requests() {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		sent.Write(b)
	}
	if n := strings.Count(sent.String(), clean); n < 2 {
		t.Errorf("the command's and the test's output (%q) reached the model %d times, want 2 or more:\n%s", clean, n, sent.String())
	}
	session, err := os.ReadFile(filepath.Join(store.Dir, "s.json"))
	if err != nil {
		t.Fatal(err)
	}
	report, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ where, text string }{
		{"the model's requests", sent.String()},
		{"the session file", string(session)},
		{"the events shown", shown.String()},
		{"the state reported", string(report)},
	} {
		for _, secret := range []string{key, "sk-provider-key-from-file", "ghp-secret-token", "client-secret-value"} {
			if strings.Contains(c.text, secret) {
				t.Errorf("%s hold the secret %q:\n%s", c.where, secret, c.text)
			}
		}
	}
	// In its place, the marker: in the file read, the search, the MCP
	// result and the test's output.
	for _, want := range []string{"the key is [redacted]", "the vault says [redacted]"} {
		if !strings.Contains(sent.String(), want) {
			t.Errorf("the model's requests lack %q", want)
		}
	}
	if n := strings.Count(sent.String(), "the key is [redacted]"); n < 3 {
		t.Errorf("the redacted line reached the model %d times, want 3 (read, search, test output)", n)
	}
}

// TestRedactShortKey leaves a key too short to be told from a word (a
// local server's "none") where it is.
func TestRedactShortKey(t *testing.T) {
	for _, tc := range []struct{ key, text, want string }{
		{"none", "none of it", "none of it"},
		{"", "text", "text"},
		{"sk-12345678", "a sk-12345678 b sk-12345678", "a [redacted] b [redacted]"},
	} {
		if got := (agent.Settings{APIKey: tc.key}).Redact(tc.text); got != tc.want {
			t.Errorf("key %q: got %q, want %q", tc.key, got, tc.want)
		}
	}
}

// savingReviewer pauses every proposal, saving a review that holds the
// files it was placed against, as the CLI's reviewer does.
type savingReviewer struct{ reviewer }

func (r *savingReviewer) ReviewEdits(_ context.Context, p *agent.Proposal) (*agent.Outcome, error) {
	old := map[string]string{}
	for _, fp := range p.Plans {
		old[fp.Path()] = fp.Old
	}
	p.Saved, _ = json.Marshal(old)
	return nil, agent.ErrNeedsReview
}

// TestSecretsStayOutOfPausedReview: a review paused on a file that holds
// the key is saved without it.
func TestSecretsStayOutOfPausedReview(t *testing.T) {
	const key = "sk-test-<paused>&0123456789"
	notes := key + "\none\ntwo\nthree\nfour\nfive\n"
	tree := newRepo(t, map[string]string{"notes.txt": notes})
	diff := "--- a/notes.txt\n+++ b/notes.txt\n@@ -3,4 +3,4 @@\n two\n three\n four\n-five\n+FIVE\n"
	srv := agenttest.NewServer(t, agenttest.Reply{ToolCalls: []agenttest.Call{call("propose_diff", map[string]any{"diff": diff})}})
	store := agent.Sessions{Dir: filepath.Join(t.TempDir(), "sessions")}
	st := agent.NewState("s", "m", "edit", nil)
	a := &agent.Agent{Model: agent.NewClient(srv.Config()), Tree: tree, Reviewer: &savingReviewer{}, Checkpoint: store.Save,
		Settings: agent.Settings{APIKey: key}}
	if err := a.Run(context.Background(), st, "shout five"); !errors.Is(err, agent.ErrPaused) {
		t.Fatalf("Run: got %v, want ErrPaused", err)
	}
	session, err := os.ReadFile(filepath.Join(store.Dir, "s.json"))
	if err != nil {
		t.Fatal(err)
	}
	quoted, _ := json.Marshal(key)
	if strings.Contains(string(session), key) || strings.Contains(string(session), string(quoted[1:len(quoted)-1])) {
		t.Errorf("the session file holds the key:\n%s", session)
	}
	if !strings.Contains(string(session), "[redacted]\\none") {
		t.Errorf("the saved review lacks the redacted file:\n%s", session)
	}
}

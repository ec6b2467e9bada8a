package agent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/agent/agenttest"
)

// TestRepoMapFocusAndBudget: the repo_map tool maps only what its focus
// matches, within its budget.
func TestRepoMapFocusAndBudget(t *testing.T) {
	tree := newRepo(t, map[string]string{
		"api/server.go":   "package api\n\nfunc Serve(addr string) error { return nil }\n",
		"store/db.go":     "package store\n\ntype DB struct{ Path string }\n\nfunc OpenDB(path string) (*DB, error) { return nil, nil }\n",
		"web/app.ts":      "export class App {\n  start(port: number): void {}\n}\n",
		"testdata/big.go": "package testdata\n\nfunc Fixture() {}\n",
	})
	srv := agenttest.NewServer(t,
		agenttest.Reply{ToolCalls: []agenttest.Call{
			call("repo_map", map[string]any{"focus": "store/"}),
			call("repo_map", map[string]any{"budget": 100}),
		}},
		agenttest.Reply{Text: "done"},
	)
	st := agent.NewState("s1", "m", "ask", nil)
	a := &agent.Agent{Model: agent.NewClient(srv.Config()), Tree: tree, Reviewer: &reviewer{}}
	if err := a.Run(context.Background(), st, "where is the database opened?"); err != nil {
		t.Fatal(err)
	}
	var results []string
	for _, m := range srv.Requests()[1].Messages {
		if m.Role == "tool" {
			results = append(results, m.Content)
		}
	}
	if len(results) != 2 {
		t.Fatalf("got %d tool results, want 2: %q", len(results), results)
	}
	focused := results[0]
	if !strings.Contains(focused, "store/db.go\n") || !strings.Contains(focused, "func OpenDB(path string) (*DB, error)") ||
		strings.Contains(focused, "api/") || strings.Contains(focused, "web/") {
		t.Errorf("repo_map focus store/: got\n%s", focused)
	}
	if whole := results[1]; strings.Contains(whole, "testdata") || !strings.Contains(whole, "class App") {
		t.Errorf("repo_map budget 100: got\n%s", whole)
	}
}

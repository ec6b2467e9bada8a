package agent_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/agent/agenttest"
	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

// results runs the read-only calls, all in one reply, and returns their
// results in order.
func results(t *testing.T, tree *repo.Tree, calls ...agenttest.Call) (*agent.State, []string) {
	t.Helper()
	st, _, err := run(t, tree, &reviewer{}, "ask", nil, "look around", agenttest.Reply{ToolCalls: calls}, agenttest.Reply{Text: "Done."})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	var out []string
	for _, r := range st.Results {
		out = append(out, r.Result)
	}
	if len(out) != len(calls) {
		t.Fatalf("got %d results, want %d", len(out), len(calls))
	}
	return st, out
}

func TestListFilesPlainLines(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo, "cmd/main.go": "package main\n", "README.md": "hi\n"})
	_, got := results(t, tree,
		call("list_files", map[string]any{}),
		call("list_files", map[string]any{"glob": "**/*.go"}),
		call("list_files", map[string]any{"glob": "*.txt"}),
	)
	for i, want := range []string{"README.md\napp.go\ncmd/main.go\n", "app.go\ncmd/main.go\n", "no files match *.txt\n"} {
		if got[i] != want {
			t.Errorf("list_files %d: got %q, want %q", i, got[i], want)
		}
	}
}

func TestListFilesTruncatedPlainly(t *testing.T) {
	files := map[string]string{}
	for i := range 501 {
		files[fmt.Sprintf("f%03d.txt", i)] = "x\n"
	}
	tree := newRepo(t, files)
	_, got := results(t, tree, call("list_files", map[string]any{}))
	lines := strings.Split(strings.TrimSuffix(got[0], "\n"), "\n")
	if len(lines) != 501 || lines[499] != "f499.txt" || lines[500] != "(the first 500 files only: more match; narrow the glob)" {
		t.Errorf("got %d lines ending %q, want 500 paths and the truncation said", len(lines), lines[len(lines)-2:])
	}
}

func TestGitDiffAndLogTakePath(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo, "lib/a.go": "package lib\n", ".gitignore": "*.log\n", "lib/.env": "TOKEN=x\n"})
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(tree.Dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("app.go", appGo+"// more\n")
	repotest.Git(t, tree.Dir, "commit", "-q", "-am", "app: more")
	write("app.go", appGo+"// more\n// and more\n")
	write("lib/a.go", "package lib\n\nvar A = 1\n")
	write("app.log", "log\n")
	if err := os.Symlink("lib", filepath.Join(tree.Dir, "linked")); err != nil {
		t.Fatal(err)
	}
	st, got := results(t, tree,
		call("git_diff", map[string]any{"path": "lib"}),
		call("git_log", map[string]any{"path": "lib/a.go"}),
		call("git_log", map[string]any{"path": "app.go", "n": 1}),
		call("git_diff", map[string]any{"path": "../x"}),
		call("git_diff", map[string]any{"path": "app.log"}),
		call("git_diff", map[string]any{"path": "linked/a.go"}),
		call("git_log", map[string]any{"path": "lib/.env"}),
		call("git_diff", map[string]any{"path": "nothing.go"}),
	)
	if !strings.HasPrefix(got[0], "diff --git a/lib/a.go b/lib/a.go\n") || strings.Contains(got[0], "app.go") {
		t.Errorf("git_diff lib: got %q, want lib/a.go's diff only", got[0])
	}
	if !strings.HasSuffix(got[1], " initial\n") || strings.Count(got[1], "\n") != 1 {
		t.Errorf("git_log lib/a.go: got %q, want the initial commit only", got[1])
	}
	if !strings.HasSuffix(got[2], " app: more\n") || strings.Count(got[2], "\n") != 1 {
		t.Errorf("git_log app.go n 1: got %q, want app: more", got[2])
	}
	for i, want := range []string{
		"error: ../x: path outside repository",
		"error: app.log: path is ignored by git",
		"error: pathspec 'linked/a.go' is beyond a symbolic link (linked is a symbolic link to lib; use lib/a.go)",
		"error: lib/.env: path may hold secrets",
		"error: pathspec 'nothing.go' did not match any file(s) known to git",
	} {
		if !strings.HasPrefix(got[3+i], want) {
			t.Errorf("refused path %d: got %q, want %q", i, got[3+i], want)
		}
	}
	if len(st.Blocked) != 4 {
		t.Errorf("blocked %+v, want the 4 refused paths", st.Blocked)
	}
}

func TestReadMissingFileSuggestsSimilar(t *testing.T) {
	tree := newRepo(t, map[string]string{
		"cmd/pair/main.go": "package main\n", "internal/mainly.go": "package internal\n", "app.go": appGo,
		"docs/app.pen": "pen\n", "app.pem": "key\n", ".gitignore": "build/\n", "build/app.pen": "built\n",
		"tools/main.go": "package main\n",
	})
	_, got := results(t, tree,
		call("read_file", map[string]any{"path": "main.go"}),
		call("read_file", map[string]any{"path": "app.pen"}),
		call("read_file", map[string]any{"path": "cmd/pair/mian.go"}),
		call("read_file", map[string]any{"path": "zzz/qqq.rs"}),
	)
	for i, want := range []string{
		`{"error":"cannot open main.go: no such file or directory","path":"main.go","similar_paths":["tools/main.go","cmd/pair/main.go"]}`,
		`{"error":"cannot open app.pen: no such file or directory","path":"app.pen","similar_paths":["docs/app.pen"]}`,
		`{"error":"cannot open cmd/pair/mian.go: no such file or directory","path":"cmd/pair/mian.go","similar_paths":["cmd/pair/main.go"]}`,
		`{"error":"cannot open zzz/qqq.rs: no such file or directory","path":"zzz/qqq.rs"}`,
	} {
		if got[i] != want {
			t.Errorf("read_file %d:\ngot  %s\nwant %s", i, got[i], want)
		}
	}
}

func TestRunCommandDescribesTimeout(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	srv := agenttest.NewServer(t, agenttest.Reply{Text: "Done."})
	client := agent.NewClient(srv.Config())
	client.Sleep = func(context.Context, time.Duration) error { return nil }
	a := &agent.Agent{Model: client, Tree: tree, Reviewer: &reviewer{}, Settings: agent.Settings{CommandTimeout: 90 * time.Second}}
	if err := a.Run(context.Background(), agent.NewState("s", "m", "edit", nil), "hi"); err != nil {
		t.Fatal(err)
	}
	for _, tl := range srv.Requests()[0].Tools {
		if tl.Function.Name == "run_command" && !strings.Contains(tl.Function.Description, "stopped after 90 seconds") {
			t.Errorf("run_command's description does not say the configured timeout: %q", tl.Function.Description)
		}
	}
}

func TestTextOnlyMapStatusDiffLog(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo, "lib/a.go": "package lib\n"})
	if err := os.WriteFile(filepath.Join(tree.Dir, "app.go"), []byte(appGo+"// more\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := agenttest.NewServer(t,
		agenttest.Reply{Text: "Let me look.\nMAP\nSTATUS\nDIFF app.go\nLOG lib\nDIFF ../x\nSTATUS now"},
		agenttest.Reply{Text: "app.go has one more comment."},
	)
	client := agent.NewClient(srv.Config())
	a := &agent.Agent{Model: client, Tree: tree, Reviewer: &reviewer{}, Settings: agent.Settings{NoTools: true, MaxSteps: 4}}
	st := agent.NewState("s", "m", "ask", nil)
	if err := a.Run(context.Background(), st, "what changed?"); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || len(reqs[1].Tools) != 0 {
		t.Fatalf("got %d requests, want 2 without tools", len(reqs))
	}
	msgs := reqs[1].Messages
	text := msgs[len(msgs)-1].Content
	for _, want := range []string{
		"MAP\napp.go\n",
		"STATUS\n M app.go\n",
		"DIFF app.go\ndiff --git a/app.go b/app.go\n",
		"LOG lib\n",
		" initial\n",
		"DIFF ../x\nerror: ../x: path outside repository\n",
		"STATUS now\nerror: STATUS takes nothing after it",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the answer lacks %q:\n%s", want, text)
		}
	}
	var tools []string
	for _, p := range st.Plan {
		tools = append(tools, p.Tool)
	}
	if got := strings.Join(tools, " "); got != "repo_map git_status git_diff git_log git_diff git_status" {
		t.Errorf("plan: got %s, want the requests as the read-only tools", got)
	}
	if len(st.Blocked) != 1 {
		t.Errorf("blocked %+v, want DIFF ../x", st.Blocked)
	}
}

package agent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/agent/agenttest"
	"github.com/pair-cli/pair/repo"
)

// TestSystemPrompts: the prompt of each mode teaches the unified diff
// with its worked example, says that read_file's (or READ's) numbers are
// not part of the file, and says the rules of review, commands, tests
// and when the task is done.
func TestSystemPrompts(t *testing.T) {
	settings := agent.Settings{TestCmd: "go test ./...", AllowCommands: []string{"make lint"}}
	tree := newRepo(t, map[string]string{"app.go": appGo})
	tools := systemPromptOf(t, tree, settings, false)
	text := systemPromptOf(t, tree, settings, true)
	example := "--- a/hello.py\n+++ b/hello.py\n@@ -1,6 +1,6 @@\n def greet(name):\n     if not name:\n         name = \"world\"\n-    message = \"Hello, \" + name\n+    message = \"Hello, \" + name + \"!\"\n     print(message)\n     return message\n"
	read := "hello.py: lines 1-6 of 6\n1\tdef greet(name):\n"
	common := []string{
		example, read,
		"shows each line as its number, a tab, then the line: the number and the tab are not part of the file; never copy them into a diff.",
		"The @@ numbers are hints: pair finds the place by the lines, so approximate line numbers and counts are fine.",
		"Change only what was asked, in small hunks.",
		"After a rejection without a note, do not propose that change again: go on with the rest, or ask the person.",
		`The test command is "go test ./...": pair runs it after each edit that is applied and tells you the result.`,
		"When the task is done, answer without a ",
	}
	for _, want := range append(common,
		"read_file shows each line",
		"call propose_diff with a unified diff",
		"For a new file, or to rewrite a whole file, call write_file with its complete content.",
		`unless the configuration allows it (it allows "go test ./...", "make lint"); a command chained with &&, ; or | always needs their approval, as a whole.`,
	) {
		if !strings.Contains(tools, want) {
			t.Errorf("the tools-mode prompt lacks %q:\n%s", want, tools)
		}
	}
	for _, want := range append(common, "READ shows each line", "```diff\n"+example+"```\n", `A new file is a diff from "--- /dev/null"`,
		"\nMAP [focus] ", "\nSTATUS ", "\nDIFF [path] ", "\nLOG [path] ") {
		if !strings.Contains(text, want) {
			t.Errorf("the text-only prompt lacks %q:\n%s", want, text)
		}
	}
	for _, p := range []string{tools, text} {
		for _, menu := range []string{"SEARCH/REPLACE", "V4A", "Begin Patch", "@@ -start,count"} {
			if strings.Contains(p, menu) {
				t.Errorf("a prompt offers %q:\n%s", menu, p)
			}
		}
	}
	if strings.Contains(text, "write_file") || strings.Contains(text, "run_command") {
		t.Errorf("the text-only prompt names tools it does not have:\n%s", text)
	}
	if p := systemPromptOf(t, tree, agent.Settings{}, false); strings.Contains(p, "test command") || strings.Contains(p, "it allows") {
		t.Errorf("a prompt without a test command or allowlist speaks of them:\n%s", p)
	}
}

// systemPromptOf is the system prompt of a session's first request.
func systemPromptOf(t *testing.T, tree *repo.Tree, s agent.Settings, textOnly bool) string {
	t.Helper()
	srv := agenttest.NewServer(t, agenttest.Reply{Text: "Nothing to do."})
	s.NoTools = textOnly
	a := &agent.Agent{Model: agent.NewClient(srv.Config()), Tree: tree, Reviewer: &reviewer{}, Settings: s}
	if err := a.Run(context.Background(), agent.NewState("s", "m", agent.ModeEdit, nil), "nothing"); err != nil {
		t.Fatal(err)
	}
	return srv.Requests()[0].Messages[0].Content
}

// TestParseErrorNamesOneForm: an edit that does not parse is answered
// with what is wrong and the one form the mode teaches, not a menu.
func TestParseErrorNamesOneForm(t *testing.T) {
	menu := []string{"SEARCH/REPLACE", "V4A", "Begin Patch", "whole file in a fence"}
	tree := newRepo(t, map[string]string{"app.go": appGo})
	_, srv, err := run(t, tree, &reviewer{}, "edit", nil, "greet louder",
		agenttest.Reply{ToolCalls: []agenttest.Call{call("propose_diff", map[string]any{"diff": "make Greet louder"})}},
		agenttest.Reply{Text: "I cannot."},
	)
	if err != nil {
		t.Fatal(err)
	}
	msgs := srv.Requests()[1].Messages
	fb := msgs[len(msgs)-1].Content
	want := `error: the edit does not parse: no unified diff found. Send a unified diff with propose_diff: "--- a/path" and "+++ b/path" headers, then "@@" hunks whose lines start with " " (context, copied from the file), "-" (removed) or "+" (added); or call write_file with the complete content of a new or rewritten file.`
	if fb != want {
		t.Errorf("feedback:\ngot  %q\nwant %q", fb, want)
	}

	broken := "app.go\n```go\n<<<<<<< SEARCH\n\treturn \"bye \" + name\n=======\n\treturn \"goodbye \" + name\n```\n"
	_, srv, _, err = runTextOnly(t, agent.NewState("s", "m", "edit", nil), "edit", "a longer farewell", agent.Settings{NoTools: true},
		agenttest.Reply{Text: broken}, agenttest.Reply{Text: "I give up."})
	if err != nil {
		t.Fatal(err)
	}
	msgs = srv.Requests()[1].Messages
	fb = msgs[len(msgs)-1].Content
	if !strings.HasPrefix(fb, "error: the edit does not parse: search-replace: line 7: ") ||
		!strings.HasSuffix(fb, `. Send a unified diff in a fenced block marked diff: "--- a/path" and "+++ b/path" headers, then "@@" hunks whose lines start with " " (context, copied from the file), "-" (removed) or "+" (added).`) {
		t.Errorf("text-only feedback: %q", fb)
	}
	for _, m := range append(menu, "write_file") {
		if strings.Contains(fb, m) {
			t.Errorf("text-only feedback names %q: %q", m, fb)
		}
	}
}

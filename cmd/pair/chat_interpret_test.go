//go:build unix

package main

import (
	"strings"
	"testing"

	"github.com/pair-cli/pair/agent/agenttest"
)

// TestChatInterpreted: in pair edit on a terminal, a proposal whose hunk
// places only by reading the model's change into a context line is
// offered labelled interpreted, ? explains it; approved, it is written,
// its trailer marked, and the model told the reading the person approved.
func TestChatInterpreted(t *testing.T) {
	t.Parallel()
	r := newChatRepo(t)
	diff := "--- a/app.go\n+++ b/app.go\n@@ -3,4 +3,4 @@\n" +
		"-// Greet returns a greeting.\n" +
		"+// Greet returns a friendly greeting.\n" +
		" func Greet(name string) string {\n" +
		" \treturn \"hello, \" + name + \"!\"\n" +
		" }\n"
	srv := agenttest.NewServer(t,
		agenttest.Reply{ToolCalls: []agenttest.Call{chatCall(t, "call_diff", "propose_diff", map[string]string{
			"diff": diff, "message": "app: a friendly greeting",
		})}},
		agenttest.Reply{Text: "Greet is friendly now."},
	)
	s := r.start(t, chatModelEnv(srv), "edit", "app.go")
	s.expect("files in context: app.go")
	s.chatLine("make the greeting friendly")
	s.expect("placed: interpreted")
	s.expect("approving changes line 5 to the patch's version")
	s.answer("[1/1]", "?")
	s.expect("Approving also changes that line to the model's version")
	s.answer("[1/1]", "y")
	s.expect("Write and commit 1 hunk in 1 file [")
	s.expect("]?")
	s.send("y")
	s.expectMatch(chatCommitted)
	s.expect("Greet is friendly now.")
	s.chatLine("/quit")
	s.wait(0)

	want := strings.Replace(chatAppGo, "// Greet returns a greeting.", "// Greet returns a friendly greeting.", 1)
	r.wantFile(t, "app.go", strings.Replace(want, `"hello " + name`, `"hello, " + name + "!"`, 1))
	got := strings.TrimSpace(r.git(t, "log", "-1", "--format=%(trailers:key=Pair-Hunk,valueonly)"))
	if !strings.HasPrefix(got, "app.go:3 ") || !strings.HasSuffix(got, " approved interpreted") {
		t.Errorf("Pair-Hunk trailer %q, want app.go:3 ... approved interpreted", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if body := string(reqs[1].Raw); !strings.Contains(body, "the person approved that reading") || !strings.Contains(body, "line 5 is `") {
		t.Errorf("the second request does not name the interpreted line:\n%s", body)
	}
}

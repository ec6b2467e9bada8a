package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/agent/agenttest"
	"github.com/pair-cli/pair/repo/repotest"
)

const sumC = `#include <stdio.h>

int sum(const int *xs, int n) {
    int total = 0;
    for (int i = 0; i < n; i++) {
        total += xs[i];
    }
    return total;
}
`

// sumDiff changes line 4, with lines 5-7 as context, as the model read
// them.
const sumDiff = `--- a/sum.c
+++ b/sum.c
@@ -4,4 +4,4 @@
-    int total = 0;
+    long total = 0;
     for (int i = 0; i < n; i++) {
         total += xs[i];
     }
`

// staleSession runs a session of two requests: in the first the model
// reads sum.c; between them the person changes it with change (and
// commits); in the second the model proposes sumDiff, written against
// what it read. The session is saved and loaded between the requests.
func staleSession(t *testing.T, change func(string) string) (*agent.State, *agenttest.Server, string, error) {
	t.Helper()
	tree := newRepo(t, map[string]string{"sum.c": sumC})
	store := agent.Sessions{Dir: filepath.Join(t.TempDir(), "sessions")}
	srv := agenttest.NewServer(t,
		agenttest.Reply{ToolCalls: []agenttest.Call{call("read_file", map[string]any{"path": "sum.c"})}},
		agenttest.Reply{Text: "sum adds the ints of xs in an int."},
		agenttest.Reply{ToolCalls: []agenttest.Call{call("propose_diff", map[string]any{"diff": sumDiff, "message": "sum: a long total"})}},
		agenttest.Reply{Text: "done"},
	)
	newAgent := func() *agent.Agent {
		return &agent.Agent{Model: agent.NewClient(srv.Config()), Tree: tree, Reviewer: &reviewer{},
			Settings: agent.Settings{Commit: true, MaxSteps: 6, MaxRetries: 2}, Checkpoint: store.Save}
	}
	st := agent.NewState("s", "test-model", "edit", nil)
	if err := newAgent().Run(context.Background(), st, "what does sum do?"); err != nil {
		t.Fatalf("first request: %v", err)
	}
	now := change(sumC)
	if err := os.WriteFile(filepath.Join(tree.Dir, "sum.c"), []byte(now), 0o644); err != nil {
		t.Fatal(err)
	}
	repotest.Git(t, tree.Dir, "commit", "-q", "-am", "the person's change")
	loaded, err := store.Load("s")
	if err != nil {
		t.Fatal(err)
	}
	if len(loaded.Seen) != 1 || loaded.Seen[0].Path != "sum.c" || loaded.Seen[0].Text != sumC {
		t.Fatalf("the saved session's seen files are %+v, want sum.c as read", loaded.Seen)
	}
	err = newAgent().Run(context.Background(), loaded, "sum in a long")
	return loaded, srv, readFile(t, tree, "sum.c"), err
}

// TestStaleLineKeptInSession: the person changed two context lines of the
// model's hunk after the model read the file; the hunk is placed with
// their lines kept, and the model is told so.
func TestStaleLineKeptInSession(t *testing.T) {
	person := func(s string) string {
		s = strings.Replace(s, "i < n; i++", "i < n && i < 100; i++", 1)
		return strings.Replace(s, "total += xs[i];", "total += xs[i]; /* no overflow check */", 1)
	}
	st, srv, got, err := staleSession(t, person)
	if err != nil {
		t.Fatalf("second request: %v", err)
	}
	if want := strings.Replace(person(sumC), "int total = 0;", "long total = 0;", 1); got != want {
		t.Errorf("sum.c is\n%s\nwant\n%s", got, want)
	}
	if st.Turn.Applied != 1 || len(st.Turn.Commits) != 1 {
		t.Errorf("applied %d, commits %v; want 1 and 1", st.Turn.Applied, st.Turn.Commits)
	}
	reqs := srv.Requests()
	fb := reqs[len(reqs)-1].Messages[len(reqs[len(reqs)-1].Messages)-1].Content
	for _, want := range []string{"sum.c:4: applied", "the file changed since you read it: lines 5-6 changed since the model read the file; the hunk keeps them as they are now"} {
		if !strings.Contains(fb, want) {
			t.Errorf("feedback lacks %q:\n%s", want, fb)
		}
	}
	// What the model now knows of sum.c is the file as its edit left it.
	if len(st.Seen) != 1 || st.Seen[0].Text != got {
		t.Errorf("seen after the edit: %+v", st.Seen)
	}
}

// TestConflictRefusedInSession: the person changed the line the model's
// hunk changes; the hunk is refused, and the model told why.
func TestConflictRefusedInSession(t *testing.T) {
	person := func(s string) string { return strings.Replace(s, "int total = 0;", "int total = 1;", 1) }
	st, srv, got, err := staleSession(t, person)
	if err != nil {
		t.Fatalf("second request: %v", err)
	}
	if got != person(sumC) {
		t.Errorf("sum.c changed:\n%s", got)
	}
	if st.Turn.Applied != 0 {
		t.Errorf("applied %d, want 0", st.Turn.Applied)
	}
	reqs := srv.Requests()
	fb := reqs[len(reqs)-1].Messages[len(reqs[len(reqs)-1].Messages)-1].Content
	want := `- sum.c hunk 1 (@@ -4): not placed: hunk changes lines that were changed since the model read the file (line 4 was "    int total = 0;" when the model read it, and is "    int total = 1;" (line 4) now; the hunk changes it)`
	if !strings.Contains(fb, want) {
		t.Errorf("feedback lacks %q:\n%s", want, fb)
	}
}

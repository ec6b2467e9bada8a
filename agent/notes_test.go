package agent_test

import (
	"strings"
	"testing"

	"github.com/pair-cli/pair/agent/agenttest"
	"github.com/pair-cli/pair/repo/repotest"
)

// A note given with a rejection during pair edit reaches the commit
// message, as pair apply records it.
func TestRejectionNoteInCommit(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	diff := greetDiff + "@@ -8,4 +8,4 @@\n // Bye returns a farewell.\n func Bye(name string) string {\n-\treturn \"bye \" + name\n+\treturn \"ciao \" + name\n }\n"
	rv := &reviewer{decisions: "yn", note: "keep the farewell\nin English"}
	st, _, err := run(t, tree, rv, "edit", nil, "change the words",
		agenttest.Reply{ToolCalls: []agenttest.Call{call("propose_diff", map[string]any{"diff": diff, "message": "app: new words"})}},
		agenttest.Reply{Text: "Done."},
	)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Turn.Commits) != 1 {
		t.Fatalf("got commits %v, want 1", st.Turn.Commits)
	}
	msg := repotest.Git(t, tree.Dir, "log", "-1", "--format=%B")
	want := "1 of 2 hunks approved in review.\n\nRejected with a note:\n- app.go:8: keep the farewell in English\n\nAssisted-by: pair:test-model\nPair-Session:"
	if !strings.Contains(msg, want) {
		t.Errorf("commit message lacks %q:\n%s", want, msg)
	}
}

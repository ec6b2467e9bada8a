package agent_test

import (
	"strings"
	"testing"

	"github.com/pair-cli/pair/agent/agenttest"
)

func TestReadResultsArePlainText(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo, "notes.txt": "one\n\ttwo \"quoted\"\nthree"})
	read := func(args map[string]any) agenttest.Call { return call("read_file", args) }
	st, _, err := run(t, tree, &reviewer{}, "ask", nil, "what is in app.go?",
		agenttest.Reply{ToolCalls: []agenttest.Call{
			read(map[string]any{"path": "notes.txt"}),
			read(map[string]any{"path": "app.go", "start_line": 8, "end_line": 9}),
			read(map[string]any{"path": "app.go", "max_chars": 70}),
			read(map[string]any{"path": "missing.go"}),
			call("search_files", map[string]any{"pattern": "func [A-Z]", "glob": "*.go"}),
		}},
		agenttest.Reply{Text: "It greets."},
	)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"notes.txt: lines 1-3 of 3\n1\tone\n2\t\ttwo \"quoted\"\n3\tthree\n(no newline at the end of the file)\n",
		"app.go: lines 8-9 of 11\n8\t// Bye returns a farewell.\n9\tfunc Bye(name string) string {\n",
		"app.go: lines 1-3 of 11\n 1\tpackage app\n 2\t\n 3\t// Greet returns a greeting.\n(cut at 70 characters: read on with start_line 4)\n",
		`{"error":"open missing.go: no such file or directory","path":"missing.go"}`,
		"search func [A-Z] in *.go: 2 matches\napp.go:\n4\tfunc Greet(name string) string {\n9\tfunc Bye(name string) string {\n",
	}
	if len(st.Results) != len(want) {
		t.Fatalf("got %d results, want %d", len(st.Results), len(want))
	}
	for i, w := range want {
		got := st.Results[i].Result
		if i == 3 {
			// The error's wording is the repository's; its form is JSON.
			if !strings.HasPrefix(got, `{"error":"`) || !strings.HasSuffix(got, `","path":"missing.go"}`) || st.Results[i].OK {
				t.Errorf("result %d: got %q, want a JSON error naming the path", i, got)
			}
			continue
		}
		if got != w {
			t.Errorf("result %d:\ngot  %q\nwant %q", i, got, w)
		}
	}
}

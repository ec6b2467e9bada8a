package mcp_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/agent/mcp"
)

func TestCheckEntries(t *testing.T) {
	for _, tc := range []struct {
		list []mcp.Entry
		want string
	}{
		{[]mcp.Entry{{Name: "docs", Command: "docs-mcp"}, {Name: "web", URL: "http://127.0.0.1:9/mcp", Headers: map[string]string{"A": "b"}}}, ""},
		{[]mcp.Entry{{Name: "a.b", Command: "x"}}, "name"},
		{[]mcp.Entry{{Name: "a", Command: "x"}, {Name: "a", Command: "y"}}, "named twice"},
		{[]mcp.Entry{{Name: "a"}}, "give a command"},
		{[]mcp.Entry{{Name: "a", Disabled: true}}, ""},
		{[]mcp.Entry{{Name: "a", Command: "x", URL: "http://x"}}, "not both"},
		{[]mcp.Entry{{Name: "a", URL: "http://x", Args: []string{"-v"}}}, "for a command"},
		{[]mcp.Entry{{Name: "a", Command: "x", Headers: map[string]string{"A": "b"}}}, "for a url"},
		{[]mcp.Entry{{Name: "a", Command: "x", Timeout: 30}}, "duration"},
		{[]mcp.Entry{{Name: "a", Command: "x", Tools: map[string]string{"t": "maybe"}}}, "not allow, review or deny"},
	} {
		err := mcp.CheckEntries(".pair.yml", tc.list)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: got %v, want no error", tc.list, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v: got %v, want an error saying %q", tc.list, err, tc.want)
		}
	}
}

func TestMergeEntriesAndConfigs(t *testing.T) {
	repoFile, homeFile := filepath.Join("/r", ".pair.yml"), filepath.Join("/h", ".pair.yml")
	got := mcp.MergeEntries([][]mcp.Entry{
		{{Name: "tracker", Command: "tracker-mcp"}, {Name: "browser", Disabled: true}},
		{{Name: "tracker", Command: "other"}, {Name: "browser", Command: "b"}, {Name: "notes", Command: "n", Dir: "servers", Env: map[string]string{"B": "${X}", "A": "1"}}},
	}, []string{repoFile, homeFile})
	var names []string
	for _, e := range got {
		names = append(names, e.Name+":"+e.Command)
	}
	if strings.Join(names, " ") != "tracker:tracker-mcp notes:n" {
		t.Fatalf("got %v, want the repository's tracker and the home's notes", names)
	}
	expand := func(s string) string { return strings.ReplaceAll(s, "${X}", "x") }
	cs := mcp.Configs(got, "/repo", []string{"PATH=/bin"}, expand)
	if cs[0].Dir != "/repo" || cs[1].Dir != filepath.Join("/h", "servers") {
		t.Errorf("dirs: got %q and %q", cs[0].Dir, cs[1].Dir)
	}
	if want := []string{"PATH=/bin", "A=1", "B=x"}; !slices.Equal(cs[1].Env, want) {
		t.Errorf("env: got %q, want %q", cs[1].Env, want)
	}
}

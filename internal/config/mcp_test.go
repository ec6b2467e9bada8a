package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCheckMCPServers(t *testing.T) {
	for _, tc := range []struct {
		list []MCPServer
		want string
	}{
		{[]MCPServer{{Name: "docs", Command: "docs-mcp"}, {Name: "web", URL: "http://127.0.0.1:9/mcp", Headers: map[string]string{"A": "b"}}}, ""},
		{[]MCPServer{{Name: "a.b", Command: "x"}}, "name"},
		{[]MCPServer{{Name: "a", Command: "x"}, {Name: "a", Command: "y"}}, "named twice"},
		{[]MCPServer{{Name: "a"}}, "give a command"},
		{[]MCPServer{{Name: "a", Disabled: true}}, ""},
		{[]MCPServer{{Name: "a", Command: "x", URL: "http://x"}}, "not both"},
		{[]MCPServer{{Name: "a", URL: "http://x", Args: []string{"-v"}}}, "for a command"},
		{[]MCPServer{{Name: "a", Command: "x", Headers: map[string]string{"A": "b"}}}, "for a url"},
		{[]MCPServer{{Name: "a", Command: "x", Timeout: 30}}, "duration"},
		{[]MCPServer{{Name: "a", Command: "x", Tools: map[string]string{"t": "maybe"}}}, "not allow, review or deny"},
	} {
		err := checkMCPServers(".pair.yml", tc.list)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: got %v, want no error", tc.list, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v: got %v, want an error saying %q", tc.list, err, tc.want)
		}
	}
}

func TestReadMCPConfig(t *testing.T) {
	dir := t.TempDir()
	repoFile := filepath.Join(dir, "repo.yml")
	homeFile := filepath.Join(dir, "home", "home.yml")
	if err := os.MkdirAll(filepath.Dir(homeFile), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(p, text string) {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(repoFile, `
mcp_servers:
  - name: tracker
    command: tracker-mcp
    args: ["--project", "pair"]
    env: {TRACKER_TOKEN: "${TRACKER_TOKEN}"}
    timeout: 30s
    start_timeout: 2m
    tools: {search: allow, delete_issue: deny}
  - name: docs
    url: https://docs.example.com/mcp
    headers: {Authorization: "Bearer ${DOCS_TOKEN}"}
  - name: browser
    disabled: true
`)
	write(homeFile, `
mcp_servers:
  - name: tracker
    command: other-tracker
  - name: browser
    command: browser-mcp
  - name: notes
    command: notes-mcp
    dir: servers
`)
	var lists [][]MCPServer
	for _, p := range []string{repoFile, homeFile} {
		fc, err := Read(p)
		if err != nil {
			t.Fatal(err)
		}
		lists = append(lists, fc.MCPServers)
	}
	got := mergeMCPServers(lists, []string{repoFile, homeFile})
	var names []string
	for _, s := range got {
		names = append(names, s.Name)
	}
	if strings.Join(names, " ") != "tracker docs notes" {
		t.Fatalf("servers: got %v, want the repository's tracker and docs, and the home's notes (browser is disabled)", names)
	}
	tr := got[0]
	if tr.Command != "tracker-mcp" || tr.Timeout != 30*time.Second || tr.StartTimeout != 2*time.Minute || tr.Tools["delete_issue"] != "deny" {
		t.Errorf("tracker: got %+v", tr)
	}
	if b := got[2].Base; b != filepath.Join(dir, "home") {
		t.Errorf("notes' base: got %q, want the home file's directory", b)
	}

	write(repoFile, "mcp_servers:\n  - name: x\n    command: y\n    timeout: 30\n")
	if _, err := Read(repoFile); err == nil || !strings.Contains(err.Error(), "Duration") {
		t.Errorf("a timeout without a unit: got %v", err)
	}
	write(repoFile, "mcp_servers:\n  - name: x\n    comand: y\n")
	if _, err := Read(repoFile); err == nil || !strings.Contains(err.Error(), "comand") {
		t.Errorf("a misspelt key: got %v", err)
	}
}

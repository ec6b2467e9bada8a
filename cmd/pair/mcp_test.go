package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveTestMCP is the pair-test-mcp command of the scripts: a small MCP
// server over stdio with a read-only tool (lookup {key}), a
// side-effecting one (create_note {title}: appends the title to
// notes.txt in its directory) and one that crashes (crash). With the
// argument "broken" it fails at once instead.
func serveTestMCP() {
	if len(os.Args) > 1 && os.Args[1] == "broken" {
		fmt.Fprintln(os.Stderr, "pair-test-mcp: the notebook is locked")
		os.Exit(2)
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "pair-test-mcp", Version: "1"}, nil)
	text := func(s string) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
	}
	args := func(req *sdk.CallToolRequest) map[string]any {
		var m map[string]any
		_ = json.Unmarshal(req.Params.Arguments, &m)
		return m
	}
	s.AddTool(&sdk.Tool{Name: "lookup", Description: "Look up a key in the notebook.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: json.RawMessage(`{"type":"object","properties":{"key":{"type":"string"}},"required":["key"]}`)},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text(fmt.Sprintf("%v is on page 42", args(req)["key"])), nil
		})
	s.AddTool(&sdk.Tool{Name: "create_note", Description: "Add a note to the notebook.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}`)},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			f, err := os.OpenFile("notes.txt", os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			fmt.Fprintln(f, args(req)["title"])
			return text("added the note"), nil
		})
	s.AddTool(&sdk.Tool{Name: "crash", Description: "Crash.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			fmt.Fprintln(os.Stderr, "panic: pair-test-mcp crashed on purpose")
			os.Exit(3)
			return nil, nil
		})
	if err := s.Run(context.Background(), &sdk.StdioTransport{}); err != nil && !strings.Contains(err.Error(), "EOF") {
		fmt.Fprintln(os.Stderr, err)
	}
}

func TestMCPConfigs(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-model-key")
	t.Setenv("OTHER_KEY_HOLDER", "sk-model-key")
	t.Setenv("TRACKER_TOKEN", "tok-123")
	t.Setenv("MY_PROVIDER", "sk-provider")
	cfg := modelConfig{APIKey: "sk-model-key", KeyEnv: "MY_PROVIDER", MCPServers: []mcpServerConfig{
		{Name: "tracker", Command: "tracker-mcp", Args: []string{"--token=${TRACKER_TOKEN}"}, Env: map[string]string{"TOKEN": "${TRACKER_TOKEN}"}, Dir: "tools", Base: "/home/me", Timeout: time.Second},
		{Name: "docs", URL: "https://docs.example/mcp", Headers: map[string]string{"Authorization": "Bearer ${TRACKER_TOKEN}"}},
	}}
	got := mcpConfigs(cfg, "/repo")
	if len(got) != 2 {
		t.Fatalf("got %d configs", len(got))
	}
	tr := got[0]
	if tr.Dir != "/home/me/tools" || tr.Args[0] != "--token=tok-123" || tr.Timeout != time.Second {
		t.Errorf("tracker: got %+v", tr)
	}
	env := strings.Join(tr.Env, "\n")
	if strings.Contains(env, "sk-model-key") || !strings.Contains(env, "\nTOKEN=tok-123") || !strings.Contains(env, "PATH=") {
		t.Errorf("tracker's environment: the model's key must be left out, TOKEN set, the rest kept:\n%s", env)
	}
	// The secrets of pair's environment reach a server only through its
	// env: entries.
	if strings.Contains(env, "TRACKER_TOKEN=") || strings.Contains(env, "MY_PROVIDER=") {
		t.Errorf("tracker's environment holds a secret variable it was not given:\n%s", env)
	}
	if got[1].Headers["Authorization"] != "Bearer tok-123" || got[1].Env != nil || got[1].Dir != "" {
		t.Errorf("docs: got %+v", got[1])
	}
	cfg.MCPServers[0].Dir = ""
	if d := mcpConfigs(cfg, "/repo")[0].Dir; d != "/repo" {
		t.Errorf("default dir: got %q, want the repository root", d)
	}
}

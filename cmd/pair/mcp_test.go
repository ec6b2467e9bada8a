package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

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

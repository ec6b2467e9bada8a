package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// notebookServer is a small MCP server that pair itself can run (pair
// mcp example-server), to try MCP without installing one, and for the
// bench: a notebook in notes.txt in its working directory, with a
// read-only tool and one that changes it.
func notebookServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "pair-notebook", Version: "1"}, nil)
	text := func(s string) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
	}
	args := func(req *sdk.CallToolRequest) map[string]any {
		var m map[string]any
		_ = json.Unmarshal(req.Params.Arguments, &m)
		return m
	}
	const notes = "notes.txt"
	s.AddTool(&sdk.Tool{Name: "lookup", Description: "Find the notes of the notebook that contain a word.",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: json.RawMessage(`{"type":"object","properties":{"key":{"type":"string","description":"the word to look for"}},"required":["key"],"additionalProperties":false}`)},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			key, _ := args(req)["key"].(string)
			b, err := os.ReadFile(notes)
			if err != nil && !os.IsNotExist(err) {
				return nil, err
			}
			var found []string
			for _, l := range strings.Split(string(b), "\n") {
				if l != "" && strings.Contains(strings.ToLower(l), strings.ToLower(key)) {
					found = append(found, l)
				}
			}
			if len(found) == 0 {
				return text(fmt.Sprintf("no note mentions %q", key)), nil
			}
			return text(strings.Join(found, "\n")), nil
		})
	s.AddTool(&sdk.Tool{Name: "add_note", Description: "Add a note to the notebook.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","description":"the note"}},"required":["text"],"additionalProperties":false}`)},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			note, _ := args(req)["text"].(string)
			f, err := os.OpenFile(notes, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			if _, err := fmt.Fprintln(f, strings.ReplaceAll(note, "\n", " ")); err != nil {
				return nil, err
			}
			dir, _ := os.Getwd()
			return text("added the note to " + filepath.Join(dir, notes)), nil
		})
	return s
}

// ServeNotebook serves pair's example MCP server on standard input and
// output until the client goes away: a notebook in notes.txt in the
// working directory, with a read-only tool (lookup) and one that changes
// it (add_note).
func ServeNotebook(ctx context.Context) error {
	err := notebookServer().Run(ctx, &sdk.StdioTransport{})
	if err != nil && strings.Contains(err.Error(), "EOF") {
		return nil // the client went away
	}
	return err
}

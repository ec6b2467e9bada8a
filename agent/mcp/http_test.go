package mcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pair-cli/pair/agent/mcp"
)

// TestStreamableHTTP reaches a server over streamable HTTP, with the
// configured headers on every request; without them the server refuses,
// and the start fails with a clear error.
func TestStreamableHTTP(t *testing.T) {
	t.Parallel()
	server := sdk.NewServer(&sdk.Implementation{Name: "docs", Version: "1"}, nil)
	server.AddTool(&sdk.Tool{Name: "search", Description: "Search the docs.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`)},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "found: " + string(req.Params.Arguments)}}}, nil
		})
	handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			http.Error(w, "who are you?", http.StatusUnauthorized)
			return
		}
		handler.ServeHTTP(w, r)
	}))
	defer hs.Close()

	set := mcp.Start(context.Background(), []mcp.Config{
		{Name: "docs", URL: hs.URL, Headers: map[string]string{"Authorization": "Bearer s3cret"}},
		{Name: "nokey", URL: hs.URL},
	})
	defer set.Close()
	if err := set.Servers[0].Err; err != nil {
		t.Fatalf("docs: %v", err)
	}
	if err := set.Servers[1].Err; err == nil || !strings.Contains(err.Error(), "Unauthorized") {
		t.Errorf("without the header: got %v, want a start error saying so", err)
	}
	tools := set.Tools()
	if len(tools) != 1 || tools[0].Name() != "docs.search" || tools[0].Risk != "read" {
		t.Fatalf("tools: got %+v", tools)
	}
	if err := tools[0].Check(json.RawMessage(`{}`)); err == nil || !strings.Contains(err.Error(), "q") {
		t.Errorf("Check of missing q: got %v", err)
	}
	out, err := tools[0].Call(context.Background(), json.RawMessage(`{"q":"timeouts"}`))
	if err != nil || out != `found: {"q":"timeouts"}` {
		t.Errorf("Call: got %q, %v", out, err)
	}
	if got := set.Servers[0].Describe(); got != "http "+hs.URL {
		t.Errorf("Describe: got %q", got)
	}
}

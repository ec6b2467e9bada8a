package mcp

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestNotebookWithTheSDK runs pair's example server against the official
// SDK's client: it is listed, its tools called, and bad arguments
// refused.
func TestNotebookWithTheSDK(t *testing.T) {
	t.Chdir(t.TempDir())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- serve(context.Background(), inR, outW, implementation{Name: "pair-notebook", Version: "1"}, notebookTools())
		outW.Close()
	}()
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := cs.InitializeResult().ServerInfo.Name; got != "pair-notebook" {
		t.Errorf("server name: got %q", got)
	}
	var names []string
	for tl, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tl.Name)
		if tl.Name == "lookup" && (tl.Annotations == nil || !tl.Annotations.ReadOnlyHint) {
			t.Errorf("lookup is not read-only: %+v", tl.Annotations)
		}
	}
	if strings.Join(names, " ") != "lookup add_note" {
		t.Errorf("tools: got %v", names)
	}
	text := func(name string, args any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			return err.Error(), true
		}
		return res.Content[0].(*sdk.TextContent).Text, res.IsError
	}
	if got, isErr := text("add_note", map[string]any{"text": "buy\nmilk"}); isErr || !strings.Contains(got, "added the note to") {
		t.Errorf("add_note: got %q", got)
	}
	if b, _ := os.ReadFile("notes.txt"); string(b) != "buy milk\n" {
		t.Errorf("notes.txt: got %q", b)
	}
	if got, isErr := text("lookup", map[string]any{"key": "MILK"}); isErr || got != "buy milk" {
		t.Errorf("lookup: got %q", got)
	}
	if got, isErr := text("lookup", map[string]any{"key": 3}); !isErr || !strings.Contains(got, "key is 3 (an integer), want a string") {
		t.Errorf("lookup with a number: got %q, %v", got, isErr)
	}
	if got, isErr := text("nosuch", json.RawMessage(`{}`)); !isErr || !strings.Contains(got, "unknown tool nosuch") {
		t.Errorf("an unknown tool: got %q", got)
	}
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	if err := <-served; err != nil {
		t.Errorf("serve: %v", err)
	}
}

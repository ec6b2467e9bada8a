package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// serverTool is a tool of a server that pair serves.
type serverTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Annotations map[string]any  `json:"annotations,omitempty"`
	run         func(args map[string]any) (string, error)
}

// notebookTools are the tools of pair's example server: a notebook in
// notes.txt in its working directory, with a read-only tool and one that
// changes it.
func notebookTools() []serverTool {
	const notes = "notes.txt"
	return []serverTool{
		{Name: "lookup", Description: "Find the notes of the notebook that contain a word.",
			Annotations: map[string]any{"readOnlyHint": true},
			InputSchema: json.RawMessage(`{"type":"object","properties":{"key":{"type":"string","description":"the word to look for"}},"required":["key"],"additionalProperties":false}`),
			run: func(args map[string]any) (string, error) {
				key, _ := args["key"].(string)
				b, err := os.ReadFile(notes)
				if err != nil && !os.IsNotExist(err) {
					return "", err
				}
				var found []string
				for _, l := range strings.Split(string(b), "\n") {
					if l != "" && strings.Contains(strings.ToLower(l), strings.ToLower(key)) {
						found = append(found, l)
					}
				}
				if len(found) == 0 {
					return fmt.Sprintf("no note mentions %q", key), nil
				}
				return strings.Join(found, "\n"), nil
			}},
		{Name: "add_note", Description: "Add a note to the notebook.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","description":"the note"}},"required":["text"],"additionalProperties":false}`),
			run: func(args map[string]any) (string, error) {
				note, _ := args["text"].(string)
				f, err := os.OpenFile(notes, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
				if err != nil {
					return "", err
				}
				defer f.Close()
				if _, err := fmt.Fprintln(f, strings.ReplaceAll(note, "\n", " ")); err != nil {
					return "", err
				}
				dir, _ := os.Getwd()
				return "added the note to " + filepath.Join(dir, notes), nil
			}},
	}
}

// ServeNotebook serves pair's example MCP server on standard input and
// output until the client goes away: a notebook in notes.txt in the
// working directory, with a read-only tool (lookup) and one that changes
// it (add_note).
func ServeNotebook(ctx context.Context) error {
	return serve(ctx, os.Stdin, os.Stdout, implementation{Name: "pair-notebook", Version: "1"}, notebookTools())
}

// serve serves tools over stdio, one request at a time, until in ends
// (nil) or ctx does.
func serve(ctx context.Context, in io.Reader, out io.Writer, info implementation, tools []serverTool) error {
	var wmu sync.Mutex
	reply := func(id json.RawMessage, result any, rerr *rpcError) {
		m := map[string]any{"jsonrpc": "2.0", "id": id}
		if rerr != nil {
			m["error"] = rerr
		} else {
			m["result"] = result
		}
		b, err := json.Marshal(m)
		if err != nil {
			return
		}
		wmu.Lock()
		defer wmu.Unlock()
		_, _ = out.Write(append(b, '\n'))
	}
	done := make(chan error, 1)
	go func() {
		done <- readLines(in, func(line []byte) {
			msgs, err := decodeMessages(line)
			if err != nil {
				reply(json.RawMessage("null"), nil, &rpcError{Code: -32700, Message: "parse error: " + err.Error()})
				return
			}
			for _, m := range msgs {
				if m.Method == "" || len(m.ID) == 0 {
					continue // a notification, or an answer to nothing pair asked
				}
				result, rerr := handleRequest(&m, info, tools)
				reply(m.ID, result, rerr)
			}
		})
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return nil
	}
}

// handleRequest answers one request of a client.
func handleRequest(m *message, info implementation, tools []serverTool) (any, *rpcError) {
	switch m.Method {
	case "initialize":
		var p initializeParams
		_ = json.Unmarshal(m.Params, &p)
		v := p.ProtocolVersion
		if !slices.Contains(protocolVersions, v) {
			v = protocolVersions[0]
		}
		return map[string]any{"protocolVersion": v, "capabilities": map[string]any{"tools": map[string]any{}}, "serverInfo": info}, nil
	case "ping":
		return map[string]any{}, nil
	case "tools/list":
		return map[string]any{"tools": tools}, nil
	case "tools/call":
		var p struct {
			Name      string         `json:"name"`
			Arguments map[string]any `json:"arguments"`
		}
		if err := json.Unmarshal(m.Params, &p); err != nil {
			return nil, &rpcError{Code: -32602, Message: "invalid params: " + err.Error()}
		}
		i := slices.IndexFunc(tools, func(t serverTool) bool { return t.Name == p.Name })
		if i < 0 {
			return nil, &rpcError{Code: -32602, Message: "unknown tool " + p.Name}
		}
		if sc, err := compileSchema(tools[i].InputSchema); err == nil {
			b, _ := json.Marshal(p.Arguments)
			if p.Arguments == nil {
				b = []byte(`{}`)
			}
			if err := sc.ValidateJSON(b); err != nil {
				return nil, &rpcError{Code: -32602, Message: "invalid arguments: " + err.Error()}
			}
		}
		text, err := tools[i].run(p.Arguments)
		if err != nil {
			return map[string]any{"content": []any{map[string]any{"type": "text", "text": err.Error()}}, "isError": true}, nil
		}
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}}, nil
	}
	return nil, &rpcError{Code: codeMethodNotFound, Message: "method not found: " + m.Method}
}

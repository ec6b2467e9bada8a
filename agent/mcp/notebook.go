package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
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

// maxNotes is the most of notes.txt that the notebook reads.
const maxNotes = 1 << 20

// openNotes opens the notebook's file name with flag, by the rule for the
// files pair itself reads: never through a symbolic link (in the tree or
// out of it), only a regular file. The name is looked at without
// following it, and the file opened is checked to be the one looked at,
// so that a link put there meanwhile is not followed either. A missing
// file is fs.ErrNotExist, unless flag creates it.
func openNotes(name string, flag int) (*os.File, error) {
	fi, err := os.Lstat(name)
	switch {
	case err != nil && !(errors.Is(err, fs.ErrNotExist) && flag&os.O_CREATE != 0):
		return nil, err
	case err == nil && fi.Mode()&fs.ModeSymlink != 0:
		return nil, fmt.Errorf("%s is a symbolic link: the notebook reads and writes no file through a link", name)
	case err == nil && !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file: the notebook reads and writes only a regular file", name)
	}
	f, err := os.OpenFile(name, flag|openNoFollow, 0o644)
	if err != nil {
		if isLinkLoop(err) {
			return nil, fmt.Errorf("%s is a symbolic link: the notebook reads and writes no file through a link", name)
		}
		return nil, err
	}
	got, err := f.Stat()
	if err == nil && (!got.Mode().IsRegular() || fi != nil && !os.SameFile(fi, got)) {
		err = fmt.Errorf("%s changed while the notebook opened it: it reads and writes only a regular file, never through a link", name)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// readNotes reads the notebook's file: nothing when it is missing, and at
// most maxNotes bytes (see openNotes).
func readNotes(name string) ([]byte, error) {
	f, err := openNotes(name, os.O_RDONLY)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxNotes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxNotes {
		return nil, fmt.Errorf("%s is larger than %d bytes, the most the notebook reads", name, maxNotes)
	}
	return b, nil
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
				b, err := readNotes(notes)
				if err != nil {
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
				f, err := openNotes(notes, os.O_APPEND|os.O_CREATE|os.O_WRONLY)
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
// it (add_note). notes.txt is never a symbolic link, nor read past
// maxNotes bytes (see openNotes).
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

package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// serverEnv selects what the test binary serves when it runs as an MCP
// server: "good" (the tools below), "garbage" (a hand-made server that
// answers tool calls with nonsense), "silent" (never answers) or "exit"
// (fails at once).
const serverEnv = "PAIR_MCP_TEST_SERVER"

// TestMain runs the test binary as an MCP server when serverEnv is set:
// the tests start it as a real subprocess over stdio.
func TestMain(m *testing.M) {
	switch os.Getenv(serverEnv) {
	case "":
		os.Exit(m.Run())
	case "good":
		serveGood()
	case "garbage":
		serveGarbage()
	case "silent":
		time.Sleep(time.Hour)
	case "exit":
		fmt.Fprintln(os.Stderr, "test server: cannot open the database")
		os.Exit(2)
	}
	os.Exit(0)
}

// serveGood serves, over stdio:
//
//	lookup {key}        read-only: "the value of KEY is 42"
//	whoami              read-only: {"pid": N, "child": N} (the child is a
//	                    sleep started with PAIR_MCP_TEST_CHILD=1)
//	create_note {title} side-effecting: appends the title to the file
//	                    $PAIR_MCP_TEST_NOTES
//	hang                read-only: never answers, ignoring cancellation
//	crash               read-only: writes to standard error and exits 3
//	fail                read-only: a tool error (isError)
func serveGood() {
	child := 0
	if os.Getenv("PAIR_MCP_TEST_CHILD") == "1" {
		c := exec.Command("sleep", "600")
		if err := c.Start(); err == nil {
			child = c.Process.Pid
		}
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "pair-test", Version: "1"}, nil)
	text := func(s string) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
	}
	args := func(req *sdk.CallToolRequest) map[string]any {
		var m map[string]any
		_ = json.Unmarshal(req.Params.Arguments, &m)
		return m
	}
	readOnly := &sdk.ToolAnnotations{ReadOnlyHint: true}
	s.AddTool(&sdk.Tool{Name: "lookup", Description: "Look up a key.", Annotations: readOnly,
		InputSchema: json.RawMessage(`{"type":"object","properties":{"key":{"type":"string","minLength":1}},"required":["key"],"additionalProperties":false}`)},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text(fmt.Sprintf("the value of %v is 42", args(req)["key"])), nil
		})
	s.AddTool(&sdk.Tool{Name: "whoami", Description: "The server's process.", Annotations: readOnly,
		InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text(fmt.Sprintf(`{"pid": %d, "child": %d}`, os.Getpid(), child)), nil
		})
	s.AddTool(&sdk.Tool{Name: "create_note", Description: "Create a note in the notebook.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}`)},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			f, err := os.OpenFile(os.Getenv("PAIR_MCP_TEST_NOTES"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			fmt.Fprintln(f, args(req)["title"])
			return text("created the note"), nil
		})
	s.AddTool(&sdk.Tool{Name: "hang", Description: "Never answers.", Annotations: readOnly,
		InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			time.Sleep(time.Hour)
			return nil, nil
		})
	s.AddTool(&sdk.Tool{Name: "crash", Description: "Crashes the server.", Annotations: readOnly,
		InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			fmt.Fprintln(os.Stderr, "panic: the test server crashed on purpose")
			os.Exit(3)
			return nil, nil
		})
	s.AddTool(&sdk.Tool{Name: "fail", Description: "Fails.", Annotations: readOnly,
		InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			r := text("no such key")
			r.IsError = true
			return r, nil
		})
	if err := s.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
}

// serveGarbage speaks just enough JSON-RPC to be listed, and answers every
// tool call with a result that is not a tool result.
func serveGarbage() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || len(req.ID) == 0 {
			continue // a notification
		}
		var result any
		switch req.Method {
		case "initialize":
			result = map[string]any{"protocolVersion": req.Params.ProtocolVersion, "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": "garbage", "version": "1"}}
		case "tools/list":
			result = map[string]any{"tools": []any{map[string]any{"name": "weird", "inputSchema": map[string]any{"type": "object"},
				"annotations": map[string]any{"readOnlyHint": true}}}}
		case "tools/call":
			result = map[string]any{"content": "this is not a list of content"}
		default:
			_ = out.Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "method not found"}})
			continue
		}
		_ = out.Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	}
}

// serverConfig is the configuration of a test server named name that
// runs this test binary in the given mode.
func serverConfig(t *testing.T, name, mode string, extraEnv ...string) mcpConfig {
	t.Helper()
	// Under -race a process sleeps a second at exit unless told not to.
	env := append(os.Environ(), serverEnv+"="+mode, "GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	return mcpConfig{Name: name, Command: os.Args[0], Env: append(env, extraEnv...)}
}

// processGone reports whether the process pid is gone: it does not
// exist, or is a zombie (reaped by whoever adopted it).
func processGone(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		if _, serr := os.Stat("/proc/self/stat"); serr != nil {
			return exec.Command("kill", "-0", fmt.Sprint(pid)).Run() != nil // no /proc
		}
		return true
	}
	// pid (comm) STATE ...: comm may hold spaces and parentheses.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}

// waitGone waits a few seconds for pid to be gone.
func waitGone(t *testing.T, what string, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !processGone(pid) {
		if time.Now().After(deadline) {
			t.Errorf("%s (pid %d) is still running", what, pid)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/agent/mcp"
)

// serversEnv names the node_modules directory where
// scripts/mcp-servers.sh installed the reference MCP servers
// (@modelcontextprotocol/server-everything and server-filesystem).
const serversEnv = "PAIR_MCP_SERVERS"

// referenceServer is the path of a reference server's entry point, or
// skips the test when the servers are not installed (and fails it when
// PAIR_REQUIRE_TOOLS=1).
func referenceServer(t *testing.T, pkg string) (node, script string) {
	t.Helper()
	dir := os.Getenv(serversEnv)
	need := func(format string, args ...any) {
		t.Helper()
		if os.Getenv("PAIR_REQUIRE_TOOLS") == "1" {
			t.Fatalf(format, args...)
		}
		t.Skipf(format, args...)
	}
	if dir == "" {
		need("%s is not set: install the servers with scripts/mcp-servers.sh DIR and set %s=DIR/node_modules", serversEnv, serversEnv)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		need("node is not on PATH")
	}
	script = filepath.Join(dir, "@modelcontextprotocol", pkg, "dist", "index.js")
	if _, err := os.Stat(script); err != nil {
		need("%s: %v", pkg, err)
	}
	return node, script
}

// toolsOf returns the server's tools by their name on the server.
func toolsOf(t *testing.T, set *mcp.Set) map[string]agent.ExternalTool {
	t.Helper()
	if err := set.Servers[0].Err; err != nil {
		t.Fatalf("%s did not start: %v", set.Servers[0].Name(), err)
	}
	out := map[string]agent.ExternalTool{}
	for _, tl := range set.Tools() {
		out[tl.Tool] = tl
	}
	for _, tl := range set.Servers[0].Tools {
		if tl.Unchecked != "" {
			t.Errorf("%s: arguments unchecked: %s", tl.Name, tl.Unchecked)
		}
	}
	return out
}

// callTool checks the arguments and calls the tool, as the agent does.
func callTool(t *testing.T, tools map[string]agent.ExternalTool, name, args string) (string, error) {
	t.Helper()
	tl, ok := tools[name]
	if !ok {
		t.Fatalf("the server has no tool %s", name)
	}
	if err := tl.Check(json.RawMessage(args)); err != nil {
		return "", fmt.Errorf("invalid arguments: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return tl.Call(ctx, json.RawMessage(args))
}

// everythingChecks calls a few tools of server-everything.
func everythingChecks(t *testing.T, set *mcp.Set) {
	t.Helper()
	tools := toolsOf(t, set)
	for _, tc := range []struct{ tool, args, want string }{
		{"echo", `{"message":"hello there"}`, "Echo: hello there"},
		{"get-sum", `{"a":2,"b":3.5}`, "5.5"},
		{"get-tiny-image", `{}`, "[an image (image/png, "},
		{"get-resource-links", `{"count":2}`, "[resource link: "},
		{"get-structured-content", `{"location":"Chicago"}`, "temperature"},
	} {
		got, err := callTool(t, tools, tc.tool, tc.args)
		if err != nil || !strings.Contains(got, tc.want) {
			t.Errorf("%s %s: got %q, %v, want it to say %q", tc.tool, tc.args, got, err, tc.want)
		}
	}
	// Wrong arguments never reach the server: the message names the field.
	for _, tc := range []struct{ tool, args, want string }{
		{"get-sum", `{"a":"2","b":3}`, `/properties/a: type: a is "2" (a string), want a number`},
		{"echo", `{}`, `required: the value lacks the required property ["message"]`},
		{"get-resource-links", `{"count":11}`, "/properties/count: maximum: count is 11, want at most 10"},
		{"get-structured-content", `{"location":"Paris"}`, `/properties/location: enum: location is "Paris", want one of ["New York","Chicago","Los Angeles"]`},
	} {
		_, err := callTool(t, tools, tc.tool, tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: got %v, want an error saying %q", tc.tool, tc.args, err, tc.want)
		}
	}
	if tools["get-sum"].Risk != agent.RiskRead || tools["echo"].Risk != agent.RiskRead {
		t.Errorf("get-sum and echo are read-only on the server: risks %q, %q", tools["get-sum"].Risk, tools["echo"].Risk)
	}
}

func TestReferenceEverythingStdio(t *testing.T) {
	t.Parallel()
	node, script := referenceServer(t, "server-everything")
	set := mcp.Start(context.Background(), []mcp.Config{{Name: "everything", Command: node, Args: []string{script, "stdio"}}})
	defer set.Close()
	everythingChecks(t, set)
}

func TestReferenceEverythingStreamableHTTP(t *testing.T) {
	t.Parallel()
	node, script := referenceServer(t, "server-everything")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(node, script, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	listening := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "listening on port") {
				listening <- true
			}
		}
		close(listening)
	}()
	select {
	case ok := <-listening:
		if !ok {
			t.Fatal("the server ended before it listened")
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the server did not listen within a minute")
	}
	set := mcp.Start(context.Background(), []mcp.Config{{Name: "everything", URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port)}})
	defer set.Close()
	everythingChecks(t, set)
}

func TestReferenceFilesystem(t *testing.T) {
	t.Parallel()
	node, script := referenceServer(t, "server-filesystem")
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "plan.txt")
	if err := os.WriteFile(file, []byte("water the plants\nfeed the cat\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	set := mcp.Start(context.Background(), []mcp.Config{{Name: "fs", Command: node, Args: []string{script, dir}}})
	defer set.Close()
	tools := toolsOf(t, set)
	if got, err := callTool(t, tools, "read_text_file", fmt.Sprintf(`{"path":%q}`, file)); err != nil || got != "water the plants\nfeed the cat\n" {
		t.Errorf("read_text_file: got %q, %v", got, err)
	}
	if got, err := callTool(t, tools, "read_text_file", fmt.Sprintf(`{"path":%q,"head":1}`, file)); err != nil || strings.TrimSpace(got) != "water the plants" {
		t.Errorf("read_text_file head 1: got %q, %v", got, err)
	}
	if got, err := callTool(t, tools, "list_directory", fmt.Sprintf(`{"path":%q}`, dir)); err != nil || !strings.Contains(got, "plan.txt") {
		t.Errorf("list_directory: got %q, %v", got, err)
	}
	// The server refuses a path outside its directory: a tool error.
	if _, err := callTool(t, tools, "read_text_file", `{"path":"/etc/hostname"}`); err == nil || !strings.Contains(err.Error(), "fs.read_text_file failed") {
		t.Errorf("outside the directory: got %v, want the tool's error", err)
	}
	_, err = callTool(t, tools, "read_text_file", `{"path":5}`)
	if err == nil || !strings.Contains(err.Error(), "/properties/path: type: path is 5 (an integer), want a string") {
		t.Errorf("a number for the path: got %v", err)
	}
	if tools["read_text_file"].Risk != agent.RiskRead || tools["write_file"].Risk != agent.RiskReview {
		t.Errorf("risks: read_text_file %q, write_file %q", tools["read_text_file"].Risk, tools["write_file"].Risk)
	}
}

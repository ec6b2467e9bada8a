package bench

import (
	"context"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/internal/replay"
)

func TestMeasureSent(t *testing.T) {
	body := []byte(`{"messages":[{"role":"user","content":"read a.go"},{"role":"tool","content":"a.go: lines 1-1 of 1\n1\tpackage a\n"}]}`)
	got := MeasureSent([][]byte{body, body, []byte("not json")})
	if got.Chars != 2*(9+33) || got.ToolChars != 2*33 {
		t.Errorf("got %+v, want the decoded content counted per request: 84 characters, 66 of tool results", got)
	}
	if got.Bytes != 2*len(body)+len("not json") {
		t.Errorf("got %d bytes, want %d: every body counts whole", got.Bytes, 2*len(body)+len("not json"))
	}
	if got.ToolTokens == 0 || got.Tokens <= got.ToolTokens {
		t.Errorf("got %+v, want token estimates for both", got)
	}
	if n := replay.EstimateTokens("func Greet(name string) string {"); n < 6 || n > 12 {
		t.Errorf("EstimateTokens: got %d for a line of Go, want about 9", n)
	}
}

// TestMeasureSentCountsEverything: the bytes are those of the request
// bodies a server recorded from pair's real client, and the text the
// model reads holds the tool definitions and its tool calls too.
func TestMeasureSentCountsEverything(t *testing.T) {
	srv := replay.New(func(msg string) { t.Error(msg) }, replay.Reply{Text: "ok"}, replay.Reply{Text: "done"})
	defer srv.Close()
	client := agent.NewClient(agent.Config{BaseURL: srv.URL(), APIKey: "k", Model: "m"})
	defs := []agent.ToolDef{{Name: "read_file", Description: "Read a file. At most 20000 characters a call.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)}}
	msgs := []agent.Message{{Role: agent.RoleSystem, Content: "You are pair."}, {Role: agent.RoleUser, Content: "read a.go"}}
	if _, err := client.Complete(context.Background(), msgs, defs, nil); err != nil {
		t.Fatal(err)
	}
	msgs = append(msgs,
		agent.Message{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"a.go"}`}}},
		agent.Message{Role: agent.RoleTool, ToolCallID: "c1", Content: "a.go: lines 1-1 of 1\n1\tpackage a\n"})
	if _, err := client.Complete(context.Background(), msgs, defs, nil); err != nil {
		t.Fatal(err)
	}
	srv.Verify()
	var bodies [][]byte
	total, defChars := 0, 0
	for _, r := range srv.Requests() {
		bodies = append(bodies, r.Raw)
		total += len(r.Raw)
		var req struct {
			Tools json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal(r.Raw, &req); err != nil {
			t.Fatal(err)
		}
		defChars += utf8.RuneCount(req.Tools)
	}
	got := MeasureSent(bodies)
	if got.Bytes != total {
		t.Errorf("got %d bytes, want %d: the bytes of the recorded request bodies", got.Bytes, total)
	}
	if got.ToolDefChars != defChars || defChars == 0 || got.ToolDefTokens == 0 {
		t.Errorf("tool definitions: got %d characters (%d tokens), want %d", got.ToolDefChars, got.ToolDefTokens, defChars)
	}
	content := 2*len("You are pair.read a.go") + len("read_file"+`{"path":"a.go"}`) + len("a.go: lines 1-1 of 1\n1\tpackage a\n")
	if got.Chars != content+defChars {
		t.Errorf("got %d characters, want %d: the messages, the tool call and the tool definitions of both requests", got.Chars, content+defChars)
	}
}

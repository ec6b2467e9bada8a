package agent

import (
	"strings"
	"testing"
)

func TestCompact(t *testing.T) {
	big := strings.Repeat("x", 5000)
	msgs := []Message{
		{Role: RoleSystem, Content: "system"},
		{Role: RoleUser, Content: "files...\n" + big + "\nfirst", Request: "first"},
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "a", Name: "read_file", Arguments: `{"path":"x"}`}}},
		{Role: RoleTool, ToolCallID: "a", Content: big},
		{Role: RoleAssistant, Content: "done"},
		{Role: RoleUser, Content: "second", Request: "second"},
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "b", Name: "read_file", Arguments: `{"path":"y"}`}}},
		{Role: RoleTool, ToolCallID: "b", Content: big},
	}
	if got := compact(msgs, 1_000_000); len(got) != len(msgs) || got[3].Content != big {
		t.Fatalf("under budget: the messages changed")
	}
	got := compact(msgs, 8000)
	if len(got) != len(msgs) {
		t.Fatalf("got %d messages, want %d: the structure must stay", len(got), len(msgs))
	}
	if got[3].Content != elided {
		t.Errorf("the oldest tool result was not elided: %d chars", len(got[3].Content))
	}
	if got[7].Content != big {
		t.Errorf("the turn under way lost its tool result")
	}
	if !strings.HasPrefix(got[1].Content, "first\n\n") || len(got[1].Content) > 400 {
		t.Errorf("the old request lost its text or kept its files: %q", got[1].Content[:40])
	}
	if msgs[3].Content != big || msgs[1].Content == got[1].Content {
		t.Errorf("compact changed the state's messages")
	}
	if got[0].Content != "system" || got[4].Content != "done" || got[5].Content != "second" {
		t.Errorf("system, assistant or current request changed")
	}
}

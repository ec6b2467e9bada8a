package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/agent/agenttest"
)

// fakeClock records the waits and notices of a client instead of waiting.
type fakeClock struct {
	sleeps  []time.Duration
	notices []string
}

// newClient returns a client of s, in memory, that records its waits and
// notices in the returned fakeClock.
func newClient(t *testing.T, s *agenttest.Server) (*agent.Client, *fakeClock) {
	t.Helper()
	c := agent.NewClient(s.Config())
	fc := &fakeClock{}
	c.Sleep = func(ctx context.Context, d time.Duration) error {
		fc.sleeps = append(fc.sleeps, d)
		return ctx.Err()
	}
	c.Notice = func(msg string) { fc.notices = append(fc.notices, msg) }
	return c, fc
}

var userAsks = []agent.Message{{Role: agent.RoleUser, Content: "hello"}}

func TestCompleteStreamsText(t *testing.T) {
	text := "Hello! This reply arrives in many small pieces, ünïcödé included — and in order."
	s := agenttest.NewServer(t, agenttest.Reply{Text: text, Chunk: 3})
	c, _ := newClient(t, s)
	var tokens []string
	reply, err := c.Complete(context.Background(), userAsks, nil, func(tok string) { tokens = append(tokens, tok) })
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if len(tokens) < 10 {
		t.Errorf("got %d tokens, want the text in many pieces: %q", len(tokens), tokens)
	}
	if got := strings.Join(tokens, ""); got != text {
		t.Errorf("tokens joined: got %q, want %q", got, text)
	}
	if reply.Content != text {
		t.Errorf("Content: got %q, want %q", reply.Content, text)
	}
	if reply.FinishReason != "stop" {
		t.Errorf("FinishReason: got %q, want stop", reply.FinishReason)
	}
	if len(reply.ToolCalls) != 0 {
		t.Errorf("ToolCalls: got %v, want none", reply.ToolCalls)
	}
	req := s.Requests()[0]
	if !req.Stream || !req.IncludeUsage() {
		t.Errorf("request: stream %v, include_usage %v; want both", req.Stream, req.IncludeUsage())
	}
	if req.Model != "agenttest-model" {
		t.Errorf("request model: got %q, want agenttest-model", req.Model)
	}
}

func TestCompleteJoinsToolCalls(t *testing.T) {
	calls := []agenttest.Call{
		{ID: "call_read", Name: "read_file", Arguments: `{"path": "internal/server/handler.go", "max_chars": 20000}`},
		{ID: "call_search", Name: "search_files", Arguments: `{"pattern": "func New[A-Z]\\w*\\(", "glob": "**/*.go"}`},
	}
	want := []agent.ToolCall{
		{ID: "call_read", Name: "read_file", Arguments: calls[0].Arguments},
		{ID: "call_search", Name: "search_files", Arguments: calls[1].Arguments},
	}
	tests := []struct {
		name  string
		reply agenttest.Reply
	}{
		{"one after the other", agenttest.Reply{ToolCalls: calls, Chunk: 4}},
		{"interleaved", agenttest.Reply{ToolCalls: calls, Chunk: 4, Interleave: true}},
		{"without index", agenttest.Reply{ToolCalls: calls, Chunk: 4, NoIndex: true}},
		{"with text", agenttest.Reply{Text: "Let me look.", ToolCalls: calls, Interleave: true}},
		{"one chunk each", agenttest.Reply{ToolCalls: calls, Chunk: 1000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := agenttest.NewServer(t, tt.reply)
			c, _ := newClient(t, s)
			var tokens []string
			reply, err := c.Complete(context.Background(), userAsks, nil, func(tok string) { tokens = append(tokens, tok) })
			if err != nil {
				t.Fatalf("Complete: %v", err)
			}
			if !reflect.DeepEqual(reply.ToolCalls, want) {
				t.Errorf("ToolCalls:\ngot  %+v\nwant %+v", reply.ToolCalls, want)
			}
			if reply.FinishReason != "tool_calls" {
				t.Errorf("FinishReason: got %q, want tool_calls", reply.FinishReason)
			}
			if got := strings.Join(tokens, ""); got != tt.reply.Text || reply.Content != tt.reply.Text {
				t.Errorf("text: tokens %q, Content %q; want %q", got, reply.Content, tt.reply.Text)
			}
		})
	}
}

func TestCompleteUsage(t *testing.T) {
	want := agent.Usage{PromptTokens: 1234, CompletionTokens: 56, TotalTokens: 1290}
	s := agenttest.NewServer(t, agenttest.Reply{Text: "ok", Usage: &agenttest.Usage{PromptTokens: 1234, CompletionTokens: 56, TotalTokens: 1290}})
	c, _ := newClient(t, s)
	reply, err := c.Complete(context.Background(), userAsks, nil, nil)
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if reply.Usage != want {
		t.Errorf("Usage: got %+v, want %+v", reply.Usage, want)
	}
}

func TestCompleteFinishReasonLength(t *testing.T) {
	s := agenttest.NewServer(t, agenttest.Reply{Text: "cut sh", FinishReason: "length"})
	c, _ := newClient(t, s)
	reply, err := c.Complete(context.Background(), userAsks, nil, nil)
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if reply.FinishReason != "length" || reply.Content != "cut sh" {
		t.Errorf("got %q %q, want length and the text", reply.FinishReason, reply.Content)
	}
}

func TestCompleteStreamWithoutFinishReason(t *testing.T) {
	tests := []struct {
		name string
		sse  string
	}{
		{"cut before the finish reason", `data: {"choices":[{"index":0,"delta":{"content":"Hello"}}]}` + "\n\n"},
		{"cut before the finish reason, with [DONE]", `data: {"choices":[{"index":0,"delta":{"content":"Hello"}}]}` + "\n\ndata: [DONE]\n\n"},
		{"finish reason null", `data: {"choices":[{"index":0,"delta":{"content":"Hello"},"finish_reason":null}]}` + "\n\ndata: [DONE]\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := agenttest.NewServer(t, agenttest.Reply{SSE: tt.sse})
			c, fc := newClient(t, s)
			reply, err := c.Complete(context.Background(), userAsks, nil, nil)
			if !errors.Is(err, agent.ErrNoFinish) {
				t.Fatalf("Complete: got error %v, want ErrNoFinish", err)
			}
			if reply.Content != "Hello" {
				t.Errorf("Content: got %q, want what arrived", reply.Content)
			}
			if len(fc.sleeps) != 0 {
				t.Errorf("retried after ErrNoFinish: slept %v", fc.sleeps)
			}
		})
	}
}

func TestCompleteStreamWithoutDone(t *testing.T) {
	// A finish reason is enough, even when the server never sends [DONE].
	sse := `data: {"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":"stop"}]}` + "\n\n"
	s := agenttest.NewServer(t, agenttest.Reply{SSE: sse})
	c, _ := newClient(t, s)
	reply, err := c.Complete(context.Background(), userAsks, nil, nil)
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if reply.Content != "Hi" || reply.FinishReason != "stop" {
		t.Errorf("got %+v", reply)
	}
}

func TestCompleteErrorInStream(t *testing.T) {
	sse := `data: {"error":{"message":"the upstream provider is overloaded","type":"server_error"}}` + "\n\n"
	s := agenttest.NewServer(t, agenttest.Reply{SSE: sse})
	c, _ := newClient(t, s)
	_, err := c.Complete(context.Background(), userAsks, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "the upstream provider is overloaded") {
		t.Fatalf("Complete: got error %v, want the server's message", err)
	}
}

func TestCompleteRetryAfter(t *testing.T) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name       string
		retryAfter string
		want       time.Duration
	}{
		{"seconds", "2", 2 * time.Second},
		{"HTTP date", now.Add(5 * time.Second).Format(http.TimeFormat), 5 * time.Second},
		{"capped", "3600", agent.DefaultMaxDelay},
		{"unreadable", "soon", agent.DefaultBaseDelay},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := agenttest.NewServer(t,
				agenttest.Reply{Status: http.StatusTooManyRequests, RetryAfter: tt.retryAfter, Text: "Rate limit reached"},
				agenttest.Reply{Text: "finally"},
			)
			c, fc := newClient(t, s)
			c.Now = func() time.Time { return now }
			var tokens []string
			reply, err := c.Complete(context.Background(), userAsks, nil, func(tok string) { tokens = append(tokens, tok) })
			if err != nil {
				t.Fatalf("Complete: %v", err)
			}
			if reply.Content != "finally" || strings.Join(tokens, "") != "finally" {
				t.Errorf("got Content %q, tokens %q; want the second reply", reply.Content, tokens)
			}
			if want := []time.Duration{tt.want}; !reflect.DeepEqual(fc.sleeps, want) {
				t.Errorf("slept %v, want %v", fc.sleeps, want)
			}
			if len(fc.notices) != 1 {
				t.Fatalf("notices: got %q, want one", fc.notices)
			}
			if got := fc.notices[0]; !strings.HasPrefix(got, "pair: the model server answered 429 Too Many Requests; retrying in ") ||
				!strings.HasSuffix(got, " (attempt 2 of 4)") {
				t.Errorf("notice: got %q", got)
			}
			if got := len(s.Requests()); got != 2 {
				t.Errorf("got %d requests, want 2", got)
			}
		})
	}
}

func TestCompleteRetryAfterNotice(t *testing.T) {
	s := agenttest.NewServer(t,
		agenttest.Reply{Status: http.StatusTooManyRequests, RetryAfter: "2"},
		agenttest.Reply{Text: "ok"},
	)
	c, fc := newClient(t, s)
	if _, err := c.Complete(context.Background(), userAsks, nil, nil); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	want := []string{"pair: the model server answered 429 Too Many Requests; retrying in 2s (attempt 2 of 4)"}
	if !reflect.DeepEqual(fc.notices, want) {
		t.Errorf("notices:\ngot  %q\nwant %q", fc.notices, want)
	}
}

func TestCompleteRetriesServerErrors(t *testing.T) {
	s := agenttest.NewServer(t,
		agenttest.Reply{Status: 500, Text: "boom"},
		agenttest.Reply{Status: 502},
		agenttest.Reply{Status: 408},
		agenttest.Reply{Text: "recovered"},
	)
	c, fc := newClient(t, s)
	reply, err := c.Complete(context.Background(), userAsks, nil, nil)
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if reply.Content != "recovered" {
		t.Errorf("Content: got %q, want recovered", reply.Content)
	}
	if want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}; !reflect.DeepEqual(fc.sleeps, want) {
		t.Errorf("slept %v, want %v", fc.sleeps, want)
	}
	wantNotices := []string{
		"pair: the model server answered 500 Internal Server Error; retrying in 1s (attempt 2 of 4)",
		"pair: the model server answered 502 Bad Gateway; retrying in 2s (attempt 3 of 4)",
		"pair: the model server answered 408 Request Timeout; retrying in 4s (attempt 4 of 4)",
	}
	if !reflect.DeepEqual(fc.notices, wantNotices) {
		t.Errorf("notices:\ngot  %q\nwant %q", fc.notices, wantNotices)
	}
}

func TestCompleteClientErrorsAreNotRetried(t *testing.T) {
	tests := []struct {
		name    string
		reply   agenttest.Reply
		wantErr string
	}{
		{
			"401",
			agenttest.Reply{Status: 401, Text: "Incorrect API key provided: sk-xxx."},
			"model server: 401 Unauthorized: Incorrect API key provided: sk-xxx.",
		},
		{
			"400",
			agenttest.Reply{Status: 400, Text: "Invalid schema for function 'read_file'"},
			"model server: 400 Bad Request: Invalid schema for function 'read_file'",
		},
		{
			"404 from Ollama",
			agenttest.Reply{Status: 404, ErrorBody: `{"error":"model \"llama9\" not found, try pulling it first"}`},
			`model server: 404 Not Found for ` + agenttest.MemoryURL + `/chat/completions: model "llama9" not found, try pulling it first`,
		},
		{
			"400 from vLLM",
			agenttest.Reply{Status: 400, ErrorBody: `{"object":"error","message":"max_tokens is too large","type":"BadRequestError","code":400}`},
			"model server: 400 Bad Request: max_tokens is too large",
		},
		{
			"501",
			agenttest.Reply{Status: 501, Text: "streaming is not supported"},
			"model server: 501 Not Implemented: streaming is not supported",
		},
		{
			"505",
			agenttest.Reply{Status: 505, Text: "HTTP/2 required"},
			"model server: 505 HTTP Version Not Supported: HTTP/2 required",
		},
		{
			"404 as plain text",
			agenttest.Reply{Status: 404, ErrorBody: "404 page not found"},
			"model server: 404 Not Found for " + agenttest.MemoryURL + "/chat/completions: 404 page not found",
		},
		{
			"403 as plain text",
			agenttest.Reply{Status: 403, ErrorBody: "Forbidden by proxy\nmore details\n"},
			"model server: 403 Forbidden: Forbidden by proxy",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := agenttest.NewServer(t, tt.reply)
			c, fc := newClient(t, s)
			_, err := c.Complete(context.Background(), userAsks, nil, nil)
			if err == nil {
				t.Fatal("Complete: no error")
			}
			if err.Error() != tt.wantErr {
				t.Errorf("error:\ngot  %s\nwant %s", err, tt.wantErr)
			}
			var se *agent.StatusError
			if !errors.As(err, &se) || se.Code != tt.reply.Status {
				t.Errorf("error %v: want a *StatusError with code %d", err, tt.reply.Status)
			}
			if len(fc.sleeps) != 0 || len(fc.notices) != 0 {
				t.Errorf("retried: slept %v, notices %q", fc.sleeps, fc.notices)
			}
		})
	}
}

func TestCompleteGivesUp(t *testing.T) {
	s := agenttest.NewServer(t,
		agenttest.Reply{Status: 429, RetryAfter: "3", Text: "slow down"},
		agenttest.Reply{Status: 429, RetryAfter: "3", Text: "slow down"},
		agenttest.Reply{Status: 429, RetryAfter: "3", Text: "slow down"},
	)
	c, fc := newClient(t, s)
	c.MaxAttempts = 3
	_, err := c.Complete(context.Background(), userAsks, nil, nil)
	want := "model server: 429 Too Many Requests: slow down (gave up after 3 attempts)"
	if err == nil || err.Error() != want {
		t.Fatalf("error:\ngot  %v\nwant %s", err, want)
	}
	var se *agent.StatusError
	if !errors.As(err, &se) || se.Code != 429 || se.RetryAfter != 3*time.Second {
		t.Errorf("error %#v: want a *StatusError with code 429 and RetryAfter 3s", se)
	}
	if len(fc.sleeps) != 2 || len(fc.notices) != 2 {
		t.Errorf("slept %v, notices %q; want two of each", fc.sleeps, fc.notices)
	}
}

func TestCompleteDefaultAttempts(t *testing.T) {
	var replies []agenttest.Reply
	for range agent.DefaultMaxAttempts {
		replies = append(replies, agenttest.Reply{Status: 503})
	}
	s := agenttest.NewServer(t, replies...)
	c, fc := newClient(t, s)
	_, err := c.Complete(context.Background(), userAsks, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "503 Service Unavailable") {
		t.Fatalf("error: got %v, want one naming 503 Service Unavailable", err)
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}
	if !reflect.DeepEqual(fc.sleeps, want) {
		t.Errorf("slept %v, want %v", fc.sleeps, want)
	}
}

func TestCompleteCanceledDuringRetrySleep(t *testing.T) {
	s := agenttest.NewServer(t, agenttest.Reply{Status: 503})
	c := agent.NewClient(s.Config())
	c.BaseDelay = 15 * time.Second // the real timer: only the cancel ends the wait early
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c.Notice = func(string) {
		go func() {
			time.Sleep(10 * time.Millisecond)
			cancel()
		}()
	}
	start := time.Now()
	_, err := c.Complete(ctx, userAsks, nil, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error: got %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("returned after %v, want at once", d)
	}
}

func TestCompleteCanceledMidStream(t *testing.T) {
	s := agenttest.NewServer(t, agenttest.Reply{Text: strings.Repeat("many words ", 50), Chunk: 5})
	c, fc := newClient(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var tokens []string
	_, err := c.Complete(ctx, userAsks, nil, func(tok string) {
		tokens = append(tokens, tok)
		cancel()
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error: got %v, want context.Canceled", err)
	}
	if len(tokens) != 1 {
		t.Errorf("got %d tokens after the cancel, want 1", len(tokens))
	}
	if len(fc.sleeps) != 0 {
		t.Errorf("retried after the cancel: slept %v", fc.sleeps)
	}
}

func TestCompleteCanceledBefore(t *testing.T) {
	s := agenttest.NewServer(t) // no request expected
	c, _ := newClient(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Complete(ctx, userAsks, nil, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("error: got %v, want context.Canceled", err)
	}
}

func TestCompleteBrokenStream(t *testing.T) {
	t.Run("before any text: retried", func(t *testing.T) {
		s := agenttest.NewServer(t,
			agenttest.Reply{ToolCalls: []agenttest.Call{{Name: "git_status"}}, Abort: true},
			agenttest.Reply{Text: "again"},
		)
		c, fc := newClient(t, s)
		reply, err := c.Complete(context.Background(), userAsks, nil, func(string) {})
		if err != nil {
			t.Fatalf("Complete: %v", err)
		}
		if reply.Content != "again" || len(reply.ToolCalls) != 0 {
			t.Errorf("got %+v, want only the second reply", reply)
		}
		if len(fc.notices) != 1 || !strings.Contains(fc.notices[0], "stream broke") {
			t.Errorf("notices: got %q, want one about the broken stream", fc.notices)
		}
	})
	t.Run("after text: not retried", func(t *testing.T) {
		s := agenttest.NewServer(t, agenttest.Reply{Text: "half an ans", Abort: true})
		c, fc := newClient(t, s)
		var tokens []string
		reply, err := c.Complete(context.Background(), userAsks, nil, func(tok string) { tokens = append(tokens, tok) })
		if err == nil || !strings.Contains(err.Error(), "unexpected EOF") {
			t.Fatalf("error: got %v, want an unexpected EOF", err)
		}
		if reply.Content != "half an ans" || strings.Join(tokens, "") != "half an ans" {
			t.Errorf("got Content %q, tokens %q; want what arrived", reply.Content, tokens)
		}
		if len(fc.sleeps) != 0 {
			t.Errorf("retried after text was shown: slept %v", fc.sleeps)
		}
	})
}

func TestCompleteMessagesRoundTrip(t *testing.T) {
	msgs := []agent.Message{
		{Role: agent.RoleSystem, Content: "You are pair."},
		{Role: agent.RoleUser, Content: "Fix the bug in a.go."},
		{Role: agent.RoleAssistant, Content: "Reading both.", ToolCalls: []agent.ToolCall{
			{ID: "call_a", Name: "read_file", Arguments: `{"path":"a.go"}`},
			{ID: "call_b", Name: "git_status", Arguments: ""},
		}},
		{Role: agent.RoleTool, ToolCallID: "call_a", Content: "package a\n"},
		{Role: agent.RoleTool, ToolCallID: "call_b", Content: ""},
		{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{
			{ID: "call_c", Name: "propose_diff", Arguments: `{"diff":"--- a/a.go\n+++ b/a.go\n"}`},
		}},
		{Role: agent.RoleTool, ToolCallID: "call_c", Content: "applied"},
	}
	s := agenttest.NewServer(t, agenttest.Reply{Text: "Done."})
	c, _ := newClient(t, s)
	if _, err := c.Complete(context.Background(), msgs, nil, nil); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	got := s.Requests()[0].Messages
	want := []agenttest.Message{
		{Role: "system", Content: "You are pair."},
		{Role: "user", Content: "Fix the bug in a.go."},
		{Role: "assistant", Content: "Reading both.", ToolCalls: []agenttest.ToolCall{
			{ID: "call_a", Type: "function", Function: agenttest.FunctionCall{Name: "read_file", Arguments: `{"path":"a.go"}`}},
			{ID: "call_b", Type: "function", Function: agenttest.FunctionCall{Name: "git_status", Arguments: "{}"}},
		}},
		{Role: "tool", ToolCallID: "call_a", Content: "package a\n"},
		{Role: "tool", ToolCallID: "call_b", Content: agent.EmptyToolResult},
		{Role: "assistant", ToolCalls: []agenttest.ToolCall{
			{ID: "call_c", Type: "function", Function: agenttest.FunctionCall{Name: "propose_diff", Arguments: `{"diff":"--- a/a.go\n+++ b/a.go\n"}`}},
		}},
		{Role: "tool", ToolCallID: "call_c", Content: "applied"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("messages sent:\ngot  %+v\nwant %+v", got, want)
	}
	for i, m := range got {
		if m.Role == "tool" && m.Content == "" {
			t.Errorf("message %d: a tool message was sent without content", i)
		}
	}
}

func TestCompleteReplyRoundTrip(t *testing.T) {
	// A reply's tool calls, put back into the conversation, reach the
	// server as they came.
	calls := []agenttest.Call{
		{ID: "call_x1", Name: "read_file", Arguments: `{"path":"README.md"}`},
		{ID: "call_x2", Name: "list_files", Arguments: `{"glob":"*.go"}`},
	}
	s := agenttest.NewServer(t, agenttest.Reply{ToolCalls: calls, Interleave: true}, agenttest.Reply{Text: "ok"})
	c, _ := newClient(t, s)
	reply, err := c.Complete(context.Background(), userAsks, nil, nil)
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	msgs := append(append([]agent.Message(nil), userAsks...), agent.Message{Role: agent.RoleAssistant, Content: reply.Content, ToolCalls: reply.ToolCalls})
	for _, tc := range reply.ToolCalls {
		msgs = append(msgs, agent.Message{Role: agent.RoleTool, ToolCallID: tc.ID, Content: "result of " + tc.Name})
	}
	if _, err := c.Complete(context.Background(), msgs, nil, nil); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	sent := s.Requests()[1].Messages
	if len(sent) != 4 {
		t.Fatalf("sent %d messages, want 4: %+v", len(sent), sent)
	}
	for i, c := range calls {
		tc := sent[1].ToolCalls[i]
		if tc.ID != c.ID || tc.Function.Name != c.Name || tc.Function.Arguments != c.Arguments {
			t.Errorf("tool call %d sent as %+v, want %+v", i, tc, c)
		}
		if sent[2+i].ToolCallID != c.ID {
			t.Errorf("tool result %d answers %q, want %q", i, sent[2+i].ToolCallID, c.ID)
		}
	}
}

func TestCompleteSendsTools(t *testing.T) {
	readFile := `{"type":"object","properties":{"path":{"type":"string"},"max_chars":{"type":"integer","default":20000}},"required":["path"]}`
	tools := []agent.ToolDef{
		{Name: "read_file", Description: "Read a file of the repository.", Parameters: json.RawMessage(readFile)},
		{Name: "git_status", Description: "Show the status of the working tree."},
	}
	s := agenttest.NewServer(t, agenttest.Reply{Text: "ok"})
	c, _ := newClient(t, s)
	if _, err := c.Complete(context.Background(), userAsks, tools, nil); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	got := s.Requests()[0].Tools
	if len(got) != 2 {
		t.Fatalf("sent %d tools, want 2: %+v", len(got), got)
	}
	for i, want := range []struct{ name, desc, schema string }{
		{"read_file", "Read a file of the repository.", readFile},
		{"git_status", "Show the status of the working tree.", `{"type":"object","properties":{}}`},
	} {
		g := got[i]
		if g.Type != "function" || g.Function.Name != want.name || g.Function.Description != want.desc {
			t.Errorf("tool %d: got %s %q %q, want function %q %q", i, g.Type, g.Function.Name, g.Function.Description, want.name, want.desc)
		}
		if !jsonEqual(t, g.Function.Parameters, []byte(want.schema)) {
			t.Errorf("tool %d schema:\ngot  %s\nwant %s", i, g.Function.Parameters, want.schema)
		}
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return reflect.DeepEqual(va, vb)
}

func TestCompleteOverSocket(t *testing.T) {
	s := agenttest.NewServer(t,
		agenttest.Reply{Status: 429, RetryAfter: "7"},
		agenttest.Reply{Text: "over the wire", ToolCalls: []agenttest.Call{{Name: "git_log", Arguments: `{"n":3}`}}},
	)
	c := agent.NewClient(agent.Config{BaseURL: s.URL(), APIKey: "sk-test", Model: "qwen2.5-coder"})
	var sleeps []time.Duration
	c.Sleep = func(ctx context.Context, d time.Duration) error { sleeps = append(sleeps, d); return nil }
	reply, err := c.Complete(context.Background(), userAsks, nil, nil)
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if reply.Content != "over the wire" || len(reply.ToolCalls) != 1 || reply.ToolCalls[0].Arguments != `{"n":3}` {
		t.Errorf("got %+v", reply)
	}
	if want := []time.Duration{7 * time.Second}; !reflect.DeepEqual(sleeps, want) {
		t.Errorf("slept %v, want %v: Retry-After read over a socket", sleeps, want)
	}
	req := s.Requests()[1]
	if req.Path != "/v1/chat/completions" || req.Model != "qwen2.5-coder" {
		t.Errorf("request: path %q, model %q", req.Path, req.Model)
	}
	if got := req.Header.Get("Authorization"); got != "Bearer sk-test" {
		t.Errorf("Authorization: got %q, want Bearer sk-test", got)
	}
}

func TestCompleteBrokenStreamOverSocket(t *testing.T) {
	s := agenttest.NewServer(t, agenttest.Reply{Text: "half", Abort: true})
	c := agent.NewClient(agent.Config{BaseURL: s.URL()})
	c.Sleep = func(context.Context, time.Duration) error {
		t.Error("retried after text was shown")
		return nil
	}
	_, err := c.Complete(context.Background(), userAsks, nil, func(string) {})
	if err == nil || !strings.Contains(err.Error(), "unexpected EOF") {
		t.Fatalf("error: got %v, want an unexpected EOF", err)
	}
}

func TestCompleteConnectionRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	c := agent.NewClient(agent.Config{BaseURL: "http://" + addr + "/v1"})
	c.MaxAttempts = 3
	var sleeps []time.Duration
	var notices []string
	c.Sleep = func(ctx context.Context, d time.Duration) error { sleeps = append(sleeps, d); return nil }
	c.Notice = func(msg string) { notices = append(notices, msg) }
	_, err = c.Complete(context.Background(), userAsks, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "connection refused") || !strings.Contains(err.Error(), "gave up after 3 attempts") {
		t.Fatalf("error: got %v, want connection refused after 3 attempts", err)
	}
	if want := []time.Duration{time.Second, 2 * time.Second}; !reflect.DeepEqual(sleeps, want) {
		t.Errorf("slept %v, want %v", sleeps, want)
	}
	if len(notices) != 2 || !strings.HasPrefix(notices[0], "pair: cannot reach the model server: ") {
		t.Errorf("notices: got %q", notices)
	}
}

func TestCompleteMaxDelay(t *testing.T) {
	var replies []agenttest.Reply
	for range 6 {
		replies = append(replies, agenttest.Reply{Status: 500})
	}
	s := agenttest.NewServer(t, append(replies, agenttest.Reply{Text: "ok"})...)
	c, fc := newClient(t, s)
	c.MaxAttempts = 7
	c.BaseDelay = 500 * time.Millisecond
	c.MaxDelay = 5 * time.Second
	if _, err := c.Complete(context.Background(), userAsks, nil, nil); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second}
	if !reflect.DeepEqual(fc.sleeps, want) {
		t.Errorf("slept %v, want %v", fc.sleeps, want)
	}
	if got, want := fc.notices[0], "pair: the model server answered 500 Internal Server Error; retrying in 500ms (attempt 2 of 7)"; got != want {
		t.Errorf("notice: got %q, want %q", got, want)
	}
}

func TestCompleteThroughOpenAIClient(t *testing.T) {
	// *openai.Client is a ChatClient as it is; without NewClient's
	// transport, Retry-After is not known and backoff is used.
	s := agenttest.NewServer(t, agenttest.Reply{Status: 429, RetryAfter: "9"}, agenttest.Reply{Text: "ok"})
	var sleeps []time.Duration
	c := &agent.Client{
		Chat:  s.Client(),
		Model: "m",
		Sleep: func(ctx context.Context, d time.Duration) error { sleeps = append(sleeps, d); return nil },
	}
	reply, err := c.Complete(context.Background(), userAsks, nil, nil)
	if err != nil || reply.Content != "ok" {
		t.Fatalf("Complete: %+v, %v", reply, err)
	}
	if want := []time.Duration{time.Second}; !reflect.DeepEqual(sleeps, want) {
		t.Errorf("slept %v, want %v", sleeps, want)
	}
}

// silentServer accepts requests and never answers them; headers, when
// true, sends the headers of a stream first, and then nothing.
func silentServer(t *testing.T, headers bool) (url string, requests *atomic.Int32) {
	t.Helper()
	requests = new(atomic.Int32)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if headers {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
		}
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(func() {
		close(release)
		srv.Close()
	})
	return srv.URL + "/v1", requests
}

func TestCompleteFirstByteTimeout(t *testing.T) {
	for _, headers := range []bool{false, true} {
		url, requests := silentServer(t, headers)
		c := agent.NewClient(agent.Config{BaseURL: url, Model: "m", FirstByteTimeout: 50 * time.Millisecond})
		var waited, done int
		c.Waiting = func() func() {
			waited++
			return func() { done++ }
		}
		_, err := c.Complete(context.Background(), userAsks, nil, nil)
		var te *agent.TimeoutError
		if !errors.As(err, &te) || te.Phase != "first byte" || te.After != 50*time.Millisecond {
			t.Fatalf("headers %v: got error %v, want a first-byte *TimeoutError after 50ms", headers, err)
		}
		if !strings.Contains(err.Error(), "no answer within 50ms") {
			t.Errorf("headers %v: error %q does not name the timeout", headers, err)
		}
		if n := requests.Load(); n != 1 {
			t.Errorf("headers %v: %d requests, want 1: a timeout is not retried", headers, n)
		}
		if waited != 1 || done != 1 {
			t.Errorf("headers %v: Waiting called %d times, its done %d times; want 1 and 1", headers, waited, done)
		}
	}
}

func TestCompleteConnectTimeout(t *testing.T) {
	// A dial that never connects, as to a host that drops the packets.
	hang := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	c := agent.NewClient(agent.Config{BaseURL: "http://192.0.2.1/v1", Model: "m",
		HTTPClient: &http.Client{Transport: hang}, ConnectTimeout: 50 * time.Millisecond})
	c.Sleep = func(ctx context.Context, d time.Duration) error {
		t.Errorf("a connect timeout was retried")
		return nil
	}
	_, err := c.Complete(context.Background(), userAsks, nil, nil)
	var te *agent.TimeoutError
	if !errors.As(err, &te) || te.Phase != "connect" {
		t.Fatalf("got error %v, want a connect *TimeoutError", err)
	}
	if !strings.Contains(err.Error(), "no connection within 50ms") {
		t.Errorf("error %q does not name the timeout", err)
	}
}

func TestCompleteWaitingEndsBeforeText(t *testing.T) {
	s := agenttest.NewServer(t, agenttest.Reply{Text: "hello there"})
	c, _ := newClient(t, s)
	var events []string
	c.Waiting = func() func() {
		events = append(events, "waiting")
		return func() { events = append(events, "done") }
	}
	if _, err := c.Complete(context.Background(), userAsks, nil, func(string) { events = append(events, "token") }); err != nil {
		t.Fatal(err)
	}
	if len(events) < 3 || events[0] != "waiting" || events[1] != "done" || slices.Contains(events[2:], "done") {
		t.Errorf("got events %v, want waiting, done, then tokens", events)
	}
}

func TestCompleteNotTheAPI(t *testing.T) {
	page := "<!DOCTYPE html>\n<html><head><title>Welcome</title></head>\n<body>It works!</body></html>\n"
	tests := []struct {
		name string
		rep  agenttest.Reply
		want string
	}{
		{"html page", agenttest.Reply{SSE: page, ContentType: "text/html; charset=utf-8"},
			"model server: answered with an HTML page, not the OpenAI API: is the base URL right (it usually ends in /v1)?"},
		{"plain text", agenttest.Reply{SSE: "hello\nworld\n", ContentType: "text/plain"},
			"model server: answered with a body that is not an event stream (Content-Type text/plain), not the OpenAI API: is the base URL right (it usually ends in /v1)?"},
		{"html error page", agenttest.Reply{Status: 404, ErrorBody: page, ContentType: "text/html"},
			"model server: 404 Not Found for " + agenttest.MemoryURL + "/chat/completions: answered with an HTML page, not the OpenAI API: is the base URL right (it usually ends in /v1)?"},
	}
	for _, tt := range tests {
		s := agenttest.NewServer(t, tt.rep)
		c, _ := newClient(t, s)
		_, err := c.Complete(context.Background(), userAsks, nil, nil)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: got error %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestCompleteNotFoundSuggestsV1(t *testing.T) {
	tests := []struct {
		base, want, page string
	}{
		{"http://agenttest.invalid", "model server: 404 Not Found for http://agenttest.invalid/chat/completions: 404 page not found; most OpenAI-compatible servers serve under /v1: try OPENAI_BASE_URL=http://agenttest.invalid/v1 (or --api-base http://agenttest.invalid/v1)", ""},
		{"http://agenttest.invalid/", "model server: 404 Not Found for http://agenttest.invalid/chat/completions: 404 page not found; most OpenAI-compatible servers serve under /v1: try OPENAI_BASE_URL=http://agenttest.invalid/v1 (or --api-base http://agenttest.invalid/v1)", ""},
		{"http://agenttest.invalid/v1/", "model server: 404 Not Found for http://agenttest.invalid/v1/chat/completions: 404 page not found", ""},
		{"http://agenttest.invalid", "model server: 404 Not Found for http://agenttest.invalid/chat/completions: answered with an HTML page, not the OpenAI API; most OpenAI-compatible servers serve under /v1: try OPENAI_BASE_URL=http://agenttest.invalid/v1 (or --api-base http://agenttest.invalid/v1)", "<html><body>Not found</body></html>"},
	}
	for _, tt := range tests {
		rep := agenttest.Reply{Status: 404, ErrorBody: "404 page not found"}
		if tt.page != "" {
			rep = agenttest.Reply{Status: 404, ErrorBody: tt.page, ContentType: "text/html"}
		}
		s := agenttest.NewServer(t, rep)
		cfg := s.Config()
		cfg.BaseURL = tt.base
		c := agent.NewClient(cfg)
		c.Sleep = func(context.Context, time.Duration) error { t.Error("retried a 404"); return nil }
		_, err := c.Complete(context.Background(), userAsks, nil, nil)
		if err == nil || err.Error() != tt.want {
			t.Errorf("base %s:\ngot  %v\nwant %s", tt.base, err, tt.want)
		}
	}
}

package agenttest_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/agent/agenttest"
	openai "github.com/sashabaranov/go-openai"
)

const streamRequest = `{"model":"m","stream":true,"stream_options":{"include_usage":true},` +
	`"messages":[{"role":"user","content":"hi"}]}`

// post sends body to the chat endpoint of base through hc and returns the
// answer and its body.
func post(t *testing.T, hc *http.Client, base, body string) (*http.Response, string) {
	t.Helper()
	resp, err := hc.Post(base+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	return resp, string(b)
}

// chunk is a streamed chunk as a client decodes it.
type chunk struct {
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Role      string  `json:"role"`
			Content   *string `json:"content"`
			ToolCalls []struct {
				Index    *int   `json:"index"`
				ID       string `json:"id"`
				Type     string `json:"type"`
				Function struct {
					Name      *string `json:"name"`
					Arguments string  `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *agent.Usage `json:"usage"`
}

// events splits an SSE body into its data lines, checking the framing.
func events(t *testing.T, body string) []string {
	t.Helper()
	if !strings.HasSuffix(body, "data: [DONE]\n\n") {
		t.Errorf("body does not end with data: [DONE]:\n%s", body)
	}
	var data []string
	for ev := range strings.SplitSeq(strings.TrimSuffix(body, "\n\n"), "\n\n") {
		d, ok := strings.CutPrefix(ev, "data: ")
		if !ok || strings.Contains(d, "\n") {
			t.Fatalf("event %q: want one data line", ev)
		}
		data = append(data, d)
	}
	return data[:len(data)-1] // without [DONE]
}

func decode(t *testing.T, data []string) []chunk {
	t.Helper()
	var out []chunk
	for _, d := range data {
		var c chunk
		if err := json.Unmarshal([]byte(d), &c); err != nil {
			t.Fatalf("chunk %s: %v", d, err)
		}
		out = append(out, c)
	}
	return out
}

func TestStreamWireFormat(t *testing.T) {
	s := agenttest.NewServer(t, agenttest.Reply{
		Text:      "Héllo, wörld: a streamed reply.",
		ToolCalls: []agenttest.Call{{ID: "call_1", Name: "read_file", Arguments: `{"path":"main.go"}`}},
		Chunk:     4,
		Usage:     &agenttest.Usage{PromptTokens: 3, CompletionTokens: 4, TotalTokens: 7},
	})
	resp, body := post(t, s.HTTPClient(), agenttest.MemoryURL, streamRequest)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("answer: %s, Content-Type %q", resp.Status, resp.Header.Get("Content-Type"))
	}
	chunks := decode(t, events(t, body))

	var text, args strings.Builder
	var finishes []string
	for i, c := range chunks {
		if c.Usage != nil {
			if i != len(chunks)-1 || len(c.Choices) != 0 {
				t.Errorf("chunk %d: usage before the end or with choices", i)
			}
			if *c.Usage != (agent.Usage{PromptTokens: 3, CompletionTokens: 4, TotalTokens: 7}) {
				t.Errorf("usage: got %+v", *c.Usage)
			}
			continue
		}
		if len(c.Choices) != 1 {
			t.Fatalf("chunk %d: %d choices, want 1", i, len(c.Choices))
		}
		ch := c.Choices[0]
		if i == 0 && ch.Delta.Role != "assistant" {
			t.Errorf("first chunk: role %q, want assistant", ch.Delta.Role)
		}
		if ch.Delta.Content != nil {
			if len(*ch.Delta.Content) > 4+1 || !utf8.ValidString(*ch.Delta.Content) {
				t.Errorf("chunk %d: content piece %q too long or not UTF-8", i, *ch.Delta.Content)
			}
			text.WriteString(*ch.Delta.Content)
		}
		for _, tc := range ch.Delta.ToolCalls {
			if tc.Index == nil || *tc.Index != 0 {
				t.Errorf("chunk %d: tool call index %v, want 0", i, tc.Index)
			}
			first := args.Len() == 0 && tc.Function.Arguments == ""
			if first != (tc.ID != "") || first != (tc.Type == "function") || first != (tc.Function.Name != nil) {
				t.Errorf("chunk %d: id, type and name must come in the first fragment only: %+v", i, tc)
			}
			args.WriteString(tc.Function.Arguments)
		}
		if ch.FinishReason != nil {
			finishes = append(finishes, *ch.FinishReason)
		}
	}
	if got := text.String(); got != "Héllo, wörld: a streamed reply." {
		t.Errorf("text: got %q", got)
	}
	if got := args.String(); got != `{"path":"main.go"}` {
		t.Errorf("arguments: got %q", got)
	}
	if len(finishes) != 1 || finishes[0] != "tool_calls" {
		t.Errorf("finish reasons: got %q, want one tool_calls", finishes)
	}
	if c := chunks[len(chunks)-1]; c.Usage == nil {
		t.Error("no usage chunk")
	}
}

func TestStreamWithoutUsage(t *testing.T) {
	s := agenttest.NewServer(t, agenttest.Reply{Text: "hi"})
	_, body := post(t, s.HTTPClient(), agenttest.MemoryURL, `{"model":"m","stream":true,"messages":[]}`)
	for _, c := range decode(t, events(t, body)) {
		if c.Usage != nil {
			t.Errorf("usage sent without include_usage: %+v", c)
		}
	}
}

func TestToolCallFragments(t *testing.T) {
	calls := []agenttest.Call{{Name: "a", Arguments: "0123456789"}, {Name: "b", Arguments: "abcdefghij"}}
	tests := []struct {
		name       string
		interleave bool
		noIndex    bool
		want       string // the call of each fragment, by its name or index
	}{
		// Each call: a first fragment, then 4+4+2 bytes of arguments.
		{"in order", false, false, "00001111"},
		{"interleaved", true, false, "01010101"},
		{"without index", false, true, "--------"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := agenttest.NewServer(t, agenttest.Reply{ToolCalls: calls, Chunk: 4, Interleave: tt.interleave, NoIndex: tt.noIndex})
			_, body := post(t, s.HTTPClient(), agenttest.MemoryURL, streamRequest)
			var got strings.Builder
			ids := map[string]bool{}
			for _, c := range decode(t, events(t, body)) {
				for _, ch := range c.Choices {
					for _, tc := range ch.Delta.ToolCalls {
						if tc.Index == nil {
							got.WriteByte('-')
						} else {
							got.WriteByte(byte('0' + *tc.Index))
						}
						if tc.ID != "" {
							ids[tc.ID] = true
						}
					}
				}
			}
			if got.String() != tt.want {
				t.Errorf("fragments: got %s, want %s", got.String(), tt.want)
			}
			if len(ids) != 2 || !ids["call_1_1"] || !ids["call_1_2"] {
				t.Errorf("ids: got %v, want call_1_1 and call_1_2", ids)
			}
		})
	}
}

func TestGoOpenAIReadsTheStream(t *testing.T) {
	s := agenttest.NewServer(t, agenttest.Reply{
		Text:      "Looking.",
		ToolCalls: []agenttest.Call{{Name: "list_files", Arguments: `{"glob":"**/*.go"}`}, {Name: "git_status"}},
		Chunk:     2,
	})
	stream, err := s.Client().CreateChatCompletionStream(context.Background(), openai.ChatCompletionRequest{
		Model:         "m",
		Messages:      []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}},
		StreamOptions: &openai.StreamOptions{IncludeUsage: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	var text string
	args := map[int]string{}
	names := map[int]string{}
	var finish openai.FinishReason
	var usage *openai.Usage
	for {
		r, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if r.Usage != nil {
			usage = r.Usage
		}
		for _, ch := range r.Choices {
			text += ch.Delta.Content
			for _, tc := range ch.Delta.ToolCalls {
				names[*tc.Index] += tc.Function.Name
				args[*tc.Index] += tc.Function.Arguments
			}
			if ch.FinishReason != "" {
				finish = ch.FinishReason
			}
		}
	}
	if text != "Looking." || names[0] != "list_files" || names[1] != "git_status" || args[0] != `{"glob":"**/*.go"}` || args[1] != "" {
		t.Errorf("got text %q, names %v, arguments %v", text, names, args)
	}
	if finish != openai.FinishReasonToolCalls {
		t.Errorf("finish reason: got %q", finish)
	}
	// Made-up usage: 10 per message, 1 per piece (4 of text, 9 of arguments).
	if usage == nil || usage.PromptTokens != 10 || usage.CompletionTokens != 13 || usage.TotalTokens != 23 {
		t.Errorf("usage: got %+v", usage)
	}
}

func TestNotStreaming(t *testing.T) {
	s := agenttest.NewServer(t, agenttest.Reply{
		Text:      "Plain.",
		ToolCalls: []agenttest.Call{{ID: "c1", Name: "git_log", Arguments: `{"n":2}`}},
	})
	resp, err := s.Client().CreateChatCompletion(context.Background(), openai.ChatCompletionRequest{
		Model:    "m",
		Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	m := resp.Choices[0].Message
	if m.Content != "Plain." || len(m.ToolCalls) != 1 || m.ToolCalls[0].ID != "c1" || m.ToolCalls[0].Function.Arguments != `{"n":2}` {
		t.Errorf("message: got %+v", m)
	}
	if resp.Choices[0].FinishReason != openai.FinishReasonToolCalls || resp.Usage.TotalTokens == 0 {
		t.Errorf("got finish reason %q, usage %+v", resp.Choices[0].FinishReason, resp.Usage)
	}
}

func TestErrorReply(t *testing.T) {
	s := agenttest.NewServer(t,
		agenttest.Reply{Status: 429, RetryAfter: "2", Text: "Rate limit reached"},
		agenttest.Reply{Status: 503},
		agenttest.Reply{Status: 502, ErrorBody: "<html>bad gateway</html>"},
	)
	resp, body := post(t, s.HTTPClient(), agenttest.MemoryURL, streamRequest)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "2" {
		t.Errorf("answer: %s, Retry-After %q", resp.Status, resp.Header.Get("Retry-After"))
	}
	var e struct {
		Error struct{ Message, Type string }
	}
	if err := json.Unmarshal([]byte(body), &e); err != nil || e.Error.Message != "Rate limit reached" || e.Error.Type != "invalid_request_error" {
		t.Errorf("body %s: want an OpenAI error with the message (%v)", body, err)
	}

	_, err := s.Client().CreateChatCompletionStream(context.Background(), openai.ChatCompletionRequest{Model: "m"})
	var apiErr *openai.APIError
	if !errors.As(err, &apiErr) || apiErr.HTTPStatusCode != 503 || apiErr.Message != "Service Unavailable" || apiErr.Type != "server_error" {
		t.Errorf("go-openai error: got %v, want an APIError 503", err)
	}

	resp, body = post(t, s.HTTPClient(), agenttest.MemoryURL, streamRequest)
	if resp.StatusCode != 502 || body != "<html>bad gateway</html>" {
		t.Errorf("answer: %s %q, want 502 with the raw body", resp.Status, body)
	}
}

func TestRawSSE(t *testing.T) {
	sse := "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"cut\"}}]}\n\n"
	s := agenttest.NewServer(t, agenttest.Reply{SSE: sse})
	resp, body := post(t, s.HTTPClient(), agenttest.MemoryURL, streamRequest)
	if body != sse || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Errorf("got %q (%s), want the raw body", body, resp.Header.Get("Content-Type"))
	}
}

func TestAbort(t *testing.T) {
	for _, where := range []string{"memory", "socket"} {
		t.Run(where, func(t *testing.T) {
			s := agenttest.NewServer(t, agenttest.Reply{Text: "partial", Abort: true})
			hc, base := s.HTTPClient(), agenttest.MemoryURL
			if where == "socket" {
				hc, base = http.DefaultClient, s.URL()
			}
			resp, err := hc.Post(base+"/chat/completions", "application/json", strings.NewReader(streamRequest))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("read: got %v, want io.ErrUnexpectedEOF", err)
			}
			if !strings.Contains(string(b), `"content":"partial"`) || strings.Contains(string(b), "finish_reason\":\"") {
				t.Errorf("body before the break: %s", b)
			}
		})
	}
}

func TestSocketAndMemoryAgree(t *testing.T) {
	r := agenttest.Reply{Text: "same bytes", ToolCalls: []agenttest.Call{{Name: "x", Arguments: "{}"}}}
	s := agenttest.NewServer(t, r, r)
	_, viaMemory := post(t, s.HTTPClient(), agenttest.MemoryURL, streamRequest)
	_, viaSocket := post(t, http.DefaultClient, s.URL(), streamRequest)
	// Only the ids, numbered by request, differ.
	viaSocket = strings.ReplaceAll(viaSocket, "agenttest-2", "agenttest-1")
	viaSocket = strings.ReplaceAll(viaSocket, "call_2_1", "call_1_1")
	if viaMemory != viaSocket {
		t.Errorf("memory:\n%s\nsocket:\n%s", viaMemory, viaSocket)
	}
	if !strings.HasPrefix(s.URL(), "http://127.0.0.1:") || !strings.HasSuffix(s.URL(), "/v1") {
		t.Errorf("URL: got %s", s.URL())
	}
}

func TestRecordsRequests(t *testing.T) {
	s := agenttest.NewServer(t, agenttest.Reply{Text: "ok"})
	body := `{"model":"m1","stream":true,"stream_options":{"include_usage":true},` +
		`"messages":[{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"read_file","arguments":"{}"}}]},` +
		`{"role":"tool","tool_call_id":"c1","content":"data"}],` +
		`"tools":[{"type":"function","function":{"name":"read_file","description":"Read.","parameters":{"type":"object"}}}],` +
		`"tool_choice":"auto"}`
	req, err := http.NewRequest("POST", agenttest.MemoryURL+"/chat/completions", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer k")
	resp, err := s.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()

	reqs := s.Requests()
	if len(reqs) != 1 {
		t.Fatalf("got %d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Method != "POST" || r.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer k" || string(r.Raw) != body {
		t.Errorf("request: %s %s, Authorization %q, raw %s", r.Method, r.Path, r.Header.Get("Authorization"), r.Raw)
	}
	if r.Model != "m1" || !r.Stream || !r.IncludeUsage() || string(r.ToolChoice) != `"auto"` {
		t.Errorf("request: model %q, stream %v, include usage %v, tool choice %s", r.Model, r.Stream, r.IncludeUsage(), r.ToolChoice)
	}
	if len(r.Messages) != 2 || r.Messages[0].ToolCalls[0].Function.Name != "read_file" || r.Messages[1].ToolCallID != "c1" || r.Messages[1].Content != "data" {
		t.Errorf("messages: %+v", r.Messages)
	}
	if len(r.Tools) != 1 || r.Tools[0].Function.Name != "read_file" || string(r.Tools[0].Function.Parameters) != `{"type":"object"}` {
		t.Errorf("tools: %+v", r.Tools)
	}
}

func TestAdd(t *testing.T) {
	s := agenttest.NewServer(t, agenttest.Reply{Text: "one"})
	s.Add(agenttest.Reply{Text: "two"})
	for _, want := range []string{"one", "two"} {
		_, body := post(t, s.HTTPClient(), agenttest.MemoryURL, streamRequest)
		var text string
		for _, c := range decode(t, events(t, body)) {
			for _, ch := range c.Choices {
				if ch.Delta.Content != nil {
					text += *ch.Delta.Content
				}
			}
		}
		if text != want {
			t.Errorf("got %q, want %q", text, want)
		}
	}
}

// fakeTB records the failures of a test instead of failing it.
type fakeTB struct {
	testing.TB
	mu       sync.Mutex
	errs     []string
	cleanups []func()
}

func (f *fakeTB) Helper() {}

func (f *fakeTB) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}

func (f *fakeTB) Failed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.errs) > 0
}

func (f *fakeTB) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }

func (f *fakeTB) end() {
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
}

func TestBeyondTheScriptFails(t *testing.T) {
	ftb := &fakeTB{TB: t}
	s := agenttest.NewServer(ftb, agenttest.Reply{Text: "only"})
	post(t, s.HTTPClient(), agenttest.MemoryURL, streamRequest)
	resp, body := post(t, s.HTTPClient(), agenttest.MemoryURL, streamRequest)
	if resp.StatusCode != 500 || !strings.Contains(body, "beyond the script") {
		t.Errorf("answer: %s %s, want 500 naming the script", resp.Status, body)
	}
	ftb.end()
	if len(ftb.errs) != 1 || !strings.Contains(ftb.errs[0], "beyond the script") {
		t.Errorf("failures: got %q, want one about the request beyond the script", ftb.errs)
	}
	if got := len(s.Requests()); got != 2 {
		t.Errorf("recorded %d requests, want 2", got)
	}
}

func TestUnusedRepliesFail(t *testing.T) {
	ftb := &fakeTB{TB: t}
	s := agenttest.NewServer(ftb, agenttest.Reply{Text: "used"}, agenttest.Reply{Text: "never asked for"})
	post(t, s.HTTPClient(), agenttest.MemoryURL, streamRequest)
	if len(ftb.errs) != 0 {
		t.Fatalf("failed too early: %q", ftb.errs)
	}
	ftb.end()
	if len(ftb.errs) != 1 || !strings.Contains(ftb.errs[0], "not used") {
		t.Errorf("failures: got %q, want one about unused replies", ftb.errs)
	}
}

func TestAllRepliesUsedPasses(t *testing.T) {
	ftb := &fakeTB{TB: t}
	s := agenttest.NewServer(ftb, agenttest.Reply{Text: "used"})
	s.URL() // the socket server is closed at the end too
	post(t, s.HTTPClient(), agenttest.MemoryURL, streamRequest)
	ftb.end()
	if len(ftb.errs) != 0 {
		t.Errorf("failures: got %q, want none", ftb.errs)
	}
}

func TestUnexpectedPathFails(t *testing.T) {
	ftb := &fakeTB{TB: t}
	s := agenttest.NewServer(ftb)
	resp, err := s.HTTPClient().Get(agenttest.MemoryURL + "/models")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 || len(ftb.errs) != 1 {
		t.Errorf("answer %s, failures %q; want 404 and one failure", resp.Status, ftb.errs)
	}
	ftb.end()
}

func TestCanceledRequestStops(t *testing.T) {
	s := agenttest.NewServer(t, agenttest.Reply{Text: strings.Repeat("x", 1000), Chunk: 1})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", agenttest.MemoryURL+"/chat/completions", strings.NewReader(streamRequest))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := s.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	if _, err := br.ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	cancel()
	_, err = io.ReadAll(br)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("read after cancel: got %v, want context.Canceled", err)
	}
}

func TestReplyFromJSON(t *testing.T) {
	var r agenttest.Reply
	in := `{"text":"hi","tool_calls":[{"id":"c1","name":"read_file","arguments":"{}"}],"status":429,"retry_after":"2",` +
		`"chunk":3,"finish_reason":"length","usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3},"no_index":true}`
	if err := json.Unmarshal([]byte(in), &r); err != nil {
		t.Fatal(err)
	}
	if r.Text != "hi" || len(r.ToolCalls) != 1 || r.ToolCalls[0].Name != "read_file" || r.Status != 429 || r.RetryAfter != "2" ||
		r.Chunk != 3 || r.FinishReason != "length" || r.Usage == nil || r.Usage.TotalTokens != 3 || !r.NoIndex {
		t.Errorf("decoded %+v", r)
	}
}

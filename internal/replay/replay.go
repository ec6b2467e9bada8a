package replay

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// DefaultChunk is the size in bytes of the pieces of a streamed reply when
// Reply.Chunk is zero: small, so that words and arguments are split.
const DefaultChunk = 7

// Call is a tool call of a scripted reply.
type Call struct {
	ID        string `json:"id,omitempty"` // empty means call_<request>_<n>
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"` // JSON text, streamed in pieces
}

// Reply is one scripted answer of the server. Its JSON form (snake_case
// names) lets fixtures script replies in files.
type Reply struct {
	// Text is the content of the reply, or the error message when Status
	// is an error.
	Text      string `json:"text,omitempty"`
	ToolCalls []Call `json:"tool_calls,omitempty"`
	// Status, when neither 0 nor 200, answers this HTTP error with an
	// OpenAI-style JSON error body.
	Status int `json:"status,omitempty"`
	// RetryAfter is sent as the Retry-After header, when not empty.
	RetryAfter string `json:"retry_after,omitempty"`
	// SSE, when not empty, is sent as it is as the body of a 200 answer
	// with Content-Type text/event-stream: for odd streams, e.g. one cut
	// before its finish reason.
	SSE string `json:"sse,omitempty"`
	// Chunk is the size in bytes of the pieces that text and tool
	// arguments are split into (DefaultChunk when zero). A piece never
	// splits a UTF-8 character.
	Chunk int `json:"chunk,omitempty"`
	// FinishReason is the finish reason sent; empty means "tool_calls"
	// when there are tool calls, else "stop".
	FinishReason string `json:"finish_reason,omitempty"`
	// Usage is sent when the request asks for it (stream_options
	// include_usage, or always without streaming). Nil means made-up
	// counts: 10 prompt tokens per request message and one completion
	// token per piece of text or arguments.
	Usage *Usage `json:"usage,omitempty"`
	// Interleave sends the fragments of several tool calls in turn, one
	// of each call, instead of one call after the other.
	Interleave bool `json:"interleave,omitempty"`
	// NoIndex leaves out the index of tool call fragments, as some
	// servers do.
	NoIndex bool `json:"no_index,omitempty"`
	// Abort breaks the connection in the middle of the answer: after SSE
	// when it is set, else after the text and the tool calls, before the
	// finish reason. The client reads an unexpected EOF.
	Abort bool `json:"abort,omitempty"`
	// ErrorBody, when not empty, is sent as it is as the body of an error
	// answer (see Status) instead of the OpenAI-style one, e.g. to test
	// the plain-text or HTML error pages of proxies.
	ErrorBody string `json:"error_body,omitempty"`
	// ContentType, when not empty, replaces the Content-Type of an SSE
	// or ErrorBody answer, e.g. text/html for the page of a wrong URL.
	ContentType string `json:"content_type,omitempty"`
	// Hang accepts the request and never answers it: no status, no
	// byte, until the client gives up.
	Hang bool `json:"hang,omitempty"`
	// Stall sends the status, the headers and the first After bytes of
	// the body, then nothing more until the client gives up.
	Stall bool `json:"stall,omitempty"`
	// Trickle, a Go duration such as "2s", sends the body after its
	// first After bytes one byte at a time, this long apart.
	Trickle string `json:"trickle,omitempty"`
	// After is the number of bytes of the body sent at once before Stall
	// or Trickle begins.
	After int `json:"after,omitempty"`
	// EndlessLine follows SSE, or the first event of a streamed reply,
	// with a line that never ends: a data line without a newline, until
	// the client gives up.
	EndlessLine bool `json:"endless_line,omitempty"`
	// Repeat streams Text this many times over, as one long reply; -1
	// repeats it until the client gives up. Each piece is encoded once,
	// so that the server's memory stays small whatever the length.
	Repeat int `json:"repeat,omitempty"`
}

// Request is a recorded request to the server.
type Request struct {
	Method string      `json:"-"`
	Path   string      `json:"-"`
	Header http.Header `json:"-"`
	Raw    []byte      `json:"-"` // the body as it came

	Model         string          `json:"model"`
	Messages      []Message       `json:"messages"`
	Tools         []Tool          `json:"tools,omitempty"`
	ToolChoice    json.RawMessage `json:"tool_choice,omitempty"`
	Stream        bool            `json:"stream"`
	StreamOptions *StreamOptions  `json:"stream_options,omitempty"`
}

// IncludeUsage reports whether the request asked for a usage chunk.
func (r *Request) IncludeUsage() bool {
	return r.StreamOptions != nil && r.StreamOptions.IncludeUsage
}

// StreamOptions are the stream options of a request.
type StreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// Message is a message of a request, as it was sent.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	Name       string     `json:"name,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// ToolCall is a tool call of an assistant message of a request.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// FunctionCall is the function of a ToolCall.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Tool is a tool offered in a request.
type Tool struct {
	Type     string   `json:"type"`
	Function Function `json:"function"`
}

// Function is the function of a Tool, with the JSON schema of its
// arguments.
type Function struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// Server is a stand-in OpenAI-compatible server that answers with its
// scripted replies, in order. It is an http.Handler.
type Server struct {
	report func(msg string)

	mu       sync.Mutex
	srv      *http.Server // started by URL
	ln       net.Listener
	replies  []Reply
	next     int // index of the next reply
	requests []Request
	// refusing makes the server answer a request that offers tools with
	// 400 and refuse (see RefuseTools).
	refusing bool
	refuse   string
}

// New returns a server that answers with replies, in order. Every
// deviation from the script (a request beyond it, an unexpected path, a
// body that is not a chat completion request, and replies left unused when
// Verify is called) is passed to report, which must be safe for
// concurrent use.
func New(report func(msg string), replies ...Reply) *Server {
	return &Server{report: report, replies: append([]Reply(nil), replies...)}
}

func (s *Server) errorf(format string, args ...any) {
	s.report(fmt.Sprintf(format, args...))
}

// RefuseTools makes the server answer every request that offers tools
// with 400 Bad Request and msg, as Ollama does for a model without tool
// support; empty msg means Ollama's message for the request's model.
// Such a request uses no scripted reply.
func (s *Server) RefuseTools(msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refusing, s.refuse = true, msg
}

// Add appends replies to the script.
func (s *Server) Add(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies = append(s.replies, replies...)
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Verify reports the scripted replies left unused.
func (s *Server) Verify() {
	s.mu.Lock()
	left, total := s.replies[s.next:], len(s.replies)
	s.mu.Unlock()
	if len(left) > 0 {
		s.errorf("replay: %d of %d scripted replies not used; the first: %s", len(left), total, describe(left[0]))
	}
}

// URL returns the base URL, ending in /v1, of the server on a real
// socket of the loopback interface, started at the first call. It
// returns "" if no socket can be opened, and reports why.
func (s *Server) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv == nil {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			s.errorf("replay: listen: %v", err)
			return ""
		}
		s.ln, s.srv = ln, &http.Server{Handler: s}
		go s.srv.Serve(ln)
	}
	return "http://" + s.ln.Addr().String() + "/v1"
}

// Close stops the socket server, if URL started one, and the requests
// it is still answering.
func (s *Server) Close() error {
	s.mu.Lock()
	srv := s.srv
	s.mu.Unlock()
	if srv == nil {
		return nil
	}
	return srv.Close()
}

// ServeHTTP answers a chat completion request with the next reply.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" && r.URL.Path != "/chat/completions" {
		s.errorf("replay: unexpected request %s %s", r.Method, r.URL.Path)
		writeError(w, http.StatusNotFound, "replay: no endpoint "+r.URL.Path)
		return
	}
	if r.Method != http.MethodPost {
		s.errorf("replay: unexpected request %s %s", r.Method, r.URL.Path)
		writeError(w, http.StatusMethodNotAllowed, "replay: "+r.Method+" not allowed")
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		s.errorf("replay: read request: %v", err)
		writeError(w, http.StatusBadRequest, "replay: read request: "+err.Error())
		return
	}
	var req Request
	if err := json.Unmarshal(body, &req); err != nil {
		s.errorf("replay: decode request: %v\n%s", err, body)
		writeError(w, http.StatusBadRequest, "replay: decode request: "+err.Error())
		return
	}
	req.Method, req.Path, req.Header, req.Raw = r.Method, r.URL.Path, r.Header.Clone(), body

	s.mu.Lock()
	s.requests = append(s.requests, req)
	if s.refusing && len(req.Tools) > 0 {
		msg := s.refuse
		s.mu.Unlock()
		if msg == "" {
			msg = fmt.Sprintf("registry.ollama.ai/library/%s does not support tools", req.Model)
		}
		writeError(w, http.StatusBadRequest, msg)
		return
	}
	n, total := len(s.requests), len(s.replies)
	var rep Reply
	ok := s.next < len(s.replies)
	if ok {
		rep = s.replies[s.next]
		s.next++
	}
	s.mu.Unlock()
	if !ok {
		s.errorf("replay: request %d is beyond the script of %d replies", n, total)
		writeError(w, http.StatusInternalServerError, fmt.Sprintf("replay: request %d is beyond the script of %d replies", n, total))
		return
	}
	if rep.Hang {
		<-r.Context().Done()
		return
	}
	if rep.Stall || rep.Trickle != "" {
		var pace time.Duration
		if rep.Trickle != "" {
			if pace, err = time.ParseDuration(rep.Trickle); err != nil || pace <= 0 {
				s.errorf("replay: trickle %q is not a positive duration", rep.Trickle)
				writeError(w, http.StatusInternalServerError, "replay: bad trickle "+rep.Trickle)
				return
			}
		}
		w = &paced{ResponseWriter: w, ctx: r.Context(), left: rep.After, pace: pace}
	}
	serve(w, &req, rep, n)
}

// paced is the writer of an answer that stalls or trickles: it writes the
// first left bytes at once, then one byte every pace, or none at all when
// pace is zero, until ctx is done.
type paced struct {
	http.ResponseWriter
	ctx  context.Context
	left int
	pace time.Duration
}

func (p *paced) Write(b []byte) (int, error) {
	n := 0
	if p.left > 0 {
		k, err := p.ResponseWriter.Write(b[:min(p.left, len(b))])
		n, p.left, b = k, p.left-k, b[k:]
		if err != nil {
			return n, err
		}
	}
	for len(b) > 0 {
		p.Flush()
		if p.pace == 0 {
			<-p.ctx.Done()
			return n, p.ctx.Err()
		}
		t := time.NewTimer(p.pace)
		select {
		case <-p.ctx.Done():
			t.Stop()
			return n, p.ctx.Err()
		case <-t.C:
		}
		k, err := p.ResponseWriter.Write(b[:1])
		n, b = n+k, b[k:]
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// Flush sends what was written.
func (p *paced) Flush() {
	if f, ok := p.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// endlessLine writes a data line that never ends, until the client goes
// away.
func endlessLine(w http.ResponseWriter) {
	if _, err := io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":"`); err != nil {
		return
	}
	filler := []byte(strings.Repeat("x", 32<<10))
	for {
		if _, err := w.Write(filler); err != nil {
			return // the client went away
		}
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
}

// serve sends rep as the answer to the n-th request req.
func serve(w http.ResponseWriter, req *Request, rep Reply, n int) {
	if rep.RetryAfter != "" {
		w.Header().Set("Retry-After", rep.RetryAfter)
	}
	if rep.Status != 0 && rep.Status != http.StatusOK {
		if rep.ErrorBody != "" {
			if rep.ContentType != "" {
				w.Header().Set("Content-Type", rep.ContentType)
			}
			w.WriteHeader(rep.Status)
			io.WriteString(w, rep.ErrorBody)
			return
		}
		msg := rep.Text
		if msg == "" {
			msg = http.StatusText(rep.Status)
		}
		writeError(w, rep.Status, msg)
		return
	}
	if rep.SSE != "" {
		w.Header().Set("Content-Type", "text/event-stream")
		if rep.ContentType != "" {
			w.Header().Set("Content-Type", rep.ContentType)
		}
		io.WriteString(w, rep.SSE)
		if rep.EndlessLine {
			endlessLine(w)
			return
		}
		if rep.Abort {
			abort(w)
		}
		return
	}
	size := rep.Chunk
	if size <= 0 {
		size = DefaultChunk
	}
	id := fmt.Sprintf("chatcmpl-agenttest-%d", n)
	calls := make([]Call, len(rep.ToolCalls))
	for i, c := range rep.ToolCalls {
		if c.ID == "" {
			c.ID = fmt.Sprintf("call_%d_%d", n, i+1)
		}
		calls[i] = c
	}
	finish := rep.FinishReason
	if finish == "" {
		finish = "stop"
		if len(calls) > 0 {
			finish = "tool_calls"
		}
	}
	text := split(rep.Text, size)
	args := make([][]string, len(calls))
	pieces := len(text)
	for i, c := range calls {
		args[i] = split(c.Arguments, size)
		pieces += len(args[i])
	}
	usage := usageOf(rep.Usage, len(req.Messages), pieces)

	if !req.Stream {
		writeCompletion(w, req, id, rep.Text, calls, finish, usage)
		return
	}

	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	write := func(event []byte) bool {
		if _, err := w.Write(event); err != nil {
			return false // the client went away
		}
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		return true
	}
	encode := func(v any) []byte {
		b, _ := json.Marshal(v) // our own types: no error
		return fmt.Appendf(nil, "data: %s\n\n", b)
	}
	send := func(v any) bool { return write(encode(v)) }
	chunk := func(d delta, finish *string) streamChunk {
		return streamChunk{
			ID: id, Object: "chat.completion.chunk", Model: req.Model,
			Choices: []streamChoice{{Delta: d, FinishReason: finish}},
		}
	}
	empty := ""
	if !send(chunk(delta{Role: "assistant", Content: &empty}, nil)) {
		return
	}
	if rep.EndlessLine {
		endlessLine(w)
		return
	}
	events := make([][]byte, len(text))
	for i, p := range text {
		events[i] = encode(chunk(delta{Content: &p}, nil))
	}
	for r := 0; r < max(rep.Repeat, 1) || rep.Repeat < 0; r++ {
		for _, e := range events {
			if !write(e) {
				return
			}
		}
	}
	for _, f := range fragments(calls, args, rep.Interleave, rep.NoIndex) {
		if !send(chunk(delta{ToolCalls: []toolCallDelta{f}}, nil)) {
			return
		}
	}
	if rep.Abort {
		abort(w)
	}
	if !send(chunk(delta{}, &finish)) {
		return
	}
	if req.IncludeUsage() {
		if !send(streamChunk{ID: id, Object: "chat.completion.chunk", Model: req.Model, Choices: []streamChoice{}, Usage: &usage}) {
			return
		}
	}
	io.WriteString(w, "data: [DONE]\n\n")
}

// abort breaks the connection after what was written, in the way of
// net/http: by panicking with http.ErrAbortHandler, which the server and
// memoryTransport recover.
func abort(w http.ResponseWriter) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	panic(http.ErrAbortHandler)
}

// fragments returns the tool call fragments to stream: for each call a
// first one with its id and name, then its arguments in pieces.
func fragments(calls []Call, args [][]string, interleave, noIndex bool) []toolCallDelta {
	perCall := make([][]toolCallDelta, len(calls))
	for i, c := range calls {
		index := &i
		if noIndex {
			index = nil
		}
		first := toolCallDelta{Index: index, ID: c.ID, Type: "function", Function: functionDelta{Name: c.Name}}
		perCall[i] = append(perCall[i], first)
		for _, a := range args[i] {
			perCall[i] = append(perCall[i], toolCallDelta{Index: index, Function: functionDelta{Arguments: a}})
		}
	}
	var out []toolCallDelta
	if !interleave {
		for _, fs := range perCall {
			out = append(out, fs...)
		}
		return out
	}
	for k := 0; ; k++ {
		added := false
		for _, fs := range perCall {
			if k < len(fs) {
				out = append(out, fs[k])
				added = true
			}
		}
		if !added {
			return out
		}
	}
}

// split cuts s into pieces of size bytes, or a little more where a
// character would be cut.
func split(s string, size int) []string {
	var out []string
	for s != "" {
		k := min(size, len(s))
		for k < len(s) && !utf8.RuneStart(s[k]) {
			k++
		}
		out = append(out, s[:k])
		s = s[k:]
	}
	return out
}

func usageOf(u *Usage, messages, pieces int) Usage {
	if u != nil {
		return *u
	}
	return Usage{PromptTokens: 10 * messages, CompletionTokens: pieces, TotalTokens: 10*messages + pieces}
}

// writeCompletion answers a request without streaming.
func writeCompletion(w http.ResponseWriter, req *Request, id, text string, calls []Call, finish string, u Usage) {
	type message struct {
		Role      string     `json:"role"`
		Content   *string    `json:"content"`
		ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	}
	m := message{Role: "assistant"}
	if text != "" || len(calls) == 0 {
		m.Content = &text
	}
	for _, c := range calls {
		m.ToolCalls = append(m.ToolCalls, ToolCall{ID: c.ID, Type: "function", Function: FunctionCall{Name: c.Name, Arguments: c.Arguments}})
	}
	resp := struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		Created int64  `json:"created"`
		Model   string `json:"model"`
		Choices []struct {
			Index        int     `json:"index"`
			Message      message `json:"message"`
			FinishReason string  `json:"finish_reason"`
		} `json:"choices"`
		Usage Usage `json:"usage"`
	}{ID: id, Object: "chat.completion", Model: req.Model, Usage: u}
	resp.Choices = append(resp.Choices, struct {
		Index        int     `json:"index"`
		Message      message `json:"message"`
		FinishReason string  `json:"finish_reason"`
	}{Message: m, FinishReason: finish})
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}

// writeError answers an HTTP error with an OpenAI-style body.
func writeError(w http.ResponseWriter, code int, msg string) {
	typ := "invalid_request_error"
	if code >= 500 {
		typ = "server_error"
	}
	body := map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(body)
}

// describe names a reply in a failure message.
func describe(r Reply) string {
	switch {
	case r.Status != 0 && r.Status != http.StatusOK:
		return fmt.Sprintf("status %d %q", r.Status, r.Text)
	case r.Hang:
		return "a request left unanswered"
	case r.Stall:
		return fmt.Sprintf("a reply that stalls after %d bytes", r.After)
	case r.EndlessLine:
		return "a line that never ends"
	case r.SSE != "":
		return fmt.Sprintf("raw SSE %q", abbrev(r.SSE))
	}
	var names []string
	for _, c := range r.ToolCalls {
		names = append(names, c.Name)
	}
	if len(names) > 0 {
		return fmt.Sprintf("text %q, tool calls %s", abbrev(r.Text), strings.Join(names, ", "))
	}
	return fmt.Sprintf("text %q", abbrev(r.Text))
}

func abbrev(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// The wire types of a streamed reply.
type (
	streamChunk struct {
		ID      string         `json:"id"`
		Object  string         `json:"object"`
		Created int64          `json:"created"`
		Model   string         `json:"model"`
		Choices []streamChoice `json:"choices"`
		Usage   *Usage         `json:"usage,omitempty"`
	}
	streamChoice struct {
		Index        int     `json:"index"`
		Delta        delta   `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	}
	delta struct {
		Role      string          `json:"role,omitempty"`
		Content   *string         `json:"content,omitempty"`
		ToolCalls []toolCallDelta `json:"tool_calls,omitempty"`
	}
	toolCallDelta struct {
		Index    *int          `json:"index,omitempty"`
		ID       string        `json:"id,omitempty"`
		Type     string        `json:"type,omitempty"`
		Function functionDelta `json:"function"`
	}
	functionDelta struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	}
)

// Usage is the token counts a reply reports, as the OpenAI protocol
// writes them.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

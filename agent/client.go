package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// ChatClient is the model client the agent needs: one streamed chat
// completion. *openai.Client satisfies it, for any OpenAI-compatible
// endpoint.
type ChatClient interface {
	CreateChatCompletionStream(ctx context.Context, req openai.ChatCompletionRequest) (*openai.ChatCompletionStream, error)
}

// ErrNoFinish reports a stream that ended without a finish reason: the
// server or the connection cut the reply short, so it is not an answer.
var ErrNoFinish = errors.New("model stream ended without a finish reason")

// NotAPIError reports a server that answered, but not in the OpenAI API:
// an HTML page or some other body instead of an event stream, as a wrong
// base URL gets.
type NotAPIError struct {
	What string // "an HTML page", or a description of the body
}

func (e *NotAPIError) Error() string { return "model server: " + notAPIText(e.What) }

func notAPIText(what string) string {
	return "answered with " + what + ", not the OpenAI API" + baseURLQuestion
}

// baseURLQuestion ends what NotAPIError says.
const baseURLQuestion = ": is the base URL right (it usually ends in /v1)?"

// htmlPage is what NotAPIError says of an HTML page.
const htmlPage = "an HTML page"

// isHTML reports whether a Content-Type or a body is HTML.
func isHTML(contentType string, body []byte) bool {
	if mt, _, err := mime.ParseMediaType(contentType); err == nil && mt == "text/html" {
		return true
	}
	b := strings.ToLower(strings.TrimSpace(string(body[:min(len(body), 512)])))
	return strings.HasPrefix(b, "<!doctype html") || strings.HasPrefix(b, "<html")
}

// StatusError is an HTTP error answer of the model server.
type StatusError struct {
	Code int // HTTP status code
	// RetryAfter is the wait the server asked for in its Retry-After
	// header, or zero.
	RetryAfter time.Duration
	Message    string // the server's error message, if it gave one
	// BaseURL is the base URL the request was sent under, if known: a
	// 404 under one that does not end in /v1 suggests adding it.
	BaseURL string
}

func (e *StatusError) Error() string {
	s := "model server: " + strconv.Itoa(e.Code)
	if text := http.StatusText(e.Code); text != "" {
		s += " " + text
	}
	if e.Code == http.StatusNotFound && e.BaseURL != "" {
		s += " for " + strings.TrimSuffix(e.BaseURL, "/") + "/chat/completions"
	}
	v1 := e.v1()
	if msg := e.Message; msg != "" {
		if v1 != "" {
			msg = strings.TrimSuffix(msg, baseURLQuestion) // the hint says it
		}
		s += ": " + msg
	}
	if v1 != "" {
		s += "; most OpenAI-compatible servers serve under /v1: try OPENAI_BASE_URL=" + v1 + " (or --api-base " + v1 + ")"
	}
	return s
}

// v1 is the base URL with /v1 added, when the answer was 404 Not Found
// and the base URL does not end in /v1; else "".
func (e *StatusError) v1() string {
	base := strings.TrimSuffix(e.BaseURL, "/")
	if e.Code != http.StatusNotFound || base == "" || strings.HasSuffix(base, "/v1") {
		return ""
	}
	return base + "/v1"
}

// Retryable reports whether the request may succeed when sent again:
// 408 Request Timeout, 429 Too Many Requests and the 5xx errors but 501
// Not Implemented and 505 HTTP Version Not Supported. Those two and the
// other 4xx errors answer the request itself: sending it again gets the
// same answer.
func (e *StatusError) Retryable() bool {
	return e.Code == http.StatusRequestTimeout || e.Code == http.StatusTooManyRequests ||
		e.Code >= 500 && e.Code <= 599 && e.Code != http.StatusNotImplemented && e.Code != http.StatusHTTPVersionNotSupported
}

// Config says how to reach an OpenAI-compatible endpoint.
type Config struct {
	BaseURL string // e.g. http://localhost:11434/v1; empty means OpenAI's
	APIKey  string // may be empty for local servers
	Model   string
	// HTTPClient is the HTTP client to use; nil means a new one. Its
	// transport is wrapped, the client itself is not changed.
	HTTPClient *http.Client
	// ConnectTimeout bounds making the connection to the server, and
	// FirstByteTimeout the wait from sending a request to the first
	// piece of the streamed reply; zero means DefaultConnectTimeout and
	// DefaultFirstByteTimeout, a negative value no bound.
	ConnectTimeout   time.Duration
	FirstByteTimeout time.Duration
	// IdleTimeout bounds the wait for each further piece of a reply once
	// it has begun; zero means DefaultIdleTimeout, a negative value no
	// bound.
	IdleTimeout time.Duration
	// MaxReply bounds the size of one reply, in bytes; zero means
	// DefaultMaxReply, a negative value no bound.
	MaxReply int64
}

// Default timeouts of a Client. A local server (Ollama, llama.cpp) loads
// the model's weights from disk at the first request before it answers,
// and reads a long prompt before the first token: for a large model on a
// slow disk or a CPU that takes minutes. Five minutes lets that finish,
// and still ends a wait on a server that will never answer. Making a
// connection takes milliseconds, even to a loaded machine: ten seconds
// is ample.
const (
	DefaultConnectTimeout   = 10 * time.Second
	DefaultFirstByteTimeout = 5 * time.Minute
)

// DefaultIdleTimeout is the default wait for each further piece of a
// reply. Once a reply streams, its pieces come a fraction of a second
// apart; but a reasoning model may think for minutes after its first
// piece, and a server that assembles a tool call before it sends it (as
// some of vLLM's and Ollama's parsers do) is silent while a slow local
// model writes a whole file. Five minutes, as for the first byte, lets
// those finish (Codex waits as long, its stream_idle_timeout_ms).
const DefaultIdleTimeout = 5 * time.Minute

// DefaultMaxReply is the default bound on the size of one reply: its
// text, reasoning and tool arguments together, and each line of its
// stream. A model's reply is at most a few hundred kilobytes even when it
// writes a whole large file; 4 MiB leaves room for that, and keeps a
// runaway or hostile server from filling the memory.
const DefaultMaxReply = 4 << 20

// TimeoutError reports a model server that did not answer in time: no
// connection (Phase "connect"), no first byte of the reply (Phase "first
// byte"), or no further piece of a reply that had begun (Phase "idle")
// within After.
type TimeoutError struct {
	Phase string
	After time.Duration
}

// PhaseIdle is the Phase of a reply that stopped after it had begun.
const PhaseIdle = "idle"

func (e *TimeoutError) Error() string {
	switch e.Phase {
	case "connect":
		return fmt.Sprintf("model server: no connection within %s (the connect timeout)", formatDelay(e.After))
	case PhaseIdle:
		return fmt.Sprintf("model server: the reply stalled: nothing more of it within %s (the idle timeout)", formatDelay(e.After))
	}
	return fmt.Sprintf("model server: no answer within %s (the timeout for the first byte of the reply)", formatDelay(e.After))
}

// SizeError reports a reply larger than the bound on its size, Limit
// bytes: its text, reasoning and tool arguments together, or the lines of
// its stream that are not events together (Line false), or one line of
// its stream (Line true).
type SizeError struct {
	Limit int64
	Line  bool
}

func (e *SizeError) Error() string {
	if e.Line {
		return fmt.Sprintf("model server: a line of the reply is longer than %s (the bound on a reply's size)", formatSize(e.Limit))
	}
	return fmt.Sprintf("model server: the reply is larger than %s (the bound on a reply's size)", formatSize(e.Limit))
}

// formatSize writes a size in bytes in the largest unit that divides it:
// "4 MiB", "8 MB", "1500 bytes".
func formatSize(n int64) string {
	units := []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1e9, "GB"}, {1 << 20, "MiB"}, {1e6, "MB"}, {1 << 10, "KiB"}, {1e3, "kB"}}
	for _, u := range units {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d %s", n/u.size, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// Defaults of a Client's retry loop.
const (
	DefaultMaxAttempts = 4
	DefaultBaseDelay   = time.Second
	DefaultMaxDelay    = 60 * time.Second
)

// Client asks the model for one reply at a time: it streams the reply,
// joins its pieces, and retries what is worth retrying. The zero values of
// its optional fields mean their defaults.
type Client struct {
	Chat  ChatClient
	Model string
	// BaseURL is the endpoint's base URL, named in the error of a 404
	// answer; empty means unknown.
	BaseURL string

	// MaxAttempts is the number of requests tried for one reply
	// (DefaultMaxAttempts when zero).
	MaxAttempts int
	// BaseDelay is the first wait before a retry; each further retry
	// waits twice as long (DefaultBaseDelay when zero).
	BaseDelay time.Duration
	// MaxDelay caps every wait, also one asked for by Retry-After
	// (DefaultMaxDelay when zero).
	MaxDelay time.Duration

	// Notice, if set, receives one line for the person at every retry.
	Notice func(string)
	// Sleep waits d or until ctx is done, then returns ctx.Err(); nil
	// means a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock for Retry-After dates; nil means time.Now.
	Now func() time.Time

	// FirstByteTimeout bounds the wait from sending a request to the
	// first piece of its reply (zero: no bound). A timeout is not
	// retried.
	FirstByteTimeout time.Duration
	// IdleTimeout bounds the wait for each further piece of a reply
	// (zero: no bound). Only a piece that carries something of the reply
	// counts: text, reasoning, a tool call's fragment, the finish reason
	// or the usage. Bytes that do not complete an event, comments and
	// empty events do not, so a server that trickles bytes or sends
	// keep-alives forever still times out. It is not retried.
	IdleTimeout time.Duration
	// MaxReply bounds the size of one reply in bytes: its text, refusal,
	// reasoning and tool arguments together (zero: no bound). It is not
	// retried. NewClient's transport also bounds each line of the
	// stream, and the lines that are not events, by MaxReply.
	MaxReply int64
	// Waiting, if set, is called as each request is sent; the function
	// it returns is called once the first piece of the reply arrives or
	// the attempt ends, before any text is passed on. A front end shows
	// a "waiting for the model" line in between.
	Waiting func() (done func())
}

// NewClient returns a Client for the endpoint of cfg, through go-openai.
// Its HTTP transport records the Retry-After header of each answer so
// that the retry loop can honour it.
func NewClient(cfg Config) *Client {
	ocfg := openai.DefaultConfig(cfg.APIKey)
	if cfg.BaseURL != "" {
		ocfg.BaseURL = cfg.BaseURL
	}
	hc := &http.Client{}
	if cfg.HTTPClient != nil {
		c := *cfg.HTTPClient
		hc = &c
	}
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	connect := cfg.ConnectTimeout
	if connect == 0 {
		connect = DefaultConnectTimeout
	}
	if t, ok := base.(*http.Transport); ok && connect > 0 {
		base = withConnectTimeout(t, connect)
	}
	hc.Transport = &retryAfterTransport{base: &boundedTransport{base: base}}
	ocfg.HTTPClient = hc
	return &Client{Chat: openai.NewClientWithConfig(ocfg), Model: cfg.Model, BaseURL: ocfg.BaseURL,
		FirstByteTimeout: orDefault(cfg.FirstByteTimeout, DefaultFirstByteTimeout),
		IdleTimeout:      orDefault(cfg.IdleTimeout, DefaultIdleTimeout),
		MaxReply:         orDefault(cfg.MaxReply, DefaultMaxReply),
	}
}

// orDefault maps zero to def and a negative value to zero, "no bound".
func orDefault[T time.Duration | int64](v, def T) T {
	if v == 0 {
		return def
	}
	return max(v, 0)
}

// withConnectTimeout returns a copy of t whose connections time out after
// d with a *TimeoutError.
func withConnectTimeout(t *http.Transport, d time.Duration) *http.Transport {
	t = t.Clone()
	dialer := &net.Dialer{Timeout: d, KeepAlive: 30 * time.Second}
	dial := t.DialContext
	if dial == nil {
		dial = dialer.DialContext
	}
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		dctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		conn, err := dial(dctx, network, addr)
		if err != nil && ctx.Err() == nil && (errors.Is(dctx.Err(), context.DeadlineExceeded) || isTimeout(err)) {
			return nil, &TimeoutError{Phase: "connect", After: d}
		}
		return conn, err
	}
	return t
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// Complete sends the conversation msgs and the tools the model may call,
// passes each piece of text to onToken (if not nil) as it arrives, and
// returns the whole reply. A refusal counts as text; reasoning content
// (deepseek's reasoning_content) is left out. A finish reason of "length"
// is returned as it is: the caller decides. On an error, the Reply holds
// what arrived of the last attempt.
//
// Errors of the server that may pass (408, 429, 5xx but 501) and broken
// connections are retried after a wait, as long as no text was shown for
// the attempt; other errors are returned at once, a *StatusError for an
// HTTP error. When ctx is done, Complete returns at once with an error
// that wraps ctx.Err().
func (c *Client) Complete(ctx context.Context, msgs []Message, tools []ToolDef, onToken func(string)) (Reply, error) {
	if c.Chat == nil {
		return Reply{}, errors.New("model client: not configured")
	}
	req := c.request(msgs, tools)
	attempts := c.MaxAttempts
	if attempts <= 0 {
		attempts = DefaultMaxAttempts
	}
	var retries []string
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return Reply{Retries: retries}, fmt.Errorf("model request: %w", err)
		}
		ra := &retryAfter{}
		reply, shown, err := c.stream(context.WithValue(ctx, retryAfterKey{}, ra), req, onToken)
		reply.Retries = retries
		if err == nil {
			return reply, nil
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return reply, fmt.Errorf("model request: %w", ctxErr)
		}
		var se *StatusError
		if errors.As(err, &se) {
			if d, ok := parseRetryAfter(ra.get(), c.now()); ok {
				se.RetryAfter = d
			}
			se.BaseURL = c.BaseURL
		}
		why, ok := retryable(err)
		if !ok || shown {
			return reply, err
		}
		if attempt >= attempts {
			return reply, fmt.Errorf("%w (gave up after %d attempts)", err, attempt)
		}
		delay := c.delay(attempt, se)
		notice := fmt.Sprintf("%s; retrying in %s (attempt %d of %d)", why, formatDelay(delay), attempt+1, attempts)
		retries = append(retries, notice)
		if c.Notice != nil {
			c.Notice("pair: " + notice)
		}
		sleep := c.Sleep
		if sleep == nil {
			sleep = sleepTimer
		}
		if err := sleep(ctx, delay); err != nil {
			return Reply{Retries: retries}, fmt.Errorf("model request: %w", err)
		}
	}
}

// request converts pair's conversation and tools to go-openai's request.
func (c *Client) request(msgs []Message, tools []ToolDef) openai.ChatCompletionRequest {
	req := openai.ChatCompletionRequest{
		Model:         c.Model,
		Stream:        true,
		StreamOptions: &openai.StreamOptions{IncludeUsage: true},
	}
	for _, m := range msgs {
		om := openai.ChatCompletionMessage{
			Role:       string(m.Role),
			Content:    m.Content,
			ToolCallID: m.ToolCallID,
		}
		if m.Role == RoleTool && m.Content == "" {
			// Some servers reject a tool message without content.
			om.Content = EmptyToolResult
		}
		for _, tc := range m.ToolCalls {
			args := tc.Arguments
			if args == "" {
				// The field is required; an empty string would be
				// left out of the JSON.
				args = "{}"
			}
			om.ToolCalls = append(om.ToolCalls, openai.ToolCall{
				ID:       tc.ID,
				Type:     openai.ToolTypeFunction,
				Function: openai.FunctionCall{Name: tc.Name, Arguments: args},
			})
		}
		req.Messages = append(req.Messages, om)
	}
	for _, t := range tools {
		params := t.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		req.Tools = append(req.Tools, openai.Tool{
			Type: openai.ToolTypeFunction,
			Function: &openai.FunctionDefinition{
				Name:        t.Name,
				Description: t.Description,
				Parameters:  params,
			},
		})
	}
	return req
}

// EmptyToolResult is the content sent for a tool message whose content
// is empty.
const EmptyToolResult = "(no output)"

// stream makes one attempt: it sends req and reads the streamed reply.
// shown reports whether text was passed to onToken.
func (c *Client) stream(parent context.Context, req openai.ChatCompletionRequest, onToken func(string)) (reply Reply, shown bool, err error) {
	// The attempt's context ends with a *TimeoutError as its cause when
	// no first byte came in time.
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	arrived := func() {}
	if c.FirstByteTimeout > 0 {
		timer := time.AfterFunc(c.FirstByteTimeout, func() {
			cancel(&TimeoutError{Phase: "first byte", After: c.FirstByteTimeout})
		})
		arrived = func() { timer.Stop() }
	}
	if c.Waiting != nil {
		done := c.Waiting()
		stopTimer := arrived
		arrived = func() { stopTimer(); done() }
	}
	// Each piece of the reply that carries something of it puts off the
	// idle timeout, from the first piece on.
	var idle *time.Timer
	progress := func() {
		switch {
		case c.IdleTimeout <= 0:
		case idle == nil:
			idle = time.AfterFunc(c.IdleTimeout, func() {
				cancel(&TimeoutError{Phase: PhaseIdle, After: c.IdleTimeout})
			})
		default:
			idle.Reset(c.IdleTimeout)
		}
	}
	defer func() {
		if idle != nil {
			idle.Stop()
		}
	}()
	var once sync.Once
	first := func() { once.Do(arrived) }
	defer first()
	// The transport of NewClient bounds the lines of the body and
	// reports it here.
	guard := &bodyGuard{limit: c.MaxReply}
	ctx = context.WithValue(ctx, bodyGuardKey{}, guard)
	// timedOut replaces an error caused by the first-byte timeout.
	timedOut := func(err error) error {
		var te *TimeoutError
		if cause := context.Cause(ctx); parent.Err() == nil && errors.As(cause, &te) {
			return te
		}
		return err
	}

	stream, err := c.Chat.CreateChatCompletionStream(ctx, req)
	if err != nil {
		if e := guard.err; e != nil {
			return Reply{}, false, e
		}
		return Reply{}, false, timedOut(requestError(err))
	}
	defer stream.Close()
	// Close the stream when ctx is done, for transports that do not
	// abort a body read themselves.
	stop := context.AfterFunc(ctx, func() { stream.Close() })
	defer stop()
	contentType := stream.Header().Get("Content-Type")
	if isHTML(contentType, nil) {
		return Reply{}, false, &NotAPIError{What: htmlPage}
	}
	// notAPI is the error of a body in which no event came at all.
	notAPI := func() error {
		if mt, _, _ := mime.ParseMediaType(contentType); mt == "text/event-stream" {
			return nil
		}
		if contentType == "" {
			return &NotAPIError{What: "a body that is not an event stream (no Content-Type)"}
		}
		return &NotAPIError{What: fmt.Sprintf("a body that is not an event stream (Content-Type %s)", contentType)}
	}
	events := 0
	// size is what the reply holds so far (see Client.MaxReply).
	var size int64

	var calls callJoiner
	var content strings.Builder
	defer func() {
		reply.Content = content.String()
		reply.ToolCalls = calls.result()
	}()
	for {
		if ctx.Err() != nil {
			return reply, shown, timedOut(ctx.Err())
		}
		chunk, err := stream.Recv()
		if ctx.Err() != nil {
			return reply, shown, timedOut(ctx.Err())
		}
		first()
		if e := guard.err; e != nil {
			return reply, shown, e
		}
		if errors.Is(err, io.EOF) {
			if reply.FinishReason == "" {
				if e := notAPI(); events == 0 && e != nil {
					return reply, shown, e
				}
				return reply, shown, ErrNoFinish
			}
			return reply, shown, nil
		}
		if errors.Is(err, openai.ErrTooManyEmptyStreamMessages) && events == 0 {
			if e := notAPI(); e != nil {
				return reply, shown, e
			}
		}
		if err == nil {
			events++
			if events == 1 || carries(chunk) {
				progress()
			}
			size += sizeOf(chunk)
		}
		if err != nil {
			if reply.FinishReason != "" && isConnError(err) {
				// The answer is complete; only the usage or the
				// end marker is missing.
				return reply, shown, nil
			}
			return reply, shown, streamError(err)
		}
		if chunk.Usage != nil {
			reply.Usage = Usage{
				PromptTokens:     chunk.Usage.PromptTokens,
				CompletionTokens: chunk.Usage.CompletionTokens,
				TotalTokens:      chunk.Usage.TotalTokens,
			}
		}
		for _, ch := range chunk.Choices {
			if ch.Index != 0 {
				continue // only one choice is asked for
			}
			text := ch.Delta.Content + ch.Delta.Refusal
			if text != "" {
				content.WriteString(text)
				if onToken != nil {
					onToken(text)
					shown = true
				}
			}
			for _, tc := range ch.Delta.ToolCalls {
				if calls.add(tc) {
					size += callCost
				}
			}
			if fr := ch.FinishReason; fr != "" && fr != openai.FinishReasonNull {
				reply.FinishReason = string(fr)
			}
		}
		if c.MaxReply > 0 && size > c.MaxReply {
			return reply, shown, &SizeError{Limit: c.MaxReply}
		}
	}
}

// carries reports whether a piece of a stream carries something of the
// reply: text, reasoning, a tool call's fragment, the finish reason or the
// usage.
func carries(chunk openai.ChatCompletionStreamResponse) bool {
	if chunk.Usage != nil {
		return true
	}
	for _, ch := range chunk.Choices {
		d := ch.Delta
		if d.Content != "" || d.Refusal != "" || d.ReasoningContent != "" || len(d.ToolCalls) > 0 || d.FunctionCall != nil ||
			ch.FinishReason != "" && ch.FinishReason != openai.FinishReasonNull {
			return true
		}
	}
	return false
}

// callCost is what a new tool call counts towards a reply's size beyond
// its id, name and arguments: an endless run of empty calls is bounded
// too.
const callCost = 64

// sizeOf is what a piece of a stream adds to the size of the reply: the
// text, refusal, reasoning and tool call fragments of all its choices
// (only the first is kept, but a server could send endless others).
func sizeOf(chunk openai.ChatCompletionStreamResponse) int64 {
	var n int
	for _, ch := range chunk.Choices {
		d := ch.Delta
		n += len(d.Content) + len(d.Refusal) + len(d.ReasoningContent)
		for _, tc := range d.ToolCalls {
			n += len(tc.ID) + len(tc.Function.Name) + len(tc.Function.Arguments)
		}
	}
	return int64(n)
}

// callJoiner joins the fragments of streamed tool calls: by their index,
// or, for servers that send none, in order, a new id starting a new call.
type callJoiner struct {
	calls   []ToolCall
	args    []*strings.Builder // the arguments of calls, joined in time linear in their length
	byIndex map[int]int        // fragment index → position in calls
}

// result returns the calls joined.
func (j *callJoiner) result() []ToolCall {
	for i, b := range j.args {
		j.calls[i].Arguments = b.String()
	}
	return j.calls
}

// add adds the fragment tc, and reports whether it began a new call.
func (j *callJoiner) add(tc openai.ToolCall) (added bool) {
	pos := -1
	if tc.Index != nil {
		if p, ok := j.byIndex[*tc.Index]; ok {
			pos = p
		}
	} else if n := len(j.calls); n > 0 {
		pos = n - 1
	}
	if pos >= 0 && tc.ID != "" && j.calls[pos].ID != "" && tc.ID != j.calls[pos].ID {
		pos = -1 // a new call, where a server reuses an index or sends none
	}
	if pos < 0 {
		added = true
		j.calls = append(j.calls, ToolCall{})
		j.args = append(j.args, new(strings.Builder))
		pos = len(j.calls) - 1
		if tc.Index != nil {
			if j.byIndex == nil {
				j.byIndex = make(map[int]int)
			}
			j.byIndex[*tc.Index] = pos
		}
	}
	call := &j.calls[pos]
	if call.ID == "" {
		call.ID = tc.ID
	}
	switch name := tc.Function.Name; {
	case call.Name == "":
		call.Name = name
	case name != call.Name:
		call.Name += name
	}
	j.args[pos].WriteString(tc.Function.Arguments)
	return added
}

// requestError converts an error of sending a request.
func requestError(err error) error {
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) && apiErr.HTTPStatusCode > 0 {
		return &StatusError{Code: apiErr.HTTPStatusCode, Message: apiErr.Message}
	}
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) && reqErr.HTTPStatusCode > 0 {
		return &StatusError{Code: reqErr.HTTPStatusCode, Message: bodyMessage(reqErr.Body)}
	}
	return fmt.Errorf("model server: %w", err)
}

// streamError converts an error of reading a stream.
func streamError(err error) error {
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) {
		if apiErr.HTTPStatusCode > 0 {
			return &StatusError{Code: apiErr.HTTPStatusCode, Message: apiErr.Message}
		}
		return fmt.Errorf("model server: error in stream: %s", apiErr.Message)
	}
	return fmt.Errorf("model server: read stream: %w", err)
}

// bodyMessage extracts the error message of an error body that go-openai
// could not read: {"error": "…"} (Ollama), {"message": "…"} (vLLM),
// {"detail": "…"}, or plain text.
func bodyMessage(body []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  string          `json:"detail"`
	}
	if json.Unmarshal(body, &v) == nil {
		var s string
		var obj struct {
			Message string `json:"message"`
		}
		switch {
		case json.Unmarshal(v.Error, &s) == nil && s != "":
			return s
		case json.Unmarshal(v.Error, &obj) == nil && obj.Message != "":
			return obj.Message
		case v.Message != "":
			return v.Message
		case v.Detail != "":
			return v.Detail
		}
	}
	if isHTML("", body) {
		return notAPIText(htmlPage)
	}
	s := strings.TrimSpace(string(body))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// retryable reports whether err may pass when the request is sent again,
// and says why it failed, for the notice.
func retryable(err error) (why string, ok bool) {
	var se *StatusError
	if errors.As(err, &se) {
		return strings.TrimSpace(fmt.Sprintf("the model server answered %d %s", se.Code, http.StatusText(se.Code))), se.Retryable()
	}
	if !isConnError(err) {
		return "", false
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return "cannot reach the model server: " + ue.Err.Error(), true
	}
	return "the model server's stream broke: " + errors.Unwrap(err).Error(), true
}

// isConnError reports whether err is a broken or refused connection.
func isConnError(err error) bool {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // *url.Error is a net.Error itself
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
		return false
	}
	var netErr net.Error
	return errors.As(err, &netErr) ||
		errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, io.EOF) ||
		errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.EPIPE)
}

// delay returns the wait after the failed attempt: what the server asked
// for, else BaseDelay doubled for each earlier retry; at most MaxDelay.
func (c *Client) delay(attempt int, se *StatusError) time.Duration {
	maxDelay := c.MaxDelay
	if maxDelay <= 0 {
		maxDelay = DefaultMaxDelay
	}
	var d time.Duration
	if se != nil && se.RetryAfter > 0 {
		d = se.RetryAfter
	} else {
		d = c.BaseDelay
		if d <= 0 {
			d = DefaultBaseDelay
		}
		for i := 1; i < attempt && d < maxDelay; i++ {
			d *= 2
		}
	}
	return min(d, maxDelay)
}

func (c *Client) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// sleepTimer waits d or until ctx is done.
func sleepTimer(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// formatDelay writes whole seconds as "2s" (not "1m0s").
func formatDelay(d time.Duration) string {
	if d >= time.Second && d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return d.String()
}

// parseRetryAfter reads a Retry-After value: seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs < 0 || secs > float64(24*time.Hour/time.Second) {
			return 0, false
		}
		return time.Duration(secs * float64(time.Second)), true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}

// retryAfterKey is the context key of the *retryAfter of a request.
type retryAfterKey struct{}

// retryAfter holds the Retry-After header of the last answer to a request.
type retryAfter struct {
	mu    sync.Mutex
	value string
}

func (r *retryAfter) set(v string) {
	r.mu.Lock()
	r.value = v
	r.mu.Unlock()
}

func (r *retryAfter) get() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.value
}

// retryAfterTransport records the Retry-After header of each answer in the
// *retryAfter of the request's context, because go-openai's errors do not
// carry the headers.
type retryAfterTransport struct {
	base http.RoundTripper
}

func (t *retryAfterTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err == nil {
		if ra, ok := req.Context().Value(retryAfterKey{}).(*retryAfter); ok {
			ra.set(resp.Header.Get("Retry-After"))
		}
	}
	return resp, err
}

// bodyGuardKey is the context key of the *bodyGuard of a request.
type bodyGuardKey struct{}

// bodyGuard bounds what the reader of an answer's body holds in memory,
// and records the bound broken, since go-openai's stream reader replaces
// the error of a read with one of its own. The body is read by the
// goroutine that sent the request, which then looks at err: no lock is
// needed.
type bodyGuard struct {
	limit int64 // in bytes; zero: no bound
	err   error // a *SizeError once the bound is broken
}

// boundedTransport bounds the answers to requests that carry a *bodyGuard.
// go-openai reads an event stream line by line, each line whole, and keeps
// every line that is not a data line to report an error; it reads an error
// answer's body whole. So each line of a stream, and its lines that are
// not data lines together, may hold at most the guard's limit; an error
// answer's body is cut there (its status is the answer, its message the
// first line).
type boundedTransport struct {
	base http.RoundTripper
}

func (t *boundedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	g, ok := req.Context().Value(bodyGuardKey{}).(*bodyGuard)
	if err != nil || !ok || g.limit <= 0 {
		return resp, err
	}
	if resp.StatusCode < 200 || resp.StatusCode >= 400 {
		resp.Body = &cutBody{Reader: io.LimitReader(resp.Body, g.limit), Closer: resp.Body}
	} else {
		resp.Body = &lineBody{body: resp.Body, g: g}
	}
	return resp, nil
}

// cutBody is a body cut after a number of bytes.
type cutBody struct {
	io.Reader
	io.Closer
}

// lineBody is the body of an event stream whose lines are bounded (see
// boundedTransport). Once a bound is broken, every read fails with a
// *SizeError, also recorded in the guard.
type lineBody struct {
	body io.ReadCloser
	g    *bodyGuard
	// line is the length of the line read so far, head its first bytes
	// after leading blanks (up to len("data:")), other the length of the
	// complete lines that are not data lines.
	line, other int64
	head        []byte
}

func (b *lineBody) Read(p []byte) (int, error) {
	if b.g.err != nil {
		return 0, b.g.err
	}
	n, err := b.body.Read(p)
	if e := b.scan(p[:n]); e != nil {
		b.g.err = e
		return n, e
	}
	return n, err
}

func (b *lineBody) Close() error { return b.body.Close() }

// scan follows the lines of p, read after what was scanned before.
func (b *lineBody) scan(p []byte) error {
	const data = "data:"
	for len(p) > 0 {
		seg := p
		end := bytes.IndexByte(p, '\n')
		if end >= 0 {
			seg = p[:end+1]
		}
		for _, c := range seg {
			if len(b.head) == len(data) {
				break
			}
			if len(b.head) > 0 || !isBlank(c) {
				b.head = append(b.head, c)
			}
		}
		b.line += int64(len(seg))
		if b.line > b.g.limit {
			return &SizeError{Limit: b.g.limit, Line: true}
		}
		if end >= 0 {
			if len(b.head) > 0 && string(b.head) != data {
				if b.other += b.line; b.other > b.g.limit {
					return &SizeError{Limit: b.g.limit}
				}
			}
			b.line, b.head = 0, b.head[:0]
		}
		p = p[len(seg):]
	}
	return nil
}

// isBlank reports whether c is an ASCII blank, as bytes.TrimSpace sees it.
func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

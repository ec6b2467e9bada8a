package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"
)

// fakeTransport hands what the client sends to the test, on sent.
type fakeTransport struct {
	sent   chan message
	closed chan struct{}
}

func (f *fakeTransport) send(ctx context.Context, msg []byte, _ int64) error {
	var m message
	if err := json.Unmarshal(msg, &m); err != nil {
		return err
	}
	select {
	case f.sent <- m:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (f *fakeTransport) close() { close(f.closed) }

func newFake() (*conn, *fakeTransport) {
	f := &fakeTransport{sent: make(chan message, 16), closed: make(chan struct{})}
	c := newConn()
	c.t = f
	return c, f
}

func next(t *testing.T, f *fakeTransport) message {
	t.Helper()
	select {
	case m := <-f.sent:
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("the client sent nothing")
	}
	return message{}
}

type callOutcome struct {
	res map[string]any
	err error
}

func goCall(c *conn, ctx context.Context, method string) chan callOutcome {
	ch := make(chan callOutcome, 1)
	go func() {
		var o callOutcome
		o.err = c.call(ctx, method, map[string]any{"m": method}, &o.res)
		ch <- o
	}()
	return ch
}

// TestAnswersOutOfOrder: answers are matched to calls by id, whatever
// their order, and lines that are not for any call are skipped.
func TestAnswersOutOfOrder(t *testing.T) {
	t.Parallel()
	c, f := newFake()
	first := goCall(c, context.Background(), "first")
	m1 := next(t, f)
	second := goCall(c, context.Background(), "second")
	m2 := next(t, f)
	if m1.Method != "first" || m2.Method != "second" || string(m1.ID) == string(m2.ID) {
		t.Fatalf("sent %+v and %+v", m1, m2)
	}
	for _, junk := range []string{"", "not json", `{"jsonrpc":"2.0","id":999,"result":{}}`, `{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`,
		`[1,2]`, `{"id":{"x":1},"result":{}}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`} {
		c.handle([]byte(junk))
	}
	// The second answered first, its id written as a string.
	c.handle(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":"%s","result":{"n":2}}`, m2.ID))
	c.handle(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":{"n":1}}`, m1.ID))
	for i, ch := range []chan callOutcome{first, second} {
		o := <-ch
		if o.err != nil || o.res["n"] != float64(i+1) {
			t.Errorf("call %d: got %v, %v", i+1, o.res, o.err)
		}
	}
}

func TestBatchOfAnswers(t *testing.T) {
	t.Parallel()
	c, f := newFake()
	a := goCall(c, context.Background(), "a")
	ma := next(t, f)
	b := goCall(c, context.Background(), "b")
	mb := next(t, f)
	c.handle(fmt.Appendf(nil, `[{"jsonrpc":"2.0","id":%s,"result":{"n":"b"}},{"jsonrpc":"2.0","id":%s,"result":{"n":"a"}}]`, mb.ID, ma.ID))
	if o := <-a; o.err != nil || o.res["n"] != "a" {
		t.Errorf("a: got %v, %v", o.res, o.err)
	}
	if o := <-b; o.err != nil || o.res["n"] != "b" {
		t.Errorf("b: got %v, %v", o.res, o.err)
	}
}

func TestErrorsOfACall(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		answer string // %s is the id
		check  func(error) bool
	}{
		{`{"jsonrpc":"2.0","id":%s,"error":{"code":-32602,"message":"unknown tool"}}`, func(err error) bool {
			var re *rpcError
			return errors.As(err, &re) && re.Code == -32602 && re.Message == "unknown tool"
		}},
		{`{"jsonrpc":"2.0","id":%s,"result":"a string"}`, func(err error) bool {
			var me *malformedError
			return errors.As(err, &me)
		}},
		{`{"jsonrpc":"2.0","id":%s}`, func(err error) bool {
			var me *malformedError
			return errors.As(err, &me) && strings.Contains(err.Error(), "neither a result nor an error")
		}},
	} {
		c, f := newFake()
		ch := goCall(c, context.Background(), "x")
		m := next(t, f)
		c.handle(fmt.Appendf(nil, tc.answer, m.ID))
		if o := <-ch; !tc.check(o.err) {
			t.Errorf("%s: got %v (%T)", tc.answer, o.err, o.err)
		}
	}
}

// TestServerRequests: the server's ping is answered, any other request
// gets "method not found", with the server's own id.
func TestServerRequests(t *testing.T) {
	t.Parallel()
	c, f := newFake()
	c.handle([]byte(`{"jsonrpc":"2.0","id":"s-1","method":"ping"}` + "\n"))
	got := next(t, f)
	if string(got.ID) != `"s-1"` || string(got.Result) != `{}` || got.Error != nil || got.Method != "" {
		t.Errorf("ping: answered %+v", got)
	}
	c.handle([]byte(`{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{}}`))
	got = next(t, f)
	if string(got.ID) != "7" || got.Error == nil || got.Error.Code != codeMethodNotFound || !strings.Contains(got.Error.Message, "sampling/createMessage") {
		t.Errorf("sampling: answered %+v", got)
	}
	c.handle([]byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info"}}`))
	select {
	case m := <-f.sent:
		t.Errorf("a notification was answered: %+v", m)
	case <-time.After(50 * time.Millisecond):
	}
}

// TestCancelTellsTheServer: a call whose context ends returns the
// context's error and sends notifications/cancelled with its id.
func TestCancelTellsTheServer(t *testing.T) {
	t.Parallel()
	c, f := newFake()
	ctx, cancel := context.WithCancel(context.Background())
	ch := goCall(c, ctx, "tools/call")
	m := next(t, f)
	cancel()
	if o := <-ch; !errors.Is(o.err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", o.err)
	}
	n := next(t, f)
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	_ = json.Unmarshal(n.Params, &p)
	if n.Method != "notifications/cancelled" || len(n.ID) != 0 || string(p.RequestID) != string(m.ID) {
		t.Errorf("sent %+v (params %s), want notifications/cancelled for %s", n, n.Params, m.ID)
	}
	// A late answer is dropped.
	c.handle(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":{}}`, m.ID))
}

func TestCallOnAnEndedConnection(t *testing.T) {
	t.Parallel()
	c, f := newFake()
	ch := goCall(c, context.Background(), "x")
	next(t, f)
	c.end(io.ErrUnexpectedEOF)
	if o := <-ch; !errors.Is(o.err, errClosed) || !strings.Contains(o.err.Error(), "unexpected EOF") {
		t.Errorf("waiting call: got %v", o.err)
	}
	if err := c.call(context.Background(), "y", nil, nil); !errors.Is(err, errClosed) {
		t.Errorf("later call: got %v", err)
	}
}

func TestReadLines(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 200<<10) // longer than the reader's buffer
	in := "one\r\n\n  \n" + long + "\nlast without newline"
	var got []string
	err := readLines(iotest.OneByteReader(strings.NewReader(in)), func(b []byte) { got = append(got, strings.TrimRight(string(b), "\r\n")) })
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0] != "one" || got[1] != long || got[2] != "last without newline" {
		t.Errorf("got %d lines: %.40q", len(got), got)
	}
	err = readLines(iotest.ErrReader(io.ErrClosedPipe), func([]byte) {})
	if !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("a failing reader: got %v", err)
	}
}

func TestReadEvents(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, stream string
		want         []string
	}{
		{"two events", "event: message\ndata: {\"a\":1}\n\ndata: {\"b\":2}\n\n", []string{`{"a":1}`, `{"b":2}`}},
		{"comments id and retry", ": keep-alive\nid: 42\nretry: 1000\ndata: x\n\n: bye\n", []string{"x"}},
		{"lines of data joined", "data: {\"a\":\ndata:  1}\n\n", []string{"{\"a\":\n 1}"}},
		{"no space after the colon", "data:x\n\n", []string{"x"}},
		{"CRLF", "data: a\r\n\r\ndata: b\r\n\r\n", []string{"a", "b"}},
		{"CR", "data: a\r\rdata: b\r\r", []string{"a", "b"}},
		{"other event types skipped", "event: endpoint\ndata: /x\n\nevent: message\ndata: y\n\n", []string{"y"}},
		{"empty data is no event", "data\n\ndata:\n\n", nil},
		{"blank lines alone", "\n\n\n", nil},
		{"last event without a blank line", "data: z", []string{"z"}},
	} {
		var got []string
		err := readEvents(iotest.OneByteReader(strings.NewReader(tc.stream)), func(b []byte) { got = append(got, string(b)) })
		if err != nil || strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
			t.Errorf("%s: got %q, %v, want %q", tc.name, got, err, tc.want)
		}
	}
}

// TestStreamableEvents runs the streamable HTTP transport against a
// hand-made server: the answer to a call comes in an event stream after
// a request of the server's (a ping, which the client answers with a POST
// of its own), the session id and protocol version go with every later
// request, and Close deletes the session.
func TestStreamableEvents(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var log []string
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var m message
		_ = json.Unmarshal(body, &m)
		mu.Lock()
		log = append(log, fmt.Sprintf("%s %s session=%s version=%s", r.Method, m.Method+string(m.Result), r.Header.Get("Mcp-Session-Id"), r.Header.Get("Mcp-Protocol-Version")))
		mu.Unlock()
		switch {
		case r.Method == http.MethodDelete:
			w.WriteHeader(http.StatusOK)
		case m.Method == "initialize":
			w.Header().Set("Mcp-Session-Id", "sess-1")
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-03-26","capabilities":{},"serverInfo":{"name":"h","version":"1"}}}`, m.ID)
		case m.Method == "tools/list":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, ": hello\n\nevent: message\nid: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"srv\",\"method\":\"ping\"}\n\n")
			w.(http.Flusher).Flush()
			fmt.Fprintf(w, "retry: 500\nid: 2\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\n", m.ID)
			fmt.Fprint(w, "data: \"result\":{\"tools\":[{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\"}}]}}\n\n")
		case len(m.ID) == 0 || m.Method == "":
			w.WriteHeader(http.StatusAccepted)
		}
	}))
	defer hs.Close()
	s := &Server{Config: Config{Name: "h", URL: hs.URL}, gone: make(chan struct{}), stderr: &tail{max: 10}}
	s.conn = dialStreamable(hs.URL, map[string]string{"X-Test": "1"})
	go s.watch()
	tools, err := s.initialize(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 1 || tools[0].Name != "t" {
		t.Errorf("tools: got %+v", tools)
	}
	// The ping's answer is posted on its own: wait for it.
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		n := len(log)
		mu.Unlock()
		if n >= 4 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	s.Close()
	mu.Lock()
	defer mu.Unlock()
	got := strings.Join(log, "\n")
	for _, want := range []string{
		"POST initialize session= version=",
		"POST notifications/initialized session=sess-1 version=2025-03-26",
		"POST tools/list session=sess-1 version=2025-03-26",
		"POST {} session=sess-1 version=2025-03-26", // the answer to the ping
		"DELETE  session=sess-1 version=2025-03-26",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the server saw:\n%s\nwant a line %q", got, want)
		}
	}
	if d := s.Down(); d != "was stopped" {
		t.Errorf("Down: got %q", d)
	}
}

// TestStreamableStreamEndsEarly: a stream that ends without the answer
// fails the call at once, not at its timeout.
func TestStreamableStreamEndsEarly(t *testing.T) {
	t.Parallel()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n")
	}))
	defer hs.Close()
	c := dialStreamable(hs.URL, nil)
	defer c.t.close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := c.call(ctx, "tools/list", nil, &map[string]any{})
	if err == nil || !strings.Contains(err.Error(), "ended without the answer") {
		t.Errorf("got %v", err)
	}
	// A tool's call says the connection was lost.
	s := &Server{Config: Config{Name: "h", URL: hs.URL}, gone: make(chan struct{}), stderr: &tail{max: 10}, conn: c}
	_, err = s.call(ctx, "t", json.RawMessage(`{}`))
	if want := "the connection to the MCP server h was lost during the call of h.t: the server's event stream ended without the answer"; err == nil || err.Error() != want {
		t.Errorf("call: got %v, want %q", err, want)
	}
}

func TestStreamableHTTPErrors(t *testing.T) {
	t.Parallel()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/html":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<html>")
		case "/gone":
			http.NotFound(w, r)
		default:
			http.Error(w, "bad\ngateway", http.StatusBadGateway)
		}
	}))
	defer hs.Close()
	for path, want := range map[string]string{"/html": `answered with "text/html"`, "/bad": "502 Bad Gateway: bad gateway"} {
		c := dialStreamable(hs.URL+path, nil)
		if err := c.call(context.Background(), "x", nil, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", path, err, want)
		}
		s := &Server{Config: Config{Name: "h", URL: hs.URL}, gone: make(chan struct{}), stderr: &tail{max: 10}, conn: c}
		if _, err := s.call(context.Background(), "t", nil); err == nil || !strings.HasPrefix(err.Error(), "the call of h.t to the MCP server h failed: ") {
			t.Errorf("%s: the tool's call: got %v", path, err)
		}
		c.t.close()
	}
	// A 404 for a session the server forgot ends the connection.
	c := dialStreamable(hs.URL+"/gone", nil)
	c.t.(*streamable).session = "old"
	if err := c.call(context.Background(), "x", nil, nil); !errors.Is(err, errClosed) || !errors.Is(c.err, errSessionGone) {
		t.Errorf("404: got %v (%v)", err, c.err)
	}
}

// FuzzMessages feeds arbitrary bytes to the readers of lines and events
// and to the connection's handling of messages: nothing panics, and a
// pending call is either answered or still waiting.
func FuzzMessages(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`[{"jsonrpc":"2.0","id":"1","result":{"tools":[]}},{"jsonrpc":"2.0","method":"ping","id":2}]`,
		"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1,\"message\":\"m\"}}\r\n\r\n",
		": c\nid: 1\nretry: 5\nevent: message\ndata: {}\n\n",
		"data: a\rdata: b\r\r",
		`{"id":1e400,"result":null}`,
		`{"id":-1,"method":"x"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, ft := newFake()
		ft.sent = make(chan message, 1024)
		c.pending[1] = make(chan *message, 1)
		feed := func(b []byte) { c.handle(bytes.Clone(b)) }
		_ = readLines(bytes.NewReader(data), feed)
		_ = readEvents(bytes.NewReader(data), feed)
		feed(data)
		_, _ = decodeMessages(data)
		_, _ = messageID(data)
	})
}

package review_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pair-cli/pair/edit/edittest"
	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/internal/safetext"
	"github.com/pair-cli/pair/review"
)

const testToken = "test-token-0123456789abcdef"

// newWeb starts a Web with a known token; it is closed when the test ends.
func newWeb(t *testing.T) *review.Web {
	t.Helper()
	w, err := review.NewWeb(review.WebOptions{Token: testToken, Title: "pair test", Verb: "write and commit"})
	if err != nil {
		t.Fatalf("NewWeb: got error %v, want none", err)
	}
	t.Cleanup(func() {
		if err := w.Close(); err != nil {
			t.Errorf("Close: got error %v, want none", err)
		}
	})
	return w
}

// request is one HTTP request to a Web; the zero value is a GET with the
// token in the X-Pair-Token header and the right Host.
type request struct {
	method, path, body string
	contentType        string            // "application/json" when body is set and this is ""
	header             map[string]string // "" removes a header
	host               string            // the Host header; "" is 127.0.0.1:port
	noToken            bool
}

// send sends req to w and returns the status and body.
func send(t *testing.T, w *review.Web, req request) (int, string) {
	t.Helper()
	resp := sendResp(t, w, req)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", req.method, req.path, err)
	}
	return resp.StatusCode, string(b)
}

func sendResp(t *testing.T, w *review.Web, req request) *http.Response {
	t.Helper()
	if req.method == "" {
		req.method = http.MethodGet
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", w.Port())
	var body io.Reader
	if req.body != "" {
		body = strings.NewReader(req.body)
	}
	hr, err := http.NewRequest(req.method, base+req.path, body)
	if err != nil {
		t.Fatalf("NewRequest: %v", err)
	}
	if req.host != "" {
		hr.Host = req.host
	}
	if !req.noToken {
		hr.Header.Set("X-Pair-Token", testToken)
	}
	if req.body != "" {
		ct := req.contentType
		if ct == "" {
			ct = "application/json"
		}
		hr.Header.Set("Content-Type", ct)
	}
	for k, v := range req.header {
		if v == "" {
			hr.Header.Del(k)
		} else {
			hr.Header.Set(k, v)
		}
	}
	c := &http.Client{
		Timeout:       10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	resp, err := c.Do(hr)
	if err != nil {
		t.Fatalf("%s %s: got error %v, want a response", req.method, req.path, err)
	}
	return resp
}

// The state /api/state returns, as far as the tests look at it.
type webState struct {
	Title        string `json:"title"`
	Status       string `json:"status"`
	Seq          int64  `json:"seq"`
	Conversation []struct {
		Role      string `json:"role"`
		Text      string `json:"text"`
		Streaming bool   `json:"streaming"`
	} `json:"conversation"`
	Log []struct {
		Time time.Time `json:"time"`
		Text string    `json:"text"`
	} `json:"log"`
	Review *struct {
		Serial    int64    `json:"serial"`
		Verb      string   `json:"verb"`
		Undecided int      `json:"undecided"`
		Grants    []string `json:"grants"`
		Totals    struct {
			Approved, Rejected, Undecided int
		} `json:"totals"`
		Files []struct {
			Path   string `json:"path"`
			Shown  string `json:"shown"`
			Action string `json:"action"`
		} `json:"files"`
		Items []struct {
			ID        string `json:"id"`
			File      int    `json:"file"`
			Path      string `json:"path"`
			Action    string `json:"action"`
			Where     string `json:"where"`
			Header    string `json:"header"`
			Placement string `json:"placement"`
			Rules     []struct {
				ID        string `json:"id"`
				Statement string `json:"statement"`
			} `json:"rules"`
			Notes []string `json:"notes"`
			Lines []struct {
				Kind   string `json:"kind"`
				Text   string `json:"text"`
				Marker string `json:"marker"`
			} `json:"lines"`
			Decision   string `json:"decision"`
			Note       string `json:"note"`
			Granted    bool   `json:"granted"`
			Edited     bool   `json:"edited"`
			Splittable bool   `json:"splittable"`
			Editable   bool   `json:"editable"`
			EditText   string `json:"edit_text"`
		} `json:"items"`
	} `json:"review"`
	Question *struct {
		Serial int64  `json:"serial"`
		Title  string `json:"title"`
		Detail string `json:"detail"`
	} `json:"question"`
}

func getState(t *testing.T, w *review.Web) webState {
	t.Helper()
	code, body := send(t, w, request{path: "/api/state"})
	if code != http.StatusOK {
		t.Fatalf("GET /api/state: got %d %s, want 200", code, body)
	}
	var s webState
	if err := json.Unmarshal([]byte(body), &s); err != nil {
		t.Fatalf("GET /api/state: got %s, not the state: %v", body, err)
	}
	return s
}

// waitState polls /api/state until ok is true.
func waitState(t *testing.T, w *review.Web, what string, ok func(webState) bool) webState {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s := getState(t, w)
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: gave up; state is %+v", what, s)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// startReview runs w.Review(ctx, r) in the background until the page
// shows it; the returned channel delivers Review's result.
func startReview(t *testing.T, ctx context.Context, w *review.Web, r *review.Review) (<-chan error, int64) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- w.Review(ctx, r) }()
	s := waitState(t, w, "the review", func(s webState) bool { return s.Review != nil })
	return done, s.Review.Serial
}

func waitErr(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("Review did not return")
		return nil
	}
}

func decisions(serial int64, submit bool, ds ...string) string {
	type d struct {
		ID       string `json:"id"`
		Decision string `json:"decision"`
		Note     string `json:"note,omitempty"`
	}
	in := struct {
		Review    int64 `json:"review"`
		Decisions []d   `json:"decisions"`
		Submit    bool  `json:"submit"`
	}{Review: serial, Decisions: []d{}, Submit: submit}
	for _, s := range ds {
		// "id=decision" or "id=reject:note"
		id, rest, _ := strings.Cut(s, "=")
		dec, note, _ := strings.Cut(rest, ":")
		in.Decisions = append(in.Decisions, d{id, dec, note})
	}
	b, _ := json.Marshal(in)
	return string(b)
}

func TestNewWebToken(t *testing.T) {
	for _, tok := range []string{"short", "has spaces in it, quite long", "semi;colon-0123456789"} {
		if w, err := review.NewWeb(review.WebOptions{Token: tok}); err == nil {
			w.Close()
			t.Errorf("NewWeb(Token %q): got no error, want one", tok)
		}
	}
	w, err := review.NewWeb(review.WebOptions{})
	if err != nil {
		t.Fatalf("NewWeb: got error %v, want none", err)
	}
	defer w.Close()
	re := regexp.MustCompile(`^http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32})$`)
	m := re.FindStringSubmatch(w.URL())
	if m == nil {
		t.Fatalf("URL: got %q, want http://127.0.0.1:PORT/?token=<32 hex digits>", w.URL())
	}
	if m[1] != strconv.Itoa(w.Port()) {
		t.Errorf("URL: got port %s, want %d", m[1], w.Port())
	}
	w2, err := review.NewWeb(review.WebOptions{})
	if err != nil {
		t.Fatalf("NewWeb: got error %v, want none", err)
	}
	defer w2.Close()
	if strings.Split(w2.URL(), "token=")[1] == m[2] {
		t.Errorf("two Webs got the same random token %s", m[2])
	}
}

func TestWebTokenRequired(t *testing.T) {
	w := newWeb(t)
	cookie := fmt.Sprintf("pair_token_%d", w.Port())
	tests := []struct {
		name string
		req  request
		want int
	}{
		{"state without token", request{path: "/api/state", noToken: true}, 403},
		{"page without token", request{path: "/", noToken: true}, 403},
		{"script without token", request{path: "/app.js", noToken: true}, 403},
		{"events without token", request{path: "/api/events", noToken: true}, 403},
		{"wrong header token", request{path: "/api/state", header: map[string]string{"X-Pair-Token": testToken + "x"}}, 403},
		{"wrong cookie", request{path: "/api/state", noToken: true, header: map[string]string{"Cookie": cookie + "=nope-nope-nope-nope"}}, 403},
		{"cookie of another port", request{path: "/api/state", noToken: true, header: map[string]string{"Cookie": "pair_token_1=" + testToken}}, 403},
		{"token in the URL of the API", request{path: "/api/state?token=" + testToken, noToken: true}, 403},
		{"wrong token in the URL", request{path: "/?token=" + testToken[:len(testToken)-1], noToken: true}, 403},
		{"chat without token", request{method: "POST", path: "/api/chat", body: `{"text":"hi"}`, noToken: true}, 403},
		{"decisions without token", request{method: "POST", path: "/api/decisions", body: `{"review":1,"decisions":[],"submit":true}`, noToken: true}, 403},
		{"header token", request{path: "/api/state"}, 200},
		{"cookie", request{path: "/api/state", noToken: true, header: map[string]string{"Cookie": cookie + "=" + testToken}}, 200},
		{"no such page", request{path: "/nothing"}, 404},
		{"GET of a POST endpoint", request{path: "/api/chat"}, 405},
		{"POST to the state", request{method: "POST", path: "/api/state", body: `{}`}, 405},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := send(t, w, tt.req)
			if code != tt.want {
				t.Errorf("got %d %s, want %d", code, body, tt.want)
			}
		})
	}
	if got := len(getState(t, w).Conversation); got != 0 {
		t.Errorf("refused chat: got %d messages in the conversation, want 0", got)
	}
	select {
	case m := <-w.Messages():
		t.Errorf("refused chat: Messages delivered %q, want nothing", m)
	default:
	}
}

func TestWebTokenCookie(t *testing.T) {
	w := newWeb(t)
	resp := sendResp(t, w, request{path: "/?token=" + testToken, noToken: true})
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
		t.Fatalf("GET /?token: got %d to %q, want 303 to /", resp.StatusCode, resp.Header.Get("Location"))
	}
	var c *http.Cookie
	for _, k := range resp.Cookies() {
		if k.Name == fmt.Sprintf("pair_token_%d", w.Port()) {
			c = k
		}
	}
	if c == nil {
		t.Fatalf("GET /?token: got cookies %v, want pair_token_%d", resp.Cookies(), w.Port())
	}
	if c.Value != testToken || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" {
		t.Errorf("cookie: got %+v, want the token, HttpOnly, SameSite=Strict, Path=/", c)
	}

	// A browser: follows the redirect and keeps the cookie.
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	base := fmt.Sprintf("http://127.0.0.1:%d", w.Port())
	resp, err := client.Get(base + "/?token=" + testToken)
	if err != nil {
		t.Fatalf("GET /?token: %v", err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Request.URL.RawQuery != "" {
		t.Fatalf("GET /?token: got %d at %s, want 200 at / without the token", resp.StatusCode, resp.Request.URL)
	}
	for _, hook := range []string{`data-action="send"`, `data-action="submit"`, `id="log"`, `src="/app.js"`, `href="/style.css"`} {
		if !strings.Contains(string(page), hook) {
			t.Errorf("page: no %s in it", hook)
		}
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("page: got Content-Security-Policy %q, want script-src 'self'", csp)
	}
	for _, p := range []string{"/app.js", "/style.css", "/api/state"} {
		resp, err := client.Get(base + p)
		if err != nil {
			t.Fatalf("GET %s: %v", p, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || len(b) == 0 {
			t.Errorf("GET %s with the cookie: got %d (%d bytes), want 200", p, resp.StatusCode, len(b))
		}
		if resp.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("GET %s: got a CORS header, want none", p)
		}
	}
	// The page loads nothing from elsewhere.
	for _, p := range []string{"/", "/app.js", "/style.css"} {
		resp, err := client.Get(base + p)
		if err != nil {
			t.Fatalf("GET %s: %v", p, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if m := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}`).FindString(string(b)); m != "" {
			t.Errorf("%s refers to %q, want no third-party asset", p, m)
		}
	}
}

func TestWebHost(t *testing.T) {
	w := newWeb(t)
	port := strconv.Itoa(w.Port())
	tests := []struct {
		host string
		want int
	}{
		{"127.0.0.1:" + port, 200},
		{"localhost:" + port, 200},
		{"evil.example:" + port, 403},
		{"evil.example", 403},
		{"127.0.0.1", 403},
		{"localhost", 403},
		{"127.0.0.1:1" + port, 403},
		{"[::1]:" + port, 403},
		{"127.0.0.2:" + port, 403},
	}
	for _, tt := range tests {
		for _, path := range []string{"/api/state", "/?token=" + testToken} {
			code, body := send(t, w, request{path: path, host: tt.host})
			if tt.want == 200 && path != "/api/state" {
				continue
			}
			if code != tt.want {
				t.Errorf("GET %s with Host %q: got %d %s, want %d", path, tt.host, code, body, tt.want)
			}
		}
	}
	// A rebinding page cannot write either.
	code, _ := send(t, w, request{method: "POST", path: "/api/chat", body: `{"text":"hi"}`, host: "evil.example:" + port})
	if code != 403 {
		t.Errorf("POST /api/chat with a foreign Host: got %d, want 403", code)
	}
	if n := len(getState(t, w).Conversation); n != 0 {
		t.Errorf("after refused writes: got %d messages, want 0", n)
	}
}

// TestWebCrossOrigin checks that writes from another origin, or without
// a JSON body, are refused and change nothing.
func TestWebCrossOrigin(t *testing.T) {
	w := newWeb(t)
	r := fixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done, serial := startReview(t, ctx, w, r)
	port := strconv.Itoa(w.Port())
	approveAll := decisions(serial, true, "1=approve", "2=approve", "3=approve", "4=always", "6=approve")
	tests := []struct {
		name string
		req  request
		want int
	}{
		{"other origin", request{header: map[string]string{"Origin": "http://evil.example"}}, 403},
		{"other port", request{header: map[string]string{"Origin": "http://127.0.0.1:1"}}, 403},
		{"null origin", request{header: map[string]string{"Origin": "null"}}, 403},
		{"https origin", request{header: map[string]string{"Origin": "https://127.0.0.1:" + port}}, 403},
		{"cross-site fetch", request{header: map[string]string{"Sec-Fetch-Site": "cross-site"}}, 403},
		{"same-site fetch", request{header: map[string]string{"Sec-Fetch-Site": "same-site"}}, 403},
		{"form post", request{contentType: "application/x-www-form-urlencoded"}, 415},
		{"text post", request{contentType: "text/plain"}, 415},
		{"no content type", request{header: map[string]string{"Content-Type": ""}}, 415},
		{"other origin with no content type", request{contentType: "text/plain", header: map[string]string{"Origin": "http://evil.example"}}, 403},
	}
	before := snapshot(t, r)
	for _, tt := range tests {
		for _, p := range []struct{ path, body string }{{"/api/decisions", approveAll}, {"/api/chat", `{"text":"rm -rf"}`}, {"/api/answer", `{"question":1,"approve":true}`}} {
			req := tt.req
			req.method, req.path, req.body = "POST", p.path, p.body
			code, body := send(t, w, req)
			if code != tt.want {
				t.Errorf("%s: POST %s: got %d %s, want %d", tt.name, p.path, code, body, tt.want)
			}
		}
	}
	s := getState(t, w)
	if s.Review == nil || s.Review.Undecided != 6 || len(s.Conversation) != 0 {
		t.Errorf("after refused writes: got review %+v and %d messages, want six undecided hunks and no message", s.Review, len(s.Conversation))
	}
	select {
	case err := <-done:
		t.Fatalf("Review returned %v after refused writes, want it still waiting", err)
	case m := <-w.Messages():
		t.Fatalf("Messages delivered %q after refused writes, want nothing", m)
	default:
	}
	cancel()
	if err := waitErr(t, done); !errors.Is(err, review.ErrInterrupted) {
		t.Errorf("Review after cancel: got %v, want ErrInterrupted", err)
	}
	if got := snapshot(t, r); got != before {
		t.Errorf("refused writes changed the review:\ngot  %s\nwant %s", got, before)
	}

	// The page's own origin may write.
	code, body := send(t, w, request{method: "POST", path: "/api/chat", body: `{"text":"hello"}`,
		header: map[string]string{"Origin": "http://127.0.0.1:" + port, "Sec-Fetch-Site": "same-origin"}})
	if code != http.StatusAccepted {
		t.Errorf("POST /api/chat from the page's origin: got %d %s, want 202", code, body)
	}
}

func TestWebState(t *testing.T) {
	w := newWeb(t)
	s := getState(t, w)
	if s.Title != "pair test" || s.Status != "idle" || s.Seq != 0 || s.Review != nil || s.Question != nil || s.Conversation == nil || s.Log == nil {
		t.Errorf("new state: got %+v, want title, idle, no events, no review, empty lists", s)
	}

	w.Publish(review.WebEvent{Kind: review.EventMessage, Role: "user", Text: "fix the division"})
	w.SetStatus("working")
	w.Publish(review.WebEvent{Kind: review.EventToken, Text: "Let me "})
	w.Publish(review.WebEvent{Kind: review.EventToken, Text: "look"})
	s = getState(t, w)
	if s.Status != "working" || len(s.Conversation) != 2 || s.Conversation[1].Text != "Let me look" || !s.Conversation[1].Streaming || s.Conversation[1].Role != "assistant" {
		t.Errorf("while streaming: got %+v, want the tokens joined in an open assistant message", s)
	}
	w.Publish(review.WebEvent{Kind: review.EventMessage, Role: "assistant", Text: "Let me look at calc.go."})
	w.Publish(review.WebEvent{Kind: review.EventTool, Text: "read_file calc.go"})
	w.Publish(review.WebEvent{Kind: review.EventToken, Text: "Here is a fix."})
	w.SetStatus("idle")
	w.Publish(review.WebEvent{Kind: review.EventLog, Text: "read calc.go"})
	s = getState(t, w)
	var got []string
	for _, m := range s.Conversation {
		got = append(got, fmt.Sprintf("%s:%s:%v", m.Role, m.Text, m.Streaming))
	}
	want := []string{"user:fix the division:false", "assistant:Let me look at calc.go.:false", "tool:read_file calc.go:false", "assistant:Here is a fix.:false"}
	if !slices.Equal(got, want) {
		t.Errorf("conversation: got %q, want %q", got, want)
	}
	if len(s.Log) != 1 || s.Log[0].Text != "read calc.go" || s.Log[0].Time.IsZero() {
		t.Errorf("log: got %+v, want one stamped entry", s.Log)
	}
	if s.Seq != 9 || s.Status != "idle" {
		t.Errorf("got seq %d status %q, want 9 idle", s.Seq, s.Status)
	}

	r := fixture(t)
	mustDo(t, r, "y") // decided in the terminal before
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done, serial := startReview(t, ctx, w, r)
	s = getState(t, w)
	v := s.Review
	if s.Status != "review" || v.Serial != serial || v.Verb != "write and commit" || v.Undecided != 5 || v.Totals.Approved != 1 || len(v.Items) != 6 || len(v.Files) != 3 || v.Grants == nil {
		t.Fatalf("review: got %+v, want six items in three files, one approved", v)
	}
	it := v.Items[1]
	if it.ID != "2" || it.Path != "calc.go" || it.Action != "modify" || it.Where != "calc.go lines 23-32" || it.Header != "@@ -23,10 +23,10 @@ func Mul(a, b int) int {" || it.Placement != "exact" || it.Decision != "undecided" {
		t.Errorf("item 2: got %+v", it)
	}
	// The rules that placed it, with what they say (as --explain).
	if trace := item(t, r, "2").Hunk.Rules; len(trace) == 0 || len(it.Rules) != len(trace) || it.Rules[0].ID != string(trace[0]) || it.Rules[0].Statement == "" {
		t.Errorf("item 2's rules: got %+v, want the trace %v with statements", it.Rules, trace)
	}
	var lines strings.Builder
	for _, l := range it.Lines {
		lines.WriteString(l.Kind + l.Text + "\n")
	}
	if want := edittest.Show(item(t, r, "2").Hunk.Lines); lines.String() != want {
		t.Errorf("item 2 lines: got\n%s\nwant\n%s", lines.String(), want)
	}
	if v.Items[0].Decision != "approved" || v.Items[5].Path != "README.md" || v.Items[5].File != 2 {
		t.Errorf("items 1 and 6: got %+v and %+v", v.Items[0], v.Items[5])
	}
	cancel()
	if err := waitErr(t, done); !errors.Is(err, review.ErrInterrupted) {
		t.Errorf("Review after cancel: got %v, want ErrInterrupted", err)
	}
	s = getState(t, w)
	if s.Review != nil || s.Status != "idle" {
		t.Errorf("after the review: got review %v status %q, want none and the status from before", s.Review, s.Status)
	}
}

// events reads server-sent events from /api/events in the background.
func events(t *testing.T, w *review.Web, query string, header map[string]string) <-chan review.WebEvent {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	hr, _ := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("http://127.0.0.1:%d/api/events%s", w.Port(), query), nil)
	hr.Header.Set("X-Pair-Token", testToken)
	for k, v := range header {
		hr.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(hr)
	if err != nil {
		t.Fatalf("GET /api/events: %v", err)
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET /api/events: got %d %s, want 200 text/event-stream", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	// The reader stops when the test ends, and the test waits for it: a
	// stream cut by the cancel ends in half a line, which is no fault, and
	// nothing may reach t once the test has returned.
	ch := make(chan review.WebEvent, 10000)
	done := make(chan struct{})
	var bad error
	go func() {
		defer close(done)
		defer close(ch)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		id := ""
		for sc.Scan() {
			line := sc.Text()
			if v, ok := strings.CutPrefix(line, "id: "); ok {
				id = v
			}
			data, ok := strings.CutPrefix(line, "data: ")
			if !ok {
				continue
			}
			var e review.WebEvent
			if err := json.Unmarshal([]byte(data), &e); err != nil || strconv.FormatInt(e.ID, 10) != id {
				if ctx.Err() == nil {
					bad = fmt.Errorf("event %q (id %s): not a WebEvent with that id: %v", data, id, err)
				}
				return
			}
			select {
			case ch <- e:
			case <-ctx.Done():
				return
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		if bad != nil {
			t.Error(bad)
		}
	})
	return ch
}

func next(t *testing.T, ch <-chan review.WebEvent) review.WebEvent {
	t.Helper()
	select {
	case e, ok := <-ch:
		if !ok {
			t.Fatal("the event stream ended")
		}
		return e
	case <-time.After(10 * time.Second):
		t.Fatal("no event came")
	}
	return review.WebEvent{}
}

func TestWebEvents(t *testing.T) {
	w := newWeb(t)
	w.Publish(review.WebEvent{Kind: review.EventLog, Text: "before"})
	live := events(t, w, "", nil)
	replay := events(t, w, "?after=0", nil)
	if e := next(t, replay); e.ID != 1 || e.Kind != "log" || e.Text != "before" {
		t.Errorf("replayed event: got %+v, want 1 log before", e)
	}
	// The live stream is open once an event published now reaches the
	// replaying one, which subscribed later.
	w.Publish(review.WebEvent{Kind: review.EventToken, Text: "Hel"})
	w.Publish(review.WebEvent{Kind: review.EventToken, Text: "lo"})
	w.SetStatus("working")
	for _, ch := range []<-chan review.WebEvent{live, replay} {
		var got []string
		for range 3 {
			e := next(t, ch)
			got = append(got, fmt.Sprintf("%d %s %s", e.ID, e.Kind, e.Text))
		}
		if want := []string{"2 token Hel", "3 token lo", "4 status working"}; !slices.Equal(got, want) {
			t.Errorf("events: got %q, want %q", got, want)
		}
	}
	// A reconnecting EventSource sends Last-Event-ID.
	again := events(t, w, "?after=0", map[string]string{"Last-Event-ID": "3"})
	if e := next(t, again); e.ID != 4 || e.Kind != "status" {
		t.Errorf("after Last-Event-ID 3: got %+v, want event 4", e)
	}
	// Too far behind: the page is told to fetch the state again.
	for i := range 5000 {
		w.Publish(review.WebEvent{Kind: review.EventToken, Text: strconv.Itoa(i)})
	}
	old := events(t, w, "?after=1", nil)
	if e := next(t, old); e.Kind != review.EventReset || e.ID != 5004 {
		t.Errorf("after=1 when history is gone: got %+v, want reset at 5004", e)
	}
	if code, _ := send(t, w, request{path: "/api/events?after=x"}); code != 400 {
		t.Errorf("after=x: got %d, want 400", code)
	}
	// Close ends the streams.
	if err := w.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	for range live { // drain up to the end
	}
}

func TestWebChat(t *testing.T) {
	w := newWeb(t)
	ev := events(t, w, "?after=0", nil)
	code, body := send(t, w, request{method: "POST", path: "/api/chat", body: `{"text":"  add a test  "}`})
	if code != http.StatusAccepted {
		t.Fatalf("POST /api/chat: got %d %s, want 202", code, body)
	}
	select {
	case m := <-w.Messages():
		if m != "add a test" {
			t.Errorf("Messages: got %q, want %q", m, "add a test")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Messages: nothing came")
	}
	if e := next(t, ev); e.Kind != "message" || e.Role != "user" || e.Text != "add a test" {
		t.Errorf("event: got %+v, want the user's message", e)
	}
	for _, body := range []string{`{"text":"   "}`, `{"txt":"hi"}`, `not json`, `{"text":"a"}{"text":"b"}`} {
		if code, _ := send(t, w, request{method: "POST", path: "/api/chat", body: body}); code != 400 {
			t.Errorf("POST /api/chat %s: got %d, want 400", body, code)
		}
	}
	// Nobody reads: after a few, the page is told to wait.
	var codes []int
	for i := range 20 {
		code, _ := send(t, w, request{method: "POST", path: "/api/chat", body: fmt.Sprintf(`{"text":"m%d"}`, i)})
		codes = append(codes, code)
	}
	if codes[0] != 202 || codes[19] != http.StatusTooManyRequests {
		t.Errorf("20 unread messages: got %v, want 202 first and 429 at the end", codes)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	n := 0
	for range w.Messages() {
		n++
	}
	if n != 16 {
		t.Errorf("after Close: got %d waiting messages, want 16", n)
	}
}

func TestWebDecisions(t *testing.T) {
	w := newWeb(t)
	r := fixture(t)
	done, serial := startReview(t, context.Background(), w, r)

	// Decisions go in as they are made...
	code, body := send(t, w, request{method: "POST", path: "/api/decisions",
		body: decisions(serial, false, "1=approve", "2=reject:  use %w, not ErrDivide alone  ", "5=always")})
	if code != 200 {
		t.Fatalf("POST /api/decisions: got %d %s, want 200", code, body)
	}
	if got, want := state(r), "1=y 2=n [3=.] 4=y 5=y 6=."; got != want {
		t.Errorf("after the first decisions: got %s, want %s", got, want)
	}
	var s webState
	if err := json.Unmarshal([]byte(body), &s); err != nil || s.Review == nil || s.Review.Undecided != 2 || !slices.Equal(s.Review.Grants, []string{"util/strings.go"}) {
		t.Errorf("answer: got %s, want the state with two undecided and the grant", body)
	}
	// ...can be taken back...
	if code, body := send(t, w, request{method: "POST", path: "/api/decisions", body: decisions(serial, false, "1=undecided", "1=approve", "6=reject")}); code != 200 {
		t.Fatalf("POST /api/decisions: got %d %s, want 200", code, body)
	}
	// ...and the submit rejects what is left undecided.
	if code, body := send(t, w, request{method: "POST", path: "/api/decisions", body: decisions(serial, true)}); code != 200 {
		t.Fatalf("submit: got %d %s, want 200", code, body)
	}
	if err := waitErr(t, done); err != nil {
		t.Fatalf("Review: got %v, want nil after submit", err)
	}
	if got, want := strings.NewReplacer("[", "", "]", "").Replace(state(r)), "1=y 2=n 3=n 4=y 5=y 6=n"; got != want {
		t.Errorf("after submit: got %s, want %s", got, want)
	}
	if got, want := notes(r), "2:use %w, not ErrDivide alone"; got != want {
		t.Errorf("notes: got %q, want %q", got, want)
	}
	if !slices.Equal(r.Grants, []string{"util/strings.go"}) || r.Quit {
		t.Errorf("grants: got %v (quit %v), want [util/strings.go]", r.Grants, r.Quit)
	}
	got := results(t, r)
	if got["calc.go"] != with(t, calcOld, change1) || got["util/strings.go"] != stringsNew || len(got) != 2 {
		t.Errorf("results: got %v files, want calc.go with change 1 and util/strings.go whole", len(got))
	}
	s = getState(t, w)
	if s.Review != nil {
		t.Errorf("after submit: got a review in the state, want none")
	}
	// The page can no longer decide anything.
	if code, _ := send(t, w, request{method: "POST", path: "/api/decisions", body: decisions(serial, true, "3=approve")}); code != http.StatusConflict {
		t.Errorf("decisions after submit: got %d, want 409", code)
	}
	if strings.Contains(state(r), ".") {
		t.Errorf("after submit: got %s, want nothing undecided", state(r))
	}
}

// TestWebAlwaysEarlier checks that always at a later hunk of a file also
// approves the file's undecided hunks before it, and keeps decided ones.
func TestWebAlwaysEarlier(t *testing.T) {
	w := newWeb(t)
	r := fixture(t)
	done, serial := startReview(t, context.Background(), w, r)
	if code, body := send(t, w, request{method: "POST", path: "/api/decisions", body: decisions(serial, true, "2=reject", "3=always", "4=approve", "5=approve", "6=approve")}); code != 200 {
		t.Fatalf("POST /api/decisions: got %d %s, want 200", code, body)
	}
	if err := waitErr(t, done); err != nil {
		t.Fatal(err)
	}
	if got := strings.NewReplacer("[", "", "]", "").Replace(state(r)); got != "1=y 2=n 3=y 4=y 5=y 6=y" {
		t.Errorf("got %s, want 1=y 2=n 3=y 4=y 5=y 6=y", got)
	}
	if !slices.Equal(r.Grants, []string{"calc.go"}) {
		t.Errorf("grants: got %v, want [calc.go]", r.Grants)
	}
}

// TestWebDecideFile checks approve-file and reject-file (the terminal's
// a and d, from the page's "Approve all in this file"): the hunk and
// every undecided hunk of its file, before and after it, with no grant;
// decided hunks and other files stay as they were.
func TestWebDecideFile(t *testing.T) {
	w := newWeb(t)
	r := fixture(t)
	done, serial := startReview(t, context.Background(), w, r)
	body := decisions(serial, false, "1=reject", "2=approve-file", "5=reject-file:not now")
	if code, got := send(t, w, request{method: "POST", path: "/api/decisions", body: body}); code != 200 {
		t.Fatalf("POST /api/decisions: got %d %s, want 200", code, got)
	}
	if got := strings.NewReplacer("[", "", "]", "").Replace(state(r)); got != "1=n 2=y 3=y 4=n 5=n 6=." {
		t.Errorf("got %s, want 1=n 2=y 3=y 4=n 5=n 6=.", got)
	}
	if got := notes(r); got != "4:not now 5:not now" {
		t.Errorf("notes: got %q, want the note on 4 and 5", got)
	}
	if len(r.Grants) != 0 {
		t.Errorf("grants: got %v, want none", r.Grants)
	}
	if code, got := send(t, w, request{method: "POST", path: "/api/decisions", body: decisions(serial, true, "6=approve-file")}); code != 200 {
		t.Fatalf("POST /api/decisions: got %d %s, want 200", code, got)
	}
	if err := waitErr(t, done); err != nil {
		t.Fatal(err)
	}
	if got := strings.NewReplacer("[", "", "]", "").Replace(state(r)); got != "1=n 2=y 3=y 4=n 5=n 6=y" {
		t.Errorf("after the submit: got %s, want 1=n 2=y 3=y 4=n 5=n 6=y", got)
	}
}

func TestWebDecisionsInvalid(t *testing.T) {
	w := newWeb(t)
	r := fixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done, serial := startReview(t, ctx, w, r)
	mustSend := func(body string, want int) {
		t.Helper()
		code, got := send(t, w, request{method: "POST", path: "/api/decisions", body: body})
		if code != want {
			t.Errorf("POST /api/decisions %s: got %d %s, want %d", body, code, got, want)
		}
	}
	before := snapshot(t, r)
	mustSend(decisions(serial, true, "1=approve", "9=approve"), 400)
	mustSend(decisions(serial, true, "1=approve", "2=maybe"), 400)
	mustSend(decisions(serial, true, "1=approved"), 400)
	mustSend(decisions(serial, true, "1=edited"), 400)
	mustSend(decisions(serial, true, "=approve"), 400)
	mustSend(decisions(serial+1, true, "1=approve"), 409)
	mustSend(decisions(serial-1, true, "1=approve"), 409)
	mustSend(`{"review":`+strconv.FormatInt(serial, 10)+`,"decisions":[],"submit":true,"extra":1}`, 400)
	mustSend(`{"review":"1"}`, 400)
	mustSend(`[]`, 400)
	if got := snapshot(t, r); got != before {
		t.Errorf("refused decisions changed the review:\ngot  %s\nwant %s", got, before)
	}
	select {
	case err := <-done:
		t.Fatalf("Review returned %v after refused decisions, want it waiting", err)
	default:
	}
	// Decisions made so far stay in r when the review is interrupted.
	mustSend(decisions(serial, false, "3=reject:later"), 200)
	cancel()
	if err := waitErr(t, done); !errors.Is(err, review.ErrInterrupted) {
		t.Errorf("Review: got %v, want ErrInterrupted", err)
	}
	if got := state(r); got != "[1=.] 2=. 3=n 4=. 5=. 6=." {
		t.Errorf("after interrupt: got %s, want only 3 rejected, cursor on 1", got)
	}
}

func TestWebReviewErrors(t *testing.T) {
	w := newWeb(t)
	if err := w.Review(context.Background(), review.New(review.Proposal{}, nil)); !errors.Is(err, review.ErrNoItem) {
		t.Errorf("Review of nothing: got %v, want ErrNoItem", err)
	}
	r := fixture(t)
	done, _ := startReview(t, context.Background(), w, r)
	if err := w.Review(context.Background(), fixture(t)); !errors.Is(err, review.ErrBusy) {
		t.Errorf("second Review: got %v, want ErrBusy", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := waitErr(t, done); !errors.Is(err, review.ErrWebClosed) {
		t.Errorf("Review at Close: got %v, want ErrWebClosed", err)
	}
	if err := w.Review(context.Background(), fixture(t)); !errors.Is(err, review.ErrWebClosed) {
		t.Errorf("Review after Close: got %v, want ErrWebClosed", err)
	}
	if _, ok := <-w.Messages(); ok {
		t.Error("Messages after Close: got a message, want the channel closed")
	}
}

func TestWebConfirm(t *testing.T) {
	w := newWeb(t)
	type result struct {
		yes  bool
		note string
		err  error
	}
	ask := func(ctx context.Context) (<-chan result, int64) {
		ch := make(chan result, 1)
		go func() {
			yes, note, err := w.Confirm(ctx, "The model wants to run a command", "go test ./...")
			ch <- result{yes, note, err}
		}()
		s := waitState(t, w, "the question", func(s webState) bool { return s.Question != nil })
		if s.Question.Title != "The model wants to run a command" || s.Question.Detail != "go test ./..." || s.Status != "review" {
			t.Errorf("question: got %+v (status %s)", s.Question, s.Status)
		}
		return ch, s.Question.Serial
	}
	ch, serial := ask(context.Background())
	if code, _ := send(t, w, request{method: "POST", path: "/api/answer", body: fmt.Sprintf(`{"question":%d,"approve":true}`, serial+1)}); code != 409 {
		t.Errorf("answer to another question: got %d, want 409", code)
	}
	if code, body := send(t, w, request{method: "POST", path: "/api/answer", body: fmt.Sprintf(`{"question":%d,"approve":false,"note":" run go vet first "}`, serial)}); code != 200 {
		t.Fatalf("answer: got %d %s, want 200", code, body)
	}
	if res := <-ch; res.yes || res.note != "run go vet first" || res.err != nil {
		t.Errorf("Confirm: got %+v, want no with the note", res)
	}
	ch, serial = ask(context.Background())
	if code, body := send(t, w, request{method: "POST", path: "/api/answer", body: fmt.Sprintf(`{"question":%d,"approve":true}`, serial)}); code != 200 {
		t.Fatalf("answer: got %d %s, want 200", code, body)
	}
	if res := <-ch; !res.yes || res.err != nil {
		t.Errorf("Confirm: got %+v, want yes", res)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ch, _ = ask(ctx)
	cancel()
	if res := <-ch; !errors.Is(res.err, review.ErrInterrupted) {
		t.Errorf("Confirm after cancel: got %+v, want ErrInterrupted", res)
	}
	if s := getState(t, w); s.Question != nil || s.Status != "idle" {
		t.Errorf("after the questions: got %+v status %s, want none, idle", s.Question, s.Status)
	}
}

// editDecision is the body of /api/decisions with an edit of hunk id.
func editDecision(serial int64, id, text string) string {
	b, _ := json.Marshal(map[string]any{
		"review":    serial,
		"decisions": []map[string]string{{"id": id, "decision": "edit", "text": text}},
		"submit":    false,
	})
	return string(b)
}

// itemLines shows the lines of an item of the state as diff lines.
func itemLines(s webState, id string) (string, bool) {
	for _, it := range s.Review.Items {
		if it.ID == id {
			var b strings.Builder
			for _, l := range it.Lines {
				b.WriteString(l.Kind + l.Text + "\n")
			}
			return b.String(), true
		}
	}
	return "", false
}

// TestWebSplit splits a hunk through the API: its pieces replace it in
// the state, with their own ids and lines, and are decided like any
// other hunk, in the same batch too.
func TestWebSplit(t *testing.T) {
	w := newWeb(t)
	r := fixture(t)
	done, serial := startReview(t, context.Background(), w, r)

	s := getState(t, w)
	var split []string
	for _, it := range s.Review.Items {
		if it.Splittable {
			split = append(split, it.ID)
		}
	}
	if !slices.Equal(split, []string{"2"}) {
		t.Errorf("splittable items: got %v, want [2]", split)
	}

	ev := events(t, w, "", nil)
	code, body := send(t, w, request{method: "POST", path: "/api/decisions", body: decisions(serial, false, "2=split")})
	if code != 200 {
		t.Fatalf("split: got %d %s, want 200", code, body)
	}
	if e := next(t, ev); e.Kind != review.EventReview {
		t.Errorf("after the split: got a %q event, want %q", e.Kind, review.EventReview)
	}
	s = getState(t, w)
	var ids []string
	for _, it := range s.Review.Items {
		ids = append(ids, it.ID)
	}
	if !slices.Equal(ids, []string{"1", "2.1", "2.2", "3", "4", "5", "6"}) || s.Review.Serial != serial {
		t.Fatalf("after the split: got items %v in review %d, want 1 2.1 2.2 3 4 5 6 in review %d", ids, s.Review.Serial, serial)
	}
	want := map[string]string{
		"2.1": " \treturn a * b\n }\n \n-// Div returns a divided by b.\n+// Div returns a divided by b, or ErrDivide when b is zero.\n func Div(a, b int) (int, error) {\n \tif b == 0 {\n",
		"2.2": " func Div(a, b int) (int, error) {\n \tif b == 0 {\n-\t\treturn 0, ErrDivide\n+\t\treturn 0, fmt.Errorf(\"div %d: %w\", a, ErrDivide)\n \t}\n \treturn a / b, nil\n }\n",
	}
	for id, lines := range want {
		if got, _ := itemLines(s, id); got != lines {
			t.Errorf("piece %s: got lines\n%s\nwant\n%s", id, got, lines)
		}
	}
	for _, it := range s.Review.Items[1:3] {
		if it.Splittable || !it.Editable || it.Decision != "undecided" {
			t.Errorf("piece %s: got splittable %v, editable %v, %s; want a plain undecided hunk", it.ID, it.Splittable, it.Editable, it.Decision)
		}
	}
	if got := state(r); got != "1=. [2.1=.] 2.2=. 3=. 4=. 5=. 6=." && got != "[1=.] 2.1=. 2.2=. 3=. 4=. 5=. 6=." {
		t.Errorf("review after the split: got %s, want the pieces in place of 2", got)
	}

	// The pieces are decided like any hunk; a split and decisions of its
	// pieces go in one batch too.
	if code, body := send(t, w, request{method: "POST", path: "/api/decisions", body: decisions(serial, true, "1=approve", "2.1=approve", "2.2=reject:keep it", "3=split", "3=reject")}); code != http.StatusBadRequest || !strings.Contains(body, "cannot be split") {
		t.Errorf("split of hunk 3: got %d %s, want 400 saying it cannot be split", code, body)
	}
	if code, body := send(t, w, request{method: "POST", path: "/api/decisions", body: decisions(serial, true, "1=approve", "2.1=approve", "2.2=reject:keep it")}); code != 200 {
		t.Fatalf("submit: got %d %s, want 200", code, body)
	}
	if err := waitErr(t, done); err != nil {
		t.Fatalf("Review: got %v, want nil", err)
	}
	if got := strings.NewReplacer("[", "", "]", "").Replace(state(r)); got != "1=y 2.1=y 2.2=n 3=n 4=n 5=n 6=n" {
		t.Errorf("decisions: got %s, want 1=y 2.1=y 2.2=n 3=n 4=n 5=n 6=n", got)
	}
	if got := results(t, r); got["calc.go"] != with(t, calcOld, change1, change2a) || len(got) != 1 {
		t.Errorf("results: got %d files, want calc.go with changes 1 and 2a only", len(got))
	}

	// A split and the decision of a piece in one batch.
	r = fixture(t)
	done, serial = startReview(t, context.Background(), w, r)
	if code, body := send(t, w, request{method: "POST", path: "/api/decisions", body: decisions(serial, false, "2=split", "2.2=approve")}); code != 200 {
		t.Fatalf("split and decide: got %d %s, want 200", code, body)
	}
	if got := state(r); got != "[1=.] 2.1=. 2.2=y 3=. 4=. 5=. 6=." {
		t.Errorf("after split and decide: got %s, want 2.2 approved, cursor on 1", got)
	}
	send(t, w, request{method: "POST", path: "/api/decisions", body: decisions(serial, true)})
	if err := waitErr(t, done); err != nil {
		t.Fatal(err)
	}
}

// TestWebSplitRefused checks that a split that cannot be made is a 400
// that changes nothing, with the rest of its batch.
func TestWebSplitRefused(t *testing.T) {
	w := newWeb(t)
	r := fixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, serial := startReview(t, ctx, w, r)
	before := snapshot(t, r)
	for _, ds := range [][]string{
		{"1=split"},
		{"2=approve", "3=split"},
		{"2=split", "2=split"}, // 2 is gone after the first
		{"2=split", "2.1=split"},
		{"1=approve", "9=split"},
		{"1=approve:", "2=split"}, // "approve" with a text
	} {
		body := decisions(serial, false, ds...)
		if ds[0] == "1=approve:" {
			body = `{"review":` + strconv.FormatInt(serial, 10) + `,"decisions":[{"id":"1","decision":"approve","text":"x"},{"id":"2","decision":"split"}]}`
		}
		if code, got := send(t, w, request{method: "POST", path: "/api/decisions", body: body}); code != http.StatusBadRequest {
			t.Errorf("%v: got %d %s, want 400", ds, code, got)
		}
	}
	if got := snapshot(t, r); got != before {
		t.Errorf("refused splits changed the review:\ngot  %s\nwant %s", got, before)
	}
	if s := getState(t, w); len(s.Review.Items) != 6 {
		t.Errorf("state after refused splits: got %d items, want 6", len(s.Review.Items))
	}
}

// TestWebEdit edits a hunk through the API with the text the state
// gives: a changed '+' line approves the hunk as edited; an edit that
// changes the file's own lines, or is empty, is a 400 that changes
// nothing.
func TestWebEdit(t *testing.T) {
	w := newWeb(t)
	r := fixture(t)
	done, serial := startReview(t, context.Background(), w, r)

	s := getState(t, w)
	it := s.Review.Items[0]
	if !it.Editable || it.Edited {
		t.Fatalf("item 1: got editable %v, edited %v, want editable and not edited", it.Editable, it.Edited)
	}
	wantText, err := fixture(t).EditText() // the terminal's e at item 1
	if err != nil || it.EditText != wantText {
		t.Fatalf("item 1: got edit_text %q, want EditText's %q (error %v)", it.EditText, wantText, err)
	}
	const added = `+var ErrDivide = errors.New("calc: divide by zero")`
	if strings.Count(it.EditText, added) != 1 {
		t.Fatalf("edit_text: got %q, want the added line %q once", it.EditText, added)
	}

	before := snapshot(t, r)
	for _, bad := range []struct{ name, text, want string }{
		{"a changed context line", strings.Replace(it.EditText, " // ErrDivide is returned", " // ErrDiv is returned", 1), "must stay the file's own lines"},
		{"a removed line dropped", strings.Replace(it.EditText, "-var ErrDivide = errors.New(\"divide by zero\")\n", "", 1), "the file has"},
		{"an empty edit", "# nothing\n", "the edit is empty"},
		{"no text", "", "the edit is empty"},
	} {
		code, body := send(t, w, request{method: "POST", path: "/api/decisions", body: editDecision(serial, "1", bad.text)})
		if code != http.StatusBadRequest || !strings.Contains(body, bad.want) {
			t.Errorf("%s: got %d %s, want 400 with %q", bad.name, code, body, bad.want)
		}
	}
	if got := snapshot(t, r); got != before {
		t.Errorf("refused edits changed the review:\ngot  %s\nwant %s", got, before)
	}
	if s := getState(t, w); s.Review.Items[0].Decision != "undecided" || s.Review.Items[0].Edited {
		t.Errorf("state after refused edits: got item 1 %s (edited %v), want it undecided", s.Review.Items[0].Decision, s.Review.Items[0].Edited)
	}

	text := strings.Replace(it.EditText, added, `+var ErrDivide = errors.New("calc: cannot divide by zero")`, 1)
	if code, body := send(t, w, request{method: "POST", path: "/api/decisions", body: editDecision(serial, "1", text)}); code != 200 {
		t.Fatalf("edit: got %d %s, want 200", code, body)
	}
	s = getState(t, w)
	if it := s.Review.Items[0]; it.Decision != "edited" || !it.Edited || it.Splittable || !it.Editable || !strings.Contains(it.EditText, "cannot divide") {
		t.Errorf("item 1 after the edit: got %s, edited %v, splittable %v, editable %v; want edited, and editable again from the edit", it.Decision, it.Edited, it.Splittable, it.Editable)
	}
	if got, _ := itemLines(s, "1"); !strings.Contains(got, "+var ErrDivide = errors.New(\"calc: cannot divide by zero\")\n") {
		t.Errorf("item 1 lines after the edit: got\n%s\nwant the edited line", got)
	}
	if got := item(t, r, "1"); got.Decision != audit.Edited || got.Original == nil {
		t.Errorf("review item 1: got %s (original %v), want edited with the original kept", got.Decision, got.Original != nil)
	}
	if code, body := send(t, w, request{method: "POST", path: "/api/decisions", body: decisions(serial, true, "2=reject", "3=approve")}); code != 200 {
		t.Fatalf("submit: got %d %s, want 200", code, body)
	}
	if err := waitErr(t, done); err != nil {
		t.Fatal(err)
	}
	edited := change{`errors.New("divide by zero")`, `errors.New("calc: cannot divide by zero")`}
	if got := results(t, r); got["calc.go"] != with(t, calcOld, edited, change3) || len(got) != 1 {
		t.Errorf("results: got %d files, calc.go %q; want calc.go with the edit and change 3", len(got), got["calc.go"])
	}
}

// TestWebEscapesHostileText: the page gets hunk lines, file names and the
// model's words with their escape sequences and bidi controls made
// visible, each marked line with its marker; the name it sends back is
// the real one, and the approved bytes are the patch's own.
func TestWebEscapesHostileText(t *testing.T) {
	w := newWeb(t)
	w.Publish(review.WebEvent{Kind: review.EventToken, Text: "done\x1b[2J \u202eflip"})
	r := review.New(mustPlace(t, hostilePatch), nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	startReview(t, ctx, w, r)
	s := getState(t, w)
	if got, want := s.Conversation[0].Text, `done^[[2J \u202eflip`+safetext.Marker; got != want {
		t.Errorf("streamed text: got %q, want %q", got, want)
	}
	f, it := s.Review.Files[0], s.Review.Items[0]
	if f.Path != "run\x1b[2K.sh" || f.Shown != "run^[[2K.sh"+safetext.NameMarker {
		t.Errorf("file: got path %q shown %q, want the name as it is and escaped", f.Path, f.Shown)
	}
	if want := "run^[[2K.sh" + safetext.NameMarker + " (new, 3 lines)"; it.Where != want {
		t.Errorf("where: got %q, want %q", it.Where, want)
	}
	var got []string
	for _, l := range it.Lines {
		got = append(got, l.Kind+l.Text+l.Marker)
	}
	want := []string{
		"+rm -rf ~ # evil",
		"+# ok^[[1A^[[2K^[[32m+harmless change" + safetext.Marker,
		`+flip \u202eexe.txt\xff` + safetext.Marker,
	}
	if !slices.Equal(got, want) {
		t.Errorf("lines: got %q, want %q", got, want)
	}
	if !strings.Contains(it.EditText, "+# ok\x1b[1A") {
		t.Errorf("edit text: got %q, want the line as it is, to edit", it.EditText)
	}
	if h := r.Items[0].Hunk.Lines[1].Text; h != "# ok\x1b[1A\x1b[2K\x1b[32m+harmless change" {
		t.Errorf("the hunk itself changed: %q", h)
	}
}

// web.go: Web, the review served as a local web page, with its token and origin checks.

package review

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"mime"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/internal/safetext"
)

// The page, all of it hand-written and served from the binary: no
// third-party asset is ever loaded.
//
//go:embed webui/index.html webui/app.js webui/style.css
var webUI embed.FS

// WebOptions configure a Web.
type WebOptions struct {
	// Port is the loopback port to listen on; 0 picks a free one.
	Port int
	// Token is the secret every request must carry; "" makes a random
	// one (32 hex digits). A given token needs at least 16 characters
	// of [A-Za-z0-9_-].
	Token string
	// Title names the page ("pair" when empty).
	Title string
	// Verb says what happens to approved hunks after the submit, for
	// the submit button ("write and commit"); "" means "write".
	Verb string
	// Now stamps events; nil means time.Now.
	Now func() time.Time
	// Verifier runs the tests on the approved hunks for the page's
	// button (POST /api/verify, see web_verify.go); nil: no button.
	Verifier Verifier
}

// The kinds of WebEvent.
const (
	// EventToken is a piece of the model's reply as it streams: it is
	// appended to the assistant message being streamed (one is opened
	// when none is).
	EventToken = "token"
	// EventMessage is a whole message of the conversation, with its
	// Role (user, assistant, system, tool, error). An assistant message
	// that follows streamed tokens replaces their text and closes the
	// stream; any other message closes the stream as it is.
	EventMessage = "message"
	// EventTool is a tool call or its result, shown in the conversation.
	EventTool = "tool"
	// EventLog is an entry of the action log.
	EventLog = "log"
	// EventStatus is a change of status ("idle", "working", "review");
	// it closes a streamed message.
	EventStatus = "status"
	// EventReview says the pending review or question appeared, changed
	// or ended: the page fetches /api/state again. Text says what
	// happened when it ended ("submitted: 3 approved, 1 rejected").
	EventReview = "review"
	// EventReset is sent to a page whose events are too old to replay:
	// it fetches /api/state again. Publish never sends it.
	EventReset = "reset"
)

// WebEvent is what Publish sends to the open pages, on /api/events.
type WebEvent struct {
	// ID and Time are set by Publish: IDs count up from 1.
	ID   int64     `json:"id"`
	Time time.Time `json:"time"`
	Kind string    `json:"kind"`
	Role string    `json:"role,omitempty"`
	Text string    `json:"text,omitempty"`
}

// Errors of the web front end.
var (
	// ErrWebClosed means the web server was closed while a review or a
	// question waited for the person: nothing was decided by submit.
	ErrWebClosed = errors.New("the web page was closed before the review was submitted; nothing was written")
	// ErrBusy means a review (or a question) is already waiting in the
	// page: the page holds one at a time.
	ErrBusy = errors.New("the web page is already waiting for a decision")
)

// Bounds of what a Web keeps and accepts.
const (
	webHistory   = 4096             // events kept for pages that reconnect
	webQueue     = 1024             // events queued per page before it is dropped
	webMessages  = 16               // chat messages waiting for Messages' reader
	webBodyLimit = 1 << 20          // bytes of a POST body
	webKeepAlive = 15 * time.Second // between SSE comments on a quiet stream
)

var tokenRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]{16,}$`) })

// Web serves the review and the conversation as one page on the loopback
// address. Every request must carry the token (in the URL the first time,
// then in a cookie, or in an X-Pair-Token header), name the server itself
// in its Host header, and, when it writes, come from the page's own
// origin with a JSON body. Its methods are safe for concurrent use.
type Web struct {
	opts   WebOptions
	token  string
	port   int
	origin []string // the Host values (and so origins) the page is served under
	cookie string
	srv    *http.Server
	static http.Handler
	done   chan struct{}
	served chan struct{}
	msgs   chan string

	mu       sync.Mutex
	closed   bool
	seq      int64
	history  []WebEvent
	subs     map[chan WebEvent]struct{}
	status   string
	convo    []webMessage
	log      []webLogEntry
	serial   int64 // counts reviews and questions, so a stale page cannot decide a new one
	review   *Review
	revSer   int64
	revDone  chan struct{}
	question *webQuestion
	qDone    chan webAnswer
	// verifying is set while the page's verify runs; typed is the test
	// command the person typed on the page (see asksCommand).
	verifying bool
	typed     string
}

// NewWeb listens on 127.0.0.1 and serves the page until Close.
func NewWeb(o WebOptions) (*Web, error) {
	if o.Port < 0 || o.Port > 65535 {
		return nil, fmt.Errorf("web: port %d is not a TCP port", o.Port)
	}
	token := o.Token
	if token == "" {
		b := make([]byte, 16)
		if _, err := rand.Read(b); err != nil {
			return nil, fmt.Errorf("web: make a token: %w", err)
		}
		token = hex.EncodeToString(b)
	} else if !tokenRE().MatchString(token) {
		return nil, errors.New("web: the token needs at least 16 characters of A-Z, a-z, 0-9, '_' and '-'")
	}
	if o.Title == "" {
		o.Title = "pair"
	}
	if o.Verb == "" {
		o.Verb = "write"
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(o.Port)))
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	w := &Web{
		opts:   o,
		token:  token,
		port:   port,
		origin: []string{"127.0.0.1:" + strconv.Itoa(port), "localhost:" + strconv.Itoa(port)},
		// Cookies do not tell ports apart: name it after the port, so
		// that two pages of pair on one machine keep their own.
		cookie: "pair_token_" + strconv.Itoa(port),
		done:   make(chan struct{}),
		served: make(chan struct{}),
		msgs:   make(chan string, webMessages),
		subs:   map[chan WebEvent]struct{}{},
		status: "idle",
	}
	root, err := fs.Sub(webUI, "webui")
	if err != nil {
		ln.Close()
		return nil, fmt.Errorf("web: %w", err)
	}
	w.static = http.FileServerFS(root)
	w.srv = &http.Server{
		Handler:           http.HandlerFunc(w.serveHTTP),
		ReadHeaderTimeout: 10 * time.Second,
		// No WriteTimeout: the event stream stays open.
		ErrorLog: log.New(io.Discard, "", 0), // a library prints nothing
	}
	go func() {
		defer close(w.served)
		_ = w.srv.Serve(ln)
	}()
	return w, nil
}

// URL is the address to open, token included.
func (w *Web) URL() string {
	return fmt.Sprintf("http://127.0.0.1:%d/?token=%s", w.port, w.token)
}

// Port is the port the page is served on.
func (w *Web) Port() int { return w.port }

// Close stops the server: open pages lose their event stream, Messages
// is closed, and a waiting Review or Confirm returns ErrWebClosed.
func (w *Web) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	close(w.done)
	close(w.msgs)
	for ch := range w.subs {
		delete(w.subs, ch)
		close(ch)
	}
	w.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := w.srv.Shutdown(ctx)
	if err != nil {
		err = w.srv.Close()
	}
	<-w.served
	if err != nil {
		return fmt.Errorf("web: close: %w", err)
	}
	return nil
}

// Messages delivers what the person sends from the page's input box
// (POST /api/chat), in order. The page shows a message as soon as it is
// sent (as a "message" event with role "user"): do not Publish it again.
// A few messages wait for the reader; past that the page is told to wait.
// The channel is closed by Close.
func (w *Web) Messages() <-chan string { return w.msgs }

// Publish sends e to every open page and keeps it in the page's state:
// the conversation (token, message, tool), the action log (log) or the
// status (status). ID and Time are set here.
func (w *Web) Publish(e WebEvent) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.publish(e)
}

// SetStatus sets the status the page shows: "idle", "working" (the page
// shows that the model is working) or "review".
func (w *Web) SetStatus(s string) {
	w.Publish(WebEvent{Kind: EventStatus, Text: s})
}

// publish does Publish with w.mu held.
func (w *Web) publish(e WebEvent) {
	if w.closed {
		return
	}
	w.seq++
	e.ID, e.Time = w.seq, w.opts.Now().UTC()
	// The model's words and tool output go into the page as text: made
	// visible there as on a terminal (see internal/safetext).
	e.Text = safetext.Text(e.Text)
	w.record(e)
	if len(w.history) == webHistory {
		w.history = slices.Delete(w.history, 0, webHistory/4)
	}
	w.history = append(w.history, e)
	for ch := range w.subs {
		select {
		case ch <- e:
		default:
			// A page that does not keep up is dropped; it reconnects
			// and catches up from the history.
			delete(w.subs, ch)
			close(ch)
		}
	}
}

// record keeps what e changes in the state /api/state shows.
func (w *Web) record(e WebEvent) {
	open := len(w.convo) > 0 && w.convo[len(w.convo)-1].Streaming
	switch e.Kind {
	case EventToken:
		if !open {
			w.convo = append(w.convo, webMessage{Role: "assistant", Streaming: true})
		}
		w.convo[len(w.convo)-1].Text += e.Text
	case EventMessage, EventTool:
		role := e.Role
		if e.Kind == EventTool {
			role = "tool"
		}
		if role == "" {
			role = "assistant"
		}
		if open {
			last := &w.convo[len(w.convo)-1]
			last.Streaming = false
			if role == "assistant" {
				if e.Text != "" {
					last.Text = e.Text
				}
				return
			}
		}
		w.convo = append(w.convo, webMessage{Role: role, Text: e.Text})
	case EventLog:
		w.log = append(w.log, webLogEntry{Time: e.Time, Text: e.Text})
	case EventStatus:
		w.status = e.Text
		if open {
			w.convo[len(w.convo)-1].Streaming = false
		}
	}
}

// subscribe registers a page's event stream and returns the events after
// id that it missed; reset when they are no longer all kept.
func (w *Web) subscribe(after int64) (ch chan WebEvent, missed []WebEvent, reset bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil, nil, false
	}
	ch = make(chan WebEvent, webQueue)
	w.subs[ch] = struct{}{}
	if after >= w.seq {
		return ch, nil, false
	}
	if len(w.history) == 0 || w.history[0].ID > after+1 {
		return ch, nil, true
	}
	i, _ := slices.BinarySearchFunc(w.history, after+1, func(e WebEvent, id int64) int {
		return int(e.ID - id)
	})
	return ch, slices.Clone(w.history[i:]), false
}

func (w *Web) unsubscribe(ch chan WebEvent) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.subs[ch]; ok {
		delete(w.subs, ch)
		close(ch)
	}
}

// Review shows r in the page and blocks until the person submits their
// decisions (POST /api/decisions with "submit": true), ctx ends, or the
// Web is closed. Decisions made in the page go into r as they are made,
// through the same methods the terminal uses (Decide; AlwaysApprove for
// "always", which also adds the file to r.Grants; Split for "split" and
// Edit for "edit", at that item); at submit, the items
// still undecided are rejected, as q does in the terminal. It returns nil
// on submit, ErrInterrupted when ctx ends and ErrWebClosed on Close; then
// r keeps the decisions made so far, to be saved and finished later. It
// returns ErrNoItem when r has nothing to decide and ErrBusy while
// another review waits. The caller must not touch r until it returns.
func (w *Web) Review(ctx context.Context, r *Review) error {
	if len(r.Items) == 0 {
		return ErrNoItem
	}
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return ErrWebClosed
	}
	if w.review != nil {
		w.mu.Unlock()
		return ErrBusy
	}
	w.serial++
	ser, done := w.serial, make(chan struct{}, 1)
	w.review, w.revSer, w.revDone = r, ser, done
	prev := w.status
	w.publish(WebEvent{Kind: EventStatus, Text: "review"})
	w.publish(WebEvent{Kind: EventReview})
	w.mu.Unlock()

	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = ErrInterrupted
	case <-w.done:
		err = ErrWebClosed
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.review == r && w.revSer == ser {
		// Not submitted: take it out of the page as it is.
		w.review, w.revDone = nil, nil
		w.publish(WebEvent{Kind: EventReview, Text: "the review was withdrawn: " + err.Error()})
	} else {
		err = nil // the submit came first
	}
	w.publish(WebEvent{Kind: EventStatus, Text: prev})
	return err
}

// Confirm asks the person a yes-or-no question in the page (a command the
// model wants to run: title says what is asked, detail shows the command)
// and blocks until they answer (POST /api/answer), ctx ends or the Web is
// closed. It returns whether they said yes, and their note.
func (w *Web) Confirm(ctx context.Context, title, detail string) (yes bool, note string, err error) {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return false, "", ErrWebClosed
	}
	if w.question != nil {
		w.mu.Unlock()
		return false, "", ErrBusy
	}
	w.serial++
	q := &webQuestion{Serial: w.serial, Title: safetext.Text(title), Detail: safetext.Text(detail)}
	done := make(chan webAnswer, 1)
	w.question, w.qDone = q, done
	prev := w.status
	w.publish(WebEvent{Kind: EventStatus, Text: "review"})
	w.publish(WebEvent{Kind: EventReview})
	w.mu.Unlock()

	var a webAnswer
	select {
	case a = <-done:
	case <-ctx.Done():
		err = ErrInterrupted
	case <-w.done:
		err = ErrWebClosed
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.question == q {
		w.question, w.qDone = nil, nil
		w.publish(WebEvent{Kind: EventReview, Text: "the question was withdrawn: " + err.Error()})
	} else if err != nil {
		// The answer came first.
		a, err = <-done, nil
	}
	w.publish(WebEvent{Kind: EventStatus, Text: prev})
	if err != nil {
		return false, "", err
	}
	return a.Approve, a.Note, nil
}

// serveHTTP checks every request, then serves the page and its API.
func (w *Web) serveHTTP(rw http.ResponseWriter, req *http.Request) {
	h := rw.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	api := strings.HasPrefix(req.URL.Path, "/api/")

	if !slices.Contains(w.origin, req.Host) {
		w.refuse(rw, api, http.StatusForbidden, "the Host header must be "+w.origin[0])
		return
	}
	if req.Method == http.MethodGet && req.URL.Path == "/" && req.URL.Query().Has("token") {
		if !w.tokenOK(req.URL.Query().Get("token")) {
			w.refuse(rw, api, http.StatusForbidden, "wrong token; open the URL pair printed")
			return
		}
		http.SetCookie(rw, &http.Cookie{Name: w.cookie, Value: w.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		// Take the token out of the address bar and the history.
		http.Redirect(rw, req, "/", http.StatusSeeOther)
		return
	}
	if !w.authorized(req) {
		w.refuse(rw, api, http.StatusForbidden, "no token; open the URL pair printed")
		return
	}
	if req.Method != http.MethodGet && req.Method != http.MethodHead {
		if why := w.crossOrigin(req); why != "" {
			w.refuse(rw, api, http.StatusForbidden, why)
			return
		}
		mt, _, err := mime.ParseMediaType(req.Header.Get("Content-Type"))
		if err != nil || mt != "application/json" {
			w.refuse(rw, api, http.StatusUnsupportedMediaType, "the body must be application/json")
			return
		}
		req.Body = http.MaxBytesReader(rw, req.Body, webBodyLimit)
	}
	// Each page answers one method (HEAD too for the static files).
	route := func(method string, serve func()) {
		if req.Method != method && !(method == http.MethodGet && req.Method == http.MethodHead && !api) {
			w.methodNotAllowed(rw, method)
			return
		}
		serve()
	}
	switch req.URL.Path {
	case "/", "/index.html", "/app.js", "/style.css":
		route(http.MethodGet, func() { w.static.ServeHTTP(rw, req) })
	case "/api/state":
		route(http.MethodGet, func() { w.serveState(rw) })
	case "/api/events":
		route(http.MethodGet, func() { w.serveEvents(rw, req) })
	case "/api/chat":
		route(http.MethodPost, func() { w.serveChat(rw, req) })
	case "/api/decisions":
		route(http.MethodPost, func() { w.serveDecisions(rw, req) })
	case "/api/answer":
		route(http.MethodPost, func() { w.serveAnswer(rw, req) })
	case "/api/verify":
		route(http.MethodPost, func() { w.serveVerify(rw, req) })
	default:
		w.refuse(rw, api, http.StatusNotFound, "no such page")
	}
}

func (w *Web) tokenOK(s string) bool {
	return subtle.ConstantTimeCompare([]byte(s), []byte(w.token)) == 1
}

// authorized reports whether req carries the token, in the cookie or the
// X-Pair-Token header.
func (w *Web) authorized(req *http.Request) bool {
	if t := req.Header.Get("X-Pair-Token"); t != "" {
		return w.tokenOK(t)
	}
	c, err := req.Cookie(w.cookie)
	return err == nil && w.tokenOK(c.Value)
}

// crossOrigin says why a writing request is refused as coming from
// another origin, or "" when it comes from the page (or from no browser).
func (w *Web) crossOrigin(req *http.Request) string {
	if o := req.Header.Get("Origin"); o != "" && o != "http://"+req.Host {
		return fmt.Sprintf("cross-origin request from %q refused", o)
	}
	switch s := req.Header.Get("Sec-Fetch-Site"); s {
	case "", "same-origin", "none":
	default:
		return fmt.Sprintf("cross-origin request (%s) refused", s)
	}
	return ""
}

func (w *Web) refuse(rw http.ResponseWriter, api bool, code int, why string) {
	if api {
		writeJSON(rw, code, map[string]string{"error": why})
		return
	}
	rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
	rw.WriteHeader(code)
	_, _ = io.WriteString(rw, "pair: "+why+"\n")
}

func (w *Web) methodNotAllowed(rw http.ResponseWriter, allow string) {
	rw.Header().Set("Allow", allow)
	writeJSON(rw, http.StatusMethodNotAllowed, map[string]string{"error": "method not allowed; use " + allow})
}

func writeJSON(rw http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		code, b = http.StatusInternalServerError, []byte(`{"error":"cannot encode the answer"}`)
	}
	rw.Header().Set("Content-Type", "application/json")
	rw.WriteHeader(code)
	_, _ = rw.Write(append(b, '\n'))
}

// readJSON decodes the body into v, refusing unknown fields.
func readJSON(req *http.Request, v any) error {
	dec := json.NewDecoder(req.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("bad JSON body: %w", err)
	}
	if dec.More() {
		return errors.New("bad JSON body: more than one value")
	}
	return nil
}

// The state /api/state returns.
type webState struct {
	Title        string         `json:"title"`
	Status       string         `json:"status"`
	Seq          int64          `json:"seq"` // the last event's ID: /api/events?after=seq follows on
	Conversation []webMessage   `json:"conversation"`
	Log          []webLogEntry  `json:"log"`
	Review       *webReviewView `json:"review"`
	Question     *webQuestion   `json:"question"`
}

type webMessage struct {
	Role      string `json:"role"`
	Text      string `json:"text"`
	Streaming bool   `json:"streaming,omitempty"`
}

type webLogEntry struct {
	Time time.Time `json:"time"`
	Text string    `json:"text"`
}

type webQuestion struct {
	Serial int64  `json:"serial"`
	Title  string `json:"title"`
	Detail string `json:"detail,omitempty"`
}

type webAnswer struct {
	Approve bool
	Note    string
}

type webReviewView struct {
	Serial    int64         `json:"serial"`
	Verb      string        `json:"verb"`
	Undecided int           `json:"undecided"`
	Totals    webTotals     `json:"totals"`
	Grants    []string      `json:"grants"`
	Files     []webFileView `json:"files"`
	Items     []webItemView `json:"items"`
	// Summary is what will be written, per file, as the terminal's
	// summary says it before writing.
	Summary []webSummaryView `json:"summary"`
	// Verify says the page may run the tests (WebOptions.Verifier).
	Verify bool `json:"verify"`
	// AskCommand says the page asks for the test command, there being
	// none; TypedCommand is the last one typed there.
	AskCommand   bool   `json:"ask_command"`
	TypedCommand string `json:"typed_command"`
}

// webSummaryView is a line of the summary: a file's name as shown and its
// counts with what the change does besides editing content
// ("1 approved (deleted)").
type webSummaryView struct {
	Path  string `json:"path"`
	Shown string `json:"shown"`
	Text  string `json:"text"`
}

type webTotals struct {
	Approved  int `json:"approved"`
	Edited    int `json:"edited"`
	Rejected  int `json:"rejected"`
	Undecided int `json:"undecided"`
	Failed    int `json:"failed"`
}

type webFileView struct {
	// Path and OldPath are the names as they are; Shown and OldShown
	// are what the page shows of them (see internal/safetext).
	Path     string `json:"path"`
	OldPath  string `json:"old_path,omitempty"`
	Shown    string `json:"shown"`
	OldShown string `json:"old_shown,omitempty"`
	Action   string `json:"action"`
	// Changes names what the change does besides editing content: a
	// deletion, a rename, a mode change, a symbolic link.
	Changes []string         `json:"changes,omitempty"`
	Failed  []webFailureView `json:"failed,omitempty"`
}

type webFailureView struct {
	Hunk   int    `json:"hunk"` // counted from 1
	Reason string `json:"reason"`
	Detail string `json:"detail,omitempty"`
}

// webRuleView is one rule of a hunk's trace.
type webRuleView struct {
	ID        string `json:"id"`
	Statement string `json:"statement"`
}

type webItemView struct {
	ID        string `json:"id"`
	File      int    `json:"file"`
	Path      string `json:"path"`
	Action    string `json:"action"`
	Where     string `json:"where"`
	Header    string `json:"header,omitempty"`
	Placement string `json:"placement,omitempty"`
	// PlacementHelp explains the placement, for an interpreted or
	// uncertain hunk.
	PlacementHelp string `json:"placement_help,omitempty"`
	// Rules are the placement rules that placed the hunk, each with what
	// it says (pair apply --check --explain).
	Rules    []webRuleView `json:"rules,omitempty"`
	Offset   int           `json:"offset,omitempty"`
	Notes    []string      `json:"notes,omitempty"`
	Change   string        `json:"change,omitempty"` // for a change without lines
	Lines    []webLineView `json:"lines"`
	EOF      string        `json:"eof,omitempty"` // what the hunk does to the final newline
	Decision string        `json:"decision"`
	Note     string        `json:"note,omitempty"`
	Granted  bool          `json:"granted,omitempty"`
	// NotCovered says why an item of an always-approved file is asked.
	NotCovered string `json:"not_covered,omitempty"`
	Edited     bool   `json:"edited,omitempty"`
	// Splittable and Editable say whether a "split" or an "edit"
	// decision is taken for this item; EditText is the text an edit
	// starts from (the terminal's e), for an editable item.
	Splittable bool   `json:"splittable"`
	Editable   bool   `json:"editable"`
	EditText   string `json:"edit_text,omitempty"`
}

type webLineView struct {
	Kind string `json:"kind"` // " ", "-" or "+"
	// Text is the line as shown, its control, format, invisible and
	// lookalike characters escaped; Marker is the display marker that
	// names what it had, if any.
	Text   string `json:"text"`
	Marker string `json:"marker,omitempty"`
}

func (w *Web) serveState(rw http.ResponseWriter) {
	w.mu.Lock()
	s := w.state()
	w.mu.Unlock()
	writeJSON(rw, http.StatusOK, s)
}

// state is the page's state; w.mu is held.
func (w *Web) state() webState {
	s := webState{
		Title:        w.opts.Title,
		Status:       w.status,
		Seq:          w.seq,
		Conversation: slices.Clone(w.convo),
		Log:          slices.Clone(w.log),
		Question:     w.question,
	}
	if s.Conversation == nil {
		s.Conversation = []webMessage{}
	}
	if s.Log == nil {
		s.Log = []webLogEntry{}
	}
	if w.review != nil {
		s.Review = w.reviewView(w.review, w.revSer)
	}
	return s
}

func (w *Web) reviewView(r *Review, serial int64) *webReviewView {
	t := r.Totals()
	v := &webReviewView{
		Serial:       serial,
		Verb:         w.opts.Verb,
		Verify:       w.opts.Verifier != nil,
		AskCommand:   w.asksCommand(),
		TypedCommand: w.typed,
		Undecided:    t.Undecided,
		Totals:       webTotals{Approved: t.Approved, Edited: t.Edited, Rejected: t.Rejected, Undecided: t.Undecided, Failed: t.Failed},
		Grants:       slices.Clone(r.Grants),
		Files:        make([]webFileView, len(r.Proposal.Files)),
		Items:        make([]webItemView, len(r.Items)),
	}
	if v.Grants == nil {
		v.Grants = []string{}
	}
	for i := range r.Proposal.Files {
		f := &r.Proposal.Files[i]
		fv := webFileView{Path: f.Path(), Shown: safetext.Name(f.Path()), Action: f.Action(), Changes: f.Changes()}
		if f.Action() == "rename" || f.Action() == "copy" {
			fv.OldPath, fv.OldShown = f.OldPath, safetext.Name(f.OldPath)
		}
		for _, e := range f.Failed {
			fv.Failed = append(fv.Failed, webFailureView{Hunk: e.Hunk + 1, Reason: safetext.Line(e.Reason), Detail: safetext.Text(e.Detail)})
		}
		v.Files[i] = fv
	}
	v.Summary = []webSummaryView{}
	for _, fs := range r.Summary() {
		if text := fs.Text(); text != "" {
			v.Summary = append(v.Summary, webSummaryView{Path: fs.Path, Shown: safetext.Name(fs.Path), Text: text})
		}
	}
	// at is r with the cursor moved, to ask what the keys would do at
	// each item without moving r's own cursor.
	at := *r
	for i := range r.Items {
		it := &r.Items[i]
		f := r.FileOf(it)
		at.Cursor = i
		iv := webItemView{
			ID: it.ID, File: it.File, Path: f.Path(), Action: f.Action(),
			Where: r.Where(it), Decision: it.Decision.String(), Note: it.Note,
			Granted: it.Granted, Edited: it.Original != nil, NotCovered: r.NotCovered(it),
			Lines: []webLineView{},
		}
		if it.Whole {
			iv.Change = wholeChange(f)
		} else {
			iv.Header = safetext.Line(r.Header(it))
			iv.Placement = it.Hunk.Label()
			iv.PlacementHelp = it.Hunk.Pass.Help()
			for _, id := range it.Hunk.Rules {
				rv := webRuleView{ID: string(id)}
				if rule, ok := edit.RuleByID(id); ok {
					rv.Statement = rule.Statement
				}
				iv.Rules = append(iv.Rules, rv)
			}
			iv.Offset = it.Hunk.Offset
			for _, n := range it.Hunk.Notes {
				iv.Notes = append(iv.Notes, safetext.Line(n))
			}
			for _, l := range it.Hunk.Lines {
				lv := webLineView{Kind: string(rune(l.Kind))}
				lv.Text, lv.Marker = safetext.EscapeMarked(l.Text)
				iv.Lines = append(iv.Lines, lv)
			}
			switch it.Hunk.FinalNewline {
			case edit.NewlineRemove:
				iv.EOF = "the file will end without a newline"
			case edit.NewlineAdd:
				iv.EOF = "the file will end with a newline"
			}
		}
		iv.Splittable, iv.Editable = at.CanSplit(), at.CanEdit()
		if iv.Editable {
			if text, err := at.EditText(); err == nil {
				iv.EditText = text
			}
		}
		v.Items[i] = iv
	}
	return v
}

// serveEvents streams events as server-sent events: "id: N" and a JSON
// WebEvent per event, a comment now and then to keep the connection.
// ?after=N (or the Last-Event-ID header of a reconnecting EventSource)
// replays the events after N first.
func (w *Web) serveEvents(rw http.ResponseWriter, req *http.Request) {
	after := int64(-1)
	for _, s := range []string{req.Header.Get("Last-Event-ID"), req.URL.Query().Get("after")} {
		if s == "" {
			continue
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			writeJSON(rw, http.StatusBadRequest, map[string]string{"error": "after must be an event id"})
			return
		}
		after = n
		break
	}
	var (
		ch     chan WebEvent
		missed []WebEvent
		reset  bool
	)
	if after >= 0 {
		ch, missed, reset = w.subscribe(after)
	} else {
		ch, _, _ = w.subscribe(1 << 62) // only what comes next
	}
	if ch == nil {
		writeJSON(rw, http.StatusServiceUnavailable, map[string]string{"error": "the server is closing"})
		return
	}
	defer w.unsubscribe(ch)
	rc := http.NewResponseController(rw)
	h := rw.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no")
	rw.WriteHeader(http.StatusOK)
	send := func(e WebEvent) error {
		b, err := json.Marshal(e)
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(rw, "id: %d\ndata: %s\n\n", e.ID, b); err != nil {
			return err
		}
		return rc.Flush()
	}
	if _, err := io.WriteString(rw, "retry: 1000\n\n"); err != nil {
		return
	}
	if reset {
		w.mu.Lock()
		seq := w.seq
		w.mu.Unlock()
		if send(WebEvent{ID: seq, Time: w.opts.Now().UTC(), Kind: EventReset}) != nil {
			return
		}
	}
	for _, e := range missed {
		if send(e) != nil {
			return
		}
	}
	if rc.Flush() != nil {
		return
	}
	tick := time.NewTicker(webKeepAlive)
	defer tick.Stop()
	for {
		select {
		case e, ok := <-ch:
			if !ok {
				return
			}
			if send(e) != nil {
				return
			}
		case <-tick.C:
			if _, err := io.WriteString(rw, ": keep-alive\n\n"); err != nil || rc.Flush() != nil {
				return
			}
		case <-req.Context().Done():
			return
		case <-w.done:
			return
		}
	}
}

func (w *Web) serveChat(rw http.ResponseWriter, req *http.Request) {
	var in struct {
		Text string `json:"text"`
	}
	if err := readJSON(req, &in); err != nil {
		writeJSON(rw, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	text := strings.TrimSpace(in.Text)
	if text == "" {
		writeJSON(rw, http.StatusBadRequest, map[string]string{"error": "the message is empty"})
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		writeJSON(rw, http.StatusServiceUnavailable, map[string]string{"error": "the server is closing"})
		return
	}
	select {
	case w.msgs <- text:
	default:
		writeJSON(rw, http.StatusTooManyRequests, map[string]string{"error": "earlier messages are still waiting; send this one later"})
		return
	}
	w.publish(WebEvent{Kind: EventMessage, Role: "user", Text: text})
	writeJSON(rw, http.StatusAccepted, map[string]any{"ok": true})
}

// webDecision is one decision posted to /api/decisions.
type webDecision struct {
	ID string `json:"id"`
	// Decision is approve, reject, always or undecided; approve-file or
	// reject-file (the item and every undecided item of its file, as the
	// terminal's a and d, with no grant); split (the item's pieces
	// replace it, with ids "ID.1", "ID.2"...) or edit (Text replaces the
	// hunk, as the terminal's e does).
	Decision string `json:"decision"`
	Note     string `json:"note,omitempty"`
	Text     string `json:"text,omitempty"` // the edited text, for edit
}

func (w *Web) serveDecisions(rw http.ResponseWriter, req *http.Request) {
	var in struct {
		Review    int64         `json:"review"`
		Decisions []webDecision `json:"decisions"`
		Submit    bool          `json:"submit"`
	}
	if err := readJSON(req, &in); err != nil {
		writeJSON(rw, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	r := w.review
	if r == nil || in.Review != w.revSer {
		writeJSON(rw, http.StatusConflict, map[string]any{"error": "this review is no longer waiting; reload the page", "state": w.state()})
		return
	}
	// The batch is all or nothing: it is applied to a copy, which
	// replaces r only when every decision was taken. Decisions replace
	// items and their fields, never change what they share, so copying
	// the slices is enough.
	cp := *r
	cp.Items, cp.Grants = slices.Clone(r.Items), slices.Clone(r.Grants)
	for i, d := range in.Decisions {
		if err := applyDecision(&cp, d); err != nil {
			writeJSON(rw, http.StatusBadRequest, map[string]string{"error": fmt.Sprintf("decision %d: %v", i+1, err), "id": d.ID})
			return
		}
	}
	*r = cp
	if !in.Submit {
		w.publish(WebEvent{Kind: EventReview})
		writeJSON(rw, http.StatusOK, w.state())
		return
	}
	undecided := 0
	for i := range r.Items {
		if r.Items[i].Decision == audit.Undecided {
			undecided++
			_ = r.Decide(r.Items[i].ID, audit.Rejected, "")
		}
	}
	t := r.Totals()
	msg := fmt.Sprintf("submitted: %d approved, %d rejected", t.Approved+t.Edited, t.Rejected)
	if undecided > 0 {
		msg += fmt.Sprintf(" (%d undecided, rejected at submit)", undecided)
	}
	done := w.revDone
	w.review, w.revDone = nil, nil // r is the caller's again
	done <- struct{}{}
	w.publish(WebEvent{Kind: EventReview, Text: msg})
	writeJSON(rw, http.StatusOK, w.state())
}

// applyDecision applies one decision to r, or says why it cannot be
// taken; r may be half-changed then, so it is a copy to throw away.
func applyDecision(r *Review, d webDecision) error {
	idx := slices.IndexFunc(r.Items, func(it Item) bool { return it.ID == d.ID })
	if idx < 0 {
		return fmt.Errorf("no hunk %q in this review", d.ID)
	}
	if d.Text != "" && d.Decision != "edit" {
		return fmt.Errorf("hunk %s: only an edit has a text", d.ID)
	}
	var err error
	switch d.Decision {
	case "approve":
		err = r.Decide(d.ID, audit.Approved, "")
	case "reject":
		err = r.Decide(d.ID, audit.Rejected, d.Note)
	case "undecided":
		err = r.Decide(d.ID, audit.Undecided, "")
	case "always":
		// A, at this hunk: it and the rest of its file, and a grant; then
		// the file's undecided hunks before it too.
		err = atItem(r, idx, r.AlwaysApprove)
		if err == nil {
			err = decideUndecidedOfFile(r, idx, audit.Approved, "")
		}
	case "approve-file":
		// a, at this hunk; then the file's undecided hunks before it too.
		err = atItem(r, idx, r.ApproveFile)
		if err == nil {
			err = decideUndecidedOfFile(r, idx, audit.Approved, "")
		}
	case "reject-file":
		// d, at this hunk, each with the note; then the hunks before it.
		err = atItem(r, idx, func() error { return r.RejectFile(d.Note) })
		if err == nil {
			err = decideUndecidedOfFile(r, idx, audit.Rejected, d.Note)
		}
	case "split":
		// s, at this hunk: its pieces replace it.
		err = atItem(r, idx, r.Split)
	case "edit":
		// e, at this hunk, with the text the page sent.
		err = atItem(r, idx, func() error { return r.Edit(d.Text) })
	default:
		return fmt.Errorf("%q is not approve, reject, always, approve-file, reject-file, undecided, split or edit", d.Decision)
	}
	if err != nil {
		return fmt.Errorf("hunk %s: %w", d.ID, err)
	}
	// Leave the cursor on an undecided hunk, where the terminal would go
	// on if the review is finished there.
	if it := r.Current(); it != nil && it.Decision != audit.Undecided {
		if r.NextUndecided() != nil {
			_ = r.PrevUndecided()
		}
	}
	return nil
}

// decideUndecidedOfFile decides every undecided item of item idx's file.
func decideUndecidedOfFile(r *Review, idx int, d audit.Decision, note string) error {
	file := r.Items[idx].File
	for i := range r.Items {
		if r.Items[i].File == file && r.Items[i].Decision == audit.Undecided {
			if err := r.Decide(r.Items[i].ID, d, note); err != nil {
				return err
			}
		}
	}
	return nil
}

// atItem runs a key of the terminal (fn) with r's cursor on item idx,
// then puts the cursor back where it was: on the same item, which moves
// when fn replaced item idx by several (a split), or on the first of
// them when it was item idx.
func atItem(r *Review, idx int, fn func() error) error {
	cur, n := r.Cursor, len(r.Items)
	r.Cursor = idx
	err := fn()
	if cur > idx {
		cur += len(r.Items) - n
	}
	r.Cursor = cur
	return err
}

func (w *Web) serveAnswer(rw http.ResponseWriter, req *http.Request) {
	var in struct {
		Question int64  `json:"question"`
		Approve  bool   `json:"approve"`
		Note     string `json:"note,omitempty"`
	}
	if err := readJSON(req, &in); err != nil {
		writeJSON(rw, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	q := w.question
	if q == nil || in.Question != q.Serial {
		writeJSON(rw, http.StatusConflict, map[string]any{"error": "this question is no longer waiting; reload the page", "state": w.state()})
		return
	}
	done := w.qDone
	w.question, w.qDone = nil, nil
	note := strings.TrimSpace(in.Note)
	done <- webAnswer{Approve: in.Approve, Note: note}
	msg := "answered: no"
	if in.Approve {
		msg = "answered: yes"
	}
	if note != "" {
		msg += " (" + note + ")"
	}
	w.publish(WebEvent{Kind: EventReview, Text: msg})
	writeJSON(rw, http.StatusOK, w.state())
}

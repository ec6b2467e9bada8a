//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/pair-cli/pair/agent/agenttest"
	"github.com/pair-cli/pair/review/webtest"
)

// The web tests run pair edit --web and pair review --web as a person
// does: the real binary, talking to the scripted model server over a real
// socket, in a real git repository, its page opened in a real headless
// Chromium from the URL pair prints (TestWebSecurity speaks plain HTTP to
// it instead, as another program or another site would).

// webAppGo is the one file of the web tests' repository: two functions.
const webAppGo = "package app\n" +
	"\n" +
	"// Greet returns a greeting.\n" +
	"func Greet(name string) string {\n" +
	"\treturn \"hello \" + name\n" +
	"}\n" +
	"\n" +
	"// Bye returns a farewell.\n" +
	"func Bye(name string) string {\n" +
	"\treturn \"bye \" + name\n" +
	"}\n"

// webDiff is the model's proposal: one hunk per function.
const webDiff = "--- a/app.go\n" +
	"+++ b/app.go\n" +
	"@@ -3,4 +3,4 @@\n" +
	" // Greet returns a greeting.\n" +
	" func Greet(name string) string {\n" +
	"-\treturn \"hello \" + name\n" +
	"+\treturn \"hello, \" + name + \"!\"\n" +
	" }\n" +
	"@@ -8,4 +8,4 @@\n" +
	" // Bye returns a farewell.\n" +
	" func Bye(name string) string {\n" +
	"-\treturn \"bye \" + name\n" +
	"+\treturn \"goodbye, \" + name\n" +
	" }\n"

// The hunks as placed, for the Pair-Hunk trailers, and the file with
// each of them applied.
var (
	webHunkGreet = []string{" // Greet returns a greeting.", " func Greet(name string) string {", "-\treturn \"hello \" + name", "+\treturn \"hello, \" + name + \"!\"", " }"}
	webHunkBye   = []string{" // Bye returns a farewell.", " func Bye(name string) string {", "-\treturn \"bye \" + name", "+\treturn \"goodbye, \" + name", " }"}
	webGreetDone = strings.Replace(webAppGo, `"hello " + name`, `"hello, " + name + "!"`, 1)
	webBothDone  = strings.Replace(webGreetDone, `"bye " + name`, `"goodbye, " + name`, 1)
)

// webTimeout only guards against a hang of pair or its page: the waits
// end on what they wait for.
const webTimeout = 60 * time.Second

// newWebRepo returns a git repository holding app.go, committed, in the
// environment of the interactive tests (HOME, git identity, GORACE).
func newWebRepo(t *testing.T) *interactiveRepo {
	t.Helper()
	r := newInteractiveRepo(t, "#!/bin/sh\nexit 0\n")
	// Start over with app.go alone: the apply tests' files and patch go.
	for _, name := range []string{"calc.go", "greet.go", "notes.txt", "fix.diff"} {
		if err := os.Remove(filepath.Join(r.dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	r.writeFile(t, "app.go", webAppGo)
	r.git(t, "add", "-A")
	r.git(t, "commit", "-q", "-m", "app")
	r.head = strings.TrimSpace(r.git(t, "rev-parse", "HEAD"))
	return r
}

// webModelEnv is the environment that points pair at srv.
func webModelEnv(srv *agenttest.Server) []string {
	return []string{
		"OPENAI_BASE_URL=" + srv.URL(),
		"OPENAI_API_KEY=test-key",
		"PAIR_MODEL=test-model",
	}
}

// webProposal is a scripted reply that proposes webDiff, after text.
func webProposal(t *testing.T, text string) agenttest.Reply {
	t.Helper()
	b, err := json.Marshal(map[string]string{"diff": webDiff, "message": "app: friendlier words"})
	if err != nil {
		t.Fatal(err)
	}
	return agenttest.Reply{Text: text, ToolCalls: []agenttest.Call{{ID: "call_diff", Name: "propose_diff", Arguments: string(b)}}}
}

// syncBuffer is a bytes.Buffer for a process's output, read while the
// process writes it.
type syncBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	wrote chan struct{} // has a value after a Write
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.wrote != nil {
		select {
		case b.wrote <- struct{}{}:
		default: // already told
		}
	}
	return b.buf.Write(p)
}

// written delivers a value after a Write made after it was first called.
func (b *syncBuffer) written() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.wrote == nil {
		b.wrote = make(chan struct{}, 1)
	}
	return b.wrote
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// webProcess is pair running without a terminal (standard input is
// /dev/null), its output collected.
type webProcess struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdout *syncBuffer
	stderr *syncBuffer
	done   chan struct{} // closed when pair has exited
	err    error         // of Wait, once done is closed
}

// startPair runs pair with args in the repository, with the repository's
// environment and extra variables. It is killed at the end of the test if
// it is still running.
func startPair(t *testing.T, r *interactiveRepo, extraEnv []string, args ...string) *webProcess {
	t.Helper()
	bin, err := exec.LookPath("pair")
	if err != nil {
		t.Fatalf("pair is not on PATH (TestMain puts it there): %v", err)
	}
	p := &webProcess{t: t, stdout: &syncBuffer{}, stderr: &syncBuffer{}, done: make(chan struct{})}
	p.cmd = exec.Command(bin, args...)
	p.cmd.Dir = r.dir
	p.cmd.Env = append(append([]string(nil), r.env...), extraEnv...)
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start pair: %v", err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default: // the test failed before pair exited
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// output is what pair printed so far, for failure messages.
func (p *webProcess) output() string {
	return fmt.Sprintf("standard output:\n%s\nstandard error:\n%s", p.stdout.String(), p.stderr.String())
}

// webURLLine is how pair announces the page on standard error.
var webURLLine = regexp.MustCompile(`pair: session (\S+) in your browser at\n  (http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32}))\n`)

// webPage is the page pair announced.
type webPage struct {
	session string
	url     string // with the token
	port    string
	token   string
}

// page waits until pair prints the page's address, and returns it.
func (p *webProcess) page() webPage {
	p.t.Helper()
	wrote := p.stderr.written()
	stop := time.After(webTimeout)
	exited := false
	for {
		if m := webURLLine.FindStringSubmatch(p.stderr.String()); m != nil {
			return webPage{session: m[1], url: m[2], port: m[3], token: m[4]}
		}
		if exited {
			p.t.Fatalf("pair exited (%v) without printing the page's address\n%s", p.err, p.output())
		}
		select {
		case <-wrote:
		case <-p.done:
			exited = true // everything it wrote is in, once more to look at
		case <-stop:
			p.t.Fatalf("pair never printed the page's address\n%s", p.output())
		}
	}
}

// interrupt sends pair SIGINT, as Ctrl-C does.
func (p *webProcess) interrupt() {
	p.t.Helper()
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		p.t.Fatalf("interrupt pair: %v", err)
	}
}

// wait waits for pair to exit, and checks its exit status.
func (p *webProcess) wait(code int) {
	p.t.Helper()
	select {
	case <-p.done:
	case <-time.After(webTimeout):
		p.t.Fatalf("pair did not exit\n%s", p.output())
	}
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(p.err, &ee):
		got = ee.ExitCode()
	case p.err != nil:
		p.t.Fatalf("wait for pair: %v", p.err)
	}
	if got != code {
		p.t.Fatalf("pair exited with status %d, want %d\n%s", got, code, p.output())
	}
}

// runPair runs pair to its end and checks its exit status; it returns
// its standard output and error.
func runPair(t *testing.T, r *interactiveRepo, extraEnv []string, code int, args ...string) (stdout, stderr string) {
	t.Helper()
	p := startPair(t, r, extraEnv, args...)
	p.wait(code)
	return p.stdout.String(), p.stderr.String()
}

// webBrowser starts a headless Chromium for the test (see webtest).
func webBrowser(t *testing.T) context.Context {
	t.Helper()
	return webtest.Browser(t)
}

// webBrowse runs browser actions, failing the test with what was being
// done and what pair printed.
func webBrowse(t *testing.T, ctx context.Context, p *webProcess, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v\n%s", what, err, p.output())
	}
}

// webGet runs one browser action and returns its value.
func webGet[T any](t *testing.T, ctx context.Context, what string, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// webWaitJS waits until a JavaScript expression is true in the page.
func webWaitJS(expr string) chromedp.Action[chromedp.Void] {
	return webtest.Until(expr)
}

// webWatchTexts makes the page remember every text its model messages
// show, in window.modelTexts, in order: a reply that streams shows its
// beginnings before the whole.
const webWatchTexts = `(() => {
	window.modelTexts = [];
	new MutationObserver((records) => {
		for (const r of records) {
			const msg = r.target.closest && r.target.closest('.msg[data-role="assistant"]');
			if (!msg) continue;
			// The reply as shown after each change (the page renders its
			// Markdown into elements as it streams).
			if (r.addedNodes.length > 0) window.modelTexts.push(msg.querySelector('.text')?.textContent ?? "");
		}
	}).observe(document.getElementById("conversation"), {childList: true, subtree: true});
	return true;
})()`

// jsString quotes s for JavaScript.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestWebEdit is pair edit --web as a new user has it: a request typed in
// the page, the model's reply streamed into it, a review of two hunks
// (one approved, one rejected with a note), the commit, the model told,
// its last word shown, and Ctrl-C.
func TestWebEdit(t *testing.T) {
	t.Parallel()
	ctx := webBrowser(t)
	r := newWebRepo(t)
	const intro = "I will make both greetings friendlier: Greet gets a comma and an exclamation mark, Bye says goodbye."
	// The reply trickles after its first bytes, so that the page, which
	// draws once a frame, has frames to show its beginnings in.
	reply := webProposal(t, intro)
	reply.After, reply.Trickle = 300, "1ms"
	srv := agenttest.NewServer(t,
		reply,
		agenttest.Reply{Text: "Done."},
	)
	p := startPair(t, r, webModelEnv(srv), "edit", "app.go", "--web", "--port", "0")
	pg := p.page()

	webBrowse(t, ctx, p, "open the page",
		chromedp.Navigate(pg.url),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#status[data-status="idle"]`)),
	)
	if loc, want := webGet(t, ctx, "read the location", chromedp.Location()), "http://127.0.0.1:"+pg.port+"/"; loc != want {
		t.Errorf("the address bar shows %q, want %q (the token taken out)", loc, want)
	}
	if title := webGet(t, ctx, "read the title", chromedp.Title()); title != "pair · "+pg.session {
		t.Errorf("the page is titled %q, want %q", title, "pair · "+pg.session)
	}
	if !webGet(t, ctx, "watch the model's messages", chromedp.Evaluate[bool](webWatchTexts)) {
		t.Fatal("could not watch the model's messages")
	}

	// The request, typed in the page.
	const request = "make the greetings friendlier"
	webBrowse(t, ctx, p, "send the request",
		chromedp.SendKeys(chromedp.CSS(`[data-input]`), request),
		chromedp.Click(chromedp.CSS(`[data-action="send"]`)),
		webWaitJS(`document.querySelector('.msg[data-role="user"] .text')?.textContent === `+jsString(request)),
	)

	// The model's reply streams in, then its proposal is up for review.
	webBrowse(t, ctx, p, "see the model's reply and the review",
		webWaitJS(`document.querySelector('.msg[data-role="assistant"] .text')?.textContent === `+jsString(intro)),
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="2"]`)),
		webWaitJS(`document.querySelectorAll('[data-hunk-id]').length === 2`),
		webWaitJS(`document.querySelector('#status').dataset.status === "review"`),
	)
	texts := webGet(t, ctx, "read the model's texts", chromedp.Evaluate[[]string](`window.modelTexts`))
	streamed := false
	for _, s := range texts {
		if s != "" && len(s) < len(intro) && strings.HasPrefix(intro, s) {
			streamed = true
		}
	}
	if !streamed {
		t.Errorf("the model's reply did not stream into the page: it showed %q, no beginning of %q", texts, intro)
	}
	for id, want := range map[string]string{"1": "app.go lines 3-6", "2": "app.go lines 8-11"} {
		if got := webGet(t, ctx, "read hunk "+id, chromedp.Text(chromedp.CSS(`[data-hunk-id="`+id+`"] .where`))); got != want {
			t.Errorf("hunk %s is at %q, want %q", id, got, want)
		}
	}

	// Approve Greet, reject Bye with a note, submit.
	const note = "keep Bye as it is"
	webBrowse(t, ctx, p, "approve hunk 1",
		chromedp.Click(chromedp.CSS(`[data-hunk-id="1"] [data-action="approve"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="1"][data-decision="approved"]`)),
	)
	webBrowse(t, ctx, p, "reject hunk 2 with a note",
		chromedp.SendKeys(chromedp.CSS(`[data-note-for="2"]`), note),
		chromedp.Click(chromedp.CSS(`[data-hunk-id="2"] [data-action="reject"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="2"][data-decision="rejected"]`)),
	)
	webBrowse(t, ctx, p, "submit",
		chromedp.Click(chromedp.CSS(`[data-action="submit"]`)),
		chromedp.WaitNotVisible(chromedp.CSS(`#review`)),
		webWaitJS(`document.querySelector('#notice').textContent.startsWith("submitted: 1 approved, 1 rejected")`),
	)

	// The model's last word, and the end of the turn.
	webBrowse(t, ctx, p, "see the model's last word",
		webWaitJS(`[...document.querySelectorAll('.msg[data-role="assistant"] .text')].at(-1)?.textContent === "Done."`),
		webWaitJS(`document.querySelector('#status').dataset.status === "idle"`),
		webWaitJS(`[...document.querySelectorAll('#log li')].some((li) => li.textContent.endsWith("applied: 1 hunk applied"))`),
	)
	if n := webGet(t, ctx, "count the error messages", chromedp.Evaluate[int](`document.querySelectorAll('.msg[data-role="error"]').length`)); n != 0 {
		t.Errorf("the page shows %d error messages, want none", n)
	}

	// Ctrl-C stops pair, which exits 0.
	p.interrupt()
	p.wait(0)
	if !strings.Contains(p.stderr.String(), "pair: stopped serving the page") {
		t.Errorf("pair did not say it stopped serving the page\n%s", p.output())
	}

	// Exactly the approved change, committed with the audit trailer.
	r.wantFile(t, "app.go", webGreetDone)
	r.wantStatus(t, "")
	r.wantCommitted(t, "app.go")
	r.wantTrailers(t,
		hunkTrailer("app.go", 3, webHunkGreet, "approved"),
		hunkTrailer("app.go", 8, webHunkBye, "rejected"),
	)
	msg := r.git(t, "log", "-1", "--format=%B")
	// The note given in the page is in the commit message, as pair apply
	// records notes.
	for _, want := range []string{"app: friendlier words\n", "\nRejected with a note:\n- app.go:8: " + note + "\n", "\nPair-Model: test-model\n", "\nPair-Session: " + pg.session + "\n"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the commit message does not hold %q:\n%s", want, msg)
		}
	}

	// The model got the request, then the outcome of the review.
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests to the model, want 2", len(reqs))
	}
	if !webMessagesHold(reqs[0], request) {
		t.Errorf("the first request does not carry the typed request %q:\n%s", request, reqs[0].Raw)
	}
	for _, want := range []string{"app.go:3: applied", fmt.Sprintf("app.go:8: rejected by the person, who said: %q", note)} {
		if !webMessagesHold(reqs[1], want) {
			t.Errorf("the second request does not say %q:\n%s", want, reqs[1].Raw)
		}
	}
}

// webMessagesHold reports whether a message of req holds s.
func webMessagesHold(req agenttest.Request, s string) bool {
	for _, m := range req.Messages {
		if strings.Contains(m.Content, s) {
			return true
		}
	}
	return false
}

// TestWebReviewResume is a paused review finished in the page, tried as a
// new user would: pair edit -m without a terminal pauses with exit 3 and
// says how to go on; pair review --web shows the review, the person
// approves one hunk and always-approves the other's file, submits, and
// pair commits, lets the model finish and exits by itself. A second pair
// review finds nothing waiting.
func TestWebReviewResume(t *testing.T) {
	t.Parallel()
	ctx := webBrowser(t)
	r := newWebRepo(t)
	const final = "Both greetings are friendlier now."
	srv := agenttest.NewServer(t,
		webProposal(t, ""),
		agenttest.Reply{Text: final},
	)
	env := webModelEnv(srv)

	_, stderr := runPair(t, r, env, 3, "edit", "app.go", "-m", "use friendlier words", "--session", "s1")
	for _, want := range []string{"paused for review", "\n  pair review --session s1\n", "--web"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("pair edit's pause does not say %q:\n%s", want, stderr)
		}
	}
	r.wantFile(t, "app.go", webAppGo)
	r.wantStatus(t, "")
	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("%d requests to the model before the review, want 1", n)
	}

	p := startPair(t, r, env, "review", "--web", "--port", "0", "--session", "s1")
	pg := p.page()
	if pg.session != "s1" {
		t.Errorf("pair review serves session %q, want s1", pg.session)
	}
	webBrowse(t, ctx, p, "open the page",
		chromedp.Navigate(pg.url),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="2"]`)),
		webWaitJS(`document.querySelectorAll('[data-hunk-id]').length === 2`),
		webWaitJS(`document.querySelector('#status').dataset.status === "review"`),
		webWaitJS(`document.querySelector('.msg[data-role="user"] .text') !== null`),
	)
	// The conversation so far is shown again, the request as the person
	// typed it (as the page shows a request typed in it).
	if got := webGet(t, ctx, "read the request", chromedp.TextContent(chromedp.CSS(`.msg[data-role="user"] .text`))); got != "use friendlier words" {
		t.Errorf("the page shows the request of the paused turn as %q, want %q", got, "use friendlier words")
	}
	webBrowse(t, ctx, p, "approve hunk 1",
		chromedp.Click(chromedp.CSS(`[data-hunk-id="1"] [data-action="approve"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="1"][data-decision="approved"]`)),
	)
	webBrowse(t, ctx, p, "always approve app.go at hunk 2",
		chromedp.Click(chromedp.CSS(`[data-hunk-id="2"] [data-action="always"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="2"][data-decision="approved"] [data-action="always"][aria-pressed="true"]`)),
		webWaitJS(`document.querySelector('#submit-hint').dataset.undecided === "0"`),
	)
	webBrowse(t, ctx, p, "submit", chromedp.Click(chromedp.CSS(`[data-action="submit"]`)))

	// pair finishes the turn and exits by itself.
	p.wait(0)
	if !strings.Contains(p.stdout.String(), final) {
		t.Errorf("pair review does not show the model's last word %q\n%s", final, p.output())
	}
	r.wantFile(t, "app.go", webBothDone)
	r.wantStatus(t, "")
	r.wantCommitted(t, "app.go")
	r.wantTrailers(t,
		hunkTrailer("app.go", 3, webHunkGreet, "approved"),
		hunkTrailer("app.go", 8, webHunkBye, "approved"),
	)
	msg := r.git(t, "log", "-1", "--format=%B")
	for _, want := range []string{"app: friendlier words\n", "\nPair-Model: test-model\n", "\nPair-Session: s1\n"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the commit message does not hold %q:\n%s", want, msg)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests to the model, want 2", len(reqs))
	}
	for _, want := range []string{"app.go:3: applied", "app.go:8: applied"} {
		if !webMessagesHold(reqs[1], want) {
			t.Errorf("the second request does not say %q:\n%s", want, reqs[1].Raw)
		}
	}

	// Nothing is waiting any more, in a terminal or in the page.
	for _, args := range [][]string{
		{"review", "--session", "s1"},
		{"review", "--web", "--port", "0", "--session", "s1"},
	} {
		_, stderr := runPair(t, r, env, 1, args...)
		if !strings.Contains(stderr, "nothing is waiting for a review in session s1") {
			t.Errorf("pair %s does not say nothing is waiting:\n%s", strings.Join(args, " "), stderr)
		}
	}
}

// webRequest is one plain HTTP request to the page's server.
type webRequest struct {
	method string // GET when empty
	path   string
	host   string // the Host header; the server's own when empty
	header map[string]string
	body   string
}

// webDo sends req to the page on port and returns the answer's status,
// headers and body. It follows no redirect.
func webDo(t *testing.T, port string, req webRequest) (int, http.Header, string) {
	t.Helper()
	method := req.method
	if method == "" {
		method = http.MethodGet
	}
	var body io.Reader
	if req.body != "" {
		body = strings.NewReader(req.body)
	}
	hr, err := http.NewRequest(method, "http://127.0.0.1:"+port+req.path, body)
	if err != nil {
		t.Fatal(err)
	}
	if req.host != "" {
		hr.Host = req.host
	}
	for k, v := range req.header {
		hr.Header.Set(k, v)
	}
	c := &http.Client{
		Timeout:       webTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	res, err := c.Do(hr)
	if err != nil {
		t.Fatalf("%s %s: %v", method, req.path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: read the answer: %v", method, req.path, err)
	}
	return res.StatusCode, res.Header, string(b)
}

// webStateOf is what the tests read of /api/state.
type webStateOf struct {
	Status       string `json:"status"`
	Conversation []struct {
		Role string `json:"role"`
		Text string `json:"text"`
	} `json:"conversation"`
	Review json.RawMessage `json:"review"`
}

// TestWebSecurity speaks plain HTTP to pair edit --web as another program
// or another site would: without the token, with the wrong one, under
// another host name (DNS rebinding), cross-origin, or with a body a form
// can send, it is refused and nothing happens; the model is never asked.
// The page loads nothing from another host, and the server is on the
// loopback address only.
func TestWebSecurity(t *testing.T) {
	t.Parallel()
	r := newWebRepo(t)
	const answer = "Hello from the model."
	srv := agenttest.NewServer(t, agenttest.Reply{Text: answer})
	p := startPair(t, r, webModelEnv(srv), "edit", "app.go", "--web", "--port", "0")
	pg := p.page()
	self := "127.0.0.1:" + pg.port
	wrongToken := strings.Repeat("0", 32)
	if wrongToken == pg.token {
		wrongToken = strings.Repeat("1", 32)
	}

	// Signing in: the token in the URL becomes a cookie, and leaves the
	// address bar.
	code, h, _ := webDo(t, pg.port, webRequest{path: "/?token=" + pg.token})
	if code != http.StatusSeeOther || h.Get("Location") != "/" {
		t.Fatalf("GET the printed URL: got %d to %q, want %d to /", code, h.Get("Location"), http.StatusSeeOther)
	}
	var cookie *http.Cookie
	for _, c := range (&http.Response{Header: h}).Cookies() {
		if c.Name == "pair_token_"+pg.port {
			cookie = c
		}
	}
	if cookie == nil || cookie.Value != pg.token || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode {
		t.Fatalf("GET the printed URL: got cookies %q, want pair_token_%s with the token, HttpOnly, SameSite=Strict", h.Values("Set-Cookie"), pg.port)
	}
	withCookie := func(hdr map[string]string) map[string]string {
		out := map[string]string{"Cookie": cookie.Name + "=" + cookie.Value}
		for k, v := range hdr {
			out[k] = v
		}
		return out
	}
	const evil = `{"text":"evil: delete everything"}`
	const evilHost = "evil.example"

	for _, tc := range []struct {
		name string
		req  webRequest
		want int
	}{
		// The controls: the same requests are served with the token.
		{"the page with the cookie", webRequest{path: "/", header: withCookie(nil)}, http.StatusOK},
		{"the state with the token header", webRequest{path: "/api/state", header: map[string]string{"X-Pair-Token": pg.token}}, http.StatusOK},
		{"the state under localhost", webRequest{path: "/api/state", host: "localhost:" + pg.port, header: withCookie(nil)}, http.StatusOK},

		{"the page without the token", webRequest{path: "/"}, http.StatusForbidden},
		{"the script without the token", webRequest{path: "/app.js"}, http.StatusForbidden},
		{"the state without the token", webRequest{path: "/api/state"}, http.StatusForbidden},
		{"the events without the token", webRequest{path: "/api/events"}, http.StatusForbidden},
		{"a chat without the token", webRequest{method: "POST", path: "/api/chat", header: map[string]string{"Content-Type": "application/json"}, body: evil}, http.StatusForbidden},
		{"the URL with a wrong token", webRequest{path: "/?token=" + wrongToken}, http.StatusForbidden},
		{"the state with a wrong token header", webRequest{path: "/api/state", header: map[string]string{"X-Pair-Token": wrongToken}}, http.StatusForbidden},
		{"the state with a wrong cookie", webRequest{path: "/api/state", header: map[string]string{"Cookie": cookie.Name + "=" + wrongToken}}, http.StatusForbidden},

		{"the URL under another host", webRequest{path: "/?token=" + pg.token, host: evilHost + ":" + pg.port}, http.StatusForbidden},
		{"the state under another host", webRequest{path: "/api/state", host: evilHost + ":" + pg.port, header: map[string]string{"X-Pair-Token": pg.token}}, http.StatusForbidden},
		{"the state under another port", webRequest{path: "/api/state", host: "127.0.0.1:1", header: withCookie(nil)}, http.StatusForbidden},
		{"a chat under another host", webRequest{method: "POST", path: "/api/chat", host: evilHost + ":" + pg.port, header: withCookie(map[string]string{"Content-Type": "application/json"}), body: evil}, http.StatusForbidden},

		{"a chat from another origin, with the cookie", webRequest{method: "POST", path: "/api/chat", header: withCookie(map[string]string{"Content-Type": "application/json", "Origin": "http://" + evilHost}), body: evil}, http.StatusForbidden},
		{"a chat from another origin, with the token header", webRequest{method: "POST", path: "/api/chat", header: map[string]string{"X-Pair-Token": pg.token, "Content-Type": "application/json", "Origin": "http://" + evilHost}, body: evil}, http.StatusForbidden},
		{"a chat from another port", webRequest{method: "POST", path: "/api/chat", header: withCookie(map[string]string{"Content-Type": "application/json", "Origin": "http://127.0.0.1:1"}), body: evil}, http.StatusForbidden},
		{"a chat from an opaque origin", webRequest{method: "POST", path: "/api/chat", header: withCookie(map[string]string{"Content-Type": "application/json", "Origin": "null"}), body: evil}, http.StatusForbidden},
		{"a chat from another site", webRequest{method: "POST", path: "/api/chat", header: withCookie(map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}), body: evil}, http.StatusForbidden},
		{"a chat as text/plain", webRequest{method: "POST", path: "/api/chat", header: withCookie(map[string]string{"Content-Type": "text/plain"}), body: evil}, http.StatusUnsupportedMediaType},

		{"decisions as text/plain", webRequest{method: "POST", path: "/api/decisions", header: withCookie(map[string]string{"Content-Type": "text/plain"}), body: `{"review":1,"decisions":[],"submit":true}`}, http.StatusUnsupportedMediaType},
		{"decisions as a form", webRequest{method: "POST", path: "/api/decisions", header: withCookie(map[string]string{"Content-Type": "application/x-www-form-urlencoded"}), body: `review=1&submit=true`}, http.StatusUnsupportedMediaType},
		{"decisions without a content type", webRequest{method: "POST", path: "/api/decisions", header: withCookie(nil), body: `{"review":1,"decisions":[],"submit":true}`}, http.StatusUnsupportedMediaType},
	} {
		code, _, body := webDo(t, pg.port, tc.req)
		if code != tc.want {
			t.Errorf("%s: got %d, want %d\n%s", tc.name, code, tc.want, body)
		}
	}

	// Nothing happened: no message in the page, no request to the model.
	state := func() webStateOf {
		t.Helper()
		code, _, body := webDo(t, pg.port, webRequest{path: "/api/state", header: withCookie(nil)})
		var s webStateOf
		if code != http.StatusOK {
			t.Fatalf("GET /api/state: got %d, want 200\n%s", code, body)
		}
		if err := json.Unmarshal([]byte(body), &s); err != nil {
			t.Fatalf("GET /api/state: %v\n%s", err, body)
		}
		return s
	}
	if s := state(); len(s.Conversation) != 0 || s.Status != "idle" || string(s.Review) != "null" {
		t.Errorf("after the refused requests the state is %+v, want no conversation, idle, no review", s)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("after the refused requests the model had %d requests, want none", n)
	}

	// The page's own request goes through, and it is the only one the
	// model ever gets: a refused message would have come before it.
	const hello = "hello from the page"
	code, _, body := webDo(t, pg.port, webRequest{method: "POST", path: "/api/chat",
		header: withCookie(map[string]string{"Content-Type": "application/json", "Origin": "http://" + self, "Sec-Fetch-Site": "same-origin"}),
		body:   fmt.Sprintf(`{"text":%s}`, jsString(hello))})
	if code != http.StatusAccepted {
		t.Fatalf("a chat from the page: got %d, want %d\n%s", code, http.StatusAccepted, body)
	}
	stop := time.Now().Add(webTimeout)
	for {
		s := state()
		if n := len(s.Conversation); s.Status == "idle" && n > 0 && s.Conversation[n-1].Role == "assistant" && s.Conversation[n-1].Text == answer {
			break
		}
		if time.Now().After(stop) {
			t.Fatalf("the model's answer never came: state %+v\n%s", s, p.output())
		}
		time.Sleep(20 * time.Millisecond)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests to the model, want 1", len(reqs))
	}
	if !webMessagesHold(reqs[0], hello) || webMessagesHold(reqs[0], "evil") {
		t.Errorf("the model's request does not carry the page's message alone:\n%s", reqs[0].Raw)
	}

	// The page and its assets: nothing from another host.
	code, h, html := webDo(t, pg.port, webRequest{path: "/", header: withCookie(nil)})
	if code != http.StatusOK || !strings.Contains(html, `<script src="/app.js"`) {
		t.Fatalf("GET /: got %d\n%s", code, html)
	}
	csp := h.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("the page's Content-Security-Policy %q lacks %q", csp, want)
		}
	}
	refs := regexp.MustCompile(`(?i)\b(?:src|href|action)\s*=\s*["']?([^"'\s>]*)`).FindAllStringSubmatch(html, -1)
	if len(refs) == 0 {
		t.Errorf("found no src or href in the page:\n%s", html)
	}
	for _, m := range refs {
		u, err := url.Parse(m[1])
		if err != nil || (u.Scheme != "" && u.Scheme != "data") || u.Host != "" {
			t.Errorf("the page refers to %q, not to itself", m[1])
		}
	}
	for _, path := range []string{"/", "/app.js", "/style.css"} {
		code, _, body := webDo(t, pg.port, webRequest{path: path, header: withCookie(nil)})
		if code != http.StatusOK {
			t.Errorf("GET %s: got %d, want 200", path, code)
			continue
		}
		for _, m := range regexp.MustCompile(`(?i)(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}|@import|url\(\s*["']?(?:https?:)?//`).FindAllString(body, -1) {
			t.Errorf("%s refers to another host: %q", path, m)
		}
	}

	// Only the loopback address listens.
	if ip := webOtherAddress(); ip != "" {
		c, err := net.DialTimeout("tcp", net.JoinHostPort(ip, pg.port), 5*time.Second)
		if err == nil {
			c.Close()
			t.Errorf("the page's port %s answers on %s, want the loopback address only", pg.port, ip)
		}
	}

	p.interrupt()
	p.wait(0)
}

// webOtherAddress returns an address of this machine that is not a
// loopback one, or "" when there is none.
func webOtherAddress() string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return ""
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil && !n.IP.IsLinkLocalUnicast() {
			return n.IP.String()
		}
	}
	return ""
}

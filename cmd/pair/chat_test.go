//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pair-cli/pair/agent/agenttest"
)

// The chat tests run pair edit as a person does: the real binary on a
// pseudo-terminal (the helpers of interactive_test.go), talking to the
// scripted model server over a real socket through the real HTTP client,
// in a real git repository.

// chatAppGo is the one file of the chat tests' repository.
const chatAppGo = "package app\n" +
	"\n" +
	"// Greet returns a greeting.\n" +
	"func Greet(name string) string {\n" +
	"\treturn \"hello \" + name\n" +
	"}\n"

// chatGreetDiff is the model's proposal: one hunk of app.go.
const chatGreetDiff = "--- a/app.go\n" +
	"+++ b/app.go\n" +
	"@@ -3,4 +3,4 @@\n" +
	" // Greet returns a greeting.\n" +
	" func Greet(name string) string {\n" +
	"-\treturn \"hello \" + name\n" +
	"+\treturn \"hello, \" + name + \"!\"\n" +
	" }\n"

// newChatRepo returns a git repository holding app.go, committed, in the
// environment of the interactive tests.
func newChatRepo(t *testing.T) *interactiveRepo {
	t.Helper()
	r := newInteractiveRepo(t, unchangedEditor)
	// Start over with app.go alone: the apply tests' files and patch go.
	for _, name := range []string{"calc.go", "greet.go", "notes.txt", "fix.diff"} {
		if err := os.Remove(filepath.Join(r.dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	r.writeFile(t, "app.go", chatAppGo)
	r.git(t, "add", "-A")
	r.git(t, "commit", "-q", "-m", "app")
	r.head = strings.TrimSpace(r.git(t, "rev-parse", "HEAD"))
	return r
}

// chatModelEnv is the environment that points pair at srv.
func chatModelEnv(srv *agenttest.Server) []string {
	return []string{
		"OPENAI_BASE_URL=" + srv.URL(),
		"OPENAI_API_KEY=test-key",
		"PAIR_MODEL=test-model",
	}
}

// chatCall is a scripted tool call with arguments marshalled from args.
func chatCall(t *testing.T, id, name string, args map[string]string) agenttest.Call {
	t.Helper()
	b, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return agenttest.Call{ID: id, Name: name, Arguments: string(b)}
}

// chatCommitted is how the screen names the commit of approved hunks.
var chatCommitted = regexp.MustCompile(`(?i)\bcommitted (as )?[0-9a-f]{12}\b`)

// expectMatch waits until the screen shows a match of re after the last
// match, as expect does for a string.
func (s *ptySession) expectMatch(re *regexp.Regexp) {
	s.t.Helper()
	stop := time.Now().Add(ptyTimeout)
	for {
		s.mu.Lock()
		loc := re.FindIndex(s.screen[s.seen:])
		if loc != nil {
			s.seen += loc[1]
		}
		screen := string(s.screen)
		s.mu.Unlock()
		if loc != nil {
			return
		}
		if time.Now().After(stop) {
			s.t.Fatalf("the screen never showed a match of %s; the whole screen:\n%s", re, printable(screen))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// chatLine types a line at the chat prompt, once the prompt is on the
// screen.
func (s *ptySession) chatLine(line string) {
	s.t.Helper()
	s.expect("pair> ")
	s.send(line + "\r")
}

// TestChatSession is a whole chat as a new user has it: a request, the
// model's diff reviewed inline and committed, then the slash commands, an
// unknown one among them, and /quit.
func TestChatSession(t *testing.T) {
	t.Parallel()
	r := newChatRepo(t)
	srv := agenttest.NewServer(t,
		agenttest.Reply{ToolCalls: []agenttest.Call{chatCall(t, "call_diff", "propose_diff", map[string]string{
			"diff": chatGreetDiff, "message": "app: a friendlier greeting",
		})}},
		agenttest.Reply{Text: "Greet now says hello, NAME!"},
	)
	s := r.start(t, chatModelEnv(srv), "edit", "app.go")
	s.expect("pair edit with test-model in ")
	s.expect("files in context: app.go")
	s.chatLine("make the greeting friendlier")

	// The review, inline: the hunk, then the summary.
	s.expect("app.go lines 3-6")
	s.answer("[1/1]", "y")
	s.expect("Write and commit 1 hunk in 1 file [")
	s.expect("]?")
	s.send("y")
	s.expectMatch(chatCommitted)
	s.expect("Greet now says hello, NAME!")

	s.chatLine("/tokens")
	s.expect("tokens this session: ")
	s.chatLine("/ls")
	s.expect("app.go")
	s.chatLine("/diff")
	s.expect("no uncommitted changes")
	s.chatLine("/help")
	s.expect("/add FILE...")
	s.expect("/quit")
	s.chatLine("/foo")
	s.expect("unknown command /foo")
	s.chatLine("/ls") // the chat goes on after the error
	s.expect("app.go")
	s.chatLine("/quit")
	screen := s.wait(0)

	if !regexp.MustCompile(`tokens this session: [1-9]\d* in, [1-9]\d* out, [1-9]\d* in all`).MatchString(screen) {
		t.Errorf("/tokens does not show the counts:\n%s", printable(screen))
	}
	if n := strings.Count(screen, "Approve this hunk ("); n != 1 {
		t.Errorf("%d prompts for hunks, want 1", n)
	}

	r.wantFile(t, "app.go", strings.Replace(chatAppGo, `"hello " + name`, `"hello, " + name + "!"`, 1))
	r.wantCommitted(t, "app.go")
	r.wantStatus(t, "")
	if got := r.git(t, "log", "-1", "--format=%s%n%(trailers:key=Pair-Model,valueonly)"); got != "app: a friendlier greeting\ntest-model\n\n" {
		t.Errorf("the commit's subject and Pair-Model trailer are %q", got)
	}
	r.wantTrailers(t, hunkTrailer("app.go", 3, []string{
		" // Greet returns a greeting.",
		" func Greet(name string) string {",
		"-\treturn \"hello \" + name",
		"+\treturn \"hello, \" + name + \"!\"",
		" }",
	}, "approved"))

	// The second request told the model its hunk was applied.
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if body := string(reqs[1].Raw); !strings.Contains(body, `app.go:3: applied`) {
		t.Errorf("the second request does not say the hunk was applied:\n%s", body)
	}
}

// TestChatCtrlD ends the chat with Ctrl-D at the prompt: exit 0, the
// model never asked.
func TestChatCtrlD(t *testing.T) {
	t.Parallel()
	r := newChatRepo(t)
	srv := agenttest.NewServer(t)
	s := r.start(t, chatModelEnv(srv), "edit", "app.go")
	s.expect("pair> ")
	s.send("\x04")
	screen := s.wait(0)

	if strings.Contains(screen, "pair: ") {
		t.Errorf("Ctrl-D reported something:\n%s", printable(screen))
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests to the model, want none", n)
	}
	r.wantFile(t, "app.go", chatAppGo)
	r.wantStatus(t, "")
}

// TestChatCommandDeclined: the model wants to run a command that no
// configuration allows; pair asks, n declines, the command does not run,
// and the model is told.
func TestChatCommandDeclined(t *testing.T) {
	t.Parallel()
	r := newChatRepo(t)
	srv := agenttest.NewServer(t,
		agenttest.Reply{ToolCalls: []agenttest.Call{chatCall(t, "call_run", "run_command", map[string]string{"command": "touch pwned"})}},
		agenttest.Reply{Text: "You declined, so nothing ran."},
	)
	s := r.start(t, chatModelEnv(srv), "edit", "app.go")
	s.chatLine("clean up the build output")
	s.expect("The model wants to run a command:")
	s.expect("touch pwned")
	s.expect("Run it [y,n]?")
	s.send("n")
	s.expect("You declined, so nothing ran.")
	s.chatLine("/quit")
	screen := s.wait(0)

	if _, err := os.Stat(filepath.Join(r.dir, "pwned")); err == nil {
		t.Errorf("the declined command ran: pwned exists")
	}
	if strings.Contains(screen, "$ touch pwned") {
		t.Errorf("the screen shows the declined command running:\n%s", printable(screen))
	}
	r.wantFile(t, "app.go", chatAppGo)
	r.wantStatus(t, "")
	if got := strings.TrimSpace(r.git(t, "rev-parse", "HEAD")); got != r.head {
		t.Errorf("HEAD moved from %s to %s", r.head, got)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if body := string(reqs[1].Raw); !strings.Contains(body, `"role":"tool","content":"the person declined to run it"`) {
		t.Errorf("the second request does not tell the model the command was declined:\n%s", body)
	}
}

// TestChatCtrlCStopsRequest: Ctrl-C while the model is answering stops
// that request only; the chat goes on, and the next request works. Ctrl-C
// at the prompt then ends pair edit (exit 130).
func TestChatCtrlCStopsRequest(t *testing.T) {
	t.Parallel()
	r := newChatRepo(t)
	inFlight := make(chan struct{}, 1)
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		_, _ = io.ReadAll(req.Body)
		if n.Add(1) == 1 {
			// The first request hangs until the client gives up on it.
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			inFlight <- struct{}{}
			<-req.Context().Done()
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"second answer"},"finish_reason":null}]}`+"\n\n")
		fmt.Fprint(w, `data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer srv.Close()
	env := []string{"OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_API_KEY=test-key", "PAIR_MODEL=test-model"}
	s := r.start(t, env, "edit", "app.go")
	s.chatLine("first request")
	select {
	case <-inFlight:
	case <-time.After(30 * time.Second):
		t.Fatal("the first request never reached the server")
	}
	s.send("\x03")
	s.expect("request stopped")
	s.chatLine("second request")
	s.expect("second answer")
	s.expect("pair> ")
	s.send("\x03")
	screen := s.wait(130)
	if strings.Count(screen, "pair> ") < 3 {
		t.Errorf("the chat did not go on after the stopped request:\n%s", printable(screen))
	}
	if n.Load() != 2 {
		t.Errorf("got %d requests, want 2", n.Load())
	}
}

// TestChatLineEditing: at the chat's prompt, the up arrow brings back the
// last request, backspace and the left arrow edit it, as in a shell; the
// model gets the edited line.
func TestChatLineEditing(t *testing.T) {
	t.Parallel()
	r := newChatRepo(t)
	srv := agenttest.NewServer(t, agenttest.Reply{Text: "answer one"}, agenttest.Reply{Text: "answer two"})
	s := r.start(t, chatModelEnv(srv), "edit", "app.go")
	s.chatLine("explain the first request")
	s.expect("answer one")
	s.expect("pair> ")
	// Up: the line comes back; 7 backspaces take "request" off; "agan",
	// left, "i" make "again".
	s.send("\x1b[A" + strings.Repeat("\x7f", 7) + "agan" + "\x1b[D" + "i" + "\r")
	s.expect("answer two")
	s.chatLine("/quit")
	screen := s.wait(0)
	if strings.Contains(screen, "^[[A") {
		t.Errorf("the up arrow was printed, not read:\n%s", printable(screen))
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if body := string(reqs[1].Raw); !strings.Contains(body, "explain the first again") {
		t.Errorf("the second request is not the edited line:\n%s", body)
	}
}

// TestChatUndoAsksForOtherSession: /undo asks before taking back a commit
// of another session (pair apply's here); n keeps it, y takes it back.
func TestChatUndoAsksForOtherSession(t *testing.T) {
	t.Parallel()
	r := newChatRepo(t)
	r.writeFile(t, "greet.diff", chatGreetDiff)
	r.start(t, nil, "apply", "--yes", "-m", "a friendlier greeting", "greet.diff").wait(0)
	applied := strings.TrimSpace(r.git(t, "rev-parse", "HEAD"))
	if applied == r.head {
		t.Fatal("pair apply made no commit")
	}
	srv := agenttest.NewServer(t)
	s := r.start(t, chatModelEnv(srv), "edit")
	s.chatLine("/undo")
	s.expectMatch(regexp.MustCompile(`HEAD [0-9a-f]{12} \("a friendlier greeting"\) was committed by session apply-\S+, not this one \(\S+\)\.\r?\n.*Take it back\? \[y/N\] `))
	s.send("n\r")
	s.expect("not undone")
	if head := strings.TrimSpace(r.git(t, "rev-parse", "HEAD")); head != applied {
		t.Fatalf("n took the commit back: HEAD is %s, want %s", head, applied)
	}
	s.chatLine("/undo")
	s.expect("Take it back? [y/N] ")
	s.send("y\r")
	s.chatLine("/quit")
	s.wait(0)
	if head := strings.TrimSpace(r.git(t, "rev-parse", "HEAD")); head != r.head {
		t.Errorf("y did not take the commit back: HEAD is %s, want %s", head, r.head)
	}
}

// TestChatHistoryAcrossRuns: the line history is the repository's, kept
// in its git directory: the up arrow in a second pair edit brings back
// the line typed in the first.
func TestChatHistoryAcrossRuns(t *testing.T) {
	t.Parallel()
	r := newChatRepo(t)
	srv := agenttest.NewServer(t, agenttest.Reply{Text: "answer one"}, agenttest.Reply{Text: "answer two"})
	s := r.start(t, chatModelEnv(srv), "edit", "app.go")
	s.chatLine("explain the first request")
	s.expect("answer one")
	s.chatLine("/quit")
	s.wait(0)

	s = r.start(t, chatModelEnv(srv), "edit", "app.go")
	s.expect("pair> ")
	s.send("\x1b[A\x1b[A" + "\r") // /quit, then the request
	s.expect("answer two")
	s.chatLine("/quit")
	s.wait(0)
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if body := string(reqs[1].Raw); !strings.Contains(body, "explain the first request") {
		t.Errorf("the second run's request is not the first run's line:\n%s", body)
	}
	hist, err := os.ReadFile(filepath.Join(r.dir, ".git", "pair", "history"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "explain the first request\n/quit\nexplain the first request\n/quit\n"; string(hist) != want {
		t.Errorf("history file:\ngot  %q\nwant %q", hist, want)
	}
}

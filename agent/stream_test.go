package agent_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/agent/agenttest"
	"github.com/pair-cli/pair/repo/repotest"
)

// event is one piece of a raw event stream carrying text.
func event(text string) string {
	return fmt.Sprintf(`data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":%q}}]}`, text) + "\n\n"
}

// boundedClient returns a client of s, in memory, with an idle timeout
// and a bound on the reply's size.
func boundedClient(s *agenttest.Server, idle time.Duration, maxReply int64) *agent.Client {
	cfg := s.Config()
	cfg.IdleTimeout, cfg.MaxReply = idle, maxReply
	return agent.NewClient(cfg)
}

// TestCompleteIdleTimeout: a reply that has begun and then stops, or
// sends only what is not a piece of it, ends with the idle timeout, not
// retried, keeping what arrived. The first-byte timeout is the default
// five minutes: it is not what ends these.
func TestCompleteIdleTimeout(t *testing.T) {
	first := event("hel")
	forever := func(s string) string { return strings.Repeat(s, 100000) }
	tests := []struct {
		name string
		rep  agenttest.Reply
	}{
		{"stall after the first piece", agenttest.Reply{SSE: first + event("lo") + forever(event("!")), Stall: true, After: len(first)}},
		{"stall within a piece", agenttest.Reply{SSE: first + event("lo"), Stall: true, After: len(first) + 10}},
		{"trickle", agenttest.Reply{SSE: first + forever(event("lo")), Trickle: "10ms", After: len(first)}},
		{"keep-alive comments", agenttest.Reply{SSE: first + forever(": keep-alive\n"), Trickle: "1ms", After: len(first)}},
		{"empty events", agenttest.Reply{SSE: first + forever("data: {}\n\n"), Trickle: "1ms", After: len(first)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := agenttest.NewServer(t, tt.rep)
			c := boundedClient(s, 200*time.Millisecond, 0)
			c.Sleep = func(context.Context, time.Duration) error {
				t.Error("an idle timeout was retried")
				return nil
			}
			reply, err := c.Complete(context.Background(), userAsks, nil, nil)
			var te *agent.TimeoutError
			if !errors.As(err, &te) || te.Phase != agent.PhaseIdle || te.After != 200*time.Millisecond {
				t.Fatalf("got error %v, want an idle *TimeoutError after 200ms", err)
			}
			if want := "model server: the reply stalled: nothing more of it within 200ms (the idle timeout)"; err.Error() != want {
				t.Errorf("error: got %q, want %q", err, want)
			}
			if !strings.HasPrefix(reply.Content, "hel") {
				t.Errorf("content %q: what arrived is lost", reply.Content)
			}
			if n := len(s.Requests()); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
		})
	}
}

// TestCompleteMaxReply: a reply larger than the bound, in its text, its
// tool arguments, one line of its stream, or lines that are not events,
// ends with a *SizeError naming the bound, not retried.
func TestCompleteMaxReply(t *testing.T) {
	const limit = 64 << 10
	bigArgs := `{"path":"a.go","content":"` + strings.Repeat("x", 2*limit) + `"}`
	tests := []struct {
		name string
		rep  agenttest.Reply
		line bool
	}{
		{"endless text", agenttest.Reply{Text: strings.Repeat("a", 1000), Chunk: 100, Repeat: -1}, false},
		{"tool arguments", agenttest.Reply{ToolCalls: []agenttest.Call{{Name: "write_file", Arguments: bigArgs}}, Chunk: 512}, false},
		{"endless line", agenttest.Reply{Text: "hi", EndlessLine: true}, true},
		{"endless raw line", agenttest.Reply{SSE: event("hi"), EndlessLine: true}, true},
		{"comments", agenttest.Reply{SSE: event("hi") + strings.Repeat(": "+strings.Repeat("c", 1000)+"\n", 100)}, false},
		{"other choices", agenttest.Reply{SSE: event("hi") + strings.Repeat(
			`data: {"choices":[{"index":1,"delta":{"content":"`+strings.Repeat("o", 1000)+`"}}]}`+"\n\n", 100)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := agenttest.NewServer(t, tt.rep)
			c := boundedClient(s, 0, limit)
			c.Sleep = func(context.Context, time.Duration) error {
				t.Error("a reply too large was retried")
				return nil
			}
			reply, err := c.Complete(context.Background(), userAsks, nil, nil)
			var se *agent.SizeError
			if !errors.As(err, &se) || se.Limit != limit || se.Line != tt.line {
				t.Fatalf("got error %v, want a *SizeError of %d bytes (line %v)", err, limit, tt.line)
			}
			what := "the reply is larger than 64 KiB"
			if tt.line {
				what = "a line of the reply is longer than 64 KiB"
			}
			if want := "model server: " + what + " (the bound on a reply's size)"; err.Error() != want {
				t.Errorf("error: got %q, want %q", err, want)
			}
			if n := len(reply.Content); n > 2*limit {
				t.Errorf("the reply kept %d bytes of text, beyond the bound", n)
			}
			if n := len(s.Requests()); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
		})
	}
}

// TestCompleteMaxReplyFits: a reply of exactly the bound, text and tool
// arguments, passes.
func TestCompleteMaxReplyFits(t *testing.T) {
	args := `{"n":"` + strings.Repeat("y", 1000) + `"}`
	text := strings.Repeat("z", 10000-len(args)-len("git_log")-len("call_1_1")-64)
	s := agenttest.NewServer(t, agenttest.Reply{Text: text, ToolCalls: []agenttest.Call{{Name: "git_log", Arguments: args}}})
	c := boundedClient(s, 0, 10000)
	reply, err := c.Complete(context.Background(), userAsks, nil, nil)
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if reply.Content != text || len(reply.ToolCalls) != 1 || reply.ToolCalls[0].Arguments != args {
		t.Errorf("got %d bytes of text and calls %d, want the reply whole", len(reply.Content), len(reply.ToolCalls))
	}
}

// TestCompleteErrorBodyCut: an error answer's endless body is cut at the
// bound; its status is still the answer.
func TestCompleteErrorBodyCut(t *testing.T) {
	s := agenttest.NewServer(t, agenttest.Reply{Status: 400, ErrorBody: "bad request\n" + strings.Repeat("e", 1<<20)})
	c := boundedClient(s, 0, 64<<10)
	_, err := c.Complete(context.Background(), userAsks, nil, nil)
	var se *agent.StatusError
	if !errors.As(err, &se) || se.Code != 400 || se.Message != "bad request" {
		t.Fatalf("got error %v, want 400 bad request", err)
	}
}

// streamHuge streams a reply of 100 MB of text through a client bounded
// at maxReply, and returns the bytes allocated meanwhile.
func streamHuge(tb testing.TB, maxReply int64) (allocated uint64, err error) {
	const piece = 4 << 10
	s := agenttest.NewServer(tb, agenttest.Reply{Text: strings.Repeat("a", piece), Chunk: piece, Repeat: 100 << 20 / piece})
	c := boundedClient(s, 0, maxReply)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = c.Complete(context.Background(), userAsks, nil, func(string) {})
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, err
}

// TestCompleteHugeReplyMemory: the memory a reply costs stays within a
// small multiple of the bound, however much the server sends.
func TestCompleteHugeReplyMemory(t *testing.T) {
	const limit = 1 << 20
	allocated, err := streamHuge(t, limit)
	var se *agent.SizeError
	if !errors.As(err, &se) {
		t.Fatalf("got error %v, want a *SizeError", err)
	}
	if allocated > 32*limit {
		t.Errorf("allocated %d MiB for a reply bounded at 1 MiB", allocated>>20)
	}
}

// BenchmarkCompleteHugeReply reports the bytes allocated to read a 100 MB
// reply under the default bound.
func BenchmarkCompleteHugeReply(b *testing.B) {
	var total uint64
	for range b.N {
		allocated, err := streamHuge(b, 0)
		var se *agent.SizeError
		if !errors.As(err, &se) {
			b.Fatalf("got error %v, want a *SizeError", err)
		}
		total += allocated
	}
	b.ReportMetric(float64(total)/float64(b.N)/(1<<20), "MiB-allocated/op")
}

// TestRunStalledOrHugeReplyFails: the turn of a reply that stalls in the
// middle of a proposal, or is too large, fails: status failed, the session
// saved with the error, nothing written, the partial reply not kept.
func TestRunStalledOrHugeReplyFails(t *testing.T) {
	args := `{"diff":` + fmt.Sprintf("%q", greetDiff) + `}`
	// The size case waits long between pieces, so that only the bound can
	// end it, however slow the machine.
	tests := []struct {
		name string
		rep  agenttest.Reply
		idle time.Duration
		want string
	}{
		{"stall", agenttest.Reply{ToolCalls: []agenttest.Call{{Name: "propose_diff", Arguments: args}}, Stall: true, After: 2000},
			200 * time.Millisecond, "model: model server: the reply stalled: nothing more of it within 200ms (the idle timeout)"},
		{"too large", agenttest.Reply{ToolCalls: []agenttest.Call{{Name: "propose_diff", Arguments: args}}, Repeat: -1, Text: "padding "},
			time.Minute, "model: model server: the reply is larger than 64 KiB (the bound on a reply's size)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tree := newRepo(t, map[string]string{"app.go": appGo})
			store := agent.Sessions{Dir: filepath.Join(t.TempDir(), "sessions")}
			srv := agenttest.NewServer(t, tt.rep)
			st := agent.NewState("s1", "m", "edit", nil)
			a := &agent.Agent{Model: boundedClient(srv, tt.idle, 64<<10), Tree: tree, Reviewer: &reviewer{},
				Settings: agent.Settings{Commit: true}, Checkpoint: store.Save}
			err := a.Run(context.Background(), st, "change it")
			if err == nil || err.Error() != tt.want {
				t.Fatalf("Run: got %v, want %q", err, tt.want)
			}
			loaded, err := store.Load("s1")
			if err != nil {
				t.Fatal(err)
			}
			if loaded.Turn.Status != "failed" || loaded.Turn.Error != tt.want {
				t.Errorf("saved turn: status %q, error %q", loaded.Turn.Status, loaded.Turn.Error)
			}
			for _, m := range loaded.Messages {
				if m.Role == agent.RoleAssistant {
					t.Errorf("the partial reply was kept: %.80q", m.Content)
				}
			}
			if got := readFile(t, tree, "app.go"); got != appGo {
				t.Errorf("app.go changed:\n%s", got)
			}
			if log := repotest.Git(t, tree.Dir, "log", "--oneline"); strings.Count(log, "\n") != 1 {
				t.Errorf("commits: %s", log)
			}
		})
	}
}

// TestCompleteErrorBodyStalls: a body read whole (an error answer's, or
// one that is not an event stream) comes before any piece of the reply:
// the first-byte timeout bounds it, and it is not retried.
func TestCompleteErrorBodyStalls(t *testing.T) {
	tests := []agenttest.Reply{
		{Status: 500, ErrorBody: `{"error": {"message": "overloaded"}}`, Stall: true, After: 5},
		{SSE: `{"choices": [{"message": {"content": "not streamed"}}]}`, ContentType: "application/json", Stall: true, After: 5},
	}
	for _, rep := range tests {
		s := agenttest.NewServer(t, rep)
		cfg := s.Config()
		cfg.FirstByteTimeout = 200 * time.Millisecond
		c := agent.NewClient(cfg)
		_, err := c.Complete(context.Background(), userAsks, nil, nil)
		var te *agent.TimeoutError
		if !errors.As(err, &te) || te.Phase != "first byte" {
			t.Errorf("%d: got error %v, want a first-byte *TimeoutError", rep.Status, err)
		}
		if n := len(s.Requests()); n != 1 {
			t.Errorf("%d: %d requests, want 1", rep.Status, n)
		}
	}
}

package replay_test

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/pair-cli/pair/internal/replay"
)

// TestReportsOverASocket: without a test to fail, the server reports what
// goes against the script to the function it was given.
func TestReportsOverASocket(t *testing.T) {
	var mu sync.Mutex
	var got []string
	s := replay.New(func(msg string) { mu.Lock(); defer mu.Unlock(); got = append(got, msg) },
		replay.Reply{Text: "one"}, replay.Reply{Text: "never asked for"})
	defer s.Close()
	body := `{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true}`
	resp, err := http.Post(s.URL()+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"content":"one"`) || len(got) != 0 {
		t.Fatalf("first answer %s, reports %q", b, got)
	}
	s.Verify()
	if len(got) != 1 || !strings.Contains(got[0], "1 of 2 scripted replies not used") {
		t.Errorf("reports: got %q, want one about the unused reply", got)
	}
	if err := s.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
}

// TestStallRepeatAndEndlessLine: the server sends the first After bytes
// of a stalled answer and then nothing; Repeat sends the text over again;
// EndlessLine sends a line without end.
func TestStallRepeatAndEndlessLine(t *testing.T) {
	s := replay.New(func(msg string) { t.Errorf("%s", msg) },
		replay.Reply{SSE: "data: one\n\ndata: two\n\n", Stall: true, After: 11},
		replay.Reply{Text: "ab", Chunk: 2, Repeat: 3},
		replay.Reply{SSE: "data: x\n\n", EndlessLine: true})
	defer s.Close()
	post := func() *http.Response {
		body := `{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true}`
		resp, err := http.Post(s.URL()+"/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}

	resp := post()
	got := make([]byte, 11)
	if _, err := io.ReadFull(resp.Body, got); err != nil || string(got) != "data: one\n\n" {
		t.Errorf("stalled answer: got %q, %v", got, err)
	}
	resp.Body.Close() // the server gives up once the client has

	resp = post()
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if n := strings.Count(string(b), `"content":"ab"`); n != 3 {
		t.Errorf("repeated answer: %d pieces of text, want 3\n%s", n, b)
	}

	resp = post()
	b = make([]byte, 1<<20)
	if _, err := io.ReadFull(resp.Body, b); err != nil || strings.Count(string(b), "\n") != 2 {
		t.Errorf("endless line: %v, %d newlines in its first MiB, want 2", err, strings.Count(string(b), "\n"))
	}
	resp.Body.Close()
	s.Verify()
}

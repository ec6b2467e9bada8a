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

package chat

import (
	"strings"
	"sync"
	"testing"
	"time"
)

// signalWriter records writes and signals the first one.
type signalWriter struct {
	mu    sync.Mutex
	b     strings.Builder
	wrote chan struct{}
	once  sync.Once
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	w.once.Do(func() { close(w.wrote) })
	return len(p), nil
}

func (w *signalWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

func TestWaitNotice(t *testing.T) {
	for _, tty := range []bool{false, true} {
		w := &signalWriter{wrote: make(chan struct{})}
		done := (&waitNotice{w: w, tty: tty}).start()
		<-w.wrote
		done()
		done() // a second call does nothing
		got := w.String()
		if !strings.Contains(got, "pair: waiting for the model (") || !strings.Contains(got, "s)…") {
			t.Errorf("tty %v: got %q, want the waiting line", tty, got)
		}
		if tty && !strings.HasSuffix(got, "\r\x1b[K") {
			t.Errorf("tty %v: got %q, want the line cleared at the end", tty, got)
		}
		if !tty && (strings.Count(got, "\n") != 1 || !strings.HasSuffix(got, "…\n")) {
			t.Errorf("tty %v: got %q, want one whole line", tty, got)
		}
	}
	n := &waitNotice{tty: true}
	if got, want := n.line(12*time.Second+300*time.Millisecond), "\r\x1b[Kpair: waiting for the model (12s)…"; got != want {
		t.Errorf("line: got %q, want %q", got, want)
	}
	// A reply that comes before the wait is long enough shows nothing.
	w := &signalWriter{wrote: make(chan struct{})}
	(&waitNotice{w: w, after: time.Hour}).start()()
	if got := w.String(); got != "" {
		t.Errorf("a quick reply: got %q, want nothing", got)
	}
}

//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pair-cli/pair/agent/agenttest"
)

// TestChatCtrlCStopsRun: Ctrl-C while /run runs a command stops that
// command only, as it stops a model's request: the chat goes on at the
// prompt, the command's output is not kept for the next request, and the
// model is never asked. Ctrl-D then leaves with exit 0.
func TestChatCtrlCStopsRun(t *testing.T) {
	t.Parallel()
	r := newChatRepo(t)
	srv := agenttest.NewServer(t)
	s := r.start(t, chatModelEnv(srv), "edit", "app.go")
	started := filepath.Join(r.root, "started")
	s.chatLine("/run touch " + started + " && sleep 30 && touch " + filepath.Join(r.root, "finished"))
	// Wait until the command runs (a guard against a hang, not a timing).
	for deadline := time.Now().Add(ptyTimeout); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(started); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the command never started")
		}
	}
	s.send("\x03")
	s.expect("command stopped")
	s.expect("pair> ")
	s.send("\x04")
	screen := s.wait(0)
	if strings.Contains(screen, "(exit code") {
		t.Errorf("the stopped command's output was kept for the next request:\n%s", printable(screen))
	}
	if strings.Contains(screen, "interrupted") {
		t.Errorf("Ctrl-C during /run ended pair edit:\n%s", printable(screen))
	}
	if _, err := os.Stat(filepath.Join(r.root, "finished")); err == nil {
		t.Errorf("the command ran to its end")
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests to the model, want none", n)
	}
}

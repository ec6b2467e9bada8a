package console

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Pager pipes what is written to it through the person's pager, as git
// pages its output: the pager git would choose (git var GIT_PAGER reads
// $GIT_PAGER, core.pager, $PAGER, then less), with LESS=FRX and LV=-c
// unless they are set, so that output shorter than the screen is printed
// as it is and colours pass. Close waits for the pager to end.
type Pager struct {
	w    io.WriteCloser
	cmd  *exec.Cmd
	done chan struct{}
}

// StartPager starts the pager when s.Out is a terminal and paging is on
// (NoPager off), and returns the streams with Out writing to it; without
// one, it returns s as it is and a nil *Pager, whose Close does nothing.
func StartPager(ctx context.Context, s IO) (IO, *Pager) {
	if s.NoPager || !s.OutTTY {
		return s, nil
	}
	name := pagerCommand(ctx)
	if name == "" || name == "cat" {
		return s, nil
	}
	cmd := exec.Command("sh", "-c", name)
	cmd.Stdout, cmd.Stderr = s.Out, s.Err
	cmd.Env = pagerEnv()
	w, err := cmd.StdinPipe()
	if err != nil {
		return s, nil
	}
	if err := cmd.Start(); err != nil {
		return s, nil // no pager to start: print as it is
	}
	p := &Pager{w: w, cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.done) }()
	s.Out = pagerWriter{p}
	return s, p
}

// pagerWriter writes to the pager; once the person quit it, what is left
// is dropped, as git drops it.
type pagerWriter struct{ p *Pager }

func (w pagerWriter) Write(b []byte) (int, error) {
	_, _ = w.p.w.Write(b)
	return len(b), nil
}

// Close ends the pager's input and waits for the person to quit it.
func (p *Pager) Close() {
	if p == nil {
		return
	}
	_ = p.w.Close()
	<-p.done
}

// pagerCommand is the pager git would use.
func pagerCommand(ctx context.Context) string {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "git", "var", "GIT_PAGER").Output()
	if err == nil {
		return strings.TrimSpace(string(out))
	}
	if p := os.Getenv("PAGER"); p != "" {
		return p
	}
	return "less"
}

// ErrNoPager is PageText's answer when the person's pager is cat or none.
var ErrNoPager = errors.New("no pager")

// PageText shows text in the person's pager (as StartPager chooses it)
// on the terminal s.Out, and waits for the person to quit it.
func PageText(ctx context.Context, s IO, text string) error {
	name := pagerCommand(ctx)
	if s.NoPager || name == "" || name == "cat" {
		return ErrNoPager
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", name)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(text), s.Out, s.Err
	cmd.Env = pagerEnv()
	return cmd.Run()
}

// pagerEnv is pair's environment with LESS=FRX and LV=-c unless they are
// set, as git runs its pager.
func pagerEnv() []string {
	env := os.Environ()
	for _, kv := range []string{"LESS=FRX", "LV=-c"} {
		if k, _, _ := strings.Cut(kv, "="); os.Getenv(k) == "" {
			env = append(env, kv)
		}
	}
	return env
}

// TextPager is PageText for the streams s, as the terminal review takes
// it.
func TextPager(ctx context.Context, s IO) func(text string) error {
	return func(text string) error { return PageText(ctx, s, text) }
}

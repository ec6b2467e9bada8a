package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"sync"
	"syscall"
	"time"
)

func main() {
	// pair is short-lived and its heaps are small: collect garbage less
	// often (a large patch places about a third faster).
	debug.SetGCPercent(400)
	os.Exit(mainRun())
}

// mainRun runs pair as the process: Ctrl-C goes to the interrupter, which
// cancels the innermost operation that asked for it (a request in the
// chat), or else the whole command.
func mainRun() int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	irq := &interrupter{root: cancel}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		for s := range sigs {
			if s != syscall.SIGTERM {
				irq.interrupt()
				continue
			}
			// SIGTERM stops the whole command: a running hook is killed
			// and pair's locks are removed on the way out. A command
			// that does not stop is ended after a grace period, as the
			// signal would have ended it.
			cancel()
			time.AfterFunc(10*time.Second, func() { os.Exit(exitInterrupted) })
		}
	}()
	return run(ctx, os.Args, stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, Interrupt: irq})
}

// interrupter routes Ctrl-C: to the operation that caught it (a request
// of the chat, which stops while the chat goes on), or else to the whole
// command.
type interrupter struct {
	mu    sync.Mutex
	inner context.CancelFunc
	root  context.CancelFunc
}

func (i *interrupter) interrupt() {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.inner != nil {
		i.inner()
		i.inner = nil
		return
	}
	i.root()
}

// catch returns a context that Ctrl-C cancels instead of the command's,
// until done is called. A nil interrupter (tests) catches nothing.
func (i *interrupter) catch(ctx context.Context) (context.Context, func()) {
	c, cancel := context.WithCancel(ctx)
	if i == nil {
		return c, cancel
	}
	i.mu.Lock()
	i.inner = cancel
	i.mu.Unlock()
	return c, func() {
		i.mu.Lock()
		i.inner = nil
		i.mu.Unlock()
		cancel()
	}
}

package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"sync"
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
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	go func() {
		for range sigs {
			irq.interrupt()
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

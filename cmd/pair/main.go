package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/pair-cli/pair/internal/console"
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
	irq := console.NewInterrupter(cancel)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		for s := range sigs {
			if s != syscall.SIGTERM {
				irq.Interrupt()
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
	io := console.System(os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	io.Interrupt = irq
	return run(ctx, os.Args, io)
}

package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/pair-cli/pair/internal/console"
	"github.com/pair-cli/pair/internal/output"
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
	io := console.System(os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	io.Interrupt = irq
	// The signals are watched from when a command starts: pair --version
	// and --help print and end before, without the goroutines (and the
	// threads that start them) that watching takes, a tenth of their time.
	var stop func()
	defer func() {
		if stop != nil {
			stop()
		}
	}()
	return run(ctx, os.Args, io, func() {
		if stop == nil {
			stop = watchSignals(cancel, irq)
		}
	})
}

// watchSignals routes Ctrl-C to irq and SIGTERM to cancel, until stop is
// called.
func watchSignals(cancel context.CancelFunc, irq *console.Interrupter) (stop func()) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
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
			time.AfterFunc(10*time.Second, func() { os.Exit(output.Interrupted) })
		}
	}()
	return func() { signal.Stop(sigs) }
}

package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"

	"github.com/pair-cli/pair/internal/terminal"
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
	irq := terminal.NewInterrupter(cancel)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	go func() {
		for range sigs {
			irq.Interrupt()
		}
	}()
	io := terminal.System(os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	io.Interrupt = irq
	return run(ctx, os.Args, io)
}

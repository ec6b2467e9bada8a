package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/app/bench"
	"github.com/pair-cli/pair/internal/output"
)

func benchCommand(io stdio) *cli.Command {
	return &cli.Command{
		Name:      "bench",
		Usage:     "run the offline task suite (or a live model on it) and report a score",
		ArgsUsage: "[DIR|FILE...]",
		Description: `Runs tasks end to end, offline and deterministically: for each task (a
.txtar file, see testdata/bench/README.md), a fresh git repository from
its repo/ files, a real local HTTP server replaying its model/ replies in
order to pair's real client, the real agent and review with the task's
decisions given as a person's at each pause, and the session saved and
loaded again at every pause (pair review, as a new process would). Then
every expectation is checked. A scripted reply left unused, or a request
beyond the script, fails the task.

One line per task (PASS, or FAIL with the first unmet expectation), then
"N passed, M failed", and what the model was sent over all requests:
the bytes of the request bodies, everything included, and an estimate of
the tokens of the text the model reads of them (the messages as it reads
them, its tool calls and the tool definitions; pre-tokenizer pieces,
without a vocabulary), in all and a request, and of the tool definitions
and the tool results among them (--json: "requests" and "sent"). With no
argument, the suite in testdata/bench.

--live ignores the scripted replies and runs each task -k times against
the configured model (OPENAI_BASE_URL, PAIR_MODEL, ... as for pair edit),
judging by the task's live/check and by what does not depend on the
model (files that must stay unchanged, text that must never be sent). It
reports the mean pass rate with its standard error over the -k rounds.

Exit status: 0 every task passed; 1 a task failed; 2 usage error.`,
		Flags: append(configFlags(),
			&cli.BoolFlag{Name: "json", Usage: "print the full report as JSON"},
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: 1, Usage: "run `N` tasks at a time"},
			&cli.BoolFlag{Name: "live", Usage: "run against the configured model instead of the scripted replies"},
			&cli.IntFlag{Name: "k", Value: 1, Usage: "with --live, run each task `K` times"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "show what pair printed for failed tasks"},
		),
		Action: func(c *cli.Context) error {
			args := c.Args().Slice()
			if len(args) == 0 {
				args = []string{filepath.Join("testdata", "bench")}
			}
			tasks, err := bench.Load(args)
			if err != nil {
				return usagef("bench: %v", err)
			}
			exe, err := os.Executable()
			if err != nil {
				return fmt.Errorf("bench: cannot find pair's own executable: %w", err)
			}
			o := benchOptions{Exe: exe, Jobs: max(c.Int("jobs"), 1), JSON: c.Bool("json"), Verbose: c.Bool("verbose"), IO: io}
			if c.Bool("live") {
				cfg, err := loadConfig(c, "", "")
				if err != nil {
					return fmt.Errorf("bench: %w", err)
				}
				if cfg.APIBase == "" && cfg.APIKey == "" {
					return usagef("bench: --live needs a model: set OPENAI_BASE_URL (and OPENAI_API_KEY, PAIR_MODEL), or --api-base and --model")
				}
				o.Live, o.K, o.Model = true, max(c.Int("k"), 1), cfg
			}
			return runBench(c.Context, tasks, o)
		},
	}
}

type benchOptions struct {
	// Exe is the pair executable each task runs.
	Exe     string
	Jobs    int
	JSON    bool
	Verbose bool
	Live    bool
	K       int
	Model   modelConfig
	IO      stdio
}

// runBench runs the tasks and prints a line for each as it ends, then the
// counts (or, with --json, the whole report). A failed task is exit 1.
func runBench(ctx context.Context, tasks []*bench.Task, o benchOptions) error {
	bo := bench.Options{Exe: o.Exe, Jobs: o.Jobs, Verbose: o.Verbose, Live: o.Live, K: o.K,
		Model: bench.Model{APIBase: o.Model.APIBase, APIKey: o.Model.APIKey, Model: o.Model.Model}}
	if !o.JSON {
		bo.OnResult = func(r bench.Result) { printBenchLine(o.IO.Out, r, o.Verbose) }
	}
	rep, err := bench.Run(ctx, tasks, bo)
	if err != nil {
		return err
	}
	if o.JSON {
		output.WriteJSON(o.IO.Out, rep)
	} else {
		fmt.Fprintf(o.IO.Out, "%d passed, %d failed", rep.Passed, rep.Failed)
		if rep.Skipped > 0 {
			fmt.Fprintf(o.IO.Out, ", %d skipped", rep.Skipped)
		}
		fmt.Fprintln(o.IO.Out)
		fmt.Fprintln(o.IO.Out, sentLine(rep))
		if o.Live {
			fmt.Fprintf(o.IO.Out, "%s: mean pass rate %.1f%% ± %.1f%% (standard error over %d %s)\n",
				rep.Model, 100*rep.Mean, 100*rep.StdErr, rep.Scored, output.Plural(rep.Scored, "round"))
		}
	}
	if rep.Failed > 0 {
		return &output.ExitError{Code: exitFailure}
	}
	return nil
}

// sentLine says what the model was sent over the requests of rep, in all
// and a request.
func sentLine(rep bench.Report) string {
	s, n := rep.Sent, max(rep.Requests, 1)
	return fmt.Sprintf("sent to the model: %d bytes in %d %s; about %d tokens (%d a request), of them tool definitions about %d (%d a request) and tool results about %d",
		s.Bytes, rep.Requests, output.Plural(rep.Requests, "request"), s.Tokens, s.Tokens/n, s.ToolDefTokens, s.ToolDefTokens/n, s.ToolTokens)
}

func printBenchLine(w io.Writer, r bench.Result, verbose bool) {
	id := r.ID
	if r.Round > 0 {
		id = fmt.Sprintf("%s #%d", r.ID, r.Round)
	}
	switch {
	case r.Skipped != "":
		fmt.Fprintf(w, "SKIP %s: %s\n", id, r.Skipped)
	case r.Pass:
		fmt.Fprintf(w, "PASS %s\n", id)
	default:
		fmt.Fprintf(w, "FAIL %s: %s\n", id, r.Failures[0])
		if verbose {
			for _, f := range r.Failures[1:] {
				fmt.Fprintf(w, "     also: %s\n", f)
			}
			fmt.Fprintf(w, "     output:\n%s\n", indentText(r.Output, "       "))
		}
	}
}

func indentText(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i := range lines {
		lines[i] = pre + lines[i]
	}
	return strings.Join(lines, "\n")
}

package main

import (
	"context"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/app/bench"
	"github.com/pair-cli/pair/internal/output"
)

// newBenchCmd is pair bench; runF, when not nil, gets its options instead
// of bench.Run (for tests).
func newBenchCmd(f *factory, runF func(context.Context, bench.Options) error) *cli.Command {
	if runF == nil {
		runF = bench.Run
	}
	return &cli.Command{
		Name:      "bench",
		Usage:     "run the offline task suite (or a live model on it) and report a score",
		ArgsUsage: "[TASK|DIR|FILE...]",
		Description: `Runs tasks end to end, offline and deterministically: for each task (a
.txtar file, its format in pair's source: app/bench/tasks/README.md), a
fresh git repository from its repo/ files, a real local HTTP server
replaying its model/ replies in order to pair's real client, the real
agent and review with the task's decisions given as a person's at each
pause, and the session saved and loaded again at every pause (pair
review, as a new process would). Then every expectation is checked. A scripted reply left unused, or a request
beyond the script, fails the task.

One line per task (PASS, or FAIL with the first unmet expectation), then
"N passed, M failed", and what the model was sent over all requests:
the bytes of the request bodies, everything included, and an estimate of
the tokens of the text the model reads of them (the messages as it reads
them, its tool calls and the tool definitions; pre-tokenizer pieces,
without a vocabulary), in all and a request, and of the tool definitions
and the tool results among them (--json: "requests" and "sent").

With no argument, pair's own suite, built into pair, runs. Arguments name
task files, directories of them, or tasks of the built-in suite by their
id (as the PASS and FAIL lines show it).

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
			exe, err := os.Executable()
			if err != nil {
				return fmt.Errorf("bench: cannot find pair's own executable: %w", err)
			}
			opts := bench.Options{
				Args:    c.Args().Slice(),
				Exe:     exe,
				Jobs:    max(c.Int("jobs"), 1),
				JSON:    c.Bool("json"),
				Verbose: c.Bool("verbose"),
				Out:     f.IO.Out,
			}
			if c.Bool("live") {
				cfg, err := loadConfig(c, "", "")
				if err != nil {
					return fmt.Errorf("bench: %w", err)
				}
				if cfg.APIBase == "" && cfg.APIKey == "" {
					return output.Usagef("bench: --live needs a model: set OPENAI_BASE_URL (and OPENAI_API_KEY, PAIR_MODEL), or --api-base and --model")
				}
				opts.Live, opts.K = true, max(c.Int("k"), 1)
				opts.Model = bench.Model{APIBase: cfg.APIBase, APIKey: cfg.APIKey, Model: cfg.Model}
			}
			return runF(c.Context, opts)
		},
	}
}

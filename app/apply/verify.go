package apply

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/pair-cli/pair/app/verify"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/proc"
	"github.com/pair-cli/pair/review"
)

// setUpVerify makes the verifier of the tree (for the summary's v key,
// and for --verify or verify: true), from the configuration's test
// command. It is an error only when verifying before the write was asked
// for and cannot be done; otherwise a configuration that does not load
// leaves pair apply as it was.
func (a *applier) setUpVerify() error {
	if a.o.LoadConfig == nil || !a.tree.Git || a.o.Check {
		if a.o.Verify {
			return errors.New("--verify needs a git repository")
		}
		return nil
	}
	cfg, err := a.o.LoadConfig(a.tree.Dir, a.tree.StateDir())
	if err != nil {
		if a.o.Verify {
			return err
		}
		return nil
	}
	a.verifyFirst = a.o.Verify || cfg.Verify
	if a.verifyFirst && cfg.TestCmd == "" {
		if slices.Contains(cfg.Untrusted, "test_cmd") {
			return errors.New("--verify: the repository's .pair.yml sets test_cmd, but you have not trusted it: read it and run pair trust, or give --test-cmd")
		}
		if a.how != review.DecideTerminal {
			return errors.New("--verify: no test command: set test_cmd in .pair.yml or give --test-cmd")
		}
	}
	a.verifier = &verify.Verifier{Tree: a.tree, Command: cfg.TestCmd, Env: proc.Env(os.Environ(), cfg.APIKey, cfg.KeyEnv)}
	return nil
}

// verifyBeforeWrite runs the tests on the candidate of rev when asked
// to (--verify, verify: true), and refuses the write when they fail. A
// review in the terminal verified at its summary already.
func (a *applier) verifyBeforeWrite(ctx context.Context, rev *review.Review) error {
	if !a.verifyFirst || a.verifier == nil || a.how == review.DecideTerminal {
		return nil
	}
	progress := func(s string) {
		if !a.o.JSON {
			fmt.Fprintf(a.o.IO.Err, "pair: verify: %s\n", s)
		}
	}
	res, err := a.verifier.Verify(ctx, rev, progress)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return &output.ExitError{Code: output.Interrupted, Msg: "apply: verify interrupted; nothing was written"}
		}
		return a.fail(err)
	}
	a.report.Verify = &res
	if res.Pass {
		if !a.o.JSON {
			fmt.Fprintln(a.o.IO.Err, "pair: "+res.Lines(rev, 0)[0])
		}
		return nil
	}
	a.report.Status = StatusFailed
	if a.o.JSON {
		a.report.Error = "the tests fail on the approved hunks; nothing was written"
		output.WriteJSON(a.o.IO.Out, a.report)
	} else {
		for _, l := range res.Lines(rev, 12) {
			fmt.Fprintln(a.o.IO.Out, l)
		}
	}
	return &output.ExitError{Code: output.Failure, Msg: "apply: the tests fail on the approved hunks (--verify); nothing was written"}
}

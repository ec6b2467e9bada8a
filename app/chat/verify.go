package chat

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/pair-cli/pair/app/verify"
	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/internal/config"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/proc"
	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/review"
)

// setUpVerify gives the reviewer the verifier of the tree (the summary's
// v key) and says whether to verify before every write (--verify or
// verify: true). Verifying ahead (--yes, --decisions) needs a test
// command.
func (c *cliReviewer) setUpVerify(tree *repo.Tree, cfg config.Config, flag bool) error {
	if !tree.Git {
		if flag {
			return output.Usagef("--verify needs a git repository")
		}
		return nil
	}
	c.verifyFirst = flag || cfg.Verify
	if c.verifyFirst && cfg.TestCmd == "" && c.how != review.DecideTerminal {
		if slices.Contains(cfg.Untrusted, "test_cmd") {
			return output.Usagef("--verify: the repository's .pair.yml sets test_cmd, but you have not trusted it: read it and run pair trust, or give --test-cmd")
		}
		return output.Usagef("--verify: no test command: set test_cmd in .pair.yml or give --test-cmd")
	}
	c.verifier = &verify.Verifier{Tree: tree, Command: cfg.TestCmd, Env: proc.Env(os.Environ(), cfg.APIKey, cfg.KeyEnv)}
	return nil
}

// verifyAhead runs the tests on hunks decided ahead (--yes, --decisions)
// when verify is on. When they fail, nothing is written: every approved
// hunk is rejected with a note that tells the model why (see
// failureNotes), which the model reads as it reads the person's notes.
func (c *cliReviewer) verifyAhead(ctx context.Context, rev *review.Review) error {
	if !c.verifyFirst || c.verifier == nil || len(rev.Approved()) == 0 {
		return nil
	}
	res, err := c.verifier.Verify(ctx, rev, func(s string) { fmt.Fprintf(c.screen.Err, "pair: verify: %s\n", s) })
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return errInterrupted
		}
		return err
	}
	for _, l := range res.Lines(rev, 8) {
		fmt.Fprintln(c.screen.Err, "pair: "+l)
	}
	if !res.Pass {
		fmt.Fprintln(c.screen.Err, "pair: nothing was written; the failure goes back to the model")
		failureNotes(rev, res)
	}
	return nil
}

// failureNotes rejects the approved hunks of rev after the tests failed
// on them (res), each with a note for the model: the hunks that break
// the tests get the failure and the end of the output; the others, that
// they were not written because of those.
func failureNotes(rev *review.Review, res review.VerifyResult) {
	tail := strings.Join(res.Tail, "\n")
	var blamed []string
	for _, i := range res.Culprits {
		blamed = append(blamed, rev.HunkName(i))
	}
	for _, i := range rev.Approved() {
		it := &rev.Items[i]
		var note string
		switch {
		case slices.Contains(res.Culprits, i):
			note = fmt.Sprintf("Not written: pair ran the tests (%s) on the approved hunks before writing them, and this hunk breaks them: %s. The end of the output:\n%s\nPropose this hunk again so that the tests pass.", res.Command, res.FirstFailure, tail)
		case len(blamed) > 0:
			note = fmt.Sprintf("Not written: the tests (%s) fail on the approved hunks together, because of %s; this hunk did not break them. Propose it again with the others fixed.", res.Command, strings.Join(blamed, " and "))
		case res.BaseFails:
			note = fmt.Sprintf("Not written: the tests (%s) fail on the approved hunks, and without them too. The end of the output:\n%s\nPropose the change again with what makes the tests pass.", res.Command, tail)
		default:
			note = fmt.Sprintf("Not written: the tests (%s) fail on the approved hunks. The end of the output:\n%s\nPropose the change again so that the tests pass.", res.Command, tail)
		}
		it.Decision, it.Note = audit.Rejected, note
	}
}

// verify.go: Verifier, what a front end calls to test the approved hunks before they are written, and its result.

package review

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/internal/safetext"
)

// Verifier runs the project's tests on the candidate tree of a review
// (HEAD, the person's uncommitted changes and the approved hunks)
// without writing anything to the working tree. The front ends call it
// from the summary (the v key, the web page's button); progress receives
// a short line for each step. app/verify implements it.
type Verifier interface {
	Verify(ctx context.Context, r *Review, progress func(string)) (VerifyResult, error)
}

// VerifyResult is the outcome of one verify.
type VerifyResult struct {
	// Command is the test command that ran.
	Command string `json:"command"`
	// Pass is set when the candidate passed; Duration is the time of
	// its run; ExitCode its status (-1: stopped by the timeout).
	Pass     bool          `json:"pass"`
	Duration time.Duration `json:"duration"`
	ExitCode int           `json:"exit_code"`
	// Output is the candidate's whole output (the end of it past a
	// bound); Tail its last lines.
	Output string   `json:"output"`
	Tail   []string `json:"tail"`
	// FirstFailure is the first line of the output that names a failure
	// ("FAIL TestParseEmpty"), "" when none does.
	FirstFailure string `json:"first_failure,omitempty"`
	// BaseFails is set when HEAD with the person's changes fails too:
	// the approved hunks are not what breaks it.
	BaseFails bool `json:"base_fails,omitempty"`
	// Culprits are the items (indexes in Review.Items) of the smallest
	// set of approved hunks found that still fails; Runs counts the runs
	// of the search, and Bounded says it stopped at its bound before it
	// was sure the set is the smallest.
	Culprits []int `json:"culprits,omitempty"`
	Runs     int   `json:"runs,omitempty"`
	Bounded  bool  `json:"bounded,omitempty"`
}

// Lines words the result for a person, a line each: pass or fail with
// the time, what breaks it, and the last lines of output (at most tail
// of them; all with tail < 0).
func (v VerifyResult) Lines(r *Review, tail int) []string {
	var out []string
	verdict := "FAIL"
	if v.Pass {
		verdict = "PASS"
	}
	head := fmt.Sprintf("verify: %s in %s (%s)", verdict, v.Duration.Round(10*time.Millisecond), safetext.Line(v.Command))
	if v.ExitCode == -1 {
		head += ", stopped by the timeout"
	}
	out = append(out, head)
	if v.BaseFails {
		out = append(out, "it fails without the approved hunks too: they are not what breaks it")
	}
	if len(v.Culprits) > 0 {
		out = append(out, v.Blame(r))
	}
	lines := v.Tail
	if tail >= 0 && len(lines) > tail {
		lines = lines[len(lines)-tail:]
	}
	if tail < 0 {
		lines = strings.Split(strings.TrimRight(v.Output, "\n"), "\n")
	}
	if !v.Pass || tail < 0 {
		for _, l := range lines {
			out = append(out, "  "+safetext.Line(l))
		}
	}
	return out
}

// Blame names the culprits, as in "hunk 3 (parse.go:40-52) breaks it:
// FAIL TestParseEmpty".
func (v VerifyResult) Blame(r *Review) string {
	var names []string
	for _, i := range v.Culprits {
		if i >= 0 && i < len(r.Items) {
			names = append(names, r.HunkName(i))
		}
	}
	verb := "breaks"
	if len(names) > 1 {
		verb = "together break"
	}
	s := strings.Join(names, " and ") + " " + verb + " it"
	if v.Bounded {
		s += " (the search stopped at its bound of runs; a smaller set may do)"
	}
	if v.FirstFailure != "" {
		s += ": " + safetext.Line(v.FirstFailure)
	}
	return s
}

// HunkName names item i for a person: "hunk 3 (parse.go:40-52)", its
// number as the review shows it, and the lines of the file it covers.
func (r *Review) HunkName(i int) string {
	it := &r.Items[i]
	path := safetext.Name(r.FileOf(it).Path())
	if it.Whole {
		return fmt.Sprintf("hunk %d (%s)", i+1, path)
	}
	start, n := it.Hunk.Start+1, it.Hunk.OldCount()
	if n <= 1 {
		return fmt.Sprintf("hunk %d (%s:%d)", i+1, path, start)
	}
	return fmt.Sprintf("hunk %d (%s:%d-%d)", i+1, path, start, start+n-1)
}

// Approved lists the items that will be written (approved or edited), in
// review order.
func (r *Review) Approved() []int {
	var out []int
	for i, it := range r.Items {
		if it.Decision.Applies() {
			out = append(out, i)
		}
	}
	return out
}

// Only is a copy of r whose approved items outside keep are rejected:
// the review a verify tries when it looks for the hunks that break the
// tests. r is not changed.
func (r *Review) Only(keep []int) *Review {
	c := *r
	c.Items = slices.Clone(r.Items)
	for i := range c.Items {
		if c.Items[i].Decision.Applies() && !slices.Contains(keep, i) {
			c.Items[i].Decision = audit.Rejected
		}
	}
	return &c
}

// ErrNoTestCommand is a Verify without a test command: a front end may
// ask the person for one (see CommandVerifier).
var ErrNoTestCommand = errors.New("no test command")

// CommandVerifier is a Verifier that takes a command the person typed,
// for when the project has no test command (or one not trusted).
// HasCommand says whether it has one, so that a front end asks for one
// before the person runs the tests.
type CommandVerifier interface {
	Verifier
	SetCommand(command string)
	HasCommand() bool
}

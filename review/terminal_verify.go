// terminal_verify.go: the summary's v and x keys, the tests run on the approved hunks with progress, Ctrl-C stopping them.

package review

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/internal/safetext"
)

// verified is the last verify of a terminal review, and the approved
// items it tested: it stands beside the summary while they stay so.
type verified struct {
	res      VerifyResult
	approved []int
}

// current returns the last verify if the approved items are still those
// it tested.
func (t *Terminal) current(r *Review) *VerifyResult {
	if t.verified == nil || !slices.Equal(t.verified.approved, r.Approved()) {
		return nil
	}
	return &t.verified.res
}

// culprits are the items the last verify blamed that are still approved.
func (t *Terminal) culprits(r *Review) []int {
	v := t.current(r)
	if v == nil {
		return nil
	}
	return v.Culprits
}

func (t *Terminal) verifyKeys(r *Review, hunks int) string {
	switch {
	case t.Verifier == nil || hunks == 0:
		return ""
	case len(t.culprits(r)) > 0:
		return ",v,x"
	}
	return ",v"
}

func (t *Terminal) verifyHelp(r *Review, hunks int) string {
	s := ""
	if t.Verifier != nil && hunks > 0 {
		s = "\nv - run the tests on the approved hunks, in a scratch tree, before anything is written"
		if len(t.culprits(r)) > 0 {
			s += "\nx - reject the hunks that break the tests, and run them again"
		}
		if t.VerifyFirst {
			s += "\n    (y runs them too, and goes ahead only when they pass)"
		}
		if t.current(r) != nil {
			s += "\n    all of the tests' output follows"
		}
	}
	return s
}

// showVerified shows the last verify beside the summary, when it tested
// the approved hunks as they are.
func (t *Terminal) showVerified(r *Review) {
	v := t.current(r)
	if v == nil {
		return
	}
	color := cGreen
	if !v.Pass {
		color = cRed
	}
	for i, l := range v.Lines(r, 8) {
		if i == 0 {
			t.printf("%s\n", t.paint(color, l))
		} else {
			t.printf("%s\n", t.paint(cFaint, l))
		}
	}
}

// showOutput shows all of the last verify's output (for ?), through the
// pager when it is longer than the screen.
func (t *Terminal) showOutput(r *Review) {
	v := t.current(r)
	if v == nil {
		return
	}
	lines := v.Lines(r, -1)
	if t.Pager != nil && t.Rows > 0 && len(lines) > t.Rows-2 {
		if err := t.Pager(strings.Join(lines, "\n") + "\n"); err == nil {
			return
		}
	}
	t.printf("%s\n", strings.Join(lines, "\n"))
}

// runVerify runs the tests on the candidate and shows the outcome. When
// there is no test command, it asks for one. Ctrl-C stops the tests and
// comes back to the summary.
func (t *Terminal) runVerify(ctx context.Context, r *Review) error {
	res, err := t.verify(ctx, r)
	if errors.Is(err, ErrNoTestCommand) {
		cv, ok := t.Verifier.(CommandVerifier)
		if !ok {
			t.printf("%s\n", t.paint(cRed, safetext.Line(err.Error())))
			return nil
		}
		t.printf("%s\n", t.paint(cYellow, "There is no test command (test_cmd in .pair.yml, trusted with pair trust)."))
		cmd, ok, lerr := t.line(ctx, "Command to run the tests (Esc to cancel): ")
		if lerr != nil {
			return lerr
		}
		if !ok || strings.TrimSpace(cmd) == "" {
			return nil
		}
		cv.SetCommand(cmd)
		res, err = t.verify(ctx, r)
	}
	switch {
	case errors.Is(err, ErrInterrupted), errors.Is(err, ErrInputEnded):
		return err
	case errors.Is(err, context.Canceled):
		t.printf("%s\n", t.paint(cYellow, "verify stopped; nothing was written"))
		return nil
	case err != nil:
		t.printf("%s\n", t.paint(cRed, "verify: "+safetext.Line(err.Error())))
		return nil
	}
	t.verified = &verified{res: res, approved: r.Approved()}
	t.showVerified(r)
	return nil
}

// verifyFirst runs the tests before going ahead, unless the last verify
// passed on the approved hunks as they are; pass says whether to go
// ahead.
func (t *Terminal) verifyFirst(ctx context.Context, r *Review) (pass bool, err error) {
	if v := t.current(r); v != nil && v.Pass {
		return true, nil
	}
	if err := t.runVerify(ctx, r); err != nil {
		return false, err
	}
	v := t.current(r)
	if v == nil || !v.Pass {
		t.printf("%s\n", t.paint(cYellow, "Not written: the tests do not pass (--verify)."))
		return false, nil
	}
	return true, nil
}

// rejectCulprits rejects the hunks the last verify blamed, and runs the
// tests again.
func (t *Terminal) rejectCulprits(ctx context.Context, r *Review) error {
	for _, i := range t.culprits(r) {
		r.set(i, audit.Rejected, "")
		t.printf("rejected %s\n", r.HunkName(i))
	}
	if len(r.Approved()) == 0 {
		return nil
	}
	return t.runVerify(ctx, r)
}

// verify runs the Verifier, printing its progress, while it watches the
// keys: Ctrl-C stops the tests (context.Canceled); other keys are kept,
// in order, for after. ErrInterrupted is ctx cancelled.
func (t *Terminal) verify(ctx context.Context, r *Review) (VerifyResult, error) {
	vctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type outcome struct {
		res VerifyResult
		err error
	}
	progress := make(chan string)
	done := make(chan outcome, 1)
	t.printf("%s\n", t.paint(cFaint, "verify: Ctrl-C stops the tests"))
	go func() {
		res, err := t.Verifier.Verify(vctx, r, func(s string) {
			select {
			case progress <- s:
			case <-vctx.Done():
			}
		})
		done <- outcome{res, err}
	}()
	type typed struct {
		keys []byte
		err  error
	}
	keyErr := make(chan typed, 1)
	go func() {
		var keys []byte
		for vctx.Err() == nil {
			b, err := t.byte(vctx)
			if err != nil {
				keyErr <- typed{keys, err}
				return
			}
			keys = append(keys, b)
		}
		keyErr <- typed{keys, nil}
	}()
	reading := true
	var stopped error
	stop := func(k typed) {
		reading = false
		t.ahead = append(t.ahead, k.keys...)
		// Ctrl-C stops the tests; keys that end let them finish (the
		// next read says so).
		if errors.Is(k.err, ErrInterrupted) && vctx.Err() == nil {
			stopped = context.Canceled
			cancel()
		}
	}
	for {
		select {
		case s := <-progress:
			t.printf("%s\n", t.paint(cFaint, "verify: "+safetext.Line(s)))
		case k := <-keyErr:
			stop(k)
		case o := <-done:
			cancel()
			if reading {
				// The read stops with vctx; a pending one stays for the
				// next key.
				stop(<-keyErr)
			}
			if ctx.Err() != nil {
				return o.res, ErrInterrupted
			}
			if stopped != nil {
				return o.res, stopped
			}
			return o.res, o.err
		}
	}
}

// LastVerify is the last verify of the review, when it tested r's
// approved hunks as they are now; nil otherwise.
func (t *Terminal) LastVerify(r *Review) *VerifyResult { return t.current(r) }

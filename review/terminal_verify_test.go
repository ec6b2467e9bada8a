package review_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pair-cli/pair/review"
)

// fakeVerifier fails while item 2 is approved, naming it; block makes it
// wait for its context instead; command "" asks for one.
type fakeVerifier struct {
	runs    int
	block   bool
	command string
}

func (f *fakeVerifier) SetCommand(c string) { f.command = c }

func (f *fakeVerifier) HasCommand() bool { return f.command != "" }

func (f *fakeVerifier) Verify(ctx context.Context, r *review.Review, progress func(string)) (review.VerifyResult, error) {
	f.runs++
	if f.command == "" {
		return review.VerifyResult{}, review.ErrNoTestCommand
	}
	progress("running " + f.command)
	if f.block {
		<-ctx.Done()
		return review.VerifyResult{}, ctx.Err()
	}
	res := review.VerifyResult{Command: f.command, Duration: 1500 * time.Millisecond, Pass: true, Tail: []string{"ok"}, Output: "line one\nok\n"}
	if slices.Contains(r.Approved(), 1) {
		res.Pass, res.Culprits, res.FirstFailure, res.Tail = false, []int{1}, "FAIL TestSub", []string{"--- FAIL: TestSub", "FAIL"}
		res.Output = "--- FAIL: TestSub\nthe whole output\nFAIL\n"
	}
	return res, nil
}

func termVerify(t *testing.T, r *review.Review, keys string, v *fakeVerifier, first bool) (string, error) {
	t.Helper()
	var screen strings.Builder
	tm := &review.Terminal{In: strings.NewReader(keys), Out: &screen, Verifier: v, VerifyFirst: first}
	err := tm.Run(context.Background(), r)
	return screen.String(), err
}

func TestTerminalVerify(t *testing.T) {
	for _, tc := range []struct {
		name, keys string
		first      bool
		command    string
		want       string
		err        error
		runs       int
		screen     []string
	}{
		{"v then x rejects the culprit", "yyyyyyvxy", false, "go test", "1=y 2=n 3=y 4=y 5=y [6=y]", nil, 2,
			[]string{"[y,n,K,g,v,?]", "verify: running go test", "verify: FAIL in 1.5s (go test)", "hunk 2 (calc.go:23-32) breaks it: FAIL TestSub", "[y,n,K,g,v,x,?]", "rejected hunk 2", "verify: PASS in 1.5s"}},
		{"? shows all of the output", "yyyyyyv?n", false, "go test", "1=y 2=y 3=y 4=y 5=y [6=y]", review.ErrAbandoned, 1,
			[]string{"x - reject the hunks that break the tests", "the whole output"}},
		{"go back and reject", "yyyyyyvg2\rnv\ry", false, "go test", "1=y [2=n] 3=y 4=y 5=y 6=y", nil, 2, []string{"verify: PASS"}},
		{"--verify stays at the summary on a failure", "yyyyyyyn", true, "go test", "1=y 2=y 3=y 4=y 5=y [6=y]", review.ErrAbandoned, 1,
			[]string{"Not written: the tests do not pass (--verify)."}},
		{"--verify goes ahead on a pass", "ynyyyyy", true, "go test", "1=y 2=n 3=y 4=y 5=y [6=y]", nil, 1, []string{"verify: PASS"}},
		{"a command typed", "yyyyyyvmake\ry", false, "", "1=y 2=y 3=y 4=y 5=y [6=y]", nil, 2,
			[]string{"There is no test command", "verify: running make"}},
		{"no v without approved hunks", "nnnnnnvy", false, "go test", "1=n 2=n 3=n 4=n 5=n [6=n]", nil, 0, []string{"unknown key v"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := fixture(t)
			v := &fakeVerifier{command: tc.command}
			screen, err := termVerify(t, r, tc.keys, v, tc.first)
			if !errors.Is(err, tc.err) {
				t.Fatalf("got error %v, want %v\n%s", err, tc.err, screen)
			}
			if got := state(r); got != tc.want {
				t.Errorf("got state %s, want %s\n%s", got, tc.want, screen)
			}
			if v.runs != tc.runs {
				t.Errorf("got %d runs, want %d\n%s", v.runs, tc.runs, screen)
			}
			for _, w := range tc.screen {
				if !strings.Contains(screen, w) {
					t.Errorf("the screen lacks %q:\n%s", w, screen)
				}
			}
		})
	}
}

// Ctrl-C while the tests run stops them and comes back to the summary.
func TestTerminalVerifyCtrlC(t *testing.T) {
	r := fixture(t)
	v := &fakeVerifier{command: "sleep", block: true}
	screen, err := termVerify(t, r, "yyyyyyv\x03n", v, false)
	if !errors.Is(err, review.ErrAbandoned) {
		t.Fatalf("got %v, want ErrAbandoned\n%s", err, screen)
	}
	if !strings.Contains(screen, "verify stopped; nothing was written") {
		t.Errorf("screen:\n%s", screen)
	}
}

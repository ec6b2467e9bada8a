package verify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/proc"
	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/review"
)

// Defaults of a Verifier.
const (
	// DefaultTimeout bounds one run of the test command, as the agent
	// bounds its tests.
	DefaultTimeout = 10 * time.Minute
	// DefaultMaxRuns bounds the runs of the search for the hunks that
	// break the tests, the run without the approved hunks included.
	DefaultMaxRuns = 12
	// maxOutput bounds the output kept of one run: its end.
	maxOutput = 256 << 10
	// tailLines is how many last lines of output a result shows.
	tailLines = 12
)

// ErrNoCommand is Verify without a test command.
// It is review.ErrNoTestCommand, so that a front end asks for one.
var ErrNoCommand = fmt.Errorf("%w: set test_cmd in .pair.yml (and trust it with pair trust) or give --test-cmd", review.ErrNoTestCommand)

// Verifier tests the candidate tree of a review in the scratch tree of
// Tree (see the package documentation). It implements review.Verifier.
type Verifier struct {
	Tree *repo.Tree
	// Command is the test command, run with sh -c in the scratch tree.
	Command string
	// Env is its environment (nil: pair's own without the usual secret
	// variables, see proc.Env); the build caches it names (GOCACHE,
	// XDG_CACHE_HOME, …) are the person's, so a second run is cheap.
	Env []string
	// Timeout bounds each run (0: DefaultTimeout); MaxRuns the runs of
	// the search for the culprits (0: DefaultMaxRuns).
	Timeout time.Duration
	MaxRuns int
}

// SetCommand sets the test command: one the person typed.
func (v *Verifier) SetCommand(command string) { v.Command = command }

// HasCommand says whether there is a test command to run.
func (v *Verifier) HasCommand() bool { return strings.TrimSpace(v.Command) != "" }

// run is one run of the test command on a candidate.
type run struct {
	pass     bool
	exitCode int
	duration time.Duration
	output   string
}

// Verify lays out the candidate of r (its approved and edited hunks over
// the working tree) in the scratch tree and runs the test command there.
// When it fails, the candidate without the approved hunks is run; when
// that passes, the approved hunks are searched for the smallest set that
// still fails (ddmin), within MaxRuns runs. A cancelled ctx stops the
// command and what it started, and Verify returns ctx's error. r is not
// changed.
func (v *Verifier) Verify(ctx context.Context, r *review.Review, progress func(string)) (review.VerifyResult, error) {
	if progress == nil {
		progress = func(string) {}
	}
	res := review.VerifyResult{Command: v.Command}
	if strings.TrimSpace(v.Command) == "" {
		return res, ErrNoCommand
	}
	s, err := v.Tree.OpenScratch()
	if err != nil {
		return res, fmt.Errorf("verify: %w", err)
	}
	defer s.Close()
	approved := r.Approved()
	progress(fmt.Sprintf("running %s on the candidate (%d approved %s)", v.Command, len(approved), output.Plural(len(approved), "hunk")))
	full, err := v.try(ctx, s, r, progress)
	if err != nil {
		return res, err
	}
	res.Pass, res.ExitCode, res.Duration, res.Output = full.pass, full.exitCode, full.duration, full.output
	res.Tail = lastLines(full.output, tailLines)
	res.FirstFailure = FirstFailure(full.output)
	res.Runs = 1
	if full.pass || len(approved) == 0 {
		return res, nil
	}
	progress("the candidate fails; running it without the approved hunks")
	base, err := v.try(ctx, s, r.Only(nil), progress)
	if err != nil {
		return res, err
	}
	res.Runs++
	if !base.pass {
		res.BaseFails = true
		return res, nil
	}
	maxRuns := v.MaxRuns
	if maxRuns <= 0 {
		maxRuns = DefaultMaxRuns
	}
	d := &search{cache: map[string]*run{key(approved): &full}, runs: res.Runs, max: maxRuns}
	d.test = func(set []int) (*run, error) {
		progress(fmt.Sprintf("narrowing: run %d of at most %d, with %d of the %d approved hunks", d.runs+1, d.max, len(set), len(approved)))
		out, err := v.try(ctx, s, r.Only(set), progress)
		if errors.Is(err, errCandidate) {
			// A part that cannot be written alone (some hunks of a
			// deletion) is not a failure of the tests.
			return &run{pass: true}, nil
		}
		return &out, err
	}
	culprits, last, err := d.ddmin(approved)
	if err != nil {
		return res, err
	}
	res.Culprits, res.Runs, res.Bounded = culprits, d.runs, d.bounded
	if f := FirstFailure(last.output); f != "" {
		res.FirstFailure = f
	}
	return res, nil
}

// errCandidate marks a candidate that cannot be laid out.
var errCandidate = errors.New("the candidate cannot be laid out")

// try lays out the candidate of r and runs the command on it. A
// candidate that cannot be laid out (its hunks no longer place on the
// files as they are now) is an error; a cancelled ctx is ctx's error.
func (v *Verifier) try(ctx context.Context, s *repo.Scratch, r *review.Review, progress func(string)) (run, error) {
	plans, err := r.Plans()
	if err != nil {
		return run{}, fmt.Errorf("verify: %w: %w", errCandidate, err)
	}
	st, err := s.Sync(plans)
	if err != nil {
		return run{}, fmt.Errorf("verify: %w: %w", errCandidate, err)
	}
	if st.Written+st.Removed > 0 {
		progress(fmt.Sprintf("scratch tree: %d of %d %s written, %d removed", st.Written, st.Files, output.Plural(st.Files, "file"), st.Removed))
	}
	if err := ctx.Err(); err != nil {
		return run{}, err
	}
	out, err := v.exec(ctx, s.Dir)
	if err != nil {
		return out, err
	}
	// The person reads paths of their tree, not of the scratch tree.
	out.output = strings.ReplaceAll(out.output, s.Dir, v.Tree.Dir)
	return out, nil
}

// exec runs the command in dir in a process group of its own, bounded by
// the timeout; a cancel ends the group.
func (v *Verifier) exec(ctx context.Context, dir string) (run, error) {
	timeout := v.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(tctx, "sh", "-c", v.Command)
	cmd.Dir = dir
	cmd.Env = environ(v.Env, dir)
	proc.OwnGroup(cmd)
	cmd.WaitDelay = 2 * time.Second
	var out tailBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	res := run{duration: time.Since(start), output: out.String()}
	if cerr := ctx.Err(); cerr != nil {
		return res, cerr
	}
	var ee *exec.ExitError
	switch {
	case errors.Is(tctx.Err(), context.DeadlineExceeded):
		res.exitCode = -1
		res.output += "\n(stopped: it ran longer than " + timeout.String() + ")\n"
	case errors.As(err, &ee):
		res.exitCode = ee.ExitCode()
	case err != nil:
		return res, fmt.Errorf("verify: %w", err)
	default:
		res.pass = true
	}
	return res, nil
}

// environ is env (nil: pair's own without secrets) with PWD naming dir,
// where the command runs.
func environ(env []string, dir string) []string {
	if env == nil {
		env = proc.Env(os.Environ(), "")
	}
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PWD=") {
			out = append(out, kv)
		}
	}
	return append(out, "PWD="+dir)
}

// tailBuffer keeps the last maxOutput bytes written to it.
type tailBuffer struct {
	b   []byte
	cut bool
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if over := len(t.b) - maxOutput; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
		t.cut = true
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	if t.cut {
		return "(… the start of the output is left out)\n" + string(t.b)
	}
	return string(t.b)
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}

// failures are the patterns of a line that names a failure, most
// telling first: a failed test (Go, Python's unittest, pytest), a
// compiler's error at a file's line, a failed package, an error.
// (Built on first use: package init stays cheap.)
var failures = sync.OnceValue(func() []failure {
	return []failure{
		{regexp.MustCompile(`^\s*--- FAIL: (\S+)`), func(m []string) string { return "FAIL " + m[1] }},
		{regexp.MustCompile(`^(FAIL|ERROR): (\S+)`), func(m []string) string { return m[1] + " " + m[2] }},
		{regexp.MustCompile(`^FAILED (\S+)`), func(m []string) string { return "FAILED " + m[1] }},
		{regexp.MustCompile(`^\S+:\d+(:\d+)?: .+`), func(m []string) string { return m[0] }},
		{regexp.MustCompile(`^FAIL\s+(\S+)`), func(m []string) string { return "FAIL " + m[1] }},
		{regexp.MustCompile(`(?i)\berror\b.*`), func(m []string) string { return m[0] }},
	}
})

// failure is a pattern of failures and the words it gives a match.
type failure struct {
	re   *regexp.Regexp
	text func(m []string) string
}

// FirstFailure is the first line of a test command's output that names
// a failure, in the words of the most telling pattern that matches
// ("FAIL TestParseEmpty"), or "".
func FirstFailure(out string) string {
	lines := strings.Split(out, "\n")
	for _, f := range failures() {
		for _, l := range lines {
			l = strings.TrimRight(l, "\r")
			if m := f.re.FindStringSubmatch(l); m != nil {
				return output.Clip(strings.TrimSpace(f.text(m)), 200)
			}
		}
	}
	return ""
}

// search is one ddmin over the approved hunks: the runs made so far,
// with their outcomes by set, and the bound.
type search struct {
	test    func(set []int) (*run, error)
	cache   map[string]*run
	runs    int
	max     int
	bounded bool
}

func key(set []int) string { return fmt.Sprint(set) }

// fails runs set (once: outcomes are kept), and reports whether it
// fails; ok is false when the bound stops it first.
func (d *search) fails(set []int) (failed, ok bool, out *run, err error) {
	if r, seen := d.cache[key(set)]; seen {
		return !r.pass, true, r, nil
	}
	if d.runs >= d.max {
		d.bounded = true
		return false, false, nil, nil
	}
	r, err := d.test(set)
	if err != nil {
		return false, false, nil, err
	}
	d.runs++
	d.cache[key(set)] = r
	return !r.pass, true, r, nil
}

// ddmin narrows c, a failing set of hunks, to a smaller one that fails,
// as Zeller's delta debugging does: it tries c's parts, then their
// complements, at a finer split each time nothing fails, until each part
// is one hunk or the bound stops it. It returns the set and its run.
func (d *search) ddmin(c []int) ([]int, *run, error) {
	last := d.cache[key(c)]
	n := 2
	for len(c) >= 2 {
		parts := split(c, n)
		reduced := false
		try := func(set []int) (bool, error) {
			failed, ok, r, err := d.fails(set)
			if err != nil || !ok || !failed {
				return false, err
			}
			c, last, reduced = set, r, true
			return true, nil
		}
		for _, p := range parts {
			if done, err := try(p); err != nil || done {
				if err != nil {
					return c, last, err
				}
				break
			}
		}
		if reduced {
			n = max(n-1, 2)
			continue
		}
		if n > 2 { // with two parts, each complement is the other part
			for _, p := range parts {
				rest := slices.DeleteFunc(slices.Clone(c), func(i int) bool { return slices.Contains(p, i) })
				if done, err := try(rest); err != nil || done {
					if err != nil {
						return c, last, err
					}
					break
				}
			}
		}
		switch {
		case reduced:
			n = max(n-1, 2)
		case d.bounded || n >= len(c):
			return c, last, nil
		default:
			n = min(len(c), 2*n)
		}
	}
	return c, last, nil
}

// split cuts c into n parts of nearly equal size, in order.
func split(c []int, n int) [][]int {
	var out [][]int
	start := 0
	for i := range n {
		end := start + (len(c)-start)/(n-i)
		if end > start {
			out = append(out, c[start:end])
		}
		start = end
	}
	return out
}

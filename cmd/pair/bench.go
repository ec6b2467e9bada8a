package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/urfave/cli/v2"
	"go.yaml.in/yaml/v3"

	"github.com/pair-cli/pair/agent/agenttest"
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
characters of the messages as the model reads them, and an estimate of
their tokens (pre-tokenizer pieces, without a vocabulary), in all and for
the tool results (--json: "sent"). With no argument, the suite in
testdata/bench.

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
			tasks, err := loadBenchTasks(args)
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

// benchResult is one run of one task.
type benchResult struct {
	ID       string   `json:"id"`
	File     string   `json:"file"`
	Round    int      `json:"round,omitempty"`
	Pass     bool     `json:"pass"`
	Skipped  string   `json:"skipped,omitempty"`
	Failures []string `json:"failures,omitempty"`
	Exit     int      `json:"exit"`
	Pauses   int      `json:"pauses"`
	Requests int      `json:"requests"`
	// Sent is what the model was sent: all requests' messages, and the
	// tool results among them (see sentSize).
	Sent    sentSize `json:"sent"`
	Output  string   `json:"output,omitempty"`
	Seconds float64  `json:"seconds"`
}

type benchReport struct {
	Passed  int           `json:"passed"`
	Failed  int           `json:"failed"`
	Skipped int           `json:"skipped,omitempty"`
	Live    bool          `json:"live"`
	Model   string        `json:"model,omitempty"`
	Rounds  int           `json:"rounds,omitempty"`
	Sent    sentSize      `json:"sent"`
	Mean    float64       `json:"mean_pass_rate"`
	StdErr  float64       `json:"standard_error"`
	Results []benchResult `json:"results"`
}

func runBench(ctx context.Context, tasks []*benchTask, o benchOptions) error {
	rounds := 1
	if o.Live {
		rounds = o.K
	}
	type job struct {
		t     *benchTask
		round int
	}
	var jobs []job
	for r := 1; r <= rounds; r++ {
		for _, t := range tasks {
			jobs = append(jobs, job{t, r})
		}
	}
	results := make([]benchResult, len(jobs))
	var mu sync.Mutex
	next := 0
	var wg sync.WaitGroup
	for range min(o.Jobs, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(jobs) || ctx.Err() != nil {
					return
				}
				res := runBenchTask(ctx, jobs[i].t, o)
				res.Round = 0
				if o.Live {
					res.Round = jobs[i].round
				}
				mu.Lock()
				results[i] = res
				if !o.JSON {
					printBenchLine(o.IO.Out, res, o.Verbose)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	rep := benchReport{Live: o.Live, Results: results}
	perRound := make([][2]int, rounds+1) // passed, judged
	for _, r := range results {
		rep.Sent.add(r.Sent)
		switch {
		case r.Skipped != "":
			rep.Skipped++
			continue
		case r.Pass:
			rep.Passed++
		default:
			rep.Failed++
		}
		idx := max(r.Round, 1)
		perRound[idx][1]++
		if r.Pass {
			perRound[idx][0]++
		}
	}
	var scores []float64
	for r := 1; r <= rounds; r++ {
		if perRound[r][1] > 0 {
			scores = append(scores, float64(perRound[r][0])/float64(perRound[r][1]))
		}
	}
	rep.Mean, rep.StdErr = meanStdErr(scores)
	if o.Live {
		rep.Model, rep.Rounds = o.Model.Model, rounds
	}
	if o.JSON {
		writeJSON(o.IO.Out, rep)
	} else {
		fmt.Fprintf(o.IO.Out, "%d passed, %d failed", rep.Passed, rep.Failed)
		if rep.Skipped > 0 {
			fmt.Fprintf(o.IO.Out, ", %d skipped", rep.Skipped)
		}
		fmt.Fprintln(o.IO.Out)
		fmt.Fprintf(o.IO.Out, "sent to the model: %d characters, about %d tokens; of them tool results %d characters, about %d tokens\n",
			rep.Sent.Chars, rep.Sent.Tokens, rep.Sent.ToolChars, rep.Sent.ToolTokens)
		if o.Live {
			fmt.Fprintf(o.IO.Out, "%s: mean pass rate %.1f%% ± %.1f%% (standard error over %d %s)\n",
				o.Model.Model, 100*rep.Mean, 100*rep.StdErr, len(scores), plural(len(scores), "round"))
		}
	}
	if rep.Failed > 0 {
		return &exitError{code: exitFailure}
	}
	return nil
}

// meanStdErr returns the mean of xs and its standard error.
func meanStdErr(xs []float64) (mean, se float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / float64(len(xs)-1))
	return mean, sd / math.Sqrt(float64(len(xs)))
}

func printBenchLine(w io.Writer, r benchResult, verbose bool) {
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

// benchTB lets agenttest report to the runner (and to the testscript
// model command): only the methods agenttest calls are implemented; the
// embedded nil interface is never used.
type benchTB struct {
	testing.TB
	mu       sync.Mutex
	errs     []string
	cleanups []func()
}

func (b *benchTB) Helper() {}
func (b *benchTB) Errorf(format string, args ...any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.errs = append(b.errs, fmt.Sprintf(format, args...))
}
func (b *benchTB) Failed() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.errs) > 0
}
func (b *benchTB) Cleanup(f func()) { b.cleanups = append(b.cleanups, f) }

// recorder is a reverse proxy to a live endpoint that keeps the request
// bodies, so that what was sent can be checked.
type recorder struct {
	mu     sync.Mutex
	bodies [][]byte
	srv    *httptest.Server
}

func newRecorder(target string) (*recorder, error) {
	u, err := url.Parse(strings.TrimRight(target, "/"))
	if err != nil {
		return nil, err
	}
	rec := &recorder{}
	proxy := httputil.NewSingleHostReverseProxy(u)
	proxy.FlushInterval = -1 // stream
	rec.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		rec.mu.Lock()
		rec.bodies = append(rec.bodies, body)
		rec.mu.Unlock()
		r.Host = u.Host
		r.URL.Path = strings.TrimPrefix(r.URL.Path, "/proxy")
		proxy.ServeHTTP(w, r)
	}))
	return rec, nil
}

// runBenchTask runs one task in a fresh repository and checks it.
func runBenchTask(ctx context.Context, t *benchTask, o benchOptions) (res benchResult) {
	start := time.Now()
	res = benchResult{ID: t.ID, File: t.Path}
	defer func() { res.Seconds = time.Since(start).Seconds() }()
	fail := func(format string, args ...any) benchResult {
		res.Failures = append(res.Failures, fmt.Sprintf(format, args...))
		return res
	}
	if t.loadErr != nil {
		return fail("cannot read the task: %v", t.loadErr)
	}
	if len(t.unknown) > 0 {
		return fail("unknown expectations %s (see testdata/bench/README.md)", strings.Join(t.unknown, ", "))
	}
	if o.Live && t.liveCheck == "" && len(t.Expect.Unchanged) == 0 && len(t.Expect.SentNotContains) == 0 {
		res.Skipped = "no live/check and nothing model-independent to check"
		return res
	}
	dir, err := os.MkdirTemp("", "pair-bench-")
	if err != nil {
		return fail("temporary directory: %v", err)
	}
	defer os.RemoveAll(dir)
	repoDir := filepath.Join(dir, "repo")
	if err := setupBenchRepo(t, repoDir); err != nil {
		return fail("fixture: %v", err)
	}
	if len(t.Config) > 0 {
		// The task's .pair.yml is the person's own: trusted, as with
		// pair trust.
		if err := trustConfig(filepath.Join(repoDir, ".git", "pair"), filepath.Join(repoDir, ".pair.yml")); err != nil {
			return fail("trust the task's .pair.yml: %v", err)
		}
	}

	// The model: scripted replies over a real socket, or a recording
	// proxy to the live endpoint.
	var apiBase, apiKey, model string
	var sent func() [][]byte
	var verify func() []string
	if o.Live {
		rec, err := newRecorder(o.Model.APIBase)
		if err != nil {
			return fail("live endpoint: %v", err)
		}
		defer rec.srv.Close()
		apiBase, apiKey, model = rec.srv.URL, o.Model.APIKey, o.Model.Model
		sent = func() [][]byte { rec.mu.Lock(); defer rec.mu.Unlock(); return slices.Clone(rec.bodies) }
		verify = func() []string { return nil }
	} else {
		tb := &benchTB{}
		srv := agenttest.NewServer(tb, t.replies...)
		defer func() {
			for _, f := range tb.cleanups {
				f()
			}
		}()
		apiBase, apiKey, model = srv.URL(), "bench-key", "bench-model"
		sent = func() [][]byte {
			var out [][]byte
			for _, r := range srv.Requests() {
				out = append(out, r.Raw)
			}
			return out
		}
		verify = func() []string {
			srv.Verify()
			tb.mu.Lock()
			defer tb.mu.Unlock()
			return slices.Clone(tb.errs)
		}
	}

	common := []string{"-C", repoDir, "--json", "--api-base", apiBase, "--api-key", apiKey, "--model", model, "--no-user-config"}
	var out bytes.Buffer
	// Each pair command is its own process, as a person's would be: a
	// resumed review really loads the session another process saved.
	runPair := func(args ...string) (int, map[string]any) {
		var stdout, stderr bytes.Buffer
		cmd := exec.CommandContext(ctx, o.Exe, args...)
		cmd.Stdin = strings.NewReader("")
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		cmd.Env = benchEnv()
		code := 0
		if err := cmd.Run(); err != nil {
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				fmt.Fprintf(&stderr, "bench: run pair: %v\n", err)
				code = -1
			} else {
				code = ee.ExitCode()
			}
		}
		fmt.Fprintf(&out, "$ pair %s\n%s%s[exit %d]\n", strings.Join(args, " "), stdout.String(), stderr.String(), code)
		var js map[string]any
		_ = json.Unmarshal(stdout.Bytes(), &js)
		return code, js
	}
	decisions := slices.Clone(t.Decisions)
	if o.Live {
		decisions = []string{"approve-all"} // a live model's hunks cannot be known ahead
	}
	var args []string
	if t.Command == "ask" {
		args = append([]string{"ask"}, common...)
		for _, f := range t.Files {
			args = append(args, "--file", f)
		}
		args = append(args, t.Flags...)
		args = append(args, "--", t.Request)
	} else {
		args = append([]string{"edit"}, common...)
		args = append(args, "--session", "bench", "-m", t.Request)
		if len(decisions) > 0 && decisions[0] == "approve-all" {
			args = append(args, "--yes")
		}
		args = append(args, t.Flags...)
		args = append(args, "--")
		args = append(args, t.Files...)
	}
	code, js := runPair(args...)
	// At each pause, a new "process" (pair review) loads the session and
	// gives the next answers.
	step := 0
	if len(decisions) > 0 && decisions[0] == "approve-all" {
		step = 1
	}
	for code == exitNeedsReview && t.Command == "edit" {
		if step >= len(decisions) && !o.Live {
			break
		}
		res.Pauses++
		d := "n"
		if step < len(decisions) {
			d = decisions[step]
		}
		step++
		rargs := append([]string{"review"}, common...)
		rargs = append(rargs, "--session", "bench")
		switch d {
		case "approve-all":
			rargs = append(rargs, "--yes")
		case "":
		default:
			rargs = append(rargs, "--decisions", d)
		}
		code, js = runPair(rargs...)
		if res.Pauses > 20 {
			break
		}
	}
	if code == exitNeedsReview {
		res.Pauses++ // left paused
	}
	res.Exit = code
	res.Output = out.String()
	requests := sent()
	res.Requests = len(requests)
	res.Sent = measureSent(requests)

	for _, e := range verify() {
		fail("model script: %s", e)
	}
	res.Failures = append(res.Failures, checkBench(t, o.Live, repoDir, code, js, requests, res.Pauses)...)
	if o.Live && t.liveCheck != "" {
		cmd := exec.CommandContext(ctx, "sh", "-c", t.liveCheck)
		cmd.Dir = repoDir
		if b, err := cmd.CombinedOutput(); err != nil {
			fail("live/check failed (%v): %s", err, clipOneLine(string(b), 200))
		}
	}
	res.Pass = len(res.Failures) == 0
	if res.Pass && !o.Verbose {
		res.Output = ""
	}
	return res
}

// benchEnv is the environment of the pair commands a task runs: the
// person's, without what would point pair elsewhere (the model comes from
// flags), without colour, and without the race detector's pause at exit.
func benchEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "OPENAI_BASE_URL", "OPENAI_API_KEY", "PAIR_MODEL", "GORACE", "EDITOR", "VISUAL":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "NO_COLOR=1", "GORACE=atexit_sleep_ms=0", "GIT_CONFIG_NOSYSTEM=1")
}

// setupBenchRepo makes the task's repository: its files committed, then
// its hooks and the person's uncommitted edits.
func setupBenchRepo(t *benchTask, dir string) error {
	write := func(files map[string]string, base string, mode os.FileMode) error {
		for p, content := range files {
			full := filepath.Join(base, filepath.FromSlash(p))
			if !strings.HasPrefix(full, base+string(filepath.Separator)) {
				return fmt.Errorf("%s: outside the repository", p)
			}
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(full, []byte(content), mode); err != nil {
				return err
			}
		}
		return nil
	}
	if err := write(t.repo, dir, 0o644); err != nil {
		return err
	}
	if len(t.Config) > 0 {
		b, err := yaml.Marshal(t.Config)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, ".pair.yml"), b, 0o644); err != nil {
			return err
		}
	}
	git := func(args ...string) error {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
			"GIT_AUTHOR_NAME=Bench Person", "GIT_AUTHOR_EMAIL=person@bench.invalid",
			"GIT_COMMITTER_NAME=Bench Person", "GIT_COMMITTER_EMAIL=person@bench.invalid",
			"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z")
		if b, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, b)
		}
		return nil
	}
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"config", "user.name", "Bench Person"},
		{"config", "user.email", "person@bench.invalid"},
		{"config", "commit.gpgsign", "false"},
		{"add", "-A"},
		{"commit", "-q", "--no-verify", "-m", "fixture"},
	} {
		if err := git(args...); err != nil {
			return err
		}
	}
	if err := write(t.hooks, filepath.Join(dir, ".git", "hooks"), 0o755); err != nil {
		return err
	}
	return write(t.dirty, dir, 0o644)
}

// checkBench checks a task's expectations and returns the unmet ones, the
// first the most telling. Live runs check only what does not depend on the
// model: files that must stay unchanged and text that must never be sent.
func checkBench(t *benchTask, live bool, dir string, code int, js map[string]any, sent [][]byte, pauses int) []string {
	var fails []string
	failf := func(format string, args ...any) { fails = append(fails, fmt.Sprintf(format, args...)) }
	e := &t.Expect
	read := func(p string) (string, bool) {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		return string(b), err == nil
	}
	for _, p := range e.Unchanged {
		want, inRepo := t.repo[p]
		if d, ok := t.dirty[p]; ok {
			want, inRepo = d, true
		}
		got, exists := read(p)
		switch {
		case !inRepo && exists:
			failf("%s: want it not to exist, it does", p)
		case inRepo && !exists:
			failf("%s: want it unchanged, it is gone", p)
		case inRepo && got != want:
			failf("%s: want it unchanged, it changed", p)
		}
	}
	for _, s := range e.SentContains {
		found := false
		for _, b := range sent {
			if sentHas(b, s) {
				found = true
				break
			}
		}
		if !found && !live {
			failf("no request to the model contains %q", s)
		}
	}
	for _, s := range e.SentNotContains {
		for i, b := range sent {
			if sentHas(b, s) {
				failf("request %d to the model contains %q", i+1, s)
				break
			}
		}
	}
	if live {
		return fails
	}
	str := func(k string) string { s, _ := js[k].(string); return s }
	if e.Exit != nil && code != *e.Exit {
		msg := ""
		if js != nil && str("error") != "" {
			msg = ": " + str("error")
		}
		fails = append([]string{fmt.Sprintf("exit status %d, want %d%s", code, *e.Exit, msg)}, fails...)
	}
	if e.Status != "" && str("status") != e.Status {
		failf("status %q, want %q", str("status"), e.Status)
	}
	if e.TaskType != "" && str("task_type") != e.TaskType {
		failf("task_type %q, want %q", str("task_type"), e.TaskType)
	}
	if e.RequiresHumanReview != nil {
		if got, _ := js["requires_human_review"].(bool); got != *e.RequiresHumanReview {
			failf("requires_human_review %v, want %v", got, *e.RequiresHumanReview)
		}
	}
	if e.Pauses != nil && pauses != *e.Pauses {
		failf("paused %d times, want %d", pauses, *e.Pauses)
	}
	paths := make([]string, 0, len(e.Files))
	for p := range e.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		fc := e.Files[p]
		got, exists := read(p)
		if fc.Absent {
			if exists {
				failf("%s: want it absent, it exists", p)
			}
			continue
		}
		if !exists {
			failf("%s: missing", p)
			continue
		}
		if fc.Equals != nil && got != *fc.Equals {
			failf("%s: content differs from the expected:\n%s", p, clipText(got, 600))
		}
		for _, s := range fc.Contains {
			if !strings.Contains(got, s) {
				failf("%s: want it to contain %q", p, s)
			}
		}
		for _, s := range fc.NotContains {
			if strings.Contains(got, s) {
				failf("%s: want it not to contain %q", p, s)
			}
		}
	}
	if e.Commits != nil || len(e.Trailers) > 0 {
		n, msgs, err := newCommits(dir)
		switch {
		case err != nil:
			failf("git log: %v", err)
		default:
			if e.Commits != nil && n != *e.Commits {
				failf("%d new %s, want %d", n, plural(n, "commit"), *e.Commits)
			}
			for _, tr := range e.Trailers {
				// A line of a new commit's message: the text itself, or a
				// regular expression matching the whole line.
				found := false
				for _, line := range strings.Split(msgs, "\n") {
					if strings.TrimSpace(line) == strings.TrimSpace(tr) {
						found = true
						break
					}
				}
				if !found {
					if re, err := regexp.Compile("(?m)^" + tr + "$"); err == nil {
						found = re.MatchString(msgs)
					}
				}
				if !found {
					failf("no commit has a line matching %q", tr)
				}
			}
		}
	}
	blocked, _ := js["blocked_actions"].([]any)
	for _, want := range e.Blocked {
		found := false
		for _, b := range blocked {
			m, _ := b.(map[string]any)
			tool, _ := m["tool"].(string)
			target, _ := m["target"].(string)
			reason, _ := m["reason"].(string)
			if tool == want || target == want || strings.Contains(target, want) || strings.Contains(reason, want) {
				found = true
				break
			}
		}
		if !found {
			failf("want %q blocked; blocked: %s", want, compactJSON(blocked))
		}
	}
	if len(e.ToolCalls) > 0 {
		counts := map[string]int{}
		plan, _ := js["plan"].([]any)
		for _, p := range plan {
			m, _ := p.(map[string]any)
			tool, _ := m["tool"].(string)
			counts[tool]++
		}
		names := make([]string, 0, len(e.ToolCalls))
		for k := range e.ToolCalls {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if counts[k] != e.ToolCalls[k] {
				failf("%d calls of %s, want %d", counts[k], k, e.ToolCalls[k])
			}
		}
	}
	for _, s := range e.FinalContains {
		if !strings.Contains(str("final_output"), s) {
			failf("final output does not contain %q: %q", s, clipOneLine(str("final_output"), 200))
		}
	}
	if js == nil && e.Status != "" {
		fails = append([]string{"pair printed no JSON object"}, fails...)
	}
	return fails
}

// sentHas reports whether a request body holds the text, as it is or as
// it reads inside a JSON string (quotes, newlines and <, >, & escaped).
func sentHas(body []byte, text string) bool {
	if bytes.Contains(body, []byte(text)) {
		return true
	}
	esc, err := json.Marshal(text)
	if err != nil || len(esc) < 2 {
		return false
	}
	return bytes.Contains(body, esc[1:len(esc)-1])
}

// newCommits counts the commits after the fixture's and returns their
// messages.
func newCommits(dir string) (int, string, error) {
	// The fixture is the root commit: everything after it is new.
	cmd := exec.Command("git", "log", "--format=%H %P%x00%B%x01", "HEAD")
	cmd.Dir = dir
	b, err := cmd.Output()
	if err != nil {
		return 0, "", err
	}
	var msgs []string
	for _, c := range strings.Split(string(b), "\x01") {
		head, msg, ok := strings.Cut(strings.TrimLeft(c, "\n"), "\x00")
		if !ok {
			continue
		}
		if len(strings.Fields(head)) < 2 { // the root: the fixture
			continue
		}
		msgs = append(msgs, msg)
	}
	return len(msgs), strings.Join(msgs, "\n"), nil
}

func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// sentSize measures what a model reads: the characters of the messages'
// content (as the model sees it, not JSON-escaped in the request) and an
// estimate of their tokens, for all messages and for the tool results
// alone. Every request counts whole, as the model reads it again.
type sentSize struct {
	Chars      int `json:"chars"`
	Tokens     int `json:"tokens_estimate"`
	ToolChars  int `json:"tool_result_chars"`
	ToolTokens int `json:"tool_result_tokens_estimate"`
}

func (s *sentSize) add(o sentSize) {
	s.Chars += o.Chars
	s.Tokens += o.Tokens
	s.ToolChars += o.ToolChars
	s.ToolTokens += o.ToolTokens
}

// measureSent measures the messages of the request bodies.
func measureSent(bodies [][]byte) sentSize {
	var s sentSize
	for _, b := range bodies {
		var req struct {
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		}
		if json.Unmarshal(b, &req) != nil {
			continue
		}
		for _, m := range req.Messages {
			n, t := utf8.RuneCountInString(m.Content), estimateTokens(m.Content)
			s.Chars += n
			s.Tokens += t
			if m.Role == "tool" {
				s.ToolChars += n
				s.ToolTokens += t
			}
		}
	}
	return s
}

// pretoken splits text as the pre-tokenizer of OpenAI's cl100k and
// o200k encodings roughly does: a word with one leading non-letter, up
// to three digits, a run of punctuation, line breaks, other white space.
var pretoken = regexp.MustCompile(`[^\r\n\pL\pN]?\pL+|\pN{1,3}| ?[^\s\pL\pN]+[\r\n]*|\s*[\r\n]+|\s+`)

// estimateTokens estimates the tokens of text without the model's
// vocabulary: one per pre-token, and one more per further 6 bytes of a
// long one (rare identifiers and long runs of punctuation are split).
func estimateTokens(text string) int {
	n := 0
	for _, p := range pretoken.FindAllString(text, -1) {
		n += 1 + max(len(p)-1, 0)/6
	}
	return n
}

package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/replay"
)

// Options say how to run the tasks.
type Options struct {
	// Exe is the pair executable each task runs, as a process of its own.
	Exe string
	// Jobs is how many tasks run at a time (at least one).
	Jobs int
	// Verbose keeps what pair printed for the tasks that pass too.
	Verbose bool
	// Live runs each task K times against Model instead of its scripted
	// replies.
	Live  bool
	K     int
	Model Model
	// OnResult, when not nil, is called with each result as its task
	// ends, one call at a time.
	OnResult func(Result)
}

// Model is the live model endpoint of a --live run.
type Model struct {
	APIBase, APIKey, Model string
}

// Result is one run of one task.
type Result struct {
	ID       string   `json:"id"`
	File     string   `json:"file"`
	Round    int      `json:"round,omitempty"`
	Pass     bool     `json:"pass"`
	Skipped  string   `json:"skipped,omitempty"`
	Failures []string `json:"failures,omitempty"`
	Exit     int      `json:"exit"`
	Pauses   int      `json:"pauses"`
	Requests int      `json:"requests"`
	// Sent is what the model was sent over all requests: their bytes,
	// and the text the model reads (see SentSize).
	Sent    SentSize `json:"sent"`
	Output  string   `json:"output,omitempty"`
	Seconds float64  `json:"seconds"`
}

// Report is the outcome of a run: the counts, and for a live run the
// mean pass rate over its rounds with its standard error.
type Report struct {
	Passed  int    `json:"passed"`
	Failed  int    `json:"failed"`
	Skipped int    `json:"skipped,omitempty"`
	Live    bool   `json:"live"`
	Model   string `json:"model,omitempty"`
	Rounds  int    `json:"rounds,omitempty"`
	// Requests is the number of requests of all tasks, and Sent what
	// they sent.
	Requests int      `json:"requests"`
	Sent     SentSize `json:"sent"`
	Mean     float64  `json:"mean_pass_rate"`
	StdErr   float64  `json:"standard_error"`
	Results  []Result `json:"results"`
	// Scored is how many rounds had a task to judge: the mean is over
	// them.
	Scored int `json:"-"`
}

// Run runs the tasks, Jobs at a time (each K times when live), and
// reports. It fails only when ctx is canceled; failed tasks are in the
// report.
func Run(ctx context.Context, tasks []*Task, o Options) (Report, error) {
	rounds := 1
	if o.Live {
		rounds = o.K
	}
	type job struct {
		t     *Task
		round int
	}
	var jobs []job
	for r := 1; r <= rounds; r++ {
		for _, t := range tasks {
			jobs = append(jobs, job{t, r})
		}
	}
	results := make([]Result, len(jobs))
	var mu sync.Mutex
	next := 0
	var wg sync.WaitGroup
	for range min(max(o.Jobs, 1), len(jobs)) {
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
				res := runTask(ctx, jobs[i].t, o)
				res.Round = 0
				if o.Live {
					res.Round = jobs[i].round
				}
				mu.Lock()
				results[i] = res
				if o.OnResult != nil {
					o.OnResult(res)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return Report{}, err
	}
	rep := Report{Live: o.Live, Results: results}
	perRound := make([][2]int, rounds+1) // passed, judged
	for _, r := range results {
		rep.Sent.add(r.Sent)
		rep.Requests += r.Requests
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
	rep.Scored = len(scores)
	if o.Live {
		rep.Model, rep.Rounds = o.Model.Model, rounds
	}
	return rep, nil
}

// recorder is a reverse proxy to a live endpoint that keeps the request
// bodies, so that what was sent can be checked.
type recorder struct {
	mu     sync.Mutex
	bodies [][]byte
	url    string // the proxy's base URL
	srv    *http.Server
}

func newRecorder(target string) (*recorder, error) {
	u, err := url.Parse(strings.TrimRight(target, "/"))
	if err != nil {
		return nil, err
	}
	rec := &recorder{}
	proxy := httputil.NewSingleHostReverseProxy(u)
	proxy.FlushInterval = -1 // stream
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	rec.url = "http://" + ln.Addr().String()
	rec.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		rec.mu.Lock()
		rec.bodies = append(rec.bodies, body)
		rec.mu.Unlock()
		r.Host = u.Host
		r.URL.Path = strings.TrimPrefix(r.URL.Path, "/proxy")
		proxy.ServeHTTP(w, r)
	})}
	go rec.srv.Serve(ln)
	return rec, nil
}

// runTask runs one task in a fresh repository and checks it.
func runTask(ctx context.Context, t *Task, o Options) (res Result) {
	start := time.Now()
	res = Result{ID: t.ID, File: t.Path}
	defer func() { res.Seconds = time.Since(start).Seconds() }()
	fail := func(format string, args ...any) Result {
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
	if err := setupRepo(t, repoDir); err != nil {
		return fail("fixture: %v", err)
	}
	if len(t.Config) > 0 {
		// The task's .pair.yml is the person's own: trusted, with pair
		// trust.
		cmd := exec.CommandContext(ctx, o.Exe, "trust", "-C", repoDir)
		cmd.Env = taskEnv()
		if b, err := cmd.CombinedOutput(); err != nil {
			return fail("trust the task's .pair.yml: %v: %s", err, output.OneLine(string(b), 200))
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
		apiBase, apiKey, model = rec.url, o.Model.APIKey, o.Model.Model
		sent = func() [][]byte { rec.mu.Lock(); defer rec.mu.Unlock(); return slices.Clone(rec.bodies) }
		verify = func() []string { return nil }
	} else {
		var mu sync.Mutex
		var errs []string
		srv := replay.New(func(msg string) {
			mu.Lock()
			defer mu.Unlock()
			errs = append(errs, msg)
		}, t.replies...)
		defer srv.Close()
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
			mu.Lock()
			defer mu.Unlock()
			return slices.Clone(errs)
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
		cmd.Env = taskEnv()
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
	for code == output.NeedsReview && t.Command == "edit" {
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
		case "approve-command":
			rargs = append(rargs, "--approve-command")
		case "":
		default:
			rargs = append(rargs, "--decisions", d)
		}
		code, js = runPair(rargs...)
		if res.Pauses > 20 {
			break
		}
	}
	if code == output.NeedsReview {
		res.Pauses++ // left paused
	}
	res.Exit = code
	res.Output = out.String()
	requests := sent()
	res.Requests = len(requests)
	res.Sent = MeasureSent(requests)

	for _, e := range verify() {
		fail("model script: %s", e)
	}
	res.Failures = append(res.Failures, check(t, o.Live, repoDir, code, js, requests, res.Pauses)...)
	if o.Live && t.liveCheck != "" {
		cmd := exec.CommandContext(ctx, "sh", "-c", t.liveCheck)
		cmd.Dir = repoDir
		if b, err := cmd.CombinedOutput(); err != nil {
			fail("live/check failed (%v): %s", err, output.OneLine(string(b), 200))
		}
	}
	res.Pass = len(res.Failures) == 0
	if res.Pass && !o.Verbose {
		res.Output = ""
	}
	return res
}

// taskEnv is the environment of the pair commands a task runs: the
// person's, without what would point pair elsewhere (the model comes from
// flags), without colour, and without the race detector's pause at exit.
func taskEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "OPENAI_BASE_URL", "OPENAI_API_BASE", "OPENAI_API_KEY", "PAIR_MODEL", "GORACE", "EDITOR", "VISUAL", "GIT_EDITOR":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "NO_COLOR=1", "GORACE=atexit_sleep_ms=0", "GIT_CONFIG_NOSYSTEM=1")
}

// setupRepo makes the task's repository: its files committed, then
// its hooks and the person's uncommitted edits.
func setupRepo(t *Task, dir string) error {
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

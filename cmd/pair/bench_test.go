package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/agent/agenttest"
	"github.com/pair-cli/pair/app/bench"
	"github.com/pair-cli/pair/internal/console"
	"github.com/pair-cli/pair/internal/output"
)

// TestBenchSuite runs pair bench on the built-in suite: every task must
// pass, and the suite built in is the one in app/bench/tasks.
func TestBenchSuite(t *testing.T) {
	// TestMain puts the test binary on PATH as pair.
	exe, err := exec.LookPath("pair")
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "app", "bench", "tasks", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("the suite's files: %v %v", files, err)
	}
	var out bytes.Buffer
	err = bench.Run(context.Background(), bench.Options{Exe: exe, Jobs: 2, Verbose: true, Out: &out})
	if err != nil {
		t.Errorf("pair bench: %v\n%s", err, out.String())
	}
	if want := fmt.Sprintf("\n%d passed, 0 failed\n", len(files)); !strings.Contains(out.String(), want) {
		t.Errorf("got %s, want %q", out.String(), want)
	}
}

// TestBenchLive runs a task with --live against a server standing in for
// a real model: the scripted replies are ignored, each of the -k rounds is
// judged by live/check, and the report gives the mean pass rate and its
// standard error.
func TestBenchLive(t *testing.T) {
	exe, err := exec.LookPath("pair")
	if err != nil {
		t.Fatal(err)
	}
	task := `id: live-greet
request: make the greeting friendlier
files: [app.go]
expect:
  sent_not_contains: [SECRET-IN-ENV]
-- repo/app.go --
package app

func Greet() string { return "hello" }
-- repo/.env --
SECRET-IN-ENV
-- model/001.json --
{"text": "this scripted reply is ignored with --live"}
-- live/check --
grep -q 'hello, world' app.go
`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "live.txtar"), []byte(task), 0o644); err != nil {
		t.Fatal(err)
	}
	diff := "--- a/app.go\n+++ b/app.go\n@@ -1,3 +1,3 @@\n package app\n \n-func Greet() string { return \"hello\" }\n+func Greet() string { return \"hello, world\" }\n"
	args, _ := json.Marshal(map[string]string{"diff": diff})
	// Round 1: the model makes the change; round 2: it only talks.
	srv := agenttest.NewServer(t,
		agenttest.Reply{ToolCalls: []agenttest.Call{{Name: "propose_diff", Arguments: string(args)}}},
		agenttest.Reply{Text: "done"},
		agenttest.Reply{Text: "I would change the greeting."},
	)
	var out bytes.Buffer
	err = bench.Run(context.Background(), bench.Options{
		Args: []string{dir}, Exe: exe, Jobs: 1, JSON: true, Live: true, K: 2,
		Model: bench.Model{APIBase: srv.URL(), APIKey: "k", Model: "live-model"},
		Out:   &out,
	})
	var ee *output.ExitError
	if !errors.As(err, &ee) || ee.Code != output.Failure {
		t.Fatalf("got %v, want exit 1 (one round failed)\n%s", err, out.String())
	}
	var rep bench.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if rep.Passed != 1 || rep.Failed != 1 || rep.Rounds != 2 || rep.Mean != 0.5 || rep.StdErr != 0.5 || rep.Model != "live-model" {
		t.Errorf("got %+v, want 1 passed, 1 failed over 2 rounds, mean 0.5 ± 0.5", rep)
	}
	// The count is everything sent: the bytes of the request bodies the
	// model's server recorded, the tool definitions included.
	total := 0
	for _, r := range srv.Requests() {
		total += len(r.Raw)
	}
	if rep.Sent.Bytes != total || rep.Requests != len(srv.Requests()) || rep.Sent.ToolDefTokens == 0 {
		t.Errorf("sent %+v in %d requests, want %d bytes in %d requests, tool definitions counted", rep.Sent, rep.Requests, total, len(srv.Requests()))
	}
	for _, r := range srv.Requests() {
		if bytes.Contains(r.Raw, []byte("SECRET-IN-ENV")) || bytes.Contains(r.Raw, []byte("ignored with --live")) {
			t.Errorf("a request carried what it must not: %s", r.Raw)
		}
	}
}

// TestBenchTasksOfOthers: tasks written by others may carry fields of
// their own and sections for people; a task the runner cannot read, or
// whose expectation it does not know, fails alone and the others run.
func TestBenchTasksOfOthers(t *testing.T) {
	exe, err := exec.LookPath("pair")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("extra.txtar", `id: extra-fields
description: a field of the author's own
tags: [qna]
command: ask
request: what is in the readme?
decisions: y
expect:
  exit: 0
  final_contains: [hello]
  trailers: []
-- notes/for-people.md --
not the runner's
-- repo/README.md --
hello
-- model/001.json --
{"content": "It says hello.", "role": "assistant"}
`)
	write("unknown.txtar", `request: x
expect:
  exit: 0
  smells_nice: true
-- repo/a.txt --
a
`)
	write("broken.txtar", "request: [unclosed\n-- repo/a.txt --\na\n")
	var out bytes.Buffer
	err = bench.Run(context.Background(), bench.Options{Args: []string{dir}, Exe: exe, Jobs: 1, Out: &out})
	got := out.String()
	if err == nil || !strings.Contains(got, "1 passed, 2 failed") {
		t.Fatalf("got %v:\n%s", err, got)
	}
	for _, want := range []string{"PASS extra-fields", "FAIL unknown: unknown expectations smells_nice", "FAIL broken: cannot read the task"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

// TestBenchInstalled builds pair as a person installs it and runs pair
// bench in a directory outside the source, from where no task file can be
// reached: the suite built into the binary runs, with its scripted
// replies, and every task passes.
func TestBenchInstalled(t *testing.T) {
	tmp := t.TempDir()
	exe := filepath.Join(tmp, "bin", "pair")
	build := exec.Command("go", "build", "-trimpath", "-tags", "urfave_cli_no_docs", "-o", exe, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "app", "bench", "tasks", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("the suite's files: %v %v", files, err)
	}
	work, home := filepath.Join(tmp, "work"), filepath.Join(tmp, "home")
	for _, d := range []string{work, home} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(exe, "bench", "-j", "2")
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("pair bench: %v\n%s", err, out)
	}
	if want := fmt.Sprintf("\n%d passed, 0 failed\n", len(files)); !strings.Contains(string(out), want) {
		t.Errorf("got %s, want %q", out, want)
	}
}

// TestBenchFlags: the flags become bench.Options, the model of --live
// comes from the configuration, and --live without a model is a usage
// error.
func TestBenchFlags(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	for _, k := range []string{"OPENAI_BASE_URL", "OPENAI_API_BASE", "OPENAI_API_KEY", "PAIR_MODEL"} {
		t.Setenv(k, "")
	}
	run := func(args ...string) (bench.Options, error) {
		t.Helper()
		var got bench.Options
		var out bytes.Buffer
		cmd := newBenchCmd(&factory{IO: console.IO{In: strings.NewReader(""), Out: &out, Err: &out}}, func(_ context.Context, o bench.Options) error {
			got = o
			return nil
		})
		app := &cli.App{Name: "pair", Commands: []*cli.Command{cmd}, Writer: &out, ErrWriter: &out}
		err := app.Run(append([]string{"pair", "bench"}, args...))
		return got, err
	}

	got, err := run()
	if err != nil || len(got.Args) != 0 || got.Live || got.Jobs != 1 || got.Exe == "" {
		t.Errorf("no flags: got %+v, %v; want the built-in suite, offline, one job", got, err)
	}

	var ue *output.UsageError
	if _, err := run("--live"); !errors.As(err, &ue) {
		t.Errorf("--live without a model: got %v, want a usage error", err)
	}

	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
	t.Setenv("OPENAI_API_KEY", "k")
	t.Setenv("PAIR_MODEL", "m")
	got, err = run("--live", "-k", "3", "-j", "2", "--json", "-v", "a.txtar", "tasks")
	want := bench.Options{Args: []string{"a.txtar", "tasks"}, Jobs: 2, Verbose: true, Live: true, K: 3, JSON: true,
		Model: bench.Model{APIBase: "http://127.0.0.1:9/v1", APIKey: "k", Model: "m"}}
	if err != nil || !slices.Equal(got.Args, want.Args) || got.Jobs != want.Jobs || got.Verbose != want.Verbose ||
		got.Live != want.Live || got.K != want.K || got.JSON != want.JSON || got.Model != want.Model || got.Out == nil {
		t.Errorf("got %+v, %v; want %+v", got, err, want)
	}
}

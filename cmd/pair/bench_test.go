package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/agent/agenttest"
	"github.com/pair-cli/pair/app/bench"
	"github.com/pair-cli/pair/internal/output"
)

// TestBenchSuite runs pair bench on the project's suite: every task must
// pass.
func TestBenchSuite(t *testing.T) {
	tasks, err := bench.Load([]string{filepath.Join("..", "..", "testdata", "bench")})
	if err != nil {
		t.Fatal(err)
	}
	// TestMain puts the test binary on PATH as pair.
	exe, err := exec.LookPath("pair")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err = runBench(context.Background(), tasks, benchOptions{Exe: exe, Jobs: 2, Verbose: true, IO: stdio{In: strings.NewReader(""), Out: &out, Err: &out}})
	if err != nil {
		t.Errorf("pair bench: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), " passed, 0 failed") {
		t.Errorf("got %s", out.String())
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
	tasks, err := bench.Load([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err = runBench(context.Background(), tasks, benchOptions{
		Exe: exe, Jobs: 1, JSON: true, Live: true, K: 2,
		Model: modelConfig{APIBase: srv.URL(), APIKey: "k", Model: "live-model"},
		IO:    stdio{In: strings.NewReader(""), Out: &out, Err: &out},
	})
	var ee *output.ExitError
	if !errors.As(err, &ee) || ee.Code != exitFailure {
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
	tasks, err := bench.Load([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err = runBench(context.Background(), tasks, benchOptions{Exe: exe, Jobs: 1, IO: stdio{In: strings.NewReader(""), Out: &out, Err: &out}})
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

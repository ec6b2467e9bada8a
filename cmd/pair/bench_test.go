package main

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchSuite runs pair bench on the project's suite: every task must
// pass.
func TestBenchSuite(t *testing.T) {
	tasks, err := loadBenchTasks([]string{filepath.Join("..", "..", "testdata", "bench")})
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

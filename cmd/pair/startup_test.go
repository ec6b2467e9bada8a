package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pair-cli/pair/internal/console"
)

// TestPackageInitIsCheap: pair's own packages build nothing heavy when the
// program starts (regular expressions and tables are built on first use),
// since every command, `pair --version` included, pays for package init.
// It reruns this test binary with GODEBUG=inittrace=1, which prints what
// each package's init allocated; allocations are deterministic, unlike
// times.
func TestPackageInitIsCheap(t *testing.T) {
	const budget = 6 << 10 // bytes per package; one compiled regexp takes more
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("rerun the test binary: %v\n%s", err, out)
	}
	line := regexp.MustCompile(`(?m)^init (github\.com/pair-cli/pair/\S+) @.*, (\d+) bytes, (\d+) allocs$`)
	found := line.FindAllStringSubmatch(string(out), -1)
	if len(found) == 0 {
		t.Fatalf("no init line of a pair package in the trace:\n%s", out)
	}
	for _, m := range found {
		if m[1] == "github.com/pair-cli/pair/cmd/pair" {
			continue // here its init builds the test files' variables too
		}
		if n, _ := strconv.Atoi(m[2]); n > budget {
			t.Errorf("init of %s allocates %d bytes in %s allocs (budget %d): build it on first use", m[1], n, m[3], budget)
		}
	}
}

// TestSignalsWatchedFromCommandStart: main starts watching the signals
// (goroutines, and threads to run them) when a command starts, and not
// for pair --version and --help, which only print.
func TestSignalsWatchedFromCommandStart(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"pair", "--version"}, false},
		{[]string{"pair", "--help"}, false},
		{[]string{"pair", "bench", "no_such_task"}, true},
	} {
		var out bytes.Buffer
		started := 0
		run(context.Background(), tc.args, console.IO{In: strings.NewReader(""), Out: &out, Err: &out}, func() { started++ })
		if got := started > 0; got != tc.want || started > 1 {
			t.Errorf("%q: started called %d times, want it called: %v\n%s", tc.args, started, tc.want, out.String())
		}
	}
}

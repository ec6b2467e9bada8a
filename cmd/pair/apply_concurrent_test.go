package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/pair-cli/pair/repo/repotest"
)

// TestApplyConcurrent runs two pair processes (this test binary, which
// testscript.Main puts on PATH as pair) applying --yes at once on one
// file, 50 times: every change reported as
// applied is in the working tree and in HEAD, none that failed is, and
// the file equals HEAD's afterwards (git status is clean).
func TestApplyConcurrent(t *testing.T) {
	pair, err := exec.LookPath("pair")
	if err != nil {
		t.Fatalf("the pair command of the scripts: %v", err)
	}
	home := t.TempDir()
	for k, v := range map[string]string{
		"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME":     "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
		"GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com",
		"NO_COLOR": "1",
		// Under -race, each process would otherwise sleep a second at exit.
		"GORACE": strings.TrimSpace(os.Getenv("GORACE") + " atexit_sleep_ms=0"),
	} {
		t.Setenv(k, v)
	}
	dir := t.TempDir()
	repotest.Git(t, dir, "init", "-q", "-b", "main", ".")
	// Two lines far apart, each changed by one of the two applies.
	var lines []string
	for i := range 20 {
		lines = append(lines, fmt.Sprintf("filler %d", i))
	}
	lines[2], lines[16] = "a = 0", "b = 0"
	content := func(a, b int) string {
		ls := append([]string(nil), lines...)
		ls[2], ls[16] = fmt.Sprintf("a = %d", a), fmt.Sprintf("b = %d", b)
		return strings.Join(ls, "\n") + "\n"
	}
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte(content(0, 0)), 0o644); err != nil {
		t.Fatal(err)
	}
	repotest.Git(t, dir, "add", "-A")
	repotest.Git(t, dir, "commit", "-q", "-m", "initial")

	patch := func(name string, line, from, to int) string {
		p := filepath.Join(t.TempDir(), name+".diff")
		d := fmt.Sprintf("--- a/f.txt\n+++ b/f.txt\n@@ -%d,3 +%d,3 @@\n %s\n-%s = %d\n+%s = %d\n %s\n",
			line, line, lines[line-1], name, from, name, to, lines[line+1])
		if err := os.WriteFile(p, []byte(d), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b := 0, 0
	busy := 0
	for round := 1; round <= 50; round++ {
		pa, pb := patch("a", 2, a, round), patch("b", 16, b, round)
		var wg sync.WaitGroup
		codes := make([]int, 2)
		errs := make([]bytes.Buffer, 2)
		for i, p := range []string{pa, pb} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command(pair, "apply", "--yes", p)
				cmd.Dir = dir
				cmd.Stderr = &errs[i]
				err := cmd.Run()
				var ee *exec.ExitError
				switch {
				case errors.As(err, &ee):
					codes[i] = ee.ExitCode()
				case err != nil:
					codes[i] = -1
					fmt.Fprintf(&errs[i], "%v", err)
				}
			}()
		}
		wg.Wait()
		for i, code := range codes {
			switch {
			case code == 0 && i == 0:
				a = round
			case code == 0:
				b = round
			case strings.Contains(errs[i].String(), "another pair is applying in this repository"):
				busy++
			default:
				t.Fatalf("round %d: apply %d exited %d: %s", round, i, code, errs[i].String())
			}
		}
		want := content(a, b)
		got, err := os.ReadFile(filepath.Join(dir, "f.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Fatalf("round %d (exit codes %v): the working tree has\n%s\nwant\n%s\nstderr: %s / %s", round, codes, got, want, errs[0].String(), errs[1].String())
		}
		if head := repotest.Git(t, dir, "show", "HEAD:f.txt"); head != want {
			t.Fatalf("round %d (exit codes %v): HEAD has\n%s\nwant\n%s", round, codes, head, want)
		}
		if st := repotest.Git(t, dir, "status", "--porcelain"); st != "" {
			t.Fatalf("round %d: git status --porcelain:\n%s", round, st)
		}
	}
	if busy > 0 {
		t.Logf("%d applies found the other holding the lock for longer than they wait", busy)
	}
	if n := strings.TrimSpace(repotest.Git(t, dir, "rev-list", "--count", "HEAD")); n != fmt.Sprint(1+2*50-busy) {
		t.Errorf("%s commits, want %d", n, 1+2*50-busy)
	}
}

package apply

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/console"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
	"github.com/pair-cli/pair/review"
)

// scratch makes a git repository holding calc.go, committed, and returns
// its directory.
func scratch(t *testing.T) string {
	t.Helper()
	dir := repotest.Init(t, map[string]string{"calc.go": calc})
	// pair's own commits take the identity of the repository's configuration.
	repotest.Git(t, dir, "config", "user.name", "Pair Tester")
	repotest.Git(t, dir, "config", "user.email", "tester@example.com")
	return dir
}

const calc = "package calc\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"

// The patch has no line numbers and spaces where the file has a tab: it
// places by content, at the indentation pass, and is re-indented.
const patch = "--- a/calc.go\n+++ b/calc.go\n@@ ... @@\n // Add adds.\n func Add(a, b int) int {\n-    return a + b\n+    return b + a\n }\n"

// options are Options for dir, reading standard input from in, with the
// streams in buffers.
func options(dir string, in string) (Options, *bytes.Buffer, *bytes.Buffer) {
	var out, errw bytes.Buffer
	return Options{
		Dir:      dir,
		IO:       console.IO{In: strings.NewReader(in), Out: &out, Err: &errw},
		OpenTree: repo.Open,
	}, &out, &errw
}

func TestHowToDecide(t *testing.T) {
	tests := []struct {
		name string
		o    Options
		want review.Mode
		err  string // a usage error saying this, if not ""
	}{
		{"yes and decisions", Options{Yes: true, Decisions: "y"}, 0, "cannot be used together"},
		{"check", Options{Check: true}, review.DecideCheck, ""},
		{"yes", Options{Yes: true}, review.DecideYes, ""},
		{"letters", Options{Decisions: "yn"}, review.DecideLetters, ""},
		{"a file, no terminal", Options{Patch: "x.diff"}, review.DecideLines, ""},
		{"standard input, no answers", Options{Patch: "-"}, 0, "give --decisions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := howToDecide(tt.o)
			if tt.err != "" {
				var ue *output.UsageError
				if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got %v, want a usage error saying %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

// TestRunCheck: --check prints where the hunk goes and how, and writes
// nothing; with --json the report says the same.
func TestRunCheck(t *testing.T) {
	dir := scratch(t)
	o, out, _ := options(dir, patch)
	o.Check = true
	if err := Run(context.Background(), o); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !strings.Contains(out.String(), "calc.go:3-6\tindent\n\tadded lines re-indented") {
		t.Errorf("output %q does not give the place and pass", out.String())
	}
	if got := repotest.Git(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("--check changed the tree: %q", got)
	}

	o, out, _ = options(dir, patch)
	o.Check, o.JSON = true, true
	if err := Run(context.Background(), o); err != nil {
		t.Fatalf("Run --json: %v", err)
	}
	var r Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("--json output is not JSON: %v\n%s", err, out)
	}
	if r.Status != StatusOK || !r.Check || r.Applied || r.Summary["placed"] != 1 || len(r.Files) != 1 || r.Files[0].Path != "calc.go" {
		t.Errorf("report: %+v", r)
	}
}

// TestRunYes: --yes writes and commits the hunk with its audit trailer.
func TestRunYes(t *testing.T) {
	dir := scratch(t)
	o, _, _ := options(dir, patch)
	o.Yes, o.Message = true, "swap the operands"
	if err := Run(context.Background(), o); err != nil {
		t.Fatalf("Run: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "calc.go"))
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(calc, "a + b", "b + a", 1); string(b) != want {
		t.Errorf("calc.go = %q, want %q", b, want)
	}
	msg := repotest.Git(t, dir, "log", "-1", "--format=%B")
	if !strings.HasPrefix(msg, "swap the operands") || !strings.Contains(msg, "Pair-Hunk: calc.go:3 ") {
		t.Errorf("commit message %q lacks the subject or the hunk's trailer", msg)
	}
	if got := repotest.Git(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("tree not clean after the commit: %q", got)
	}
}

// TestRunBadInput: an empty standard input and a patch that names no hunk
// fail with a clear message and change nothing.
func TestRunBadInput(t *testing.T) {
	dir := scratch(t)
	for _, tt := range []struct {
		name, in string
		is       error  // the refusal, when it has a type
		want     string // what the error says beyond its type
	}{
		{"empty", " \n", ErrEmptyInput, ""},
		{"no hunk", "--- a/calc.go\n+++ b/calc.go\nsome prose, not a hunk\n", edit.ErrNoHunks, "calc.go"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o, _, _ := options(dir, tt.in)
			o.Yes = true
			err := Run(context.Background(), o)
			if err == nil || tt.is != nil && !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %v saying %q", err, tt.is, tt.want)
			}
			if got := repotest.Git(t, dir, "status", "--porcelain"); got != "" {
				t.Errorf("the tree changed: %q", got)
			}
		})
	}
}

func TestSummarizePaths(t *testing.T) {
	if got := summarizePaths([]string{"a", "b"}); got != "a, b" {
		t.Errorf("two paths: %q", got)
	}
	if got := summarizePaths([]string{"a", "b", "c", "d", "e"}); got != "a, b and 3 more files" {
		t.Errorf("five paths: %q", got)
	}
}

// TestYesLeavesConfigurationAndFails: --yes writes and commits the rest of
// a patch but not an edit to .gitignore, which only a person approves, and
// fails, since the patch was not applied whole; --json names the file.
func TestYesLeavesConfigurationAndFails(t *testing.T) {
	dir := repotest.Init(t, map[string]string{"calc.go": calc, ".gitignore": "*.o\n"})
	repotest.Git(t, dir, "config", "user.name", "Pair Tester")
	repotest.Git(t, dir, "config", "user.email", "tester@example.com")
	patch := "--- a/.gitignore\n+++ b/.gitignore\n@@ -1 +1,2 @@\n *.o\n+*.a\n" +
		"--- a/calc.go\n+++ b/calc.go\n@@ -5 +5 @@\n-\treturn a + b\n+\treturn b + a\n"
	out, err := applyPatch(t, dir, patch, func(o *Options) { o.Yes, o.JSON = true, true })
	if !errors.Is(err, ErrNotAhead) || !strings.Contains(err.Error(), ".gitignore") {
		t.Fatalf("got %v, want ErrNotAhead naming .gitignore", err)
	}
	var r Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(r.NotAhead) != 1 || r.NotAhead[0] != ".gitignore" || !r.Applied {
		t.Errorf("report: not_approved_ahead %q, applied %v; want [.gitignore], true", r.NotAhead, r.Applied)
	}
	if got := repotest.Git(t, dir, "show", "HEAD:calc.go"); !strings.Contains(got, "return b + a") {
		t.Errorf("calc.go was not committed:\n%s", got)
	}
	if got := repotest.Git(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf(".gitignore changed: %q", got)
	}
}

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/app/chat"
	"github.com/pair-cli/pair/app/demo"
	"github.com/pair-cli/pair/app/history"
	"github.com/pair-cli/pair/app/mcpservers"
	"github.com/pair-cli/pair/app/sessions"
	"github.com/pair-cli/pair/app/trust"
	"github.com/pair-cli/pair/internal/console"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/repo"
)

// runCmd runs the command line pair ARGS with the one command cmd, as
// run does (flags after arguments, usage errors typed), and returns its
// error.
func runCmd(t *testing.T, cmd *cli.Command, args ...string) error {
	t.Helper()
	app := &cli.App{
		Name: "pair", Writer: io.Discard, ErrWriter: io.Discard, UseShortOptionHandling: true,
		ExitErrHandler: func(*cli.Context, error) {},
		Commands:       withUsageErrors("", cmd),
	}
	return app.RunContext(context.Background(), flagsFirst(app, append([]string{"pair"}, args...)))
}

// capture returns a runF that keeps the options it is given.
func capture[O any](got *O) func(context.Context, O) error {
	return func(_ context.Context, o O) error { *got = o; return nil }
}

var testFactory = &factory{Self: func() string { return "/bin/pair" }}

// TestCommandOptions checks that each command's flags and arguments
// become its options, with the call into its package left out (runF).
func TestCommandOptions(t *testing.T) {
	t.Run("log", func(t *testing.T) {
		var got history.LogOptions
		if err := runCmd(t, newLogCmd(testFactory, capture(&got)), "log", "-n", "3", "--stats", "--json", "-C", "sub"); err != nil {
			t.Fatal(err)
		}
		if got.Dir != "sub" || got.Limit != 3 || !got.Stats || !got.JSON || got.OpenTree == nil {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("undo", func(t *testing.T) {
		var got history.UndoOptions
		if err := runCmd(t, newUndoCmd(testFactory, capture(&got)), "undo", "--dry-run", "--directory=sub"); err != nil {
			t.Fatal(err)
		}
		if got.Dir != "sub" || !got.DryRun || got.JSON || got.OpenTree == nil {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("trust", func(t *testing.T) {
		var got trust.Options
		if err := runCmd(t, newTrustCmd(testFactory, capture(&got)), "trust", "--revoke"); err != nil {
			t.Fatal(err)
		}
		if !got.Revoke || got.Dir != "" || got.OpenTree == nil {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("sessions", func(t *testing.T) {
		var got sessions.Options
		if err := runCmd(t, newSessionsCmd(testFactory, capture(&got)), "sessions", "--json"); err != nil {
			t.Fatal(err)
		}
		if !got.JSON || got.Remove != nil || got.OpenTree == nil {
			t.Errorf("list: got %+v", got)
		}
		if err := runCmd(t, newSessionsCmd(testFactory, capture(&got)), "sessions", "rm", "a", "b", "-C", "sub"); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Remove, []string{"a", "b"}) || got.Dir != "sub" {
			t.Errorf("rm: got %+v", got)
		}
	})
	t.Run("mcp list", func(t *testing.T) {
		// --json before list is the parent's; after it, the list's.
		for _, args := range [][]string{{"mcp", "list", "--json"}, {"mcp", "--json", "list"}} {
			var got mcpservers.ListOptions
			if err := runCmd(t, newMCPCmd(testFactory, capture(&got)), args...); err != nil {
				t.Fatal(err)
			}
			if !got.JSON || got.Self != "/bin/pair" || got.LoadConfig == nil || got.OpenTree == nil {
				t.Errorf("%v: got %+v", args, got)
			}
		}
	})
	t.Run("edit", func(t *testing.T) {
		var got chat.Options
		err := runCmd(t, newEditCmd(testFactory, capture(&got)), "edit", "a.go", "-m", "fix it", "--yes", "--allow-secrets", "--session", "s1")
		if err != nil {
			t.Fatal(err)
		}
		if got.Mode != agent.ModeEdit || !reflect.DeepEqual(got.Files, []string{"a.go"}) || got.Request != "fix it" || !got.OneShot ||
			!got.Yes || got.Session != "s1" || got.Access != (repo.Access{Secrets: true}) {
			t.Errorf("got %+v", got)
		}
		if got.OpenTree == nil || got.LoadConfig == nil || got.StartMCP == nil || got.Undo == nil {
			t.Errorf("the command's functions are not all set: %+v", got)
		}
	})
	t.Run("ask", func(t *testing.T) {
		var got chat.Options
		if err := runCmd(t, newAskCmd(testFactory, capture(&got)), "ask", "where", "is", "-f", "x.go", "it?"); err != nil {
			t.Fatal(err)
		}
		if got.Mode != agent.ModeAsk || got.Request != "where is it?" || !reflect.DeepEqual(got.Files, []string{"x.go"}) || !got.OneShot {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("review", func(t *testing.T) {
		var got chat.Options
		if err := runCmd(t, newReviewCmd(testFactory, capture(&got)), "review", "--approve-command", "-d", "yn"); err != nil {
			t.Fatal(err)
		}
		if !got.Resume || !got.ApproveCommand || got.Decisions != "yn" {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("demo", func(t *testing.T) {
		t.Setenv("OPENAI_BASE_URL", "")
		t.Setenv("OPENAI_API_BASE", "")
		var got demo.Options
		if err := runCmd(t, newDemoCmd(testFactory, capture(&got)), "demo", "--dir", "d", "--keep=false", "--api-base", "http://127.0.0.1:1/v1"); err != nil {
			t.Fatal(err)
		}
		if got.Dir != "d" || got.Keep || !got.Live || got.Session == nil || got.OpenTree == nil {
			t.Errorf("got %+v", got)
		}
	})
}

// TestFlagErrorsTyped checks that a bad flag or argument, of a command or
// of a subcommand, is an *output.UsageError (exit status 2) that names
// the command, and that run prints it as one line with nothing on
// standard output.
func TestFlagErrorsTyped(t *testing.T) {
	never := func(context.Context, mcpservers.ListOptions) error { t.Error("ran"); return nil }
	for _, tc := range []struct {
		cmd  *cli.Command
		args []string
		want string
	}{
		{newMCPCmd(testFactory, never), []string{"mcp", "list", "--frobnicate"}, "mcp: flag provided but not defined: -frobnicate (see 'pair mcp --help')"},
		{newSessionsCmd(testFactory, nil), []string{"sessions", "rm", "--", "--bogus"}, "sessions rm: "}, // not a flag: a name
		{newLogCmd(testFactory, nil), []string{"log", "-n", "many"}, "log: invalid value \"many\" for flag -n"},
		{newLogCmd(testFactory, nil), []string{"log", "-n"}, "log: flag needs an argument: -n"},
		{newSessionsCmd(testFactory, nil), []string{"sessions", "rm", "--bogus", "x"}, "sessions: flag provided but not defined: -bogus"},
	} {
		err := runCmd(t, tc.cmd, tc.args...)
		var ue *output.UsageError
		if !errors.As(err, &ue) || !strings.HasPrefix(ue.Msg, tc.want) {
			t.Errorf("%v: got %T %v, want a usage error %q", tc.args, err, err, tc.want)
		}
	}
	var out, errw bytes.Buffer
	code := run(context.Background(), []string{"pair", "sessions", "rm", "--bogus", "x"}, console.IO{In: strings.NewReader(""), Out: &out, Err: &errw}, nil)
	if code != output.Usage || out.Len() != 0 || strings.Count(errw.String(), "\n") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2, nothing, one line", code, out.String(), errw.String())
	}
}

// TestAccessHintTyped checks that a refused secret or ignored path names
// the flag that allows it, found by its type through any wrapping (an
// ExitError's included), and only for a command that takes the flag.
func TestAccessHintTyped(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		err  error
		want string
	}{
		{"edit", fmt.Errorf("edit: %w", &repo.AccessError{Path: ".env", Err: repo.ErrSecret}),
			"pair: edit: .env: path may hold secrets (--allow-secrets allows it)\n"},
		{"ask", &output.ExitError{Code: output.Failure, Err: fmt.Errorf("ask: %w", &repo.AccessError{Path: "b.log", Err: repo.ErrIgnored})},
			"pair: ask: b.log: path is ignored by git (--allow-ignored allows it)\n"},
		// pair log has no such flag: the general advice stays.
		{"log", fmt.Errorf("log: %w", &repo.AccessError{Path: ".env", Err: repo.ErrSecret}),
			"pair: log: .env: path may hold secrets (allow it explicitly to use it)\n"},
	} {
		var errw bytes.Buffer
		io := console.IO{In: strings.NewReader(""), Out: io.Discard, Err: &errw}
		code := exitCode(context.Background(), io, tc.err, newApp(testFactory).Command(tc.cmd))
		if code != output.Failure || errw.String() != tc.want {
			t.Errorf("%s: exit %d, stderr %q; want 1, %q", tc.cmd, code, errw.String(), tc.want)
		}
	}
}

func TestMostSimilar(t *testing.T) {
	names := []string{"edit", "ask", "review", "sessions", "bench", "trust", "apply", "demo", "undo", "log", "mcp"}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"aply", []string{"apply"}},
		{"appyl", []string{"apply"}}, // two letters swapped
		{"reveiw", []string{"review"}},
		{"sess", []string{"sessions"}}, // a prefix
		{"lgo", []string{"log"}},
		{"ed", []string{"edit"}},
		{"mdp", []string{"mcp"}},
		{"do", nil}, // at most one letter from a two-letter name
		{"frobnicate", nil},
		{"x", nil},
	} {
		if got := mostSimilar(tc.name, names); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("mostSimilar(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

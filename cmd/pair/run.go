package main

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/app/chat"
	"github.com/pair-cli/pair/internal/console"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/safetext"
)

// Exit codes, as the output contract sets them (package output).
const (
	exitOK          = output.OK
	exitFailure     = output.Failure
	exitUsage       = output.Usage
	exitNeedsReview = output.NeedsReview
	exitInterrupted = output.Interrupted
)

// stdio carries the process's standard streams with their terminal and
// colour state, set once in main, so tests can replace them.
type stdio = console.IO

// usagef is an error in how pair was invoked (exit code 2).
func usagef(format string, args ...any) error { return output.Usagef(format, args...) }

// run builds the command line, runs it and maps the outcome to an exit
// code. It is the only place that prints errors.
func run(ctx context.Context, args []string, io stdio) int {
	app := newApp(io)
	err := app.RunContext(ctx, flagsFirst(app, args))
	if err == nil {
		return exitOK
	}
	has := func(flag string) bool { return false }
	if len(args) > 1 {
		if cmd := app.Command(args[1]); cmd != nil {
			has = func(flag string) bool { return commandHasFlag(cmd, flag) }
		}
	}
	// An error can name files and quote lines of a patch or a model's
	// reply: shown escaped (see internal/safetext).
	var oe *output.ExitError
	if errors.As(err, &oe) {
		if oe.Msg != "" {
			fmt.Fprintf(io.Err, "pair: %s\n", safetext.Text(chat.AccessHint(oe.Msg, has)))
		}
		return oe.Code
	}
	fmt.Fprintf(io.Err, "pair: %s\n", safetext.Text(chat.AccessHint(strings.TrimPrefix(err.Error(), "pair: "), has)))
	var ue *output.UsageError
	switch {
	case errors.As(err, &ue) || isFlagError(err):
		return exitUsage
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		return exitInterrupted
	}
	return exitFailure
}

// commandHasFlag reports whether cmd takes the flag --name.
func commandHasFlag(cmd *cli.Command, name string) bool {
	for _, f := range cmd.Flags {
		if slices.Contains(f.Names(), name) {
			return true
		}
	}
	return false
}

// withUsageErrors makes each command report a bad flag or argument as a
// usage error (exit 2, one line on standard error) instead of printing its
// help on standard output, which a caller may be parsing.
func withUsageErrors(cmds ...*cli.Command) []*cli.Command {
	for _, c := range cmds {
		name := c.Name
		c.OnUsageError = func(_ *cli.Context, err error, _ bool) error {
			return usagef("%s: %v (see 'pair %s --help')", name, err, name)
		}
	}
	return cmds
}

// isFlagError recognises urfave/cli's errors about flags and arguments.
func isFlagError(err error) bool {
	s := err.Error()
	return strings.Contains(s, "flag provided but not defined") ||
		strings.Contains(s, "flag needs an argument") ||
		strings.Contains(s, "invalid value") ||
		strings.Contains(s, "Required flag")
}

func newApp(io stdio) *cli.App {
	return &cli.App{
		Name:      "pair",
		Usage:     "pair-program with a language model, reviewing every hunk it proposes",
		UsageText: "pair <command> [options] [arguments]",
		Description: "pair applies unified diffs hunk by hunk with tolerant, never-wrong placement.\n" +
			"Run 'pair <command> --help' for a command's options.",
		Reader:                 io.In,
		Writer:                 io.Out,
		ErrWriter:              io.Err,
		Version:                version(),
		UseShortOptionHandling: true,
		ExitErrHandler:         func(*cli.Context, error) {}, // run prints errors
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return usagef("%v", err)
		},
		Commands: withUsageErrors(
			editCommand(io),
			askCommand(io),
			reviewCommand(io),
			sessionsCommand(io),
			benchCommand(io),
			trustCommand(io),
			applyCommand(io),
			demoCommand(io),
			undoCommand(io),
			logCommand(io),
			mcpCommand(io),
		),
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return usagef("unknown command %q; run 'pair --help' for the list", c.Args().First())
			}
			return cli.ShowAppHelp(c)
		},
	}
}

// version says which pair this is, from its build information: the main
// module's version when it was built as a module (go install
// github.com/pair-cli/pair/cmd/pair@v1.2.3), else "devel" with the commit
// and its date when the build recorded them ("devel (abc1234 2026-11-29)").
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	var rev, when string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	// go build in a clone stamps a pseudo-version made of the commit
	// (v0.0.0-DATE-REVISION, +dirty with local edits): say devel instead.
	v := bi.Main.Version
	pseudo := strings.Contains(v, "+dirty") || len(rev) >= 12 && strings.Contains(v, rev[:12])
	if v != "" && v != "(devel)" && !pseudo {
		return v
	}
	if rev == "" {
		return "devel"
	}
	info := rev[:min(len(rev), 7)]
	if len(when) >= 10 {
		info += " " + when[:10]
	}
	if modified {
		info += ", modified"
	}
	return "devel (" + info + ")"
}

// flagsFirst moves a command's flags before its arguments, so that
// "pair edit app.go -m TEXT" works as "pair edit -m TEXT app.go" (the
// flag package stops at the first argument). A flag's value goes with it;
// "--" ends the flags.
func flagsFirst(app *cli.App, args []string) []string {
	if len(args) < 3 {
		return args
	}
	cmd := app.Command(args[1])
	if cmd == nil {
		return args
	}
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			takesValue[n] = !isBool
		}
	}
	var flags, rest []string
	for i := 2; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			rest = append(rest, a)
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		flags = append(flags, a)
		if takesValue[name] && !hasValue && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	out := append([]string{args[0], args[1]}, flags...)
	return append(out, rest...)
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/app/mcpservers"
	"github.com/pair-cli/pair/internal/console"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/safetext"
	"github.com/pair-cli/pair/repo"
)

// factory is what every command takes from the process it runs in (gh's
// cmdutil.Factory): the standard streams, and pair's own path.
type factory struct {
	IO console.IO
	// Self is how pair names itself in .pair.yml (${PAIR}), resolved once,
	// before -C changes the directory.
	Self func() string
	// Started, when not nil, is called when a command starts (not for
	// pair --version or --help, which only print): main watches the
	// signals from then on.
	Started func()
}

// run builds the command line, runs it and maps the outcome to an exit
// code. It is the only place that prints errors. started, when not nil,
// is called when a command starts (factory.Started).
func run(ctx context.Context, args []string, io console.IO, started func()) int {
	f := &factory{IO: io, Self: sync.OnceValue(func() string { return mcpservers.Self(args[0]) }), Started: started}
	app := newApp(f)
	err := app.RunContext(ctx, flagsFirst(app, args))
	return exitCode(ctx, io, err, app.Command(commandName(app, args)))
}

// exitCode prints err, the outcome of the command cmd (nil when there was
// none), and returns the exit code for it. A refused secret or ignored
// path names the flag that allows it, when cmd takes it.
func exitCode(ctx context.Context, io console.IO, err error, cmd *cli.Command) int {
	if err == nil {
		return output.OK
	}
	// An error can name files and quote lines of a patch or a model's
	// reply: shown escaped (see internal/safetext).
	var oe *output.ExitError
	if errors.As(err, &oe) {
		if msg := oe.Error(); msg != "" {
			fmt.Fprintf(io.Err, "pair: %s\n", safetext.Text(allowHint(msg, err, cmd)))
		}
		return oe.Code
	}
	fmt.Fprintf(io.Err, "pair: %s\n", safetext.Text(allowHint(strings.TrimPrefix(err.Error(), "pair: "), err, cmd)))
	var ue *output.UsageError
	switch {
	case errors.As(err, &ue):
		return output.Usage
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		return output.Interrupted
	}
	return output.Failure
}

// allowHint returns msg, the text of err, naming the flag of cmd that
// allows the secret or ignored path err refused, when cmd takes it.
func allowHint(msg string, err error, cmd *cli.Command) string {
	var ae *repo.AccessError
	if !errors.As(err, &ae) || cmd == nil || !commandHasFlag(cmd, ae.Flag()) {
		return msg
	}
	return ae.Reword(msg, "--"+ae.Flag()+" allows it")
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

// withUsageErrors makes each command, and each of its subcommands, report
// a bad flag or argument as a usage error (exit 2, one line on standard
// error) instead of printing its help on standard output, which a caller
// may be parsing.
func withUsageErrors(prefix string, cmds ...*cli.Command) []*cli.Command {
	for _, c := range cmds {
		name := prefix + c.Name
		c.OnUsageError = func(_ *cli.Context, err error, _ bool) error {
			return output.Usagef("%s: %v (see 'pair %s --help')", name, err, name)
		}
		withUsageErrors(name+" ", c.Subcommands...)
	}
	return cmds
}

func newApp(f *factory) *cli.App {
	io := f.IO
	app := &cli.App{
		Name:      "pair",
		Usage:     "pair-program with a language model, reviewing every hunk it proposes",
		UsageText: "pair [-C DIR] <command> [options] [arguments]",
		Description: "A language model proposes changes to your git repository (pair edit, pair ask);\n" +
			"you review each hunk, as with git add -p, and the approved ones are written and\n" +
			"committed with a record of what was decided. pair apply and pair am review a\n" +
			"patch or a mailed series the same way; pair log and pair undo look back.\n" +
			"Run 'pair <command> --help' for a command's options.",
		Reader:                 io.In,
		Writer:                 io.Out,
		ErrWriter:              io.Err,
		Version:                version(),
		UseShortOptionHandling: true,
		CustomAppHelpTemplate:  appHelpTemplate,
		ExitErrHandler:         func(*cli.Context, error) {}, // run prints errors
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return output.Usagef("%v", err)
		},
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "C", Usage: "run as if pair was started in `DIR` (as git -C)"},
			&cli.BoolFlag{Name: "no-pager", Aliases: []string{"P"}, Usage: "do not send long output (pair log) through the pager on a terminal (as git --no-pager)"},
			&cli.StringFlag{Name: "color", Value: console.ColorAuto, Usage: "colour the output: `WHEN` is auto (on a terminal, as git's color.diff and color.ui say, unless NO_COLOR is set), always or never"},
		},
		Before: func(c *cli.Context) error {
			var err error
			if f.IO, err = f.IO.WithColor(c.String("color")); err != nil {
				return output.Usagef("%v", err)
			}
			f.IO.NoPager = c.Bool("no-pager")
			if f.Started != nil {
				f.Started()
			}
			return changeDir(f, c.String("C"))
		},
		Commands: []*cli.Command{
			newEditCmd(f, nil),
			newAskCmd(f, nil),
			newReviewCmd(f, nil),
			newSessionsCmd(f, nil),
			newBenchCmd(f, nil),
			newTrustCmd(f, nil),
			applyCommand(f),
			amCommand(f),
			newDemoCmd(f, nil),
			newUndoCmd(f, nil),
			newLogCmd(f, nil),
			newBlameCmd(f, nil),
			newMCPCmd(f, nil),
			newCompletionCmd(f, nil),
		},
		Action: func(c *cli.Context) error {
			if !c.Args().Present() {
				// A bare pair: the help, and the status of a usage error.
				if err := cli.ShowAppHelp(c); err != nil {
					return err
				}
				return &output.ExitError{Code: output.Usage}
			}
			return unknownCommand(c.Args().First(), c.App.VisibleCommands())
		},
	}
	// Setup adds the help command: its usage errors are typed too.
	app.Setup()
	withUsageErrors("", app.Commands...)
	return app
}

// changeDir changes the process's directory to dir (-C DIR), as git -C
// does: everything after, relative paths included, is as if pair was
// started there. Nothing to do for "".
func changeDir(f *factory, dir string) error {
	if dir == "" {
		return nil
	}
	f.Self() // a relative path that started pair is taken from here
	if err := os.Chdir(dir); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("cannot change to '%s': %w", dir, err)
	}
	return nil
}

// commandName is the name of the command in args (what follows pair and
// its own flags), "" when there is none.
func commandName(app *cli.App, args []string) string {
	if i := commandIndex(app, args); i < len(args) {
		return args[i]
	}
	return ""
}

// commandIndex is the index in args of the command's name, after pair's
// own flags (-C DIR); len(args) when there is none.
func commandIndex(app *cli.App, args []string) int {
	i := 1
	for i < len(args) {
		a := args[i]
		if a == "--" || len(a) < 2 || a[0] != '-' {
			break
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		i++
		if takesValue(app.Flags)[name] && !hasValue {
			i++
		}
	}
	return min(i, len(args))
}

// takesValue says, for each name of flags, whether it takes a value.
func takesValue(flags []cli.Flag) map[string]bool {
	m := map[string]bool{}
	for _, f := range flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			m[n] = !isBool
		}
	}
	return m
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
// "--" ends the flags. pair's own flags (-C DIR) stay before the command.
func flagsFirst(app *cli.App, args []string) []string {
	at := commandIndex(app, args)
	if at+2 > len(args) {
		return args
	}
	cmd := app.Command(args[at])
	if cmd == nil {
		return args
	}
	takes := takesValue(cmd.Flags)
	var flags, rest []string
	for i := at + 1; i < len(args); i++ {
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
		if takes[name] && !hasValue && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	out := append(slices.Clone(args[:at+1]), flags...)
	return append(out, rest...)
}

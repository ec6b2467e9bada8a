package main

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/app/sessions"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/repo"
)

// newSessionsCmd is pair sessions and pair sessions rm; runF, when not
// nil, gets the options instead of sessions.List or sessions.Remove (for
// tests; Remove is set for rm).
func newSessionsCmd(f *factory, runF func(context.Context, sessions.Options) error) *cli.Command {
	call := func(c *cli.Context, o sessions.Options, do func(context.Context, sessions.Options) error) error {
		o.IO = f.IO
		o.OpenTree = func(dir string) (*repo.Tree, error) { return openTree(dir, f.IO.Err) }
		if runF != nil {
			return runF(c.Context, o)
		}
		return do(c.Context, o)
	}
	return &cli.Command{
		Name:  "sessions",
		Usage: "list the saved pair edit sessions, or remove one",
		Description: `Sessions live under the git directory (.git/pair/sessions), never in the
working tree. Each is listed with its last activity, whether a review is
waiting (pair review finishes it), the model and the last request.

  pair sessions            list them, the latest first
  pair sessions rm NAME    remove one`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the list as JSON"},
			// For the completion scripts: the names alone.
			&cli.BoolFlag{Name: "names", Hidden: true},
			directoryFlag(),
		},
		Subcommands: []*cli.Command{{
			Name:      "rm",
			Usage:     "remove a session",
			ArgsUsage: "NAME...",
			Flags:     []cli.Flag{directoryFlag()},
			Action: func(c *cli.Context) error {
				if c.NArg() == 0 {
					return output.Usagef("sessions rm: name the session to remove (pair sessions lists them)")
				}
				return call(c, sessions.Options{Dir: setIn(c, "directory").String("directory"), Remove: c.Args().Slice()}, sessions.Remove)
			},
		}},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return output.Usagef("sessions: unknown argument %q (pair sessions rm NAME removes one)", c.Args().First())
			}
			return call(c, sessions.Options{Dir: c.String("directory"), JSON: c.Bool("json"), Names: c.Bool("names")}, sessions.List)
		},
	}
}

package main

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/app/trust"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/repo"
)

// newTrustCmd is pair trust; runF, when not nil, gets its options instead
// of trust.Run (for tests).
func newTrustCmd(f *factory, runF func(context.Context, trust.Options) error) *cli.Command {
	return &cli.Command{
		Name:  "trust",
		Usage: "trust the repository's .pair.yml to choose the model, its server, commands and limits",
		Description: `A repository's .pair.yml may come with the repository, from someone else.
What in it can run commands, spend your money or time, or send your code
and API key elsewhere (everything but tools: the model, api_base,
api_key_env, test_cmd, allow_commands, mcp_servers, max_steps,
max_retries, context_chars, timeout) is ignored, with a warning, until
you trust that exact file: read it, then run pair trust. Any change to
the file needs trusting again. Your own ~/.pair.yml is always trusted,
unless it is a file of the repository (a repository in your home
directory): then it is the repository's.

pair reads .pair.yml only as a regular file of at most 1 MiB, and the
repository's never through a symbolic link.

  pair trust            trust the repository's .pair.yml as it is now
  pair trust --revoke   stop trusting it`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "revoke", Usage: "stop trusting the repository's .pair.yml"},
			directoryFlag(),
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return output.Usagef("trust: takes no arguments (got %q)", c.Args().First())
			}
			o := trust.Options{
				Dir:      c.String("directory"),
				Revoke:   c.Bool("revoke"),
				IO:       f.IO,
				OpenTree: func(dir string) (*repo.Tree, error) { return openTree(dir, f.IO.Err) },
			}
			if runF != nil {
				return runF(c.Context, o)
			}
			return trust.Run(c.Context, o)
		},
	}
}

package main

import (
	"context"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/app/chat"
	"github.com/pair-cli/pair/app/demo"
	"github.com/pair-cli/pair/internal/config"
	"github.com/pair-cli/pair/repo"
)

func demoCommand(io stdio) *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "review and apply a bundled example diff in a scratch repository",
		Description: `Makes a scratch git repository holding a small Go project, commits it, and
runs pair apply --check and then pair apply on a model's reply whose diff
is damaged in the ways model diffs usually are. On a terminal you review
its hunks one by one (y, n, s, e, ... as in git add -p); otherwise every
hunk is approved (--yes). The approved hunks are committed with pair's
audit trailer, and the commit is shown with git show.

No model, network or configuration is needed; only git. The repository is
kept for you to look at, in a new temporary directory (or in --dir).

With a model configured (OPENAI_BASE_URL, or --api-base; see pair edit),
the demo is a real session instead: pair edit asks the model to make the
same change to the scratch project, with go test run after each change
(.pair.yml's test_cmd), and you review its hunks on a terminal (without
one, they are approved with --yes). --offline keeps the bundled reply.`,
		Flags: append(configFlags(),
			&cli.BoolFlag{Name: "offline", Usage: "use the bundled model reply even when a model is configured"},
			&cli.StringFlag{Name: "dir", Usage: "make the scratch repository under `DIR` (new or empty) instead of a temporary directory"},
			&cli.BoolFlag{Name: "keep", Value: true, Usage: "keep the scratch directory afterwards (--keep=false removes it)"},
		),
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("demo: takes no arguments (got %q)", c.Args().First())
			}
			live := (config.EnvBaseURL(os.Getenv) != "" || c.String("api-base") != "") && !c.Bool("offline")
			return demo.Run(c.Context, demo.Options{Dir: c.String("dir"), Keep: c.Bool("keep"), Live: live, IO: io,
				Session:  func(_ context.Context, o chat.Options) error { return runAgent(c, o) },
				OpenTree: func(dir string) (*repo.Tree, error) { return openTree(dir, io.Err) },
			})
		},
	}
}

package main

import (
	"context"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/app/chat"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/repo"
)

// newAskCmd is pair ask; runF, when not nil, gets its options instead of
// chat.Run (for tests).
func newAskCmd(f *factory, runF func(context.Context, chat.Options) error) *cli.Command {
	return &cli.Command{
		Name:      "ask",
		Usage:     "ask a read-only question about the repository",
		ArgsUsage: "QUESTION...",
		Description: `Asks the model (configured as for pair edit) a question about the
repository. It may read files through read-only tools, and only those:
edits and commands are not offered, and any attempt is blocked. The answer
names the files it relied on. Secret-looking and git-ignored files are not
read unless allowed.

Exit status: 0 answered; 1 failed (also: the answer was cut at the model's
length limit); 2 usage error; 130 interrupted.`,
		Flags: append(configFlags(), verboseFlag(),
			&cli.StringSliceFlag{Name: "file", Aliases: []string{"f"}, Usage: "put `FILE` in context (may be repeated)"},
			&cli.BoolFlag{Name: "json", Usage: "print the outcome as one JSON object; tokens go to standard error"},
			directoryFlag(),
			&cli.BoolFlag{Name: "allow-ignored", Usage: "let the model read files git ignores"},
			&cli.BoolFlag{Name: "allow-secrets", Usage: "let the model read files that look like secrets"},
		),
		Action: func(c *cli.Context) error {
			q := strings.TrimSpace(strings.Join(c.Args().Slice(), " "))
			if q == "" {
				return output.Usagef("ask: the question is empty: pair ask \"where is the database configured?\"")
			}
			return runChat(c, f, chat.Options{
				Mode: agent.ModeAsk, Request: q, OneShot: true, JSON: c.Bool("json"), Dir: c.String("directory"), Files: c.StringSlice("file"),
				Access: repo.Access{Ignored: c.Bool("allow-ignored"), Secrets: c.Bool("allow-secrets")},
				IO:     f.IO,
			}, runF)
		},
	}
}

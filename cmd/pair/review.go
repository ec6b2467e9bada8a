package main

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/app/chat"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/repo"
)

// newReviewCmd is pair review; runF, when not nil, gets its options instead of
// chat.Run (for tests).
func newReviewCmd(f *factory, runF func(context.Context, chat.Options) error) *cli.Command {
	return &cli.Command{
		Name:  "review",
		Usage: "finish a review that a pair edit session paused for, here or in another process",
		Description: `When pair edit needs a decision and cannot ask anyone (no terminal, no
--decisions or --yes), it saves the session under the git directory and
stops with exit status 3. pair review loads that session (the latest one
waiting, or --session NAME), shows the pending proposal on the terminal
(or takes --decisions / --yes), writes and commits the approved hunks,
tells the model what became of each, and lets the model finish its turn.

Decisions already given are kept: a review paused half-way goes on where
it stopped, as long as the files are unchanged (otherwise the hunks are
placed again and offered afresh, or refused). The proposal is placed as
it was when the session paused: a pause with no one to ask offered its
interpreted hunks to the person (see pair edit --help), and --yes or
--decisions approve one only with --interpret; without it they decide
nothing and say which hunks wait. An approved change is
written exactly once: a second pair review finds nothing pending, and a
change that was being written when pair was killed is not written again
but handed back to you to check.

With --web the review happens in a local web page (its address, with a
token, is printed), with Approve, Reject and Always-approve buttons.

--decisions and --yes answer hunks only, never a command or an MCP call:
under them, a command or call (the one the session paused for, or one
the model asks for afterwards) is not made, and the model is told so.
Approve a paused one on the terminal, in the web page, or with
--approve-command, which approves that one call (the one pair named when
it paused) and nothing else.

Exit status: 0 done; 1 failed or nothing pending; 2 usage error; 3 paused
again for review; 130 interrupted.`,
		Flags: append(configFlags(), verboseFlag(),
			&cli.StringFlag{Name: "session", Aliases: []string{"s"}, Usage: "the session `NAME` (default: the latest one waiting for a review)"},
			&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "approve every hunk (never a command or an MCP call)"},
			&cli.StringFlag{Name: "decisions", Aliases: []string{"d"}, Usage: "decide hunks without a terminal: one `LETTERS` per hunk, in order (y, n, a, d, A, q); never a command or an MCP call"},
			&cli.BoolFlag{Name: "approve-command", Usage: "approve the command or MCP call the session waits for (named when it paused), that one only"},
			&cli.BoolFlag{Name: "interpret", Usage: "with --yes or --decisions: accept interpreted hunks (that change lines the model did not mark) and uncertain ones (placed where their reading is doubtful)"},
			&cli.BoolFlag{Name: "json", Usage: "print the outcome as one JSON object"},
			&cli.BoolFlag{Name: "web", Usage: "review in a local web page instead of the terminal"},
			&cli.IntFlag{Name: "port", Value: 8765, Usage: "the web page's `PORT` on 127.0.0.1 (0: any free port)"},
			directoryFlag(),
			&cli.BoolFlag{Name: "no-commit", Usage: "write approved hunks but do not commit them"},
			&cli.BoolFlag{Name: "no-verify", Usage: "do not run the pre-commit and commit-msg hooks"},
			&cli.BoolFlag{Name: "verify", Usage: "run the test command on the approved hunks in a scratch tree before writing them; when it fails, nothing is written and the failure goes back to the model (verify: true in .pair.yml does too)"},
			&cli.BoolFlag{Name: "allow-ignored", Usage: "let the model read and write files git ignores"},
			&cli.BoolFlag{Name: "allow-secrets", Usage: "let the model read and write files that look like secrets"},
		),
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return output.Usagef("review: takes no arguments (got %q); name the session with --session", c.Args().First())
			}
			return runChat(c, f, chat.Options{
				Mode: agent.ModeEdit, Resume: true, Session: c.String("session"), Web: c.Bool("web"), Port: c.Int("port"),
				Yes: c.Bool("yes"), Decisions: c.String("decisions"), ApproveCommand: c.Bool("approve-command"),
				Interpret: c.Bool("interpret"), JSON: c.Bool("json"),
				Dir: c.String("directory"), NoCommit: c.Bool("no-commit"), NoVerify: c.Bool("no-verify"), Verify: c.Bool("verify"),
				Access: repo.Access{Ignored: c.Bool("allow-ignored"), Secrets: c.Bool("allow-secrets")},
				IO:     f.IO,
			}, runF)
		},
	}
}

package main

import (
	"context"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/agent/mcp"
	"github.com/pair-cli/pair/app/chat"
	"github.com/pair-cli/pair/app/history"
	"github.com/pair-cli/pair/app/mcpservers"
	"github.com/pair-cli/pair/internal/config"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/repo"
)

// newEditCmd is pair edit; runF, when not nil, gets its options instead of
// chat.Run (for tests).
func newEditCmd(f *factory, runF func(context.Context, chat.Options) error) *cli.Command {
	return &cli.Command{
		Name:      "edit",
		Usage:     "chat with a model about FILES; review and commit the changes it proposes",
		ArgsUsage: "[FILES...]",
		Description: `Starts a session with a model (any OpenAI-compatible endpoint: set
OPENAI_BASE_URL and OPENAI_API_KEY, or --api-base and --api-key; PAIR_MODEL
or --model names the model; OPENAI_API_BASE is read when OPENAI_BASE_URL is
not set) with FILES in context. The model reads the
repository through read-only tools and proposes changes as diffs; you
review every hunk as with git add -p (see pair apply --help for the keys),
and the approved hunks are written and committed with the audit trailer.
Commands the model wants to run need your approval, unless .pair.yml
allows them (test_cmd, allow_commands). They run without the API key and
the usual secret variables (*_API_KEY, *_TOKEN, *_SECRET, *_PASSWORD and
the like) in their environment, and the key is redacted ([redacted]) from
everything the model is sent and the session keeps.

On a terminal, pair edit is a chat; lines starting with / are commands:
  /add FILE...   put files in context        /drop [FILE...]  take them out
  /ls            list the files in context   /ask QUESTION    a read-only question
  /diff          the uncommitted changes     /undo            take back the last pair commit
  /run COMMAND   run a command, keep its output for the next request
  /test          run the test command        /tokens          tokens used so far
  /clear         forget the conversation     /help, /quit

-m TEXT runs one request and exits, also without a terminal. Without a
terminal a proposal needs --yes (approve every hunk) or --decisions (one
letter per hunk, in order); otherwise pair stops with exit status 3
(needs_review) and writes nothing. --yes and --decisions answer hunks
only: a command or an MCP call that may change things, which .pair.yml
does not allow, is then not made (the model is told, and pair says what
it blocked). Without them, pair asks on the terminal; with no terminal
it pauses the session (exit status 3), and pair review approves the call
on a terminal, with --web, or with --approve-command.

A hunk that places only by reading a change into a line the model did
not mark is "interpreted" (see pair apply --help): a review on the
terminal or the web page offers it with that label, --yes and --decisions
refuse it (the model is told the lines it misread) unless --interpret is
given. The trailer marks an approved one "interpreted". So it is with a
hunk placed where its reading is doubtful, labelled "uncertain" with the
reason (see pair apply --help); the trailer marks it "uncertain".

The session is saved under the git directory after every step, once
the model has answered (a try that fails before leaves no session):
--session NAME names it (and continues it if it exists), --continue goes
on with the latest; pair sessions lists them. A review that cannot be
done now is saved, and pair review finishes it later (--web: in the
browser).

--web serves the chat and the review on a local web page instead (on
127.0.0.1, --port, with a token in the printed address).

.pair.yml (in the repository, then in the home directory) may set: model,
api_base, api_key_env (the variable that holds the key), test_cmd,
allow_commands (a list; "go test *" allows any arguments), max_steps,
max_retries, timeout (how long to wait for the model to start answering;
default 5m), idle_timeout (how long a reply that has begun may send
nothing more; default 5m, or timeout when that is shorter), max_reply
(the largest reply, such as 8MB; default 4MiB), tools (false: send the model no tools, as for a model whose
server refuses them; pair finds that out by itself and remembers it for the
session), mcp_servers: MCP servers whose tools the model may call
(see pair mcp --help; a call that may change anything waits for your
approval, as a command does), instructions (false: send the model no
project instructions, as --no-instructions) and attribution (the trailer
naming the model in its commits: assisted-by, the default, writes
"Assisted-by: pair:MODEL"; co-authored-by writes "Co-authored-by: pair
(MODEL) <pair@localhost>"; none neither; the Pair-* trailers are always
written). Of the repository's file, all but tools counts only once you
trust it (pair trust).

The model is told the project's instructions: AGENTS.md at the top of
the repository (else CLAUDE.md), CONVENTIONS.md, and the nearest
AGENTS.md (else CLAUDE.md) above each file in context. They are the
repository's text: they grant nothing, and every change and command is
still yours to approve. /tokens and --json (metadata.instructions) name
the files sent.

Exit status: 0 done; 1 failed (also: the commit failed, or the reply was
cut at the model's length limit); 2 usage error; 3 paused for review;
130 interrupted.`,
		Flags: append(configFlags(), verboseFlag(),
			&cli.StringFlag{Name: "message", Aliases: []string{"m"}, Usage: "run one request `TEXT` and exit"},
			&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "approve every hunk the model proposes (never its commands or MCP calls)"},
			&cli.StringFlag{Name: "decisions", Aliases: []string{"d"}, Usage: "decide hunks without a terminal: one `LETTERS` per hunk, in order (y, n, a, d, A, q); never a command or an MCP call"},
			&cli.BoolFlag{Name: "interpret", Usage: "with --yes or --decisions: accept interpreted hunks (that change lines the model did not mark) and uncertain ones (placed where their reading is doubtful)"},
			&cli.BoolFlag{Name: "json", Usage: "print the outcome as one JSON object (with -m); tokens go to standard error"},
			directoryFlag(),
			&cli.BoolFlag{Name: "no-commit", Usage: "write approved hunks but do not commit them"},
			&cli.BoolFlag{Name: "no-verify", Usage: "do not run the pre-commit and commit-msg hooks"},
			&cli.BoolFlag{Name: "verify", Usage: "run the test command on the approved hunks in a scratch tree before writing them; when it fails, nothing is written and the failure goes back to the model (verify: true in .pair.yml does too)"},
			&cli.BoolFlag{Name: "allow-ignored", Usage: "let the model read and write files git ignores"},
			&cli.BoolFlag{Name: "allow-secrets", Usage: "let the model read and write files that look like secrets"},
			&cli.StringFlag{Name: "session", Aliases: []string{"s"}, Usage: "continue the session `NAME`, or start one by that name"},
			&cli.BoolFlag{Name: "continue", Aliases: []string{"c"}, Usage: "continue the latest session"},
			&cli.BoolFlag{Name: "web", Usage: "chat and review in a local web page instead of the terminal"},
			&cli.IntFlag{Name: "port", Value: 8765, Usage: "the web page's `PORT` on 127.0.0.1 (0: any free port)"},
		),
		Action: func(c *cli.Context) error {
			if c.Bool("web") && c.IsSet("message") {
				return output.Usagef("edit: --web and -m cannot be used together: type the request in the page")
			}
			o := chat.Options{
				Web: c.Bool("web"), Port: c.Int("port"),
				Session: c.String("session"), Continue: c.Bool("continue"),
				Mode: agent.ModeEdit, Files: c.Args().Slice(), Request: c.String("message"), OneShot: c.IsSet("message"),
				Yes: c.Bool("yes"), Decisions: c.String("decisions"), Interpret: c.Bool("interpret"), JSON: c.Bool("json"),
				Dir: c.String("directory"), NoCommit: c.Bool("no-commit"), NoVerify: c.Bool("no-verify"), Verify: c.Bool("verify"),
				Access: repo.Access{Ignored: c.Bool("allow-ignored"), Secrets: c.Bool("allow-secrets")},
				IO:     f.IO,
			}
			return runChat(c, f, o, runF)
		},
	}
}

// runChat runs pair edit, ask or review (see app/chat), or runF when it
// is not nil, with what only the command supplies: the tree opened with its recovery notice, the configuration with the
// command's flags, the MCP servers and pair undo.
func runChat(c *cli.Context, f *factory, o chat.Options, runF func(context.Context, chat.Options) error) error {
	o.Verbose = c.Bool("verbose")
	o.OpenTree = func(dir string) (*repo.Tree, error) { return openTree(dir, o.IO.Err) }
	o.LoadConfig = func(dir, stateDir string) (config.Config, error) { return loadConfig(c, dir, stateDir) }
	o.StartMCP = func(ctx context.Context, cfg config.Config, root string, w io.Writer) *mcp.Set {
		return mcpservers.Start(ctx, cfg, root, f.Self(), w)
	}
	o.Undo = func(ctx context.Context, dir string) error {
		return history.Undo(ctx, history.UndoOptions{Dir: dir, IO: o.IO, OpenTree: o.OpenTree})
	}
	if runF != nil {
		return runF(c.Context, o)
	}
	return chat.Run(c.Context, o)
}

package main

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/agent/mcp"
	"github.com/pair-cli/pair/app/mcpservers"
	"github.com/pair-cli/pair/internal/config"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/repo"
)

// newMCPCmd is pair mcp; runF, when not nil, gets the options of pair
// mcp list instead of mcpservers.List (for tests).
func newMCPCmd(f *factory, runF func(context.Context, mcpservers.ListOptions) error) *cli.Command {
	// The flags are the parent's too: "pair mcp list --json" reaches the
	// command line as "pair mcp --json list" (see flagsFirst).
	flags := func() []cli.Flag {
		return []cli.Flag{
			directoryFlag(),
			&cli.BoolFlag{Name: "json", Usage: "print the list as JSON"},
		}
	}
	return &cli.Command{
		Name:  "mcp",
		Usage: "show the MCP servers of .pair.yml and their tools",
		Description: `pair edit, ask and review start the Model Context Protocol servers that
.pair.yml lists under mcp_servers (the repository's file, then the home
directory's) and offer their tools to the model as SERVER__TOOL. A tool
that its server marks read-only (readOnlyHint) runs at once; any other
runs only after you approve the call, as a command does (on the
terminal, with --decisions, in the web page, or later with pair review;
--yes never approves one). pair ask offers the read-only tools only. A
server's tools: map overrides a tool's risk: allow (run without asking),
review (always ask) or deny (never offer or run); "*" names all others.

  pair mcp list    start each server, show whether it started, and list
                   its tools with their risk as pair classifies it
                   (read, allow, review, deny)

In .pair.yml, ${VAR} in a server's command, args, env, url and headers is
the environment's VAR, and ${PAIR} is pair itself. pair serves a small
example server, a notebook kept in notes.txt with a read-only lookup tool
and an add_note tool that changes it:

  mcp_servers:
    - name: notebook
      command: ${PAIR}
      args: [mcp, example-server]`,
		Flags: flags(),
		Subcommands: []*cli.Command{{
			Name:   "example-server",
			Usage:  "serve an example MCP server (a notebook in notes.txt) on standard input and output",
			Hidden: true,
			Action: func(c *cli.Context) error { return mcp.ServeNotebook(c.Context) },
		}, {
			Name:  "list",
			Usage: "start each configured MCP server and list its tools with their risk",
			Flags: flags(),
			Action: func(c *cli.Context) error {
				if c.NArg() > 0 {
					return output.Usagef("mcp list: takes no arguments (got %q)", c.Args().First())
				}
				o := mcpservers.ListOptions{
					Dir: setIn(c, "directory").String("directory"), JSON: setIn(c, "json").Bool("json"), IO: f.IO, Self: f.Self(),
					OpenTree:   func(dir string) (*repo.Tree, error) { return openTree(dir, f.IO.Err) },
					LoadConfig: func(dir, stateDir string) (config.Config, error) { return loadConfig(c, dir, stateDir) },
				}
				if runF != nil {
					return runF(c.Context, o)
				}
				return mcpservers.List(c.Context, o)
			},
		}},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return output.Usagef("mcp: unknown subcommand %q; pair mcp list shows the servers", c.Args().First())
			}
			return cli.ShowSubcommandHelp(c)
		},
	}
}

// setIn is the context of the command, or of its parent, where the flag
// name is set (the command's when it is set nowhere).
func setIn(c *cli.Context, name string) *cli.Context {
	for _, x := range c.Lineage() {
		if x.IsSet(name) {
			return x
		}
	}
	return c
}

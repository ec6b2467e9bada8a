package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/agent/mcp"
	"github.com/pair-cli/pair/internal/config"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/proc"
	"github.com/pair-cli/pair/internal/safetext"
)

// mcpServerConfig is one entry of mcp_servers in .pair.yml.
type mcpServerConfig = config.MCPServer

// mcpConfigs turns the configured servers into the mcp package's
// configuration: commands run in root, with pair's environment without
// the model's API key and the usual secret variables (proc.Env: a server
// that needs one is given it by its env:); ${VAR} is pair's variable, and
// ${PAIR} pair's own path (pair mcp example-server is a server pair
// itself provides).
func mcpConfigs(cfg modelConfig, root string) []mcp.Config {
	return mcp.Configs(cfg.MCPServers, root, proc.Env(os.Environ(), cfg.APIKey, cfg.KeyEnv), expandConfig)
}

// startMCP starts the configured MCP servers. A server that does not
// start is reported on w and offers no tools; pair goes on without it.
// The caller closes the set (also on Ctrl-C).
func startMCP(ctx context.Context, cfg modelConfig, root string, w io.Writer) *mcp.Set {
	configs := mcpConfigs(cfg, root)
	if len(configs) == 0 {
		return nil
	}
	set := mcp.Start(ctx, configs)
	for _, s := range set.Servers {
		if s.Err != nil {
			if ctx.Err() == nil {
				fmt.Fprintf(w, "pair: MCP server %s did not start: %v; its tools are not offered\n", s.Name(), s.Err)
			}
			continue
		}
		if u := s.Unmatched(); len(u) > 0 {
			fmt.Fprintf(w, "pair: MCP server %s has no tool %s, which .pair.yml names\n", s.Name(), strings.Join(u, ", "))
		}
	}
	return set
}

func mcpCommand(io stdio) *cli.Command {
	// The flags are the parent's too: "pair mcp list --json" reaches the
	// command line as "pair mcp --json list" (see flagsFirst).
	flags := func() []cli.Flag {
		return []cli.Flag{
			&cli.StringFlag{Name: "directory", Aliases: []string{"C"}, Usage: "run as if pair was started in `DIR`"},
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
					return usagef("mcp list: takes no arguments (got %q)", c.Args().First())
				}
				return runMCPList(c.Context, mcpListOptions{
					Dir: setIn(c, "directory").String("directory"), JSON: setIn(c, "json").Bool("json"), IO: io,
					LoadConfig: func(dir, stateDir string) (modelConfig, error) { return loadConfig(c, dir, stateDir) },
				})
			},
		}},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return usagef("mcp: unknown subcommand %q; pair mcp list shows the servers", c.Args().First())
			}
			return cli.ShowSubcommandHelp(c)
		},
	}
}

// mcpServerReport is a server in pair mcp list --json.
type mcpServerReport struct {
	Name    string          `json:"name"`
	How     string          `json:"how"`
	Started bool            `json:"started"`
	Error   string          `json:"error,omitempty"`
	Tools   []mcpToolReport `json:"tools"`
	// Unmatched are tools the configuration names that the server does
	// not have.
	Unmatched []string `json:"unmatched,omitempty"`
}

type mcpToolReport struct {
	Name        string     `json:"name"` // server.tool
	Model       string     `json:"model_name"`
	Risk        agent.Risk `json:"risk"`
	ReadOnly    bool       `json:"read_only_hint"`
	Override    string     `json:"override,omitempty"`
	Description string     `json:"description"`
	Unchecked   string     `json:"unchecked,omitempty"`
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

// mcpListOptions are the options of pair mcp list.
type mcpListOptions struct {
	Dir        string
	JSON       bool
	IO         stdio
	LoadConfig func(dir, stateDir string) (modelConfig, error)
}

func runMCPList(ctx context.Context, o mcpListOptions) error {
	asJSON, io := o.JSON, o.IO
	tree, err := openTree(o.Dir, io.Err)
	if err != nil {
		return fmt.Errorf("mcp list: %w", err)
	}
	defer tree.Close()
	cfg, err := o.LoadConfig(tree.Dir, tree.StateDir())
	if err != nil {
		return fmt.Errorf("mcp list: %w", err)
	}
	config.UntrustedWarning(io.Err, cfg)
	configs := mcpConfigs(cfg, tree.Dir)
	if len(configs) == 0 && !asJSON {
		fmt.Fprintln(io.Out, "no MCP servers: list them under mcp_servers in .pair.yml (see pair mcp --help)")
		return nil
	}
	set := mcp.Start(ctx, configs)
	defer set.Close()
	if ctx.Err() != nil {
		return &output.ExitError{Code: exitInterrupted, Msg: "mcp list: interrupted"}
	}
	reports := []mcpServerReport{}
	failed := 0
	for _, s := range set.Servers {
		r := mcpServerReport{Name: s.Name(), How: s.Describe(), Started: s.Err == nil, Tools: []mcpToolReport{}, Unmatched: s.Unmatched()}
		if s.Err != nil {
			r.Error = s.Err.Error()
			failed++
		}
		for _, t := range s.Tools {
			ext := agent.ExternalTool{Server: s.Name(), Tool: t.Name}
			r.Tools = append(r.Tools, mcpToolReport{Name: ext.Name(), Model: ext.WireName(), Risk: t.Risk, ReadOnly: t.ReadOnly,
				Override: t.Override, Description: t.Description, Unchecked: t.Unchecked})
		}
		reports = append(reports, r)
	}
	if asJSON {
		output.WriteJSON(io.Out, reports)
	} else {
		printMCPList(io.Out, reports)
	}
	if failed > 0 {
		return &output.ExitError{Code: exitFailure, Msg: fmt.Sprintf("mcp list: %d of %d %s did not start", failed, len(reports), output.Plural(len(reports), "server"))}
	}
	return nil
}

func printMCPList(w io.Writer, reports []mcpServerReport) {
	for i, r := range reports {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if !r.Started {
			fmt.Fprintf(w, "%s (%s): did not start: %s\n", r.Name, r.How, r.Error)
			continue
		}
		fmt.Fprintf(w, "%s (%s): started, %d %s\n", r.Name, r.How, len(r.Tools), output.Plural(len(r.Tools), "tool"))
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, t := range r.Tools {
			why := "server: read-only"
			if !t.ReadOnly {
				why = "server: may change things"
			}
			if t.Override != "" {
				why += "; .pair.yml: " + t.Override
			}
			fmt.Fprintf(tw, "  %s\t%s\t(%s)\t%s\n", safetext.Name(t.Name), t.Risk, why, safetext.Line(output.OneLine(t.Description, 60)))
			if t.Unchecked != "" {
				fmt.Fprintf(tw, "  \t\tnote: %s; only checked to be an object\t\n", t.Unchecked)
			}
		}
		tw.Flush()
		if len(r.Unmatched) > 0 {
			fmt.Fprintf(w, "  .pair.yml names tools it does not have: %s\n", strings.Join(r.Unmatched, ", "))
		}
	}
}

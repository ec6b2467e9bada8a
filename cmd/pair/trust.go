package main

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/internal/config"
	"github.com/pair-cli/pair/internal/display"
)

func trustCommand(io stdio) *cli.Command {
	return &cli.Command{
		Name:  "trust",
		Usage: "trust the repository's .pair.yml to run commands and choose the model server",
		Description: `A repository's .pair.yml may come with the repository, from someone else.
What in it can run commands or send your code and API key elsewhere
(api_base, api_key_env, test_cmd, allow_commands, mcp_servers) is ignored,
with a warning, until you trust that exact file: read it, then run
pair trust. Any change to the file needs trusting again. Your own
~/.pair.yml is always trusted.

  pair trust            trust the repository's .pair.yml as it is now
  pair trust --revoke   stop trusting it`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "revoke", Usage: "stop trusting the repository's .pair.yml"},
			&cli.StringFlag{Name: "directory", Aliases: []string{"C"}, Usage: "run as if pair was started in `DIR`"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("trust: takes no arguments (got %q)", c.Args().First())
			}
			tree, err := openTree(c.String("directory"), io.Err)
			if err != nil {
				return fmt.Errorf("trust: %w", err)
			}
			defer tree.Close()
			p := filepath.Join(tree.Dir, ".pair.yml")
			if c.Bool("revoke") {
				if err := (config.TrustStore{Dir: tree.StateDir()}).Revoke(); err != nil {
					return fmt.Errorf("trust: %w", err)
				}
				fmt.Fprintf(io.Out, "%s is no longer trusted\n", p)
				return nil
			}
			fc, err := config.Read(p)
			if errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("trust: %s does not exist: there is nothing to trust", p)
			}
			if err != nil {
				return fmt.Errorf("trust: %w", err)
			}
			if err := trustConfig(tree.StateDir(), p); err != nil {
				return fmt.Errorf("trust: %w", err)
			}
			fmt.Fprintf(io.Out, "trusted %s as it is now\n", p)
			if fc.APIBase != "" {
				fmt.Fprintf(io.Out, "  api_base: %s (your code and key go there)\n", display.Line(fc.APIBase))
			}
			if fc.APIKeyEnv != "" {
				fmt.Fprintf(io.Out, "  api_key_env: %s\n", display.Line(fc.APIKeyEnv))
			}
			if fc.TestCmd != "" {
				fmt.Fprintf(io.Out, "  test_cmd: %s (runs after every change)\n", display.Line(fc.TestCmd))
			}
			for _, a := range fc.AllowCommands {
				fmt.Fprintf(io.Out, "  allow_commands: %s (runs without asking)\n", display.Line(a))
			}
			for _, s := range fc.MCPServers {
				what := s.URL
				if s.Command != "" {
					what = s.Command
				}
				fmt.Fprintf(io.Out, "  mcp_servers: %s (%s)\n", display.Name(s.Name), display.Line(what))
			}
			return nil
		},
	}
}

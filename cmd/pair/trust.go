package main

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/internal/config"
	"github.com/pair-cli/pair/internal/safetext"
)

func trustCommand(io stdio) *cli.Command {
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
			fc, sum, err := config.ReadDigest(p)
			if errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("trust: %s does not exist: there is nothing to trust", p)
			}
			if err != nil {
				return fmt.Errorf("trust: %w", err)
			}
			// What is recorded is exactly what was read and is shown.
			if err := (config.TrustStore{Dir: tree.StateDir()}).TrustDigest(sum); err != nil {
				return fmt.Errorf("trust: %w", err)
			}
			fmt.Fprintf(io.Out, "trusted %s as it is now\n", p)
			if fc.Model != "" {
				fmt.Fprintf(io.Out, "  model: %s\n", safetext.Name(fc.Model))
			}
			if fc.APIBase != "" {
				fmt.Fprintf(io.Out, "  api_base: %s (your code and key go there)\n", safetext.Line(fc.APIBase))
			}
			if fc.APIKeyEnv != "" {
				fmt.Fprintf(io.Out, "  api_key_env: %s\n", safetext.Line(fc.APIKeyEnv))
			}
			if fc.TestCmd != "" {
				fmt.Fprintf(io.Out, "  test_cmd: %s (runs after every change)\n", safetext.Line(fc.TestCmd))
			}
			for _, a := range fc.AllowCommands {
				fmt.Fprintf(io.Out, "  allow_commands: %s (runs without asking)\n", safetext.Line(a))
			}
			for _, s := range fc.MCPServers {
				what := s.URL
				if s.Command != "" {
					what = s.Command
				}
				fmt.Fprintf(io.Out, "  mcp_servers: %s (%s)\n", safetext.Name(s.Name), safetext.Line(what))
			}
			if fc.MaxSteps > 0 {
				fmt.Fprintf(io.Out, "  max_steps: %d (model calls per request)\n", fc.MaxSteps)
			}
			if fc.MaxRetries != nil {
				fmt.Fprintf(io.Out, "  max_retries: %d\n", *fc.MaxRetries)
			}
			if fc.ContextChars > 0 {
				fmt.Fprintf(io.Out, "  context_chars: %d\n", fc.ContextChars)
			}
			if fc.Timeout != "" {
				what := ""
				if strings.TrimSpace(fc.Timeout) == "0" {
					what = " (waits forever)"
				}
				fmt.Fprintf(io.Out, "  timeout: %s%s\n", safetext.Name(fc.Timeout), what)
			}
			return nil
		},
	}
}

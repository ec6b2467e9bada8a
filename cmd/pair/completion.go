package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/app/completion"
	"github.com/pair-cli/pair/internal/output"
)

// flagValues are the values of the flags that take few.
var flagValues = map[string][]string{"color": {"auto", "always", "never"}}

// flagDynamic are the flags whose values pair prints when asked: the
// arguments that print them.
var flagDynamic = map[string]string{"session": "sessions --names"}

// newCompletionCmd is pair completion SHELL; runF, when not nil, gets the
// shell and the commands instead of printing the script (for tests).
func newCompletionCmd(f *factory, runF func(context.Context, string, completion.Command) error) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print the shell completion script for bash, zsh or fish",
		ArgsUsage: "bash|zsh|fish",
		Description: `Prints a script that makes the shell complete pair's commands, their
flags, the values of --color, and the names of the sessions after --session. Load it from your shell's start-up file:

  bash  source <(pair completion bash)      in ~/.bashrc
  zsh   source <(pair completion zsh)       in ~/.zshrc
  fish  pair completion fish > ~/.config/fish/completions/pair.fish`,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return output.Usagef("completion: name one shell: %s", strings.Join(completion.Shells, ", "))
			}
			shell, root := c.Args().First(), commandsOf(c.App)
			if runF != nil {
				return runF(c.Context, shell, root)
			}
			script, err := completion.Script(shell, root)
			if err != nil {
				return output.Usagef("completion: %v", err)
			}
			fmt.Fprint(f.IO.Out, script)
			return nil
		},
	}
}

// commandsOf describes the app's visible commands and flags for
// completion.
func commandsOf(app *cli.App) completion.Command {
	root := completion.Command{Name: app.Name, Flags: flagsOf(app.VisibleFlags(), true)}
	for _, c := range app.VisibleCommands() {
		root.Commands = append(root.Commands, commandOf(c))
	}
	return root
}

func commandOf(c *cli.Command) completion.Command {
	out := completion.Command{Name: c.Name, Usage: c.Usage, Flags: flagsOf(c.VisibleFlags(), false)}
	for _, s := range c.Subcommands {
		if !s.Hidden && s.Name != "help" {
			out.Commands = append(out.Commands, commandOf(s))
		}
	}
	return out
}

func flagsOf(flags []cli.Flag, root bool) []completion.Flag {
	var out []completion.Flag
	for _, f := range flags {
		if f.Names()[0] == "help" && !root {
			continue // a command's --help, which cli adds to some only
		}
		cf := completion.Flag{Names: f.Names()}
		if d, ok := f.(cli.DocGenerationFlag); ok {
			cf.Value, cf.Usage = d.TakesValue(), d.GetUsage()
		}
		cf.Values = flagValues[cf.Names[0]]
		cf.Dynamic = flagDynamic[cf.Names[0]]
		out = append(out, cf)
	}
	return out
}

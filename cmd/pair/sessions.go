package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/app/chat"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/safetext"
)

func sessionsCommand(io stdio) *cli.Command {
	return &cli.Command{
		Name:  "sessions",
		Usage: "list the saved pair edit sessions, or remove one",
		Description: `Sessions live under the git directory (.git/pair/sessions), never in the
working tree. Each is listed with its last activity, whether a review is
waiting (pair review finishes it), the model and the last request.

  pair sessions            list them, the latest first
  pair sessions rm NAME    remove one`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the list as JSON"},
			&cli.StringFlag{Name: "directory", Aliases: []string{"C"}, Usage: "run as if pair was started in `DIR`"},
		},
		Subcommands: []*cli.Command{{
			Name:      "rm",
			Usage:     "remove a session",
			ArgsUsage: "NAME...",
			Flags:     []cli.Flag{&cli.StringFlag{Name: "directory", Aliases: []string{"C"}, Usage: "run as if pair was started in `DIR`"}},
			Action: func(c *cli.Context) error {
				if c.NArg() == 0 {
					return usagef("sessions rm: name the session to remove (pair sessions lists them)")
				}
				tree, err := openTree(c.String("directory"), io.Err)
				if err != nil {
					return fmt.Errorf("sessions: %w", err)
				}
				defer tree.Close()
				store := chat.Store(tree)
				for _, name := range c.Args().Slice() {
					if err := store.Remove(name); err != nil {
						if errors.Is(err, agent.ErrBadSessionName) {
							return usagef("sessions rm: %v", err)
						}
						return fmt.Errorf("sessions rm: %w", err)
					}
					fmt.Fprintf(io.Out, "removed %s\n", name)
				}
				return nil
			},
		}},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("sessions: unknown argument %q (pair sessions rm NAME removes one)", c.Args().First())
			}
			tree, err := openTree(c.String("directory"), io.Err)
			if err != nil {
				return fmt.Errorf("sessions: %w", err)
			}
			defer tree.Close()
			list, err := chat.Store(tree).List()
			if err != nil {
				return fmt.Errorf("sessions: %w", err)
			}
			if c.Bool("json") {
				if list == nil {
					list = []agent.SessionInfo{}
				}
				output.WriteJSON(io.Out, list)
				return nil
			}
			if len(list) == 0 {
				fmt.Fprintln(io.Out, "no sessions yet (pair edit starts one)")
				return nil
			}
			fmt.Fprintf(io.Out, "%-34s  %-16s  %-7s  %-16s  %s\n", "SESSION", "LAST ACTIVITY", "REVIEW", "MODEL", "LAST REQUEST")
			for _, s := range list {
				pending := "-"
				if s.Pending {
					pending = "waiting"
				}
				when := s.Updated.Local().Format(time.DateTime[:16])
				if s.Err != "" {
					fmt.Fprintf(io.Out, "%-34s  %-16s  unreadable: %s\n", s.Name, when, s.Err)
					continue
				}
				fmt.Fprintf(io.Out, "%-34s  %-16s  %-7s  %-16s  %s\n", s.Name, when, pending, safetext.Name(s.Model), output.OneLine(s.Request, 60))
			}
			return nil
		},
	}
}

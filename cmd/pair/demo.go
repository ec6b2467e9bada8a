package main

import "github.com/urfave/cli/v2"

func demoCommand(io stdio) *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "review and apply a bundled example diff in a scratch repository",
		Action: func(c *cli.Context) error {
			return usagef("demo: not built yet")
		},
	}
}

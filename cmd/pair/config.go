package main

import (
	"os"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/internal/config"
)

// configFlags are the flags of commands that talk to a model.
func configFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "model", Usage: "the model `NAME` (default: $PAIR_MODEL, .pair.yml, or gpt-4o-mini)"},
		&cli.StringFlag{Name: "api-base", Usage: "the OpenAI-compatible endpoint's base `URL` (default: $OPENAI_BASE_URL, .pair.yml)"},
		&cli.StringFlag{Name: "api-key", Usage: "the API `KEY` (default: $OPENAI_API_KEY)"},
		&cli.IntFlag{Name: "max-steps", DefaultText: "20", Usage: "at most `N` model calls per request"},
		&cli.IntFlag{Name: "max-retries", Value: -1, DefaultText: "3", Usage: "send failed edits or tests back to the model at most `N` times per request"},
		&cli.DurationFlag{Name: "timeout", DefaultText: "5m", Usage: "give up when the model server has not started to answer after `DURATION` (0: wait forever)"},
		&cli.DurationFlag{Name: "idle-timeout", DefaultText: "5m, or --timeout if shorter", Usage: "give up when a reply that has begun sends nothing more for `DURATION` (0: wait forever)"},
		&cli.StringFlag{Name: "max-reply", DefaultText: "4MiB", Usage: "give up on a reply larger than `SIZE` (such as 8MB, 512KiB, or bytes)"},
		&cli.StringFlag{Name: "test-cmd", Usage: "run `COMMAND` after edits are applied; its failure goes back to the model (default: test_cmd in .pair.yml)"},
		&cli.BoolFlag{Name: "no-instructions", Usage: "send the model no project instructions (AGENTS.md, CLAUDE.md, CONVENTIONS.md)"},
		// For pair bench: only the repository's .pair.yml counts.
		&cli.BoolFlag{Name: "no-user-config", Hidden: true},
	}
}

// verboseFlag is --verbose of the commands that show a model's work
// (edit, ask, review).
func verboseFlag() cli.Flag {
	return &cli.BoolFlag{Name: "verbose", Usage: "also show what the model is told: the results of its tools and the feedback of each review"}
}

// loadConfig loads the configuration of the repository root dir (state
// in stateDir) with the command's flags (see config.Load).
func loadConfig(c *cli.Context, dir, stateDir string) (config.Config, error) {
	home, _ := os.UserHomeDir()
	return config.Load(config.LoadOptions{
		Flags: config.Flags{
			Model: c.String("model"), APIBase: c.String("api-base"), APIKey: c.String("api-key"), TestCmd: c.String("test-cmd"),
			MaxSteps: c.Int("max-steps"), MaxRetries: c.Int("max-retries"),
			Timeout: c.Duration("timeout"), TimeoutSet: c.IsSet("timeout"),
			IdleTimeout: c.Duration("idle-timeout"), IdleTimeoutSet: c.IsSet("idle-timeout"), MaxReply: c.String("max-reply"),
			NoUserConfig: c.Bool("no-user-config"), NoInstructions: c.Bool("no-instructions"),
		},
		Dir: dir, Home: home, Trust: config.TrustStore{Dir: stateDir}, Env: os.Getenv,
	})
}

// directoryFlag is the commands' own -C DIR, from before pair's (pair -C
// DIR COMMAND): hidden, kept so that old scripts go on working.
func directoryFlag() cli.Flag {
	return &cli.StringFlag{Name: "directory", Aliases: []string{"C"}, Hidden: true, Usage: "run as if pair was started in `DIR`"}
}

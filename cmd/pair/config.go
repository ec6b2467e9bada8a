package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"
	"go.yaml.in/yaml/v3"
)

// fileConfig is .pair.yml, in the repository or the home directory.
type fileConfig struct {
	Model         string   `yaml:"model"`
	APIBase       string   `yaml:"api_base"`
	APIKeyEnv     string   `yaml:"api_key_env"` // the variable holding the key (a key is never stored in the file)
	TestCmd       string   `yaml:"test_cmd"`
	AllowCommands []string `yaml:"allow_commands"`
	MaxSteps      int      `yaml:"max_steps"`
	MaxRetries    *int     `yaml:"max_retries"`
	// MCPServers are the Model Context Protocol servers whose tools are
	// offered to the model (see mcp.go).
	MCPServers []mcpServerConfig `yaml:"mcp_servers"`
}

// modelConfig is the configuration in force: flags, then environment,
// then .pair.yml in the repository, then in the home directory.
type modelConfig struct {
	Model, APIBase, APIKey string
	TestCmd                string
	AllowCommands          []string
	MaxSteps, MaxRetries   int
	// MCPServers are the servers of both files, the repository's first.
	MCPServers []mcpServerConfig
	// Sources says where each setting came from, for error messages.
	Sources []string
}

// configFlags are the flags of commands that talk to a model.
func configFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "model", Usage: "the model `NAME` (default: $PAIR_MODEL, .pair.yml, or gpt-4o-mini)"},
		&cli.StringFlag{Name: "api-base", Usage: "the OpenAI-compatible endpoint's base `URL` (default: $OPENAI_BASE_URL, .pair.yml)"},
		&cli.StringFlag{Name: "api-key", Usage: "the API `KEY` (default: $OPENAI_API_KEY)"},
		&cli.IntFlag{Name: "max-steps", Usage: "at most `N` model calls per request (default 20)"},
		&cli.IntFlag{Name: "max-retries", Value: -1, DefaultText: "3", Usage: "send failed edits or tests back to the model at most `N` times per request"},
		&cli.StringFlag{Name: "test-cmd", Usage: "run `COMMAND` after edits are applied; its failure goes back to the model (default: test_cmd in .pair.yml)"},
		// For pair bench: only the repository's .pair.yml counts.
		&cli.BoolFlag{Name: "no-user-config", Hidden: true},
	}
}

// loadConfig reads .pair.yml from the repository root (dir) and the home
// directory, and lays the environment and the flags over them.
func loadConfig(c *cli.Context, dir string) (modelConfig, error) {
	var mc modelConfig
	var files []fileConfig
	var paths []string
	if dir != "" {
		paths = append(paths, filepath.Join(dir, ".pair.yml"))
	}
	if home, err := os.UserHomeDir(); err == nil && !c.Bool("no-user-config") {
		paths = append(paths, filepath.Join(home, ".pair.yml"))
	}
	for _, p := range paths {
		fc, err := readFileConfig(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return mc, err
		}
		files = append(files, fc)
		mc.Sources = append(mc.Sources, p)
	}
	// The repository's file first, then the home directory's.
	pick := func(get func(fileConfig) string) string {
		for _, f := range files {
			if v := get(f); v != "" {
				return v
			}
		}
		return ""
	}
	first := func(vs ...string) string {
		for _, v := range vs {
			if strings.TrimSpace(v) != "" {
				return strings.TrimSpace(v)
			}
		}
		return ""
	}
	mc.Model = first(c.String("model"), os.Getenv("PAIR_MODEL"), pick(func(f fileConfig) string { return f.Model }), "gpt-4o-mini")
	mc.APIBase = first(c.String("api-base"), os.Getenv("OPENAI_BASE_URL"), pick(func(f fileConfig) string { return f.APIBase }))
	keyEnv := pick(func(f fileConfig) string { return f.APIKeyEnv })
	keyFromFile := ""
	if keyEnv != "" {
		keyFromFile = os.Getenv(keyEnv)
	}
	mc.APIKey = first(c.String("api-key"), os.Getenv("OPENAI_API_KEY"), keyFromFile)
	mc.TestCmd = first(c.String("test-cmd"), pick(func(f fileConfig) string { return f.TestCmd }))
	for _, f := range files {
		mc.AllowCommands = append(mc.AllowCommands, f.AllowCommands...)
	}
	mc.MCPServers = mergeMCPServers(files, mc.Sources)
	mc.MaxSteps, mc.MaxRetries = 20, 3
	for i := len(files) - 1; i >= 0; i-- { // the repository's file wins
		if files[i].MaxSteps > 0 {
			mc.MaxSteps = files[i].MaxSteps
		}
		if files[i].MaxRetries != nil {
			mc.MaxRetries = *files[i].MaxRetries
		}
	}
	if n := c.Int("max-steps"); n > 0 {
		mc.MaxSteps = n
	}
	if n := c.Int("max-retries"); n >= 0 {
		mc.MaxRetries = n
	}
	return mc, nil
}

func readFileConfig(p string) (fileConfig, error) {
	var fc fileConfig
	b, err := os.ReadFile(p)
	if err != nil {
		return fc, err
	}
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	dec.KnownFields(true)
	// An empty file is an empty configuration.
	if err := dec.Decode(&fc); err != nil && !errors.Is(err, io.EOF) {
		return fc, fmt.Errorf("%s: %w", p, err)
	}
	if fc.MaxSteps < 0 {
		return fc, fmt.Errorf("%s: max_steps must be positive", p)
	}
	if err := checkMCPServers(p, fc.MCPServers); err != nil {
		return fc, err
	}
	return fc, nil
}

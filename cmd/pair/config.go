package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

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
	// ContextChars bounds what is sent of a long conversation.
	ContextChars int `yaml:"context_chars"`
	// Timeout bounds the wait for the model server's first byte (a Go
	// duration such as 90s or 10m; 0 waits forever).
	Timeout string `yaml:"timeout"`
	// Tools: false sends the model no tools (text-only mode), for
	// models whose server refuses them.
	Tools *bool `yaml:"tools"`
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
	ContextChars           int
	// Timeout bounds the wait for the model's first byte: zero means
	// agent.DefaultFirstByteTimeout, a negative value no bound.
	Timeout time.Duration
	// NoTools is tools: false.
	NoTools bool
	// MCPServers are the servers of both files, the repository's first.
	MCPServers []mcpServerConfig
	// Untrusted names the settings of the repository's .pair.yml that
	// were ignored because the person has not trusted it (pair trust).
	Untrusted []string
	// Sources says where each setting came from, for error messages.
	Sources []string
}

// configFlags are the flags of commands that talk to a model.
func configFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "model", Usage: "the model `NAME` (default: $PAIR_MODEL, .pair.yml, or gpt-4o-mini)"},
		&cli.StringFlag{Name: "api-base", Usage: "the OpenAI-compatible endpoint's base `URL` (default: $OPENAI_BASE_URL, .pair.yml)"},
		&cli.StringFlag{Name: "api-key", Usage: "the API `KEY` (default: $OPENAI_API_KEY)"},
		&cli.IntFlag{Name: "max-steps", DefaultText: "20", Usage: "at most `N` model calls per request"},
		&cli.IntFlag{Name: "max-retries", Value: -1, DefaultText: "3", Usage: "send failed edits or tests back to the model at most `N` times per request"},
		&cli.DurationFlag{Name: "timeout", DefaultText: "5m", Usage: "give up when the model server has not started to answer after `DURATION` (0: wait forever)"},
		&cli.StringFlag{Name: "test-cmd", Usage: "run `COMMAND` after edits are applied; its failure goes back to the model (default: test_cmd in .pair.yml)"},
		// For pair bench: only the repository's .pair.yml counts.
		&cli.BoolFlag{Name: "no-user-config", Hidden: true},
	}
}

// loadConfig reads .pair.yml from the repository root (dir) and the home
// directory, and lays the environment and the flags over them.
//
// The repository's file is someone else's when the repository was cloned:
// what in it would run commands or send the code and the key elsewhere
// (api_base, api_key_env, test_cmd, allow_commands, mcp_servers) counts
// only once the person trusted that exact content (pair trust; stateDir
// keeps the record). Otherwise it is ignored, and named in Untrusted.
func loadConfig(c *cli.Context, dir, stateDir string) (modelConfig, error) {
	var mc modelConfig
	var files []fileConfig
	var paths []string
	if dir != "" {
		paths = append(paths, filepath.Join(dir, ".pair.yml"))
	}
	if home, err := os.UserHomeDir(); err == nil && !c.Bool("no-user-config") {
		paths = append(paths, filepath.Join(home, ".pair.yml"))
	}
	for i, p := range paths {
		fc, err := readFileConfig(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return mc, err
		}
		if i == 0 && dir != "" {
			if risky := fc.risky(); len(risky) > 0 && !configTrusted(stateDir, p) {
				mc.Untrusted = risky
				fc.APIBase, fc.APIKeyEnv, fc.TestCmd, fc.AllowCommands, fc.MCPServers = "", "", "", nil, nil
			}
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
		if files[i].ContextChars > 0 {
			mc.ContextChars = files[i].ContextChars
		}
		if files[i].MaxSteps > 0 {
			mc.MaxSteps = files[i].MaxSteps
		}
		if files[i].MaxRetries != nil {
			mc.MaxRetries = *files[i].MaxRetries
		}
		if files[i].Tools != nil {
			mc.NoTools = !*files[i].Tools
		}
		if files[i].Timeout != "" {
			mc.Timeout = noneIfZero(parseTimeout(files[i].Timeout))
		}
	}
	if c.IsSet("timeout") {
		if c.Duration("timeout") < 0 {
			return mc, usagef("--timeout must not be negative (0 waits forever)")
		}
		mc.Timeout = noneIfZero(c.Duration("timeout"))
	}
	if n := c.Int("max-steps"); n > 0 {
		mc.MaxSteps = n
	}
	if n := c.Int("max-retries"); n >= 0 {
		mc.MaxRetries = n
	}
	return mc, nil
}

// parseTimeout reads the timeout of .pair.yml: a duration, or 0; -1 when
// it is neither.
func parseTimeout(s string) time.Duration {
	s = strings.TrimSpace(s)
	if s == "0" {
		return 0
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return -1
	}
	return d
}

// noneIfZero maps a timeout of 0 (wait forever) to modelConfig's "no
// bound", -1.
func noneIfZero(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
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
	if fc.Timeout != "" {
		if d := parseTimeout(fc.Timeout); d < 0 {
			return fc, fmt.Errorf("%s: timeout: %q is not a duration such as 90s or 10m (0 waits forever)", p, fc.Timeout)
		}
	}
	if err := checkMCPServers(p, fc.MCPServers); err != nil {
		return fc, err
	}
	return fc, nil
}

// risky lists the settings of a file that run commands or choose where
// the code and the key go.
func (fc fileConfig) risky() []string {
	var out []string
	if fc.APIBase != "" {
		out = append(out, "api_base")
	}
	if fc.APIKeyEnv != "" {
		out = append(out, "api_key_env")
	}
	if fc.TestCmd != "" {
		out = append(out, "test_cmd")
	}
	if len(fc.AllowCommands) > 0 {
		out = append(out, "allow_commands")
	}
	if len(fc.MCPServers) > 0 {
		out = append(out, "mcp_servers")
	}
	return out
}

// trustFile is where pair keeps the hash of the repository's .pair.yml
// that the person trusted.
func trustFile(stateDir string) string { return filepath.Join(stateDir, "trusted-config") }

func fileHash(p string) (string, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// configTrusted reports whether the file at p is the one the person
// trusted.
func configTrusted(stateDir, p string) bool {
	if stateDir == "" {
		return false
	}
	want, err := os.ReadFile(trustFile(stateDir))
	if err != nil {
		return false
	}
	got, err := fileHash(p)
	return err == nil && strings.TrimSpace(string(want)) == got
}

// trustConfig records the file at p as trusted.
func trustConfig(stateDir, p string) error {
	h, err := fileHash(p)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return err
	}
	return os.WriteFile(trustFile(stateDir), []byte(h+"\n"), 0o600)
}

// untrustedWarning says what was ignored, and how to allow it.
func untrustedWarning(w io.Writer, cfg modelConfig) {
	if len(cfg.Untrusted) == 0 {
		return
	}
	fmt.Fprintf(w, "pair: ignoring %s in the repository's .pair.yml: it can run commands or send your code and key elsewhere, and you have not trusted it. Read it, then run 'pair trust' (again after every change to it)\n",
		strings.Join(cfg.Untrusted, ", "))
}

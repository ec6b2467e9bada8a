package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/pair-cli/pair/agent/mcp"
	"github.com/pair-cli/pair/internal/output"
)

// File is .pair.yml, in the repository or the home directory.
type File struct {
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
	// offered to the model (see agent/mcp).
	MCPServers []mcp.Entry `yaml:"mcp_servers"`
}

// Config is the configuration in force: flags, then environment,
// then .pair.yml in the repository, then in the home directory.
type Config struct {
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
	MCPServers []mcp.Entry
	// Untrusted names the settings of the repository's .pair.yml that
	// were ignored because the person has not trusted it (pair trust).
	Untrusted []string
	// Sources says where each setting came from, for error messages.
	Sources []string
	// KeyEnv is the variable api_key_env names: commands run without it
	// (see proc.Env), whether or not the key came from it.
	KeyEnv string
}

// Flags are the command-line flags that set the configuration; zero
// values are flags not given.
type Flags struct {
	Model, APIBase, APIKey, TestCmd string
	// MaxSteps counts when positive, MaxRetries when not negative.
	MaxSteps, MaxRetries int
	// Timeout counts when TimeoutSet.
	Timeout    time.Duration
	TimeoutSet bool
	// NoUserConfig leaves the home directory's file out (pair bench).
	NoUserConfig bool
}

// Source is one .pair.yml as read.
type Source struct {
	Path string
	File File
	// Repo marks the repository's file; Trusted says whether the person
	// trusted its exact content (the home directory's is always theirs).
	Repo, Trusted bool
}

// Inputs are what Merge merges: the flags, the environment (a lookup),
// and the files, the repository's first.
type Inputs struct {
	Flags Flags
	Env   func(string) string
	Files []Source
}

// Merge lays the environment and the flags over the files. What in the
// repository's file would run commands or send the code and the key
// elsewhere (api_base, api_key_env, test_cmd, allow_commands,
// mcp_servers) counts only when that file is trusted; otherwise it is
// ignored, and named in Untrusted.
func Merge(in Inputs) (Config, error) {
	var mc Config
	env := in.Env
	if env == nil {
		env = func(string) string { return "" }
	}
	var files []File
	for _, s := range in.Files {
		fc := s.File
		if s.Repo && !s.Trusted {
			if risky := fc.Risky(); len(risky) > 0 {
				mc.Untrusted = risky
				fc.APIBase, fc.APIKeyEnv, fc.TestCmd, fc.AllowCommands, fc.MCPServers = "", "", "", nil, nil
			}
		}
		files = append(files, fc)
		mc.Sources = append(mc.Sources, s.Path)
	}
	// The repository's file first, then the home directory's.
	pick := func(get func(File) string) string {
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
	fl := in.Flags
	mc.Model = first(fl.Model, env("PAIR_MODEL"), pick(func(f File) string { return f.Model }), "gpt-4o-mini")
	mc.APIBase = first(fl.APIBase, env("OPENAI_BASE_URL"), pick(func(f File) string { return f.APIBase }))
	keyEnv := pick(func(f File) string { return f.APIKeyEnv })
	keyFromFile := ""
	mc.KeyEnv = keyEnv
	if keyEnv != "" {
		keyFromFile = env(keyEnv)
	}
	mc.APIKey = first(fl.APIKey, env("OPENAI_API_KEY"), keyFromFile)
	mc.TestCmd = first(fl.TestCmd, pick(func(f File) string { return f.TestCmd }))
	for _, f := range files {
		mc.AllowCommands = append(mc.AllowCommands, f.AllowCommands...)
	}
	lists := make([][]mcp.Entry, len(files))
	for i, f := range files {
		lists[i] = f.MCPServers
	}
	mc.MCPServers = mcp.MergeEntries(lists, mc.Sources)
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
	if fl.TimeoutSet {
		if fl.Timeout < 0 {
			return mc, output.Usagef("--timeout must not be negative (0 waits forever)")
		}
		mc.Timeout = noneIfZero(fl.Timeout)
	}
	if fl.MaxSteps > 0 {
		mc.MaxSteps = fl.MaxSteps
	}
	if fl.MaxRetries >= 0 {
		mc.MaxRetries = fl.MaxRetries
	}
	return mc, nil
}

// LoadOptions say where Load finds the files and the trust store.
type LoadOptions struct {
	Flags Flags
	// Dir is the repository's root ("": no repository file); Home the
	// home directory ("": none).
	Dir, Home string
	// Trust keeps the record of the trusted repository file.
	Trust TrustStore
	Env   func(string) string
}

// Load reads .pair.yml from the repository root and the home directory,
// and the trust store's verdict on the repository's file, and merges
// them with the environment and the flags (see Merge).
func Load(o LoadOptions) (Config, error) {
	type place struct {
		path string
		repo bool
	}
	var places []place
	if o.Dir != "" {
		places = append(places, place{filepath.Join(o.Dir, ".pair.yml"), true})
	}
	if o.Home != "" && !o.Flags.NoUserConfig {
		places = append(places, place{filepath.Join(o.Home, ".pair.yml"), false})
	}
	in := Inputs{Flags: o.Flags, Env: o.Env}
	for _, p := range places {
		fc, err := Read(p.path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return Config{}, err
		}
		s := Source{Path: p.path, File: fc, Repo: p.repo}
		if p.repo && len(fc.Risky()) > 0 {
			s.Trusted = o.Trust.Trusted(p.path)
		}
		in.Files = append(in.Files, s)
	}
	return Merge(in)
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

// noneIfZero maps a timeout of 0 (wait forever) to Config's "no
// bound", -1.
func noneIfZero(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}

// Read reads and checks the .pair.yml at p.
func Read(p string) (File, error) {
	var fc File
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
	if err := mcp.CheckEntries(p, fc.MCPServers); err != nil {
		return fc, err
	}
	return fc, nil
}

// Risky lists the settings of a file that run commands or choose where
// the code and the key go.
func (fc File) Risky() []string {
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

// UntrustedWarning says what was ignored, and how to allow it.
func UntrustedWarning(w io.Writer, cfg Config) {
	if len(cfg.Untrusted) == 0 {
		return
	}
	fmt.Fprintf(w, "pair: ignoring %s in the repository's .pair.yml: it can run commands or send your code and key elsewhere, and you have not trusted it. Read it, then run 'pair trust' (again after every change to it)\n",
		strings.Join(cfg.Untrusted, ", "))
}

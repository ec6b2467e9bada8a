package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/safetext"
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
	// IdleTimeout bounds the wait for each further piece of a reply once
	// it has begun (a duration; 0 waits forever); MaxReply the size of a
	// reply (a size such as 8MB, or bytes). See stream.go.
	IdleTimeout string `yaml:"idle_timeout"`
	MaxReply    string `yaml:"max_reply"`
	// Tools: false sends the model no tools (text-only mode), for
	// models whose server refuses them.
	Tools *bool `yaml:"tools"`
	// MCPServers are the Model Context Protocol servers whose tools are
	// offered to the model (see agent/mcp).
	MCPServers []MCPServer `yaml:"mcp_servers"`
	// Instructions: false sends the model no project instructions
	// (AGENTS.md, CONVENTIONS.md, CLAUDE.md).
	Instructions *bool `yaml:"instructions"`
	// Attribution is the trailer naming the model in the commits it took
	// part in: assisted-by (the default), co-authored-by or none.
	Attribution string `yaml:"attribution"`
	// Verify runs the test command on the approved hunks before every
	// write (see app/verify); it needs trust, as test_cmd does.
	Verify *bool `yaml:"verify"`
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
	// IdleTimeout bounds the wait for each further piece of a reply:
	// zero means the default, a negative value no bound. MaxReply bounds
	// the size of a reply in bytes: zero means agent.DefaultMaxReply.
	IdleTimeout time.Duration
	MaxReply    int64
	// NoTools is tools: false.
	NoTools bool
	// NoInstructions is instructions: false, or --no-instructions.
	NoInstructions bool
	// Attribution is attribution: one of audit's Attribution styles
	// (audit.AttributionAssisted when not set).
	Attribution string
	// MCPServers are the servers of both files, the repository's first.
	MCPServers []MCPServer
	// Verify is verify: true: test the approved hunks before every write.
	Verify bool
	// Untrusted names the settings of the repository's .pair.yml that
	// were ignored because the person has not trusted it (pair trust).
	Untrusted []string
	// NotOwn are home directory files not read because they are files
	// of the repository (see Load).
	NotOwn []string
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
	// IdleTimeout counts when IdleTimeoutSet; MaxReply (a size) when not
	// empty.
	IdleTimeout    time.Duration
	IdleTimeoutSet bool
	MaxReply       string
	// NoUserConfig leaves the home directory's file out (pair bench).
	NoUserConfig bool
	// NoInstructions sends the model no project instructions.
	NoInstructions bool
}

// Source is one .pair.yml as read.
type Source struct {
	Path string
	File File
	// Repo marks the repository's file; Trusted says whether the person
	// trusted its exact content (the home directory's is always theirs,
	// unless it is a file of the repository: see Load).
	Repo, Trusted bool
}

// Inputs are what Merge merges: the flags, the environment (a lookup),
// and the files, the repository's first.
type Inputs struct {
	Flags Flags
	Env   func(string) string
	Files []Source
}

// Merge lays the environment and the flags over the files. A
// repository's file that the person has not trusted counts only for its
// harmless settings (see Guarded); the rest is ignored, and named in
// Untrusted. The model name, from wherever it comes, must be one word of
// visible characters (CheckModel).
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
			var ignored []string
			fc, ignored = fc.withoutGuarded()
			mc.Untrusted = append(mc.Untrusted, ignored...)
		}
		files = append(files, fc)
		mc.Sources = append(mc.Sources, s.Path)
	}
	// The repository's file first, then the home directory's.
	pick := func(get func(File) string) (string, string) {
		for i, f := range files {
			if v := get(f); strings.TrimSpace(v) != "" {
				return v, mc.Sources[i]
			}
		}
		return "", ""
	}
	fl := in.Flags
	fileModel, modelFile := pick(func(f File) string { return f.Model })
	for _, m := range []struct{ value, from string }{{fl.Model, "--model"}, {env("PAIR_MODEL"), "PAIR_MODEL"}, {fileModel, modelFile + ": model"}} {
		if err := CheckModel(m.value); err != nil {
			return mc, fmt.Errorf("%s: %w", m.from, err)
		}
	}
	mc.Model = first(fl.Model, env("PAIR_MODEL"), fileModel, "gpt-4o-mini")
	fileBase, _ := pick(func(f File) string { return f.APIBase })
	mc.APIBase = first(fl.APIBase, EnvBaseURL(env), fileBase)
	keyEnv, _ := pick(func(f File) string { return f.APIKeyEnv })
	keyFromFile := ""
	mc.KeyEnv = keyEnv
	if keyEnv != "" {
		keyFromFile = env(keyEnv)
	}
	mc.APIKey = first(fl.APIKey, env("OPENAI_API_KEY"), keyFromFile)
	fileTest, _ := pick(func(f File) string { return f.TestCmd })
	mc.TestCmd = first(fl.TestCmd, fileTest)
	for _, f := range files {
		mc.AllowCommands = append(mc.AllowCommands, f.AllowCommands...)
	}
	lists := make([][]MCPServer, len(files))
	for i, f := range files {
		lists[i] = f.MCPServers
	}
	mc.MCPServers = mergeMCPServers(lists, mc.Sources)
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
		if files[i].Instructions != nil {
			mc.NoInstructions = !*files[i].Instructions
		}
		if files[i].Attribution != "" {
			mc.Attribution = files[i].Attribution
		}
		if files[i].Verify != nil {
			mc.Verify = *files[i].Verify
		}
		if files[i].Timeout != "" {
			mc.Timeout = noneIfZero(parseTimeout(files[i].Timeout))
		}
		mergeStream(&mc, files[i])
	}
	if err := checkAttribution(mc.Attribution); err != nil {
		return mc, fmt.Errorf("%s: attribution: %w", attributionFile(files, mc.Sources), err)
	}
	if mc.Attribution == "" {
		mc.Attribution = audit.AttributionAssisted
	}
	mc.NoInstructions = mc.NoInstructions || fl.NoInstructions
	if err := streamFlags(&mc, fl); err != nil {
		return mc, err
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
//
// The repository's file is read with Read (never through a link). The
// home directory's is read with ReadOwn, unless it is a file of the
// repository: the repository's own .pair.yml (a repository rooted at the
// home directory, or a link to it), read once as the repository's, or
// another file of the tree, not read at all and named in NotOwn. A file
// of the repository is never the person's own.
func Load(o LoadOptions) (Config, error) {
	in := Inputs{Flags: o.Flags, Env: o.Env}
	var notOwn []string
	if o.Dir != "" {
		p := filepath.Join(o.Dir, ".pair.yml")
		fc, sum, err := ReadDigest(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return Config{}, err
		default:
			in.Files = append(in.Files, Source{Path: p, File: fc, Repo: true, Trusted: o.Trust.TrustedDigest(sum)})
		}
	}
	if o.Home != "" && !o.Flags.NoUserConfig {
		p := filepath.Join(o.Home, ".pair.yml")
		switch inTree, err := inTree(o.Dir, p); {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return Config{}, err
		case inTree == filepath.Join(o.Dir, ".pair.yml"):
			// Read above, as the repository's.
		case inTree != "":
			notOwn = append(notOwn, p)
		default:
			fc, err := ReadOwn(p)
			if err != nil {
				return Config{}, err
			}
			in.Files = append(in.Files, Source{Path: p, File: fc})
		}
	}
	cfg, err := Merge(in)
	cfg.NotOwn = notOwn
	return cfg, err
}

// inTree returns where the file at p (links followed) lies in the
// repository rooted at dir, as a path under dir; "" when it lies outside
// or dir is "". The repository's own .pair.yml is returned as such.
func inTree(dir, p string) (string, error) {
	info, err := os.Stat(p)
	if err != nil || dir == "" {
		return "", err
	}
	own := filepath.Join(dir, ".pair.yml")
	if ri, err := os.Lstat(own); err == nil && os.SameFile(info, ri) {
		return own, nil
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(root, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", nil
	}
	return filepath.Join(dir, rel), nil
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

// harmless are the settings, by their name in the file, that a
// repository's file counts for before the person trusts it. tools: false
// only takes the model's tools away: the model reads and proposes in
// plain text, and every edit is still reviewed; a repository whose model
// server refuses tools needs it. Everything else either runs code,
// spends money or time, or chooses where requests go, so a setting added
// to File needs trust unless it is named here.
//
// instructions and attribution need trust too: they say how the
// person's session and commits go (what the model is told, how the
// person's commits credit it), which is the person's choice, made in
// their own file or in a repository file they trusted.
var harmless = map[string]bool{"tools": true}

// Guarded lists, by their name in the file, the settings of fc that a
// repository's file may set only once the person trusts it.
func (fc File) Guarded() []string {
	_, names := fc.withoutGuarded()
	return names
}

// withoutGuarded returns fc with only its harmless settings, and the
// names of those it dropped, in the order of File.
func (fc File) withoutGuarded() (File, []string) {
	var names []string
	v := reflect.ValueOf(&fc).Elem()
	t := v.Type()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		if harmless[name] || v.Field(i).IsZero() {
			continue
		}
		names = append(names, name)
		v.Field(i).SetZero()
	}
	return fc, names
}

// MaxModelName bounds the length of a model name, in bytes.
const MaxModelName = 200

// ErrModelName is a model name that is not one word of visible
// characters: it would reach the terminal and the commit message.
var ErrModelName = errors.New("not a model name")

// CheckModel checks a model name, as given (an empty name is no name):
// at most MaxModelName bytes of visible characters, no space, no control
// or format character, no escape.
func CheckModel(name string) error {
	name = strings.TrimSpace(name)
	if len(name) > MaxModelName {
		return fmt.Errorf("%w: longer than %d bytes", ErrModelName, MaxModelName)
	}
	if !utf8.ValidString(name) {
		return fmt.Errorf("%w: %s is not valid UTF-8", ErrModelName, quote(name))
	}
	for _, r := range name {
		if r == ' ' || !unicode.IsPrint(r) {
			return fmt.Errorf("%w: %s holds a space, a control character or an escape; a model name is one word of visible characters", ErrModelName, quote(name))
		}
	}
	return nil
}

// UntrustedWarning says, in one sentence, what was ignored and how to
// allow it.
func UntrustedWarning(w io.Writer, cfg Config) {
	for _, p := range cfg.NotOwn {
		fmt.Fprintf(w, "pair: not reading %s: it is a file of this repository, so it is not your own configuration\n", safetext.Name(p))
	}
	if len(cfg.Untrusted) == 0 {
		return
	}
	fmt.Fprintf(w, "pair: ignoring %s in the repository's .pair.yml, which you have not trusted: read it, then run 'pair trust'\n",
		strings.Join(cfg.Untrusted, ", "))
}

// EnvBaseURL is the model server's address the environment gives:
// OPENAI_BASE_URL, else OPENAI_API_BASE (the older name, which Aider and
// LiteLLM read); "" for none.
func EnvBaseURL(getenv func(string) string) string {
	return first(getenv("OPENAI_BASE_URL"), getenv("OPENAI_API_BASE"))
}

// first returns the first of vs that is not blank, trimmed.
func first(vs ...string) string {
	for _, v := range vs {
		if strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

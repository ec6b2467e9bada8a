package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/repo"
)

// Risk is how the policy gate treats a tool.
type Risk string

// The risks of tools. Read-only tools run at once; edits go to review;
// commands run only after approval or when allowlisted. External tools
// (an MCP server's) are read, allow (run at once because the
// configuration says so, but not read-only: pair ask leaves them out),
// review (the person decides, as for a command) or deny (never run).
const (
	RiskRead    Risk = "read"
	RiskEdit    Risk = "edit"
	RiskCommand Risk = "command"
	RiskAllow   Risk = "allow"
	RiskReview  Risk = "review"
	RiskDeny    Risk = "deny"
)

// Defaults and limits of the tools. The descriptions the model reads
// are made from them, so that they say what the code does.
const (
	defaultMaxChars  = 20000
	maxListed        = 500
	maxMatches       = 200
	defaultLogN      = 10
	maxLogN          = 200
	repoMapBudget    = 2000 // tokens
	maxToolResult    = 60000
	noOutput         = "(no output)"
	defaultDiffLimit = 40000
	// commandTail is how much of the end of a command's output the model
	// is sent.
	commandTail = 8000
	// defaultCommandTimeout bounds run_command and the test command when
	// Settings.CommandTimeout does not.
	defaultCommandTimeout = 10 * time.Minute
	// maxSimilar is how many similar paths a missing file's error names.
	maxSimilar = 3
)

// tool is one tool offered to the model.
type tool struct {
	name, description string
	// limits, when set, states the limits of the tool, after its
	// description: made from the constants the code enforces (on first
	// use, not when the program starts) and from the settings.
	limits func(s Settings) string
	schema *schema
	risk   Risk
	// run executes a read-only tool; edit and command tools are handled
	// by the loop, through review.
	run func(ctx context.Context, a *Agent, args map[string]any) (string, error)
}

func ptr[T any](v T) *T { return &v }

func obj(required []string, props map[string]*schema) *schema {
	return &schema{Type: "object", Properties: props, Required: required, AdditionalProperties: ptr(false)}
}

func str(desc string) *schema { return &schema{Type: "string", Description: desc} }

func nonEmpty(desc string) *schema {
	return &schema{Type: "string", Description: desc, MinLength: ptr(1)}
}

// tools is every tool pair knows, in the order they are offered, built
// on first use: its schemas are maps, which package init would build for
// every command.
var tools = sync.OnceValue(func() []*tool {
	return []*tool{
		{
			name:        "read_file",
			description: "Read a text file of the repository. Returns a header line with the path and the lines shown, then the lines numbered as cat -n numbers them (the number right-aligned, a tab, the line as it is).",
			limits: func(Settings) string {
				return fmt.Sprintf("At most max_chars characters a call; read on with start_line. Only the first %d characters of a file are read. ", maxReadBytes) +
					fmt.Sprintf("For a missing file, the error names up to %d similar paths.", maxSimilar)
			},
			schema: obj([]string{"path"}, map[string]*schema{
				"path":       nonEmpty("path relative to the repository root"),
				"start_line": {Type: "integer", Description: "the first line to show (default 1)", Minimum: ptr(1.0)},
				"end_line":   {Type: "integer", Description: "the last line to show (default: the end of the file)", Minimum: ptr(1.0)},
				"max_chars":  {Type: "integer", Description: fmt.Sprintf("at most this many characters (default %d)", defaultMaxChars), Minimum: ptr(1.0), Maximum: ptr(float64(maxToolResult))},
			}),
			risk: RiskRead,
			run:  readFile,
		},
		{
			name:        "list_files",
			description: "List the files of the repository, optionally only those matching a glob (\"**/*.go\", \"cmd/**\"): one path per line.",
			limits:      func(Settings) string { return fmt.Sprintf("At most %d; a last line says when more match.", maxListed) },
			schema:      obj(nil, map[string]*schema{"glob": str("glob over slash paths; ** crosses directories")}),
			risk:        RiskRead,
			run:         listFiles,
		},
		{
			name:        "search_files",
			description: "Search the repository's text files for a regular expression (Go syntax), optionally only in files matching a glob. Returns each matching line under its file's path, numbered as read_file numbers it.",
			limits:      func(Settings) string { return fmt.Sprintf("At most %d matches.", maxMatches) },
			schema: obj([]string{"pattern"}, map[string]*schema{
				"pattern": nonEmpty("regular expression"),
				"glob":    str("only files matching this glob"),
			}),
			risk: RiskRead,
			run:  searchFiles,
		},
		{
			name: "repo_map",
			description: "A map of the repository, best first: the files that rank highest by how the code refers to them, with their declarations and short signatures, within budget tokens (default 2000). " +
				"Test data, vendored and generated files are left out. focus maps only the files it matches.",
			schema: obj(nil, map[string]*schema{
				"focus":  str(`a path or a glob ("agent/", "**/*.ts")`),
				"budget": {Type: "integer", Description: "the map's size in tokens (default 2000)", Minimum: ptr(100.0), Maximum: ptr(20000.0)},
			}),
			risk: RiskRead,
			run:  repoMap,
		},
		{
			name:        "git_status",
			description: "The working tree's status, as git status --porcelain shows it.",
			schema:      obj(nil, map[string]*schema{}),
			risk:        RiskRead,
			run:         gitStatus,
		},
		{
			name:        "git_diff",
			description: "The uncommitted changes of the working tree against HEAD, as a unified diff: of every file, or only of path.",
			limits:      func(Settings) string { return fmt.Sprintf("Cut at %d characters.", defaultDiffLimit) },
			schema:      obj(nil, map[string]*schema{"path": str("a file or folder relative to the repository root")}),
			risk:        RiskRead,
			run:         gitDiff,
		},
		{
			name:        "git_log",
			description: "The last n commits, or only those that change path: hash, date, author and subject.",
			limits:      func(Settings) string { return fmt.Sprintf("n is %d by default, at most %d.", defaultLogN, maxLogN) },
			schema: obj(nil, map[string]*schema{
				"n":    {Type: "integer", Minimum: ptr(1.0), Maximum: ptr(float64(maxLogN))},
				"path": str("a file or folder relative to the repository root"),
			}),
			risk: RiskRead,
			run:  gitLog,
		},
		{
			name:        "suggest_command",
			description: "Suggest a shell command for the person to run themselves. It is shown, never run.",
			schema: obj([]string{"command", "reason"}, map[string]*schema{
				"command": nonEmpty("the command"),
				"reason":  str("why the person should run it"),
			}),
			risk: RiskRead,
			run: func(_ context.Context, a *Agent, args map[string]any) (string, error) {
				a.emit(Event{Kind: EventSuggestion, Text: argString(args, "command"), Detail: argString(args, "reason")})
				return "shown to the person; it was not run", nil
			},
		},
		{
			name: "propose_diff",
			description: "Propose changes as a unified diff against the current files. " +
				"The person reviews every hunk; the result says per hunk whether it was applied, edited, rejected (with their note) or not placed (with the nearest real lines).",
			schema: obj([]string{"diff"}, map[string]*schema{
				"diff":    nonEmpty("a unified diff"),
				"message": str("the commit subject, imperative"),
			}),
			risk: RiskEdit,
		},
		{
			name: "write_file",
			description: "Write a whole file, new or rewritten: a change from the file as you last read it whole (else as committed), " +
				"placed on the file as it is now, keeping lines the person changed since, and reviewed hunk by hunk.",
			schema: obj([]string{"path", "content"}, map[string]*schema{
				"path":    nonEmpty("path relative to the repository root"),
				"content": str("the complete new content"),
				"message": str("the commit subject, imperative"),
			}),
			risk: RiskEdit,
		},
		{
			name:        "run_command",
			description: "Run a shell command in the repository root (tests, builds). It runs only after the person approves it, unless it is on the configured allowlist. Returns its exit code and output.",
			limits: func(s Settings) string {
				return fmt.Sprintf("It is stopped after %s; the output sent is its last %d characters.", durationWords(s.CommandTimeout), commandTail)
			},
			schema: obj([]string{"command"}, map[string]*schema{"command": nonEmpty("the shell command")}),
			risk:   RiskCommand,
		},
	}
})

func findTool(name string) *tool {
	for _, t := range tools() {
		if t.name == name {
			return t
		}
	}
	return nil
}

// offered returns the tools offered in this mode: ask offers read-only
// tools only.
func offered(readOnly bool) []*tool {
	var out []*tool
	for _, t := range tools() {
		if readOnly && t.risk != RiskRead {
			continue
		}
		out = append(out, t)
	}
	return out
}

// toolDefs returns the definitions sent to the model, described for the
// settings s.
func toolDefs(ts []*tool, s Settings) []ToolDef {
	defs := make([]ToolDef, len(ts))
	for i, t := range ts {
		defs[i] = ToolDef{Name: t.name, Description: t.describeFor(s), Parameters: t.schema.raw()}
	}
	return defs
}

// describeFor returns the description of t, with its limits under the
// settings s.
func (t *tool) describeFor(s Settings) string {
	if t.limits == nil {
		return t.description
	}
	return t.description + " " + t.limits(s)
}

// durationWords writes a time limit for the model: "10 minutes", "90
// seconds", or Go's form for anything else.
func durationWords(d time.Duration) string {
	switch {
	case d%time.Minute == 0:
		n := int(d / time.Minute)
		return fmt.Sprintf("%d %s", n, output.Plural(n, "minute"))
	case d%time.Second == 0:
		n := int(d / time.Second)
		return fmt.Sprintf("%d %s", n, output.Plural(n, "second"))
	}
	return d.String()
}

// toolNames lists the names of ts.
func toolNames(ts []*tool) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.name
	}
	return out
}

func jsonResult(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Sprintf(`{"error": %q}`, err.Error())
	}
	return string(b)
}

func readFile(_ context.Context, a *Agent, args map[string]any) (string, error) {
	p := argString(args, "path")
	out, err := a.readLines(p, argInt(args, "start_line", 1), argInt(args, "end_line", 0), argInt(args, "max_chars", defaultMaxChars))
	if errors.Is(err, fs.ErrNotExist) {
		if similar, serr := a.Tree.SimilarPaths(p, a.Access, maxSimilar); serr == nil && len(similar) > 0 {
			return "", &missingError{err: err, similar: similar}
		}
	}
	return out, err
}

// missingError is a read of a file that does not exist, with the paths of
// the tree it may have meant.
type missingError struct {
	err     error
	similar []string
}

func (e *missingError) Error() string {
	return e.err.Error() + "; similar paths: " + strings.Join(e.similar, ", ")
}

func (e *missingError) Unwrap() error { return e.err }

// readError is the result of a read_file or search_files that failed: a
// JSON object with the error and the arguments it concerns, and for a
// missing file the similar paths that exist.
func readError(tool string, args map[string]any, err error) string {
	v := map[string]any{"error": err.Error()}
	var me *missingError
	if errors.As(err, &me) {
		v["error"], v["similar_paths"] = me.err.Error(), me.similar
	}
	for _, k := range []string{"path", "pattern", "glob"} {
		if s := argString(args, k); s != "" {
			v[k] = s
		}
	}
	b, _ := json.Marshal(v) // strings only: no error
	return string(b)
}

// maxReadBytes bounds what is read of a file to show a range of its
// lines.
const maxReadBytes = 4 << 20

// readLines reads lines from to to (0: the end) of the file p as plain
// text: a header line with the path and the lines shown, then each line
// numbered as cat -n numbers it, at most maxChars characters of them.
func (a *Agent) readLines(p string, from, to, maxChars int) (string, error) {
	text, cut, err := a.Tree.ReadText(p, a.Access, maxReadBytes)
	if err != nil {
		return "", err
	}
	a.noteFile(p)
	if text == "" {
		return p + ": the file is empty\n", nil
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if cut && len(lines) > 1 {
		lines = lines[:len(lines)-1] // the last line may be cut short
	}
	total := len(lines)
	of := fmt.Sprintf("of %d", total)
	if cut {
		of = fmt.Sprintf("of more than %d", total)
	}
	from = max(from, 1)
	if to <= 0 || to > total {
		to = total
	}
	if from > total {
		return "", fmt.Errorf("%s has %d lines: line %d is past its end", p, total, from)
	}
	if to < from {
		return "", fmt.Errorf("end_line %d is before start_line %d", to, from)
	}
	// Numbers are right-aligned, as cat -n aligns them, to the width of
	// the largest one shown (cat -n's six columns would cost a token a
	// line for nothing).
	width := len(strconv.Itoa(to))
	var body strings.Builder
	shown := from - 1
	for i := from - 1; i < to; i++ {
		l := fmt.Sprintf("%*d\t%s\n", width, i+1, strings.TrimSuffix(lines[i], "\n"))
		if body.Len()+len(l) > maxChars && i > from-1 {
			break
		}
		body.WriteString(l)
		shown = i + 1
	}
	a.saw(p, from, strings.Join(lines[from-1:shown], ""), from == 1 && shown == total && !cut)
	var b strings.Builder
	fmt.Fprintf(&b, "%s: lines %d-%d %s\n", p, from, shown, of)
	b.WriteString(body.String())
	switch {
	case shown < to:
		fmt.Fprintf(&b, "(cut at %d characters: read on with start_line %d)\n", maxChars, shown+1)
	case shown == total && cut:
		fmt.Fprintf(&b, "(the file goes on: read on with start_line %d)\n", shown+1)
	case shown == total && !strings.HasSuffix(text, "\n"):
		b.WriteString("(no newline at the end of the file)\n")
	}
	return b.String(), nil
}

func listFiles(_ context.Context, a *Agent, args map[string]any) (string, error) {
	files, truncated, err := a.Tree.ListFiles(argString(args, "glob"), a.Access, maxListed)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, f := range files {
		b.WriteString(linePath(f) + "\n")
	}
	switch {
	case truncated:
		fmt.Fprintf(&b, "(the first %d files only: more match; narrow the glob)\n", len(files))
	case len(files) == 0 && argString(args, "glob") != "":
		fmt.Fprintf(&b, "no files match %s\n", argString(args, "glob"))
	case len(files) == 0:
		b.WriteString("no files\n")
	}
	return b.String(), nil
}

// linePath writes a path on a line of its own: quoted as a Go string when
// it holds a line break, a tab, a quote or a backslash, or is not UTF-8,
// so that one line is one path.
func linePath(p string) string {
	if strings.ContainsAny(p, "\n\r\t\"\\") || !utf8.ValidString(p) {
		return strconv.Quote(p)
	}
	return p
}

func searchFiles(_ context.Context, a *Agent, args map[string]any) (string, error) {
	ms, truncated, err := a.Tree.SearchFiles(argString(args, "pattern"), argString(args, "glob"), a.Access, maxMatches)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	where := ""
	if g := argString(args, "glob"); g != "" {
		where = " in " + g
	}
	fmt.Fprintf(&b, "search %s%s: %d %s%s\n", argString(args, "pattern"), where, len(ms), map[bool]string{true: "match", false: "matches"}[len(ms) == 1], map[bool]string{true: " (the first ones only)"}[truncated])
	// Under each file's path, each line as read_file numbers it (its
	// number, a tab, the line): one numbering wherever the model reads
	// lines of a file.
	for i, m := range ms {
		if i == 0 || ms[i-1].Path != m.Path {
			fmt.Fprintf(&b, "%s:\n", m.Path)
		}
		fmt.Fprintf(&b, "%d\t%s\n", m.Line, m.Text)
	}
	if truncated {
		fmt.Fprintf(&b, "(truncated at %d matches: narrow the pattern or the glob)\n", len(ms))
	}
	return b.String(), nil
}

func repoMap(_ context.Context, a *Agent, args map[string]any) (string, error) {
	focus := argString(args, "focus")
	opts := repo.MapOptions{Focus: focus, Budget: argInt(args, "budget", repoMapBudget)}
	if focus != "" {
		opts.Mentioned = []string{focus}
	}
	text, truncated, err := a.Tree.Map(a.Access, opts)
	if err != nil {
		return "", err
	}
	if truncated {
		text += "\n(truncated: use list_files and read_file for more)\n"
	}
	return text, nil
}

func gitStatus(_ context.Context, a *Agent, _ map[string]any) (string, error) {
	if !a.Tree.Git {
		return "", fmt.Errorf("not a git repository")
	}
	st, err := a.Tree.Status()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, e := range st {
		fmt.Fprintf(&b, "%c%c %s\n", e.Staged, e.Worktree, e.Path)
	}
	if len(st) == 0 {
		b.WriteString("clean: nothing to commit\n")
	}
	return b.String(), nil
}

func gitDiff(_ context.Context, a *Agent, args map[string]any) (string, error) {
	if !a.Tree.Git {
		return "", fmt.Errorf("not a git repository")
	}
	p := argString(args, "path")
	d, err := a.Tree.WorkDiffOf(p, a.Access)
	if err != nil {
		return "", err
	}
	if d == "" {
		if p != "" {
			return "no uncommitted changes in " + p + "\n", nil
		}
		return "no uncommitted changes\n", nil
	}
	if len(d) > defaultDiffLimit {
		cut := strings.LastIndexByte(d[:defaultDiffLimit], '\n') + 1
		if cut == 0 {
			cut = len(output.Clip(d, defaultDiffLimit)) - len("…") // one long line
		}
		d = d[:cut] + fmt.Sprintf("(cut at %d characters: ask for one path at a time to see the rest)\n", defaultDiffLimit)
	}
	return d, nil
}

func gitLog(_ context.Context, a *Agent, args map[string]any) (string, error) {
	if !a.Tree.Git {
		return "", fmt.Errorf("not a git repository")
	}
	p := argString(args, "path")
	cs, err := a.Tree.HistoryOf(p, a.Access, argInt(args, "n", defaultLogN))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "%s %s %s %s\n", shortHash(c.Hash), c.Date.UTC().Format("2006-01-02"), c.Author, c.Subject)
	}
	switch {
	case len(cs) == 0 && p != "":
		b.WriteString("no commits change " + p + "\n")
	case len(cs) == 0:
		b.WriteString("no commits yet\n")
	}
	return b.String(), nil
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// blockedPath reports whether err is a sandbox refusal, which goes into
// blocked_actions.
func blockedPath(err error) bool {
	return slices.ContainsFunc([]error{repo.ErrOutsideRepo, repo.ErrSecret, repo.ErrIgnored, repo.ErrGitInternal, repo.ErrPairInternal, repo.ErrBeyondLink},
		func(e error) bool { return errors.Is(err, e) })
}

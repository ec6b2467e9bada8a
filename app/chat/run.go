package chat

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/agent/mcp"
	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/internal/config"
	"github.com/pair-cli/pair/internal/console"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/safetext"
	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/review"
)

// Options are the options of pair edit and pair ask.
type Options struct {
	Mode      agent.Mode
	Files     []string
	Request   string
	OneShot   bool
	Yes       bool
	Decisions string
	// ApproveCommand approves the command or MCP call the resumed
	// session waits for (pair review --approve-command): Yes and
	// Decisions answer hunks only.
	ApproveCommand bool
	// Interpret accepts interpreted hunks under --yes or --decisions; a
	// person reviewing (terminal, web page, or later) is offered them.
	Interpret bool
	JSON      bool
	// Verbose also shows what the model is told (the results of its
	// tools, the feedback of each review), which is not the person's
	// reading otherwise.
	Verbose  bool
	Dir      string
	NoCommit bool
	NoVerify bool
	// Verify runs the test command on the approved hunks before every
	// write (--verify; verify: true in .pair.yml does too).
	Verify bool
	Access repo.Access
	IO     console.IO
	// Session names the session to make or continue; Continue takes the
	// latest; Resume finishes the pending review (pair review).
	Session  string
	Continue bool
	Resume   bool
	// Web serves the session in a local web page on Port.
	Web  bool
	Port int

	// What the command supplies: opening the working tree, loading the
	// configuration of a tree, starting the configured MCP servers, and
	// pair undo (the chat's /undo).
	OpenTree   func(dir string) (*repo.Tree, error)
	LoadConfig func(dir, stateDir string) (config.Config, error)
	StartMCP   func(ctx context.Context, cfg config.Config, root string, w io.Writer) *mcp.Set
	Undo       func(ctx context.Context, dir string) error
}

// Report is the --json output of pair edit -m and pair ask: status,
// task_type, final_output, plan, tool_results, blocked_actions,
// requires_human_review, review_reason, action_log and metadata.
type Report struct {
	Status              agent.Status       `json:"status"`
	TaskType            string             `json:"task_type"`
	FinalOutput         string             `json:"final_output"`
	Plan                []agent.PlanEntry  `json:"plan"`
	ToolResults         []agent.ToolResult `json:"tool_results"`
	BlockedActions      []agent.Blocked    `json:"blocked_actions"`
	RequiresHumanReview bool               `json:"requires_human_review"`
	ReviewReason        string             `json:"review_reason"`
	ActionLog           []agent.Action     `json:"action_log"`
	Metadata            Metadata           `json:"metadata"`
	Error               string             `json:"error,omitempty"`
}

type Metadata struct {
	Model      string      `json:"model"`
	Session    string      `json:"session"`
	Started    time.Time   `json:"started"`
	Ended      time.Time   `json:"ended"`
	DurationMS int64       `json:"duration_ms"`
	Tokens     agent.Usage `json:"tokens"`
	Steps      int         `json:"steps"`
	Commits    []string    `json:"commits"`
	Paths      []string    `json:"paths"`
	// Instructions are the files sent to the model as the project's
	// instructions (AGENTS.md and the like).
	Instructions []string `json:"instructions"`
}

// Run runs pair edit, ask or review (o.Resume) as o says.
func Run(ctx context.Context, o Options) error {
	cmd := string(o.Mode)
	if o.Resume {
		cmd = "review"
	}
	if o.Yes && o.Decisions != "" {
		return output.Usagef("%s: --yes and --decisions cannot be used together", cmd)
	}
	if o.ApproveCommand && o.Web {
		return output.Usagef("%s: --approve-command and --web cannot be used together: approve it in the page", cmd)
	}
	if o.Session != "" && o.Continue {
		return output.Usagef("%s: --session and --continue cannot be used together", cmd)
	}
	if o.Session != "" {
		if err := agent.ValidName(o.Session); err != nil {
			return output.Usagef("%s: --session: %v", cmd, err)
		}
	}
	kb := o.IO.Keyboard
	if !o.OneShot && !o.Resume && !o.Web && kb == nil {
		return output.Usagef("%s: standard input is not a terminal: give the request with -m TEXT", cmd)
	}
	rv := &cliReviewer{how: decideNone, kb: kb, screen: o.IO, verb: "write and commit", interpret: o.Interpret}
	switch {
	case o.Yes:
		rv.how = review.DecideYes
	case o.Decisions != "":
		letters, err := review.ParseLetters(o.Decisions)
		if err != nil {
			return output.Usagef("%s: --decisions: %v", cmd, err)
		}
		rv.how, rv.letters = review.DecideLetters, letters
	case kb != nil:
		rv.how = review.DecideTerminal
	}
	if o.JSON {
		rv.screen = o.IO.OutToErr() // standard output stays one JSON object
	}
	tree, err := o.OpenTree(o.Dir)
	if err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	defer tree.Close()
	if o.NoCommit || !tree.Git {
		rv.verb = "write"
	}
	store := Store(tree)
	// The session: a new one, a named one (made if it does not exist), or
	// the latest (--continue; for pair review, the latest waiting one).
	var st *agent.State
	name := o.Session
	if o.Continue || (o.Resume && name == "") {
		if name, err = store.Latest(o.Resume); err != nil {
			return fmt.Errorf("%s: %w", cmd, err)
		}
	}
	if name == "" {
		name = audit.NewSessionID(string(o.Mode))
	}
	// One process at a time per session (a second pair review of the same
	// pause waits for nobody: it is refused).
	if o.Mode == agent.ModeEdit {
		unlock, err := store.Lock(name)
		if err != nil {
			return fmt.Errorf("%s: %w", cmd, err)
		}
		defer unlock()
	}
	if o.Session != "" || o.Continue || o.Resume {
		st, err = store.Load(name)
		switch {
		case errors.Is(err, agent.ErrNoSession) && !o.Resume && !o.Continue:
			st = nil // a new session by that name
		case err != nil:
			return fmt.Errorf("%s: %w", cmd, err)
		}
	}
	if st != nil && st.Mode != o.Mode && !o.Resume {
		return output.Usagef("%s: session %s is a pair %s session", cmd, st.Session, st.Mode)
	}
	if o.ApproveCommand {
		var p *agent.Pending
		if st != nil {
			p = st.Turn.Pending
		}
		if p == nil || p.Kind != agent.KindCommand && p.Kind != agent.KindMCP || p.Phase != "review" {
			return output.Usagef("%s: --approve-command: session %s does not wait for a command or an MCP call", cmd, st.Session)
		}
		rv.approve = p
	}
	cfg, err := o.LoadConfig(tree.Dir, tree.StateDir())
	if err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	config.UntrustedWarning(o.IO.Err, cfg)
	if err := rv.setUpVerify(tree, cfg, o.Verify); err != nil {
		return err
	}
	if cfg.APIBase == "" && cfg.APIKey == "" {
		return output.Usagef("%s: no model is configured: set OPENAI_BASE_URL (and OPENAI_API_KEY if the server needs one), or give --api-base; PAIR_MODEL or --model names the model. 'pair demo' works without a model", cmd)
	}
	mode := o.Mode
	if st != nil {
		mode = st.Mode
	}
	commit := tree.Git && !o.NoCommit
	if commit && mode == agent.ModeEdit {
		if _, _, err := tree.Identity(); err != nil {
			return fmt.Errorf("%s: %w (or use --no-commit)", cmd, err)
		}
	}
	files, err := contextFiles(tree, o.Files)
	if err != nil {
		return output.Usagef("%s: %v", cmd, err)
	}
	existed := st != nil
	if st == nil {
		st = agent.NewState(name, cfg.Model, o.Mode, files)
	} else {
		st.Model = cfg.Model
		for _, f := range files {
			if !slices.Contains(st.Files, f) {
				st.Files = append(st.Files, f)
			}
		}
	}
	client := agent.NewClient(agent.Config{BaseURL: cfg.APIBase, APIKey: cfg.APIKey, Model: cfg.Model,
		ConnectTimeout: connectTimeout(cfg.Timeout), FirstByteTimeout: cfg.Timeout,
		IdleTimeout: idleTimeout(cfg.IdleTimeout, cfg.Timeout), MaxReply: cfg.MaxReply})
	redact := agent.Settings{APIKey: cfg.APIKey}.Redact // a server's answer may quote the key
	client.Notice = func(s string) { fmt.Fprintln(o.IO.Err, redact(s)) }
	client.Waiting = (&waitNotice{w: o.IO.Err, tty: o.IO.ErrTTY, after: 3 * time.Second}).start
	show := &eventPrinter{io: o.IO, json: o.JSON, color: o.IO.ErrColor, st: st, verbose: o.Verbose}
	a := &agent.Agent{
		Model: client, Tree: tree, Reviewer: rv, Access: o.Access, Emit: show.event,
		Settings: agent.Settings{
			MaxSteps: cfg.MaxSteps, MaxRetries: cfg.MaxRetries, TestCmd: cfg.TestCmd, AllowCommands: cfg.AllowCommands,
			ContextChars: cfg.ContextChars, NoTools: cfg.NoTools,
			NoInstructions: cfg.NoInstructions, Attribution: cfg.Attribution,
			Commit: commit, NoVerify: o.NoVerify, APIKey: cfg.APIKey, KeyEnv: cfg.KeyEnv,
			Interpret: o.Interpret || !o.Yes && o.Decisions == "",
		},
	}
	if mode == agent.ModeEdit { // ask sessions are not kept
		a.Checkpoint = store.Save
		if existed {
			if err := store.Save(st); err != nil {
				return fmt.Errorf("%s: %w", cmd, err)
			}
		} else {
			// A new session is kept once a model has answered (and from
			// then on, also after /clear): a server that cannot be
			// reached leaves no session behind.
			kept := false
			a.Checkpoint = func(st *agent.State) error {
				if kept = kept || answered(st); !kept {
					return nil
				}
				return store.Save(st)
			}
		}
	}
	if !o.Resume || st.Turn.Pending != nil {
		// The MCP servers of .pair.yml live as long as this command: the
		// deferred Close stops them when it returns, also on Ctrl-C.
		servers := o.StartMCP(ctx, cfg, tree.Dir, o.IO.Err)
		defer servers.Close()
		a.External = servers.Tools()
	}
	if o.Web {
		if o.Resume && st.Turn.Pending == nil {
			return &output.ExitError{Code: output.Failure, Msg: fmt.Sprintf("review: nothing is waiting for a review in session %s", st.Session)}
		}
		return serveWeb(ctx, o, a, st, show, rv)
	}
	switch {
	case o.Resume:
		if st.Turn.Pending == nil {
			return &output.ExitError{Code: output.Failure, Msg: fmt.Sprintf("review: nothing is waiting for a review in session %s", st.Session)}
		}
		fmt.Fprintf(o.IO.Err, "pair: session %s: %s\n", st.Session, safetext.Text(st.Turn.ReviewReason))
		err := a.Resume(ctx, st)
		return finishTurn(ctx, o, st, err, show)
	case o.OneShot:
		err := a.Run(ctx, st, o.Request)
		return finishTurn(ctx, o, st, err, show)
	}
	return chat(ctx, o, a, st, show)
}

// answered reports whether a model has answered in st.
func answered(st *agent.State) bool {
	return slices.ContainsFunc(st.Messages, func(m agent.Message) bool { return m.Role == agent.RoleAssistant })
}

// Store is where the tree's sessions are kept: under the git
// directory, never in the working tree.
func Store(tree *repo.Tree) agent.Sessions {
	return agent.Sessions{Dir: filepath.Join(tree.StateDir(), "sessions")}
}

// finishTurn prints a turn's outcome and maps it to the exit status.
func finishTurn(ctx context.Context, o Options, st *agent.State, err error, show *eventPrinter) error {
	cmd := string(o.Mode)
	if o.Resume {
		cmd = "review"
	}
	t := &st.Turn
	// What follows (the error above all) starts on a line of its own,
	// also after tokens streamed to standard error.
	show.endLine()
	if o.JSON {
		output.WriteJSON(o.IO.Out, reportOf(st))
	} else {
		if len(t.Paths) > 0 && err == nil && o.Mode == agent.ModeAsk {
			fmt.Fprintf(o.IO.Err, "files used: %s\n", strings.Join(safetext.Names(t.Paths), ", "))
		}
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, agent.ErrPaused):
		written := "nothing of it was written yet"
		if t.Applied > 0 {
			written = fmt.Sprintf("the %d %s approved before it %s written; nothing of this one yet", t.Applied, output.Plural(t.Applied, "hunk"), map[bool]string{true: "is", false: "are"}[t.Applied == 1])
		}
		ways := "--decisions LETTERS, --yes, or --web"
		if p := t.Pending; p != nil && (p.Kind == agent.KindCommand || p.Kind == agent.KindMCP) {
			// Letters and --yes answer hunks only.
			ways = "--approve-command, or --web"
		}
		if p := t.Pending; p != nil && p.Kind == agent.KindEdit && guardedWaits(p.Review) {
			// --yes leaves a guarded hunk for a person to see.
			ways = "--decisions LETTERS, or --web"
		}
		if t.ReviewRefused != "" {
			// Deciding ahead approved interpreted hunks: offering it again
			// would only be refused again.
			ways = "--web, or " + t.ReviewRefused + " --interpret to accept the interpreted hunks"
		}
		return &output.ExitError{Code: output.NeedsReview, Msg: fmt.Sprintf("%s: paused for review: %s; %s. The session is saved: finish the review with\n  pair review --session %s\non a terminal (or with %s)", cmd, t.ReviewReason, written, st.Session, ways)}
	case errors.Is(err, agent.ErrApplyInterrupted):
		return &output.ExitError{Code: output.Failure, Msg: fmt.Sprintf("%s: %v; check git status and git log, then continue with pair edit --session %s", cmd, err, st.Session)}
	case errors.Is(err, errInterrupted), errors.Is(err, context.Canceled) || ctx.Err() != nil:
		return &output.ExitError{Code: output.Interrupted, Msg: cmd + ": interrupted"}
	case errors.Is(err, agent.ErrTruncated):
		return &output.ExitError{Code: output.Failure, Msg: fmt.Sprintf("%s: %v; raise the server's output limit (max_tokens; Ollama's num_predict) or ask for less", cmd, err)}
	case errors.Is(err, agent.ErrEmptyRequest):
		return output.Usagef("%s: %v", cmd, err)
	}
	var te *agent.TimeoutError
	if errors.As(err, &te) {
		hint := "wait longer with --timeout DURATION or timeout: in .pair.yml (0 waits forever)"
		switch te.Phase {
		case "connect":
			hint = "is the server running, and is the base URL (--api-base) right?"
		case agent.PhaseIdle:
			hint = "wait longer with --idle-timeout DURATION or idle_timeout: in .pair.yml (0 waits forever)"
		}
		return &output.ExitError{Code: output.Failure, Msg: fmt.Sprintf("%s: %v; %s", cmd, err, hint)}
	}
	var se *agent.SizeError
	if errors.As(err, &se) {
		return &output.ExitError{Code: output.Failure, Msg: fmt.Sprintf("%s: %v; allow more with --max-reply SIZE or max_reply: in .pair.yml (such as 16MB)", cmd, err)}
	}
	return &output.ExitError{Code: output.Failure, Err: fmt.Errorf("%s: %w", cmd, err)}
}

// connectTimeout is the connect timeout for a first-byte timeout d (see
// modelConfig.Timeout): the default, or d when that is shorter.
func connectTimeout(d time.Duration) time.Duration {
	if d > 0 && d < agent.DefaultConnectTimeout {
		return d
	}
	return 0
}

// idleTimeout is the idle timeout for the settings idle and firstByte
// (see modelConfig): idle when set, else the first-byte timeout when that
// is shorter than the default, since a person who waits at most that long
// for a reply to begin does not wait longer once it stalls.
func idleTimeout(idle, firstByte time.Duration) time.Duration {
	if idle == 0 && firstByte > 0 && firstByte < agent.DefaultIdleTimeout {
		return firstByte
	}
	return idle
}

// waitNotice shows how long the model has been silent: after a few
// seconds without a first byte, "pair: waiting for the model (12s)…" on
// standard error, updated every second on a terminal and cleared when the
// reply starts; without a terminal, one line.
type waitNotice struct {
	w     io.Writer
	tty   bool
	after time.Duration
}

// start begins the wait for one request; the function it returns ends
// it, and returns once the line is cleared.
func (n *waitNotice) start() (done func()) {
	began := time.Now()
	stop, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTimer(n.after)
		defer t.Stop()
		select {
		case <-stop:
			return
		case <-t.C:
		}
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			fmt.Fprint(n.w, n.line(time.Since(began)))
			if !n.tty {
				<-stop
				return
			}
			select {
			case <-stop:
				fmt.Fprint(n.w, "\r\x1b[K")
				return
			case <-tick.C:
			}
		}
	}()
	return sync.OnceFunc(func() {
		close(stop)
		<-finished
	})
}

// line is the waiting line after waited: on a terminal it overwrites
// itself; otherwise it is a whole line.
func (n *waitNotice) line(waited time.Duration) string {
	s := fmt.Sprintf("pair: waiting for the model (%ds)…", int(waited.Seconds()))
	if n.tty {
		return "\r\x1b[K" + s
	}
	return s + "\n"
}

func reportOf(st *agent.State) Report {
	t := &st.Turn
	r := Report{
		Status: t.Status, TaskType: t.TaskType, FinalOutput: t.Final,
		Plan: st.Plan, ToolResults: st.Results, BlockedActions: st.Blocked,
		RequiresHumanReview: t.Status == agent.StatusNeedsReview, ReviewReason: t.ReviewReason,
		ActionLog: st.Log, Error: t.Error,
		Metadata: Metadata{
			Model: st.Model, Session: st.Session, Started: t.Started, Ended: t.Ended,
			DurationMS: t.Ended.Sub(t.Started).Milliseconds(), Tokens: st.Usage, Steps: t.Steps,
			Commits: t.Commits, Paths: t.Paths, Instructions: st.Instructions,
		},
	}
	if r.Metadata.Instructions == nil {
		r.Metadata.Instructions = []string{}
	}
	if r.Metadata.Commits == nil {
		r.Metadata.Commits = []string{}
	}
	if r.Metadata.Paths == nil {
		r.Metadata.Paths = []string{}
	}
	return r
}

// contextFiles checks the files named on the command line: each must be
// a path inside the repository. A file that does not exist yet is fine
// (the model may create it).
func contextFiles(tree *repo.Tree, names []string) ([]string, error) {
	var out []string
	for _, n := range names {
		p, err := tree.Clean(n)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// eventPrinter shows the loop's events: streamed tokens on standard
// output (standard error with --json), everything else on standard error.
type eventPrinter struct {
	io     console.IO
	json   bool
	color  bool
	st     *agent.State
	midway bool // a token line is open
	// text shows the model's streamed words escaped (see
	// internal/safetext); flushed when its line is left.
	text *safetext.Writer
	// told reports that the summary of an edit's review was shown: the
	// tool's result, the model's text, is not.
	told bool
	// verbose shows what the model is told as well (--verbose).
	verbose bool
}

// forModel shows text meant for the model, with --verbose only: dim and
// marked, so that it does not read as pair speaking to the person.
func (p *eventPrinter) forModel(text string) {
	if !p.verbose {
		return
	}
	for line := range strings.Lines(strings.TrimRight(text, "\n") + "\n") {
		fmt.Fprint(p.io.Err, p.dim("  model ← "+line))
	}
}

func (p *eventPrinter) tokens() io.Writer {
	if p.json {
		return p.io.Err
	}
	return p.io.Out
}

func (p *eventPrinter) endLine() {
	if p.text != nil {
		_ = p.text.Flush()
	}
	if p.midway {
		fmt.Fprintln(p.tokens())
		p.midway = false
	}
}

func (p *eventPrinter) dim(s string) string {
	if !p.color {
		return s
	}
	return "\x1b[2m" + s + "\x1b[m"
}

func (p *eventPrinter) event(e agent.Event) {
	if e.Kind != agent.EventToken {
		// Tool names, arguments, results and notices hold the model's
		// and the repository's text: escaped.
		e.Tool, e.Text, e.Detail = safetext.Name(e.Tool), safetext.Text(e.Text), safetext.Text(e.Detail)
	}
	switch e.Kind {
	case agent.EventToken:
		if p.text == nil || p.text.W != p.tokens() {
			p.text = &safetext.Writer{W: p.tokens()}
		}
		fmt.Fprint(p.text, e.Text)
		p.midway = !strings.HasSuffix(e.Text, "\n")
	case agent.EventRequestStarted:
		// The task type is for --json and the model's tools, not a word
		// for the person.
		fmt.Fprintln(p.io.Err, p.dim(fmt.Sprintf("pair: asking %s…", safetext.Name(p.st.Model))))
	case agent.EventToolCall:
		p.endLine()
		p.told = false
		fmt.Fprintln(p.io.Err, p.dim(fmt.Sprintf("→ %s %s", e.Tool, output.OneLine(e.Text, 100))))
	case agent.EventToolResult:
		if p.told {
			// The review's summary said what became of the edit; the
			// result is the model's version of it.
			p.told = false
			break
		}
		// The result is the model's reading; what matters to the person
		// came as a notice or an error of its own.
		p.forModel(e.Text)
	case agent.EventBlocked:
		p.endLine()
		what := e.Tool
		if e.Text != "" {
			what += " " + e.Text
		}
		// edit, review and ask, which print events, all take the flags.
		fmt.Fprintf(p.io.Err, "pair: blocked %s: %s\n", what, allowFlag(e.Detail, e.Err))
	case agent.EventSuggestion:
		p.endLine()
		fmt.Fprintf(p.io.Err, "suggested command (not run): %s\n", e.Text)
		if e.Detail != "" {
			fmt.Fprintf(p.io.Err, "  %s\n", e.Detail)
		}
	case agent.EventCommand:
		p.endLine()
		fmt.Fprintln(p.io.Err, p.dim("$ "+e.Text))
	case agent.EventFeedback:
		p.endLine()
		p.told = true
		fmt.Fprintln(p.io.Err, p.dim(strings.TrimRight(e.Text, "\n")))
		p.forModel(e.Detail)
	case agent.EventApplied:
		p.endLine()
		fmt.Fprintln(p.io.Err, "pair: "+e.Text)
	case agent.EventNeedsDecision:
		p.endLine()
		fmt.Fprintln(p.io.Err, "pair: needs a decision: "+e.Text)
	case agent.EventNotice:
		p.endLine()
		fmt.Fprintln(p.io.Err, "pair: "+e.Text)
	case agent.EventUsage:
		if e.Usage == (agent.Usage{}) {
			break // the server counts no tokens: none is not zero
		}
		p.endLine()
		fmt.Fprintln(p.io.Err, p.dim(fmt.Sprintf("(tokens: %d in, %d out; session %d)", e.Usage.PromptTokens, e.Usage.CompletionTokens, p.st.Usage.TotalTokens)))
	case agent.EventFinal:
		p.endLine()
	}
}

// chat is pair edit on a terminal: requests and slash commands, one line
// each, until /quit or the end of input.
func chat(ctx context.Context, o Options, a *agent.Agent, st *agent.State, show *eventPrinter) error {
	read := promptReader(o, st, newLineHistory(a.Tree.CommonDir()))
	out := o.IO.Out
	ask := func(ctx context.Context, question string) (string, error) { return read(ctx, question) }
	fmt.Fprintf(out, "pair edit with %s in %s. Type a request, or /help; Ctrl-C stops a request, Ctrl-D leaves.\n", safetext.Name(st.Model), safetext.Name(a.Tree.Dir))
	if len(st.Files) > 0 {
		fmt.Fprintf(out, "files in context: %s\n", strings.Join(safetext.Names(st.Files), ", "))
	}
	// turn runs one request, the pending review or a slash command (what
	// it is called when stopped) with Ctrl-C stopping it alone: the chat
	// goes on, the session as it was saved. hint adds the flag that
	// allows a refused path to an error.
	turn := func(what string, hint bool, do func(ctx context.Context) error) error {
		req, done := o.IO.Interrupt.Catch(ctx)
		err := do(req)
		done()
		show.endLine()
		switch {
		case ctx.Err() != nil:
			return &output.ExitError{Code: output.Interrupted, Msg: "edit: interrupted"}
		case errors.Is(err, errInterrupted), errors.Is(err, context.Canceled):
			fmt.Fprintf(o.IO.Err, "pair: %s stopped; nothing more was written (session %s)\n", what, st.Session)
		case err != nil:
			msg := err.Error()
			if hint {
				msg = allowFlag(msg, err)
			}
			fmt.Fprintf(o.IO.Err, "pair: %s\n", safetext.Text(msg))
		}
		return nil
	}
	if st.Turn.Pending != nil {
		// A review the session paused for comes first.
		fmt.Fprintf(out, "session %s is waiting for a review: %s\n", st.Session, safetext.Text(st.Turn.ReviewReason))
		if err := turn("request", false, func(ctx context.Context) error { return a.Resume(ctx, st) }); err != nil {
			return err
		}
	}
	for {
		line, err := read(ctx, chatPrompt)
		switch {
		case ctx.Err() != nil, errors.Is(err, console.ErrPromptInterrupted):
			fmt.Fprintln(out)
			return &output.ExitError{Code: output.Interrupted, Msg: "edit: interrupted"}
		case err != nil && line == "":
			fmt.Fprintln(out)
			return nil // end of input: done
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "/") {
			// A slash command runs as a request does: Ctrl-C stops it
			// alone, and the chat goes on.
			var quit bool
			if err := turn(stoppedWhat(line), true, func(ctx context.Context) (err error) {
				quit, err = slash(ctx, o, a, st, line, ask)
				return err
			}); err != nil {
				return err
			}
			if quit {
				return nil
			}
			continue
		}
		if err := turn("request", false, func(ctx context.Context) error { return a.Run(ctx, st, line) }); err != nil {
			return err
		}
	}
}

// chatPrompt is the prompt of the chat's requests and commands; only
// what is typed after it goes to the history.
const chatPrompt = "pair> "

// promptReader returns what reads the chat's lines after its prompt: on
// a terminal, with line editing and history (the repository's history h,
// then the session's last request), each line typed added to h;
// otherwise as they come.
func promptReader(o Options, st *agent.State, h lineHistory) func(ctx context.Context, prompt string) (string, error) {
	if o.IO.LineEditing {
		earlier := h.load()
		if r := st.Turn.Request; r != "" && (len(earlier) == 0 || earlier[len(earlier)-1] != r) {
			earlier = append(earlier, r)
		}
		p := console.NewPrompt(o.IO.Keyboard, o.IO.Out, earlier)
		return func(ctx context.Context, prompt string) (string, error) {
			line, err := p.ReadLine(ctx, prompt)
			if err == nil && prompt == chatPrompt {
				h.add(line)
			}
			return line, err
		}
	}
	lines := newLineReader(o.IO.In)
	return func(ctx context.Context, prompt string) (string, error) {
		fmt.Fprint(o.IO.Out, prompt)
		return lines.read(ctx)
	}
}

// lineReader reads lines for the chat's prompt, one when asked and never
// ahead (the review reads single keys from the same terminal), giving up
// the wait when the context ends.
type lineReader struct {
	r       *bufio.Reader
	req     chan struct{}
	lines   chan lineRead
	pending bool
}

type lineRead struct {
	line string
	err  error
}

func newLineReader(in io.Reader) *lineReader {
	l := &lineReader{r: bufio.NewReader(in), req: make(chan struct{}, 1), lines: make(chan lineRead, 1)}
	go func() {
		for range l.req {
			s, err := l.r.ReadString('\n')
			l.lines <- lineRead{s, err}
		}
	}()
	return l
}

func (l *lineReader) read(ctx context.Context) (string, error) {
	if !l.pending {
		l.req <- struct{}{}
		l.pending = true
	}
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case r := <-l.lines:
		l.pending = false
		return r.line, r.err
	}
}

// undoOthers asks before /undo takes back a commit of another session
// (an earlier chat, pair apply): ok reports whether to go on. When HEAD
// cannot be undone at all, pair undo says why.
func undoOthers(ctx context.Context, tree *repo.Tree, session string, out io.Writer, ask func(context.Context, string) (string, error)) (ok bool, err error) {
	res, err := tree.Undo(true)
	if err != nil || res.Commit.Session == session {
		return true, nil
	}
	c := res.Commit
	if ask == nil {
		return false, errors.New("/undo: HEAD was committed by another session; use pair undo to take it back")
	}
	fmt.Fprintf(out, "HEAD %.12s (\"%s\") was committed by session %s, not this one (%s).\n",
		c.Hash, safetext.Line(c.Subject), safetext.Name(c.Session), safetext.Name(session))
	answer, err := ask(ctx, "Take it back? [y/N] ")
	if err != nil && answer == "" {
		return false, err
	}
	if a := strings.ToLower(strings.TrimSpace(answer)); a == "y" || a == "yes" {
		return true, nil
	}
	fmt.Fprintln(out, "not undone")
	return false, nil
}

// slash runs a chat command; quit reports /quit. ask puts a question to
// the person and reads the answer (nil: no one to ask).
func slash(ctx context.Context, o Options, a *agent.Agent, st *agent.State, line string, ask func(ctx context.Context, question string) (string, error)) (quit bool, err error) {
	name, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	out := o.IO.Out
	switch name {
	case "/quit", "/exit", "/q":
		return true, nil
	case "/help":
		fmt.Fprint(out, chatHelp)
	case "/add":
		for _, f := range strings.Fields(rest) {
			p, err := a.Tree.Clean(f)
			if err != nil {
				return false, err
			}
			if err := a.Tree.Guard(p, a.Access); err != nil {
				return false, err
			}
			if !slices.Contains(st.Files, p) {
				st.Files = append(st.Files, p)
			}
		}
		fmt.Fprintf(out, "files in context: %s\n", strings.Join(safetext.Names(st.Files), ", "))
	case "/drop":
		if rest == "" {
			st.Files = nil
		}
		for _, f := range strings.Fields(rest) {
			p, _ := a.Tree.Clean(f)
			st.Files = slices.DeleteFunc(st.Files, func(x string) bool { return x == p })
			delete(st.Sent, p)
		}
		fmt.Fprintf(out, "files in context: %s\n", strings.Join(safetext.Names(st.Files), ", "))
	case "/ls":
		if len(st.Files) == 0 {
			fmt.Fprintln(out, "no files in context; /add FILE")
		}
		for _, f := range st.Files {
			fmt.Fprintln(out, safetext.Name(f))
		}
	case "/ask":
		if rest == "" {
			return false, errors.New("/ask QUESTION")
		}
		return false, a.RunWith(ctx, st, rest, agent.RunOptions{Mode: agent.ModeAsk})
	case "/diff":
		d, err := a.Tree.WorkDiff(a.Access)
		if err != nil {
			return false, err
		}
		if d == "" {
			d = "no uncommitted changes\n"
		}
		fmt.Fprint(out, safetext.Text(d))
	case "/undo":
		if ok, err := undoOthers(ctx, a.Tree, st.Session, out, ask); !ok || err != nil {
			return false, err
		}
		return false, o.Undo(ctx, a.Tree.Dir)
	case "/run", "/test":
		cmdline := rest
		if name == "/test" {
			cmdline = a.Settings.TestCmd
			if cmdline == "" {
				return false, errors.New("no test command: set test_cmd in .pair.yml or use --test-cmd")
			}
		}
		if cmdline == "" {
			return false, errors.New("/run COMMAND")
		}
		res, err := agent.Shell(ctx, a.Tree.Dir, cmdline, a.Settings.CommandEnv(), 10*time.Minute)
		if err == nil {
			err = ctx.Err() // stopped: its output is not kept
		}
		if err != nil {
			return false, err
		}
		// The command ran without the key in its environment; a key it
		// found all the same is not shown, nor sent.
		res.Output = a.Settings.Redact(res.Output)
		fmt.Fprint(out, safetext.Text(res.Output))
		fmt.Fprintf(out, "(exit code %d; the output goes with your next request)\n", res.ExitCode)
		st.Messages = append(st.Messages, agent.Message{Role: agent.RoleUser, Content: fmt.Sprintf("I ran `%s` (exit code %d). Output:\n%s", cmdline, res.ExitCode, tailText(res.Output, 8000))})
	case "/tokens":
		fmt.Fprintf(out, "tokens this session: %d in, %d out, %d in all\n", st.Usage.PromptTokens, st.Usage.CompletionTokens, st.Usage.TotalTokens)
		fmt.Fprintln(out, instructionsLine(st.Instructions, a.Settings.NoInstructions))
	case "/clear":
		st.Messages, st.Sent = nil, map[string]string{}
		fmt.Fprintln(out, "conversation cleared; the files stay in context")
	default:
		return false, fmt.Errorf("unknown command %s; /help lists them", name)
	}
	return false, nil
}

// stoppedWhat names what Ctrl-C stopped in the chat command line.
func stoppedWhat(line string) string {
	name, _, _ := strings.Cut(line, " ")
	switch name {
	case "/run", "/test":
		return "command"
	case "/ask":
		return "request"
	}
	return name
}

const chatHelp = `/add FILE...     put files in context
/drop [FILE...]  take files out of context (all without arguments)
/ls              list the files in context
/ask QUESTION    a read-only question
/diff            the uncommitted changes
/undo            take back the last pair commit
/run COMMAND     run a command; its output goes with your next request
/test            run the test command
/tokens          tokens used in this session, and the project instructions sent
/clear           forget the conversation
/quit            leave (also Ctrl-D)
Anything else is a request for the model.
`

func tailText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "(earlier output cut)\n" + s[len(s)-n:]
}

// decideNone means no way to decide: proposals pause.
const decideNone review.Mode = -1

// guardedWaits reports whether a saved review waits on a guarded hunk
// (edit.Resolved.Guard), which --yes never approves.
func guardedWaits(saved []byte) bool {
	var rev review.Review
	if json.Unmarshal(saved, &rev) != nil {
		return false
	}
	for _, it := range rev.Items {
		if it.Decision == audit.Undecided && it.Hunk.Guard != "" {
			return true
		}
	}
	return false
}

// instructionsLine says which files were sent as the project's
// instructions, for /tokens.
func instructionsLine(paths []string, off bool) string {
	if off {
		return "project instructions: off (.pair.yml instructions: false, or --no-instructions)"
	}
	if len(paths) == 0 {
		return "project instructions: none sent"
	}
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = safetext.Name(p)
	}
	return "project instructions: " + strings.Join(names, ", ")
}

package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/repo"
)

// Completer is what the loop needs from a model endpoint: one complete
// reply, with its tokens passed to onToken as they arrive. *Client
// satisfies it, over any ChatClient (go-openai's *openai.Client).
type Completer interface {
	Complete(ctx context.Context, msgs []Message, tools []ToolDef, onToken func(string)) (Reply, error)
}

// Reviewer decides for the person: the hunks of a proposal, and whether a
// command may run. The terminal and scripted reviewers of the CLI (and
// later the web page) satisfy it. A Reviewer that cannot ask anyone now
// returns ErrNeedsReview, and the turn pauses.
type Reviewer interface {
	ReviewEdits(ctx context.Context, p *Proposal) (*Outcome, error)
	ReviewCommand(ctx context.Context, c *CommandRequest) (CommandDecision, error)
}

// ErrNeedsReview is returned by a Reviewer that has no one to ask: no
// terminal, and no decisions given ahead.
var ErrNeedsReview = errors.New("a decision is needed, and no one can be asked here")

// ErrHunksOnly is returned by ReviewCommand of a Reviewer whose decisions
// were given ahead (--yes, --decisions): those answer hunks, never a
// command or an MCP call. The call is not made, whether the model asks
// for it now or a paused turn waits for it: the model is told so, the
// person what was not run, and the turn goes on.
var ErrHunksOnly = errors.New("decisions given ahead answer hunks only")

// Errors that end a turn.
var (
	// ErrEmptyRequest means there was nothing to do.
	ErrEmptyRequest = errors.New("the request is empty: say what you want done")
	// ErrPaused means the turn stopped for a decision (status
	// needs_review); the state holds the pending action.
	ErrPaused = errors.New("paused: a decision is needed")
	// ErrMaxSteps means the model was called --max-steps times without
	// finishing.
	ErrMaxSteps = errors.New("the model did not finish within the step limit")
	// ErrMaxRetries means edits or tests kept failing.
	ErrMaxRetries = errors.New("the model's edits still fail after the retry limit")
	// ErrTruncated means the model's reply was cut at its length limit
	// (finish_reason "length"): the answer is incomplete (status
	// truncated).
	ErrTruncated = errors.New("the model's reply was cut at its length limit (finish_reason length), so it is incomplete")
	// ErrNothingPending means Resume found no action waiting for a
	// decision.
	ErrNothingPending = errors.New("nothing is waiting for a review")
	// ErrPending means a new request came while an action still waits
	// for a decision.
	ErrPending = errors.New("the session has an action waiting for a review; finish it with pair review first")
	// ErrApplyInterrupted means a resumed action had been interrupted
	// while its approved hunks were being written: it is not repeated.
	ErrApplyInterrupted = errors.New("pair stopped while writing the approved hunks of the pending review; they were not written again")
	// ErrPendingMismatch means a paused MCP call's arguments are not the
	// ones recorded when it paused (the saved session was changed): the
	// call is not made.
	ErrPendingMismatch = errors.New("does not match its record; it was not made")
)

// Proposal is a set of edits for the person to review: placed file plans
// (with the hunks that could not be placed), and the model's message.
type Proposal struct {
	ID      string
	Plans   []*edit.FilePlan
	Message string
	// Grants are the session's always-approved paths so far.
	Grants []string
	// Saved is a review the reviewer saved when it last paused on this
	// proposal (its decisions so far), given back on resume; a reviewer
	// that returns ErrNeedsReview may set it to what it has decided.
	Saved json.RawMessage
	// Undecided is, when the reviewer pauses, how many of the hunks are
	// still to decide (0: all of them).
	Undecided int
	// Refused is, when the reviewer pauses because decisions given ahead
	// (--yes, --decisions) approved interpreted hunks without
	// --interpret, that flag: the pause must not offer it again.
	Refused string
}

// HunkDecision is what became of one hunk of a proposal.
type HunkDecision struct {
	Path string
	// Start is the 1-based first line the hunk covers (0 for a change
	// without lines, such as a pure rename).
	Start    int
	Hash     string
	Decision audit.Decision // approved, edited or rejected; undecided when Refused
	Note     string
	// Refused says, for a hunk that decisions given ahead (--yes) did
	// not approve and that nobody decided, why: it was not written.
	Refused string
	// Text is, for an edited hunk, the hunk as the person left it.
	Text string
	// Interpreted marks a hunk placed by interpretation
	// (edit.PassInterpreted), Uncertain one placed where its reading was
	// doubted (edit.PassUncertain): the trailer records them.
	Interpreted, Uncertain bool
}

// Outcome is a finished review: each hunk's decision, the plans to write
// (exactly the approved and edited hunks), and the session's grants now.
type Outcome struct {
	Hunks  []HunkDecision
	Plans  []*edit.FilePlan
	Grants []string
}

// CommandRequest asks whether a command may run, or (Kind "mcp") whether
// a tool of an MCP server that may change the world outside may be
// called.
type CommandRequest struct {
	ID, Command, Reason string
	// Kind is KindCommand (or empty) for Command, KindMCP for a call of
	// Tool (server.tool) of the MCP server Server with Arguments (a JSON
	// object).
	Kind                    PendingKind
	Server, Tool, Arguments string
}

// CommandDecision is the person's answer about a command.
type CommandDecision struct {
	Approved bool
	Note     string
}

// Settings bound and configure the loop.
type Settings struct {
	MaxSteps   int // model calls per request (default 20)
	MaxRetries int // failed edits or tests sent back per request (default 3)
	// TestCmd runs after edits are applied; its failure goes back to the
	// model. AllowCommands run without asking ("go test ./..." exactly,
	// or "go test *" for any arguments).
	TestCmd       string
	AllowCommands []string
	// Commit makes a pair commit of each applied proposal.
	Commit   bool
	NoVerify bool
	// CommandTimeout bounds run_command and the test command (default 10
	// minutes).
	CommandTimeout time.Duration
	// NoTools sends no tools: the model reads and edits through its
	// text, as when its server refuses tools (.pair.yml tools: false).
	NoTools bool
	// Interpret offers interpreted and uncertain hunks
	// (edit.FilePlan.Interpret) for review: set it when a person reviews,
	// or when --interpret accepts them ahead. Without it a hunk with only
	// such a reading is refused, and the model told what it misread.
	Interpret bool
	// ContextChars bounds what is sent of the conversation (default
	// 400,000 characters, some 100k tokens): past it, the oldest tool
	// results and file contents are elided (see compact).
	ContextChars int
	// APIKey is the model's key, and KeyEnv the variable .pair.yml's
	// api_key_env names. Commands and tests run without either in their
	// environment (CommandEnv), and the key is redacted from everything
	// the model is sent, the session keeps and the events show (see
	// redact.go).
	APIKey, KeyEnv string
	// Attribution is the style of the trailer that names the model in
	// its commits (audit.AttributionTrailer; "" is the default,
	// assisted-by).
	Attribution string
	// NoInstructions sends no project instructions (AGENTS.md and the
	// like; see instructions).
	NoInstructions bool
}

// Agent runs requests: the model, the repository and the reviewer.
type Agent struct {
	Model    Completer
	Tree     *repo.Tree
	Reviewer Reviewer
	Access   repo.Access
	Settings Settings
	// Emit receives the loop's events (tokens, tool calls, results,
	// proposals, the final answer); nil discards them.
	Emit func(Event)
	// Run runs a shell command in the repository root (nil: sh -c with
	// Settings.CommandTimeout).
	RunCommand func(ctx context.Context, command string) (CommandResult, error)
	Now        func() time.Time
	// Checkpoint saves the state after every step and before anything is
	// written (nil: the state is not saved).
	Checkpoint func(*State) error
	// External are tools from outside pair (the MCP servers' tools),
	// offered next to pair's own and gated by their Risk.
	External []ExternalTool

	st *State
	// mode is the current run's (RunOptions.Mode, else the session's).
	mode Mode
}

// RunOptions are the options of one run.
type RunOptions struct {
	// Mode overrides the session's mode for this run (the chat's /ask
	// runs in ModeAsk in an edit session).
	Mode Mode
}

// EventKind says what an Event reports.
type EventKind string

// The events of the loop.
const (
	EventToken          EventKind = "token"
	EventToolCall       EventKind = "tool_call"
	EventToolResult     EventKind = "tool_result"
	EventProposal       EventKind = "proposal"
	EventNeedsDecision  EventKind = "needs_decision"
	EventApplied        EventKind = "applied"
	EventBlocked        EventKind = "blocked"
	EventCommand        EventKind = "command"
	EventSuggestion     EventKind = "suggestion"
	EventUsage          EventKind = "usage"
	EventFinal          EventKind = "final"
	EventError          EventKind = "error"
	EventNotice         EventKind = "notice"
	EventReplyFinished  EventKind = "reply_finished"
	EventFeedback       EventKind = "feedback" // a review's summary for the person; Detail is what the model is told
	EventRequestStarted EventKind = "request_started"
)

// Event is one thing the loop did, for a front end to show.
type Event struct {
	Kind   EventKind
	Text   string
	Tool   string
	Detail string
	Usage  Usage
	// Err is the error a blocked call was refused with (Detail is its
	// text), when there is one: a front end chooses its words by its
	// type, such as a *repo.AccessError's flag.
	Err error
}

// CommandResult is what a command did.
type CommandResult struct {
	ExitCode int
	Output   string
}

func (a *Agent) emit(e Event) {
	if a.Emit != nil {
		a.Emit(a.redactEvent(e))
	}
}

func (a *Agent) now() time.Time {
	if a.Now != nil {
		return a.Now()
	}
	return time.Now()
}

func (a *Agent) log(kind ActionKind, tool, detail string) {
	a.st.Log = append(a.st.Log, Action{Time: a.now().UTC(), Kind: kind, Tool: tool, Detail: clipText(detail, 2000)})
}

func (a *Agent) block(tool, target, reason string) {
	a.blockWith(tool, target, reason, nil)
}

// blockErr is block for a call refused with err, which the event carries.
func (a *Agent) blockErr(tool, target string, err error) {
	a.blockWith(tool, target, err.Error(), err)
}

func (a *Agent) blockWith(tool, target, reason string, err error) {
	a.st.Blocked = append(a.st.Blocked, Blocked{Tool: tool, Target: target, Reason: reason})
	a.log(ActionBlocked, tool, strings.TrimSpace(target+": "+reason))
	a.emit(Event{Kind: EventBlocked, Tool: tool, Text: target, Detail: reason, Err: err})
}

func (a *Agent) noteFile(p string) {
	if !slices.Contains(a.st.Turn.Paths, p) {
		a.st.Turn.Paths = append(a.st.Turn.Paths, p)
	}
}

func (a *Agent) settings() Settings {
	s := a.Settings
	if s.MaxSteps <= 0 {
		s.MaxSteps = 20
	}
	if s.MaxRetries < 0 {
		s.MaxRetries = 0
	}
	if s.CommandTimeout <= 0 {
		s.CommandTimeout = defaultCommandTimeout
	}
	if s.ContextChars <= 0 {
		s.ContextChars = 400_000
	}
	return s
}

// Run works on one request until the model gives its final answer, the
// turn pauses for a decision (ErrPaused), or it fails. Whatever happens,
// st.Turn holds the status, the final output and the reason, and the
// action log records every step.
func (a *Agent) Run(ctx context.Context, st *State, request string) (err error) {
	return a.RunWith(ctx, st, request, RunOptions{})
}

// RunWith is Run with options.
func (a *Agent) RunWith(ctx context.Context, st *State, request string, o RunOptions) (err error) {
	a.st, a.mode = st, st.Mode
	if o.Mode != "" {
		a.mode = o.Mode
	}
	if st.Sent == nil {
		st.Sent = map[string]string{}
	}
	if st.Turn.Pending != nil {
		return fmt.Errorf("%w (%s)", ErrPending, st.Turn.ReviewReason)
	}
	st.Turn = Turn{Request: strings.TrimSpace(request), Started: a.now().UTC()}
	defer func() {
		err = a.endTurn(err)
		if cerr := a.checkpoint(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	if st.Turn.Request == "" {
		return ErrEmptyRequest
	}
	st.Turn.TaskType = Classify(st.Turn.Request, a.mode)
	a.log(ActionRequest, "", fmt.Sprintf("%s (%s)", st.Turn.Request, st.Turn.TaskType))
	a.emit(Event{Kind: EventRequestStarted, Text: st.Turn.Request, Detail: st.Turn.TaskType})
	// With MCP tools that reach outside the repository, the model may be
	// able to do what pair alone cannot: it is asked, and the gate stays.
	if st.Turn.TaskType == TaskUnsupported && len(a.offeredExternal(a.mode == ModeAsk)) == 0 {
		st.Turn.Final = "pair works on the code in this repository: reading it, answering questions about it, and proposing changes you review. " +
			"It cannot do that request, which needs the world outside the repository."
		a.emit(Event{Kind: EventFinal, Text: st.Turn.Final})
		return nil
	}
	first := len(st.Messages) == 0
	if first {
		prompt := systemPrompt(a.mode, a.textOnly(), a.Settings)
		if !a.textOnly() {
			prompt += a.externalPrompt(a.mode)
		}
		st.Messages = append(st.Messages, Message{Role: RoleSystem, Content: prompt})
	}
	repairCalls(st)
	msg := Message{Role: RoleUser, Content: a.userMessage(st.Turn.Request, first), Request: st.Turn.Request}
	if n := len(st.Messages); n > 0 && st.Messages[n-1].Role == RoleUser && st.Messages[n-1].Request == "" {
		// What pair last told the model (the review of a reply's diff)
		// opens the request: some templates want the roles to alternate.
		msg.Content = strings.TrimRight(st.Messages[n-1].Content, "\n") + "\n\n" + msg.Content
		st.Messages = st.Messages[:n-1]
	}
	st.Messages = append(st.Messages, msg)
	return a.loop(ctx)
}

// Resume finishes a turn that paused for a decision, perhaps in another
// process: the pending action goes to the reviewer (with the review saved
// so far), is applied and committed exactly once, is reported to the
// model, and the turn goes on to its end. An action found "applying" (the
// process died while writing it) is not repeated: the model is told the
// outcome is unknown and ErrApplyInterrupted hands it to the person.
func (a *Agent) Resume(ctx context.Context, st *State) (err error) {
	a.st, a.mode = st, st.Mode
	if st.Sent == nil {
		st.Sent = map[string]string{}
	}
	p := st.Turn.Pending
	if p == nil {
		return ErrNothingPending
	}
	defer func() {
		err = a.endTurn(err)
		if cerr := a.checkpoint(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	st.Turn.Status, st.Turn.Error, st.Turn.ReviewReason, st.Turn.ReviewRefused = "", "", "", ""
	a.log(ActionResume, p.Tool, fmt.Sprintf("resuming %s %s (phase %s)", p.Kind, p.ID, p.Phase))
	if p.Phase == "applying" {
		st.Turn.Pending = nil
		if p.Kind == KindMCP {
			a.answer(p, "The person approved this call, and pair stopped while it was being made: it is not known whether it had an effect. "+
				"It was not made again. Check its effect before calling it again.")
			return &callInterruptedError{tool: p.Tool}
		}
		a.answer(p, "The person's decisions on this change were being written when pair stopped, and it is not known whether they were. "+
			"Nothing was written again. Read the files before changing them further.")
		return ErrApplyInterrupted
	}
	switch p.Kind {
	case KindEdit:
		r, err := a.proposeAgain(ctx, p)
		if err != nil {
			return err // a pause again, or Ctrl-C
		}
		st.Turn.Pending = nil
		if p.Tool == "reply" {
			if a.replyReviewed(p.Reply, r) {
				return nil
			}
		} else {
			if !r.done {
				st.Turn.Retries++
			}
			a.answer(p, r.feedback)
		}
	case KindCommand:
		result, _, err := a.command(ctx, ToolCall{ID: p.CallID, Name: "run_command"}, p.Command, "")
		if err != nil {
			return err
		}
		st.Turn.Pending = nil
		a.answer(p, result)
	case KindMCP:
		result, ok, err := a.resumeExternal(ctx, p)
		if err != nil {
			return err
		}
		st.Turn.Pending = nil
		a.answerCall(p, result, ok)
	default:
		return fmt.Errorf("the pending action has an unknown kind %q", p.Kind)
	}
	if err := a.checkpoint(); err != nil {
		return err
	}
	return a.loop(ctx)
}

// proposeAgain places a paused edit again, for its review to go on: with
// interpreted hunks offered or not as when it paused, whatever this run's
// settings, so that the review resumed is the one saved. Whether this run
// accepts the interpreted hunks is the reviewer's to say.
func (a *Agent) proposeAgain(ctx context.Context, p *Pending) (reviewed, error) {
	if p.Interpret != nil {
		defer func(keep bool) { a.Settings.Interpret = keep }(a.Settings.Interpret)
		a.Settings.Interpret = *p.Interpret
	}
	return a.propose(ctx, p.Tool, p.CallID, p.Diff, p.Message, p.Reply, p.Review, p.Bases)
}

// repairCalls answers, as not run, every tool call of the conversation
// that has no answer: a turn interrupted (Ctrl-C, a failed model call)
// in the middle of a reply's calls leaves them so, and servers refuse a
// conversation with an unanswered call.
func repairCalls(st *State) {
	msgs := st.Messages
	out := make([]Message, 0, len(msgs))
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		out = append(out, m)
		if m.Role != RoleAssistant || len(m.ToolCalls) == 0 {
			continue
		}
		answered := map[string]bool{}
		for i+1 < len(msgs) && msgs[i+1].Role == RoleTool {
			i++
			out = append(out, msgs[i])
			answered[msgs[i].ToolCallID] = true
		}
		for _, c := range m.ToolCalls {
			if !answered[c.ID] {
				out = append(out, Message{Role: RoleTool, ToolCallID: c.ID, Content: "not run: the turn was interrupted before this call was answered"})
			}
		}
	}
	st.Messages = out
}

// answer gives the paused tool call its result (a reply's proposal has no
// call: the text goes as the next message).
func (a *Agent) answer(p *Pending, text string) {
	if p.CallID == "" {
		a.st.Messages = append(a.st.Messages, Message{Role: RoleUser, Content: text})
		return
	}
	a.st.Results = append(a.st.Results, ToolResult{ID: p.CallID, Tool: p.Tool, OK: true, Result: text})
	a.st.Messages = append(a.st.Messages, Message{Role: RoleTool, ToolCallID: p.CallID, Content: nonEmpty0(text)})
}

// endTurn records how the turn ended, and returns its error: err, or a
// *NotCommittedError when approved hunks were left uncommitted.
func (a *Agent) endTurn(err error) error {
	t := &a.st.Turn
	t.Ended = a.now().UTC()
	if err == nil && t.NotCommitted != "" {
		err = &NotCommittedError{Reason: t.NotCommitted}
	}
	switch {
	case err == nil:
		t.Status = StatusOK
		a.log(ActionFinal, "", t.Final)
	case errors.Is(err, ErrPaused):
		t.Status = StatusNeedsReview
	case errors.Is(err, ErrTruncated):
		t.Status, t.Error = StatusTruncated, err.Error()
	default:
		t.Status, t.Error = StatusFailed, err.Error()
		a.log(ActionError, "", err.Error())
	}
	return a.redactErr(err)
}

// NotCommittedError ends a turn in which approved hunks were written but
// could not be committed (a hook failed, say): the files stay changed.
type NotCommittedError struct {
	Reason string
}

func (e *NotCommittedError) Error() string {
	r := strings.TrimPrefix(e.Reason, repo.ErrNotCommitted.Error()+": ")
	return "approved hunks were written but not committed: " + r
}

// Unwrap lets errors.Is find repo.ErrNotCommitted.
func (e *NotCommittedError) Unwrap() error { return repo.ErrNotCommitted }

// loop calls the model until it answers without tools, within the limits.
func (a *Agent) loop(ctx context.Context) error {
	s := a.settings()
	defs := append(toolDefs(offered(a.mode == ModeAsk), s), a.externalDefs(a.mode == ModeAsk)...)
	if a.textOnly() {
		defs = nil
	}
	// undo is set while the first request after a switch to text-only
	// mode is under way.
	var undo *undoTextOnly
	for {
		if a.st.Turn.Steps >= s.MaxSteps {
			return fmt.Errorf("%w (%d model %s)", ErrMaxSteps, s.MaxSteps, output.Plural(s.MaxSteps, "call"))
		}
		a.st.Turn.Steps++
		a.redact()
		reply, err := a.Model.Complete(ctx, compact(a.st.Messages, s.ContextChars), defs, func(tok string) {
			a.emit(Event{Kind: EventToken, Text: tok})
		})
		for _, r := range reply.Retries {
			a.log(ActionRetry, "", r)
		}
		if err != nil && len(defs) > 0 && toolsRefused(err) {
			// Once per session: the request goes again, without tools.
			undo = &undoTextOnly{messages: slices.Clone(a.st.Messages), err: err}
			a.goTextOnly(err)
			defs = nil
			a.st.Turn.Steps--
			if err := a.checkpoint(); err != nil {
				return err
			}
			continue
		}
		if err != nil && undo != nil && toolsRefused(err) {
			// Refused without tools too: it was not about the tools.
			a.st.NoTools, a.st.Messages = false, undo.messages
			a.log(ActionNotice, "", "the request failed without tools as well: back to tools")
			return fmt.Errorf("model: %w", undo.err)
		}
		undo = nil
		if err != nil {
			return fmt.Errorf("model: %w", err)
		}
		a.st.Usage.Add(reply.Usage)
		a.emit(Event{Kind: EventReplyFinished, Text: reply.FinishReason})
		a.emit(Event{Kind: EventUsage, Usage: reply.Usage, Detail: "reply"})
		if reply.FinishReason == "length" {
			if again, err := a.truncated(reply); !again {
				return err
			}
			continue
		}
		a.st.Messages = append(a.st.Messages, Message{Role: RoleAssistant, Content: reply.Content, ToolCalls: reply.ToolCalls})
		if err := a.checkpoint(); err != nil {
			return err
		}
		if len(reply.ToolCalls) > 0 {
			if err := a.calls(ctx, reply.ToolCalls); err != nil {
				return err
			}
			if a.st.Turn.Retries > s.MaxRetries {
				return fmt.Errorf("%w (%d)", ErrMaxRetries, s.MaxRetries)
			}
			continue
		}
		// In text-only mode, READ lines (without an edit, in any form) ask to
		// read.
		if reqs := textRequests(reply.Content); a.textOnly() && len(reqs) > 0 && (a.mode == ModeAsk || !a.replyHasEdits(reply.Content)) {
			a.st.Messages = append(a.st.Messages, Message{Role: RoleUser, Content: a.answerReads(ctx, reqs)})
			if err := a.checkpoint(); err != nil {
				return err
			}
			continue
		}
		// A reply without tool calls: the edits in it are a proposal.
		if a.mode != ModeAsk && a.replyHasEdits(reply.Content) {
			r, err := a.propose(ctx, "reply", "", reply.Content, commitLine(reply.Content), reply.Content, nil, nil)
			if err != nil {
				return err
			}
			if !a.replyReviewed(reply.Content, r) {
				continue
			}
			return nil
		}
		a.st.Turn.Final = reply.Content
		if a.mode == ModeAsk && a.replyHasEdits(reply.Content) {
			a.block("reply", "fenced diff", "pair ask is read-only: the diff in the answer was not applied")
		}
		a.emit(Event{Kind: EventFinal, Text: a.st.Turn.Final})
		return nil
	}
}

// truncated handles a reply cut at the model's length limit. Its tool
// calls and the edits in its text may be cut short: none is run or
// applied. A reply with an edit is asked for once more, shorter (again
// reports true); otherwise the turn ends with ErrTruncated, the text
// that came as its final output.
func (a *Agent) truncated(reply Reply) (again bool, err error) {
	edit := len(reply.ToolCalls) > 0 || (hasDiff(reply.Content) && a.mode != ModeAsk)
	what := "the reply"
	if edit {
		what = "the reply, with an unfinished edit that was not applied"
	}
	a.log(ActionTruncated, "", fmt.Sprintf("%s was cut at the model's length limit (finish_reason length) after %d characters", what, len(reply.Content)))
	// The calls are left out of the conversation: they were not run.
	a.st.Messages = append(a.st.Messages, Message{Role: RoleAssistant, Content: nonEmpty0(reply.Content)})
	if edit && !a.st.Turn.Continued {
		a.st.Turn.Continued = true
		a.emit(Event{Kind: EventNotice, Text: "the model's reply was cut at its length limit; its unfinished edit was not applied, and the model is asked for a shorter one"})
		a.st.Messages = append(a.st.Messages, Message{Role: RoleUser, Content: "Your reply was cut off at your output length limit before it ended, so nothing in it was run or applied. " +
			"Send the change again in a shorter form: one file at a time, a unified diff with only the hunks that change and three lines of context, and no explanation before it."})
		return true, a.checkpoint()
	}
	a.st.Turn.Final = reply.Content
	a.emit(Event{Kind: EventFinal, Text: a.st.Turn.Final})
	if edit {
		return false, fmt.Errorf("%w; its unfinished edit was not applied", ErrTruncated)
	}
	return false, ErrTruncated
}

// replyReviewed gives the model the outcome of the review of the edits in
// a reply's text, as the next message: it has no tool call to answer. When
// every hunk placed (and the tests pass) it ends the turn, the reply and
// the person's summary its final output, and the model reads the outcome
// with the next request; otherwise it reports false, for the model to try
// again. Past the retry limit it ends the turn with the failure.
func (a *Agent) replyReviewed(content string, r reviewed) bool {
	a.st.Messages = append(a.st.Messages, Message{Role: RoleUser, Content: r.feedback})
	if !r.done {
		a.st.Turn.Retries++
		if a.st.Turn.Retries <= a.settings().MaxRetries {
			return false
		}
		a.st.Turn.Error = fmt.Sprintf("%v (%d): %s", ErrMaxRetries, a.settings().MaxRetries, firstLine(r.summary))
	}
	a.st.Turn.Final = strings.TrimSpace(strings.TrimSpace(content) + "\n\n" + r.summary)
	a.emit(Event{Kind: EventFinal, Text: a.st.Turn.Final})
	return true
}

// calls runs the tool calls of one reply in order and adds their results.
// When one pauses for a decision, the calls after it are answered as not
// run (the model may call them again), so that the conversation stays
// well-formed; the paused call is answered when the turn resumes.
func (a *Agent) calls(ctx context.Context, calls []ToolCall) error {
	for i, call := range calls {
		result, err := a.call(ctx, call)
		if errors.Is(err, ErrPaused) {
			for _, later := range calls[i+1:] {
				a.st.Messages = append(a.st.Messages, Message{Role: RoleTool, ToolCallID: later.ID,
					Content: "not run: an earlier call of the same reply is waiting for the person's review; call it again if it is still needed"})
			}
			if cerr := a.checkpoint(); cerr != nil {
				return cerr
			}
			return err
		}
		if err != nil {
			return err
		}
		a.st.Messages = append(a.st.Messages, Message{Role: RoleTool, ToolCallID: call.ID, Content: nonEmpty0(result)})
		if err := a.checkpoint(); err != nil {
			return err
		}
	}
	return nil
}

// checkpoint saves the state (Agent.Checkpoint), so that a killed process
// loses at most the step in flight. The state is redacted first, saved or
// not: the end of every turn checkpoints, and its caller shows it.
func (a *Agent) checkpoint() error {
	a.redact()
	if a.Checkpoint == nil {
		return nil
	}
	if err := a.Checkpoint(a.st); err != nil {
		return fmt.Errorf("save the session: %w", err)
	}
	return nil
}

func nonEmpty0(s string) string {
	if strings.TrimSpace(s) == "" {
		return noOutput
	}
	return s
}

// call runs one tool call through the policy gate and returns the result
// for the model. Only an error that ends the turn (a pause, Ctrl-C) is
// returned as an error; every other failure is the tool's result.
func (a *Agent) call(ctx context.Context, call ToolCall) (string, error) {
	t := findTool(call.Name)
	risk, name := Risk("unknown"), call.Name
	var ext *ExternalTool
	if t != nil {
		risk = t.risk
	} else if ext = a.findExternal(call.Name); ext != nil {
		risk, name = ext.Risk, ext.Name()
	}
	a.st.Plan = append(a.st.Plan, PlanEntry{ID: call.ID, Tool: name, Arguments: call.Arguments, Risk: risk})
	a.log(ActionToolCall, name, call.Arguments)
	a.emit(Event{Kind: EventToolCall, Tool: name, Text: call.Arguments})
	var result string
	var ok bool
	var err error
	if ext != nil {
		result, ok, err = a.external(ctx, ext, call)
	} else {
		result, ok, err = a.dispatch(ctx, t, call)
	}
	if err != nil {
		return "", err
	}
	result = clipText(result, maxToolResult)
	a.st.Results = append(a.st.Results, ToolResult{ID: call.ID, Tool: name, OK: ok, Result: result})
	a.log(ActionToolResult, name, result)
	a.emit(Event{Kind: EventToolResult, Tool: name, Text: result, Detail: map[bool]string{true: "ok", false: "error"}[ok]})
	return result, nil
}

func (a *Agent) dispatch(ctx context.Context, t *tool, call ToolCall) (result string, ok bool, err error) {
	readOnly := a.mode == ModeAsk
	if t == nil {
		a.block(call.Name, "", "unknown tool")
		return fmt.Sprintf("error: there is no tool %q; the tools are: %s", call.Name, strings.Join(append(toolNames(offered(readOnly)), a.externalNames(readOnly)...), ", ")), false, nil
	}
	if readOnly && t.risk != RiskRead {
		a.block(call.Name, "", "pair ask is read-only: edits and commands are not allowed")
		return "error: this session is read-only (pair ask); " + call.Name + " is not allowed. Answer the question instead.", false, nil
	}
	args, verr := t.schema.validate(t.name, call.Arguments)
	if verr != nil {
		return "error: " + verr.Error(), false, nil
	}
	switch t.risk {
	case RiskRead:
		out, rerr := t.run(ctx, a, args)
		if rerr != nil {
			if blockedPath(rerr) {
				a.blockErr(t.name, pathArg(args), rerr)
			}
			if t.name == "read_file" || t.name == "search_files" {
				// Their results are plain text: a failure is JSON, so
				// that it cannot pass for a file's content.
				return readError(t.name, args, rerr), false, nil
			}
			return "error: " + rerr.Error(), false, nil
		}
		return out, true, nil
	case RiskEdit:
		return a.edit(ctx, t.name, call, args)
	case RiskCommand:
		return a.command(ctx, call, argString(args, "command"), "")
	}
	return "error: unknown risk", false, nil
}

func pathArg(args map[string]any) string {
	if p := argString(args, "path"); p != "" {
		return p
	}
	return argString(args, "glob")
}

// edit turns propose_diff or write_file into a proposal for review. A
// write_file is the whole file: a change from what the model saw of it
// (see base), placed on the file as it is now.
func (a *Agent) edit(ctx context.Context, name string, call ToolCall, args map[string]any) (string, bool, error) {
	diff, msg := argString(args, "diff"), argString(args, "message")
	if name == "write_file" {
		clean, same, err := a.writeCheck(argString(args, "path"), argString(args, "content"))
		if err != nil {
			if blockedPath(err) {
				a.blockErr(name, argString(args, "path"), err)
			}
			return "error: " + err.Error(), false, nil
		}
		if same {
			return "the file already has exactly this content; nothing to change", true, nil
		}
		diff = writeText(clean, argString(args, "content"))
	}
	r, err := a.propose(ctx, name, call.ID, diff, msg, "", nil, nil)
	if err != nil {
		return "", false, err
	}
	if !r.done {
		a.st.Turn.Retries++
	}
	return r.feedback, r.done, nil
}

// writeCheck cleans and guards the path of a write_file, and reports
// whether the file already has the content.
func (a *Agent) writeCheck(p, content string) (clean string, same bool, err error) {
	clean, err = a.Tree.Clean(p)
	if err != nil {
		return "", false, err
	}
	if err := a.Tree.Guard(clean, a.Access); err != nil {
		return "", false, err
	}
	text, err := a.readCurrent(clean) // links judged by their targets
	switch {
	case err == nil:
		return clean, text == content, nil
	case errors.Is(err, fs.ErrNotExist):
		return clean, false, nil
	}
	return "", false, err
}

// reviewed is what became of a proposal: the feedback for the model, a
// summary for the person, and whether it is done (see propose).
type reviewed struct {
	feedback, summary string
	done              bool
}

// propose places a diff, has it reviewed, applies and commits what was
// approved, and returns the feedback for the model and the summary for
// the person. done reports whether every hunk was placed or was already
// in the file (and, with a test command, the tests pass): when not, the
// model is asked to try again.
//
// Whole files (write_file, whole files in a reply) are changes from their
// bases: bases fixes them for a resumed proposal.
func (a *Agent) propose(ctx context.Context, tool, callID, diff, message, replyText string, saved json.RawMessage, bases []Base) (reviewed, error) {
	pe, perr := a.parseEdits(tool, diff, bases)
	var we *edit.WholeError
	switch {
	case errors.As(perr, &we) && (errors.Is(we.Err, errUnread) || errors.Is(we.Err, edit.ErrDeletedSince)):
		why := "you deleted the file since the model read it"
		if errors.Is(we.Err, errUnread) {
			why = "git does not have the file, and the model has not read all of it"
		}
		a.emit(Event{Kind: EventNotice, Text: fmt.Sprintf("%s: the model's whole file was refused: %s", we.Path, why)})
		return reviewed{feedback: "error: " + perr.Error(), summary: fmt.Sprintf("The model's whole file %s was refused: %s.", we.Path, why)}, nil
	case errors.Is(perr, edit.ErrNoEdits) && tool == "write_file":
		return reviewed{feedback: "the content is what you last read of the file, which was changed since; nothing to change", summary: "Nothing to change.", done: true}, nil
	case perr != nil:
		return a.told(tool, reviewed{feedback: unparsed(perr, a.textOnly()), summary: "The model's edit does not parse: " + perr.Error() + "."}), nil
	}
	plans, perr := a.Tree.PlaceWith(pe.patch, a.Access)
	if perr != nil {
		if blockedPath(perr) {
			target := ""
			if le := (*repo.LinkError)(nil); errors.As(perr, &le) {
				target = le.Path
			}
			a.blockErr(tool, target, perr)
		}
		return a.told(tool, reviewed{feedback: "error: " + perr.Error(), summary: "The model's edit was refused: " + perr.Error() + "."}), nil
	}
	a.threeWay(plans, pe.bases)
	a.guardDeletions(plans)
	a.noticeConflicts(plans)
	if a.Settings.Interpret {
		edit.Interpret(plans)
	}
	placed := 0
	for _, p := range plans {
		placed += len(p.Hunks)
		a.noteFile(p.Path())
	}
	// A hunk already in the file is not placed, and is no failure.
	already, failed := countErrors(plans)
	var b strings.Builder
	if placed == 0 && !onlyFileOps(plans) {
		r := reviewed{done: failed == 0}
		switch {
		case failed == 0:
			b.WriteString("Review of your edit: the file already holds it; nothing was shown to the person.\n")
			writeAlready(&b, plans)
			r.summary = "The model's edit is already in the files; nothing to do."
		default:
			b.WriteString("None of the hunks could be placed; nothing was shown to the person.\n")
			writeAlready(&b, plans)
			writeFailures(&b, plans)
			b.WriteString("Next:\n")
			writeAdvice(&b, plans, nil)
			r.summary = fmt.Sprintf("None of the model's hunks could be placed in %s; nothing was shown to you, and the model was told why.", summarize(plans))
		}
		r.feedback = b.String()
		return a.told(tool, r), nil
	}
	prop := &Proposal{ID: fmt.Sprintf("p%d", len(a.st.Log)+1), Plans: plans, Message: message, Grants: a.st.Grants, Saved: saved}
	a.emit(Event{Kind: EventProposal, Tool: tool, Text: fmt.Sprintf("%d %s placed, %d failed", placed, output.Plural(placed, "hunk"), failed)})
	pending := &Pending{ID: prop.ID, Kind: KindEdit, Tool: tool, CallID: callID, ArgsHash: hashOf(diff), Diff: diff, Message: message, Reply: replyText, Phase: "review", Interpret: new(a.Settings.Interpret), Bases: pe.bases}
	out, rerr := a.Reviewer.ReviewEdits(ctx, prop)
	if errors.Is(rerr, ErrNeedsReview) {
		pending.Review = prop.Saved
		a.st.Turn.Pending = pending
		waiting := placed
		if prop.Undecided > 0 {
			waiting = prop.Undecided
		}
		a.st.Turn.ReviewReason = fmt.Sprintf("%d %s of %s %s review", waiting, output.Plural(waiting, "hunk"), summarize(plans), map[bool]string{true: "awaits", false: "await"}[waiting == 1])
		a.st.Turn.ReviewRefused = prop.Refused
		a.log(ActionReview, tool, "paused: "+a.st.Turn.ReviewReason)
		a.emit(Event{Kind: EventNeedsDecision, Tool: tool, Text: a.st.Turn.ReviewReason})
		return reviewed{}, ErrPaused
	}
	if rerr != nil {
		return reviewed{}, rerr
	}
	a.st.Grants = out.Grants
	counts := map[audit.Decision]int{}
	noted := 0
	for _, h := range out.Hunks {
		counts[h.Decision]++
		if h.Decision == audit.Rejected && h.Note != "" {
			noted++
		}
	}
	a.log(ActionReview, tool, fmt.Sprintf("%d approved, %d edited, %d rejected, %d not placed", counts[audit.Approved], counts[audit.Edited], counts[audit.Rejected], failed))
	applied := counts[audit.Approved] + counts[audit.Edited]
	person := []string{reviewCounts(applied, counts[audit.Rejected], counts[audit.Undecided], failed, already)}

	b.WriteString("Review of your edit:\n")
	for _, h := range out.Hunks {
		where := fmt.Sprintf("%s:%d", h.Path, h.Start)
		if h.Start == 0 {
			where = h.Path
		}
		switch h.Decision {
		case audit.Approved:
			fmt.Fprintf(&b, "- %s: applied\n", where)
		case audit.Edited:
			fmt.Fprintf(&b, "- %s: applied after the person edited it; it now reads:\n%s", where, indent(h.Text))
		case audit.Undecided:
			why := h.Refused
			if why == "" {
				why = "the person did not approve it"
			}
			fmt.Fprintf(&b, "- %s: not applied: %s\n", where, why)
		default:
			fmt.Fprintf(&b, "- %s: rejected by the person", where)
			if h.Note != "" {
				fmt.Fprintf(&b, ", who said: %q", h.Note)
			}
			b.WriteString("\n")
		}
		writeInterpreted(&b, plans, h)
	}
	writeAlready(&b, plans)
	writeFailures(&b, plans)
	writeKeptWhole(&b, plans, pe.bases)
	if len(out.Plans) > 0 {
		// From here until the outcome is recorded, a crash leaves the
		// action "applying": a resume hands it back to the person rather
		// than writing it twice.
		pending.Phase = "applying"
		a.st.Turn.Pending = pending
		if err := a.checkpoint(); err != nil {
			return reviewed{}, err
		}
		res, aerr := a.Tree.ApplyPlans(out.Plans, repo.ApplyOptions{
			Commit: a.Settings.Commit, NoVerify: a.Settings.NoVerify,
			Record: a.record(out, message), Context: ctx,
		})
		a.st.Turn.Pending = nil
		switch {
		case errors.Is(aerr, repo.ErrNotCommitted):
			a.sawWritten(out.Plans, pe.whole)
			a.st.Turn.Applied += applied
			why := strings.TrimPrefix(aerr.Error(), repo.ErrNotCommitted.Error()+": ")
			fmt.Fprintf(&b, "The approved hunks were written, but not committed: %s\n", why)
			person = append(person, "Written, not committed: "+why+".")
			var he *repo.HookError
			if errors.As(aerr, &he) && strings.TrimSpace(he.Output) != "" {
				fmt.Fprintf(&b, "The %s hook said:\n%s\n", he.Hook, tail(he.Output, 4000))
				person = append(person, fmt.Sprintf("The %s hook said:\n%s", he.Hook, tail(he.Output, 1000)))
			}
			a.log(ActionApply, tool, "written, not committed: "+aerr.Error())
			a.st.Turn.NotCommitted = aerr.Error()
		case aerr != nil:
			fmt.Fprintf(&b, "The approved hunks could not be written: %v\nNothing was written.\n", aerr)
			a.log(ActionApply, tool, "failed: "+aerr.Error())
			person = append(person, fmt.Sprintf("Nothing was written: %v.", aerr))
			return a.told(tool, reviewed{feedback: b.String(), summary: strings.Join(person, " ")}), nil
		default:
			a.sawWritten(out.Plans, pe.whole)
			a.st.Turn.Applied += applied
			switch {
			case res.Commit != nil && res.Commit.Hash != "":
				a.st.Turn.Commits = append(a.st.Turn.Commits, res.Commit.Hash)
				fmt.Fprintf(&b, "Committed as %s.\n", shortHash(res.Commit.Hash))
				person = append(person, fmt.Sprintf("Committed as %s.", shortHash(res.Commit.Hash)))
				a.log(ActionCommit, tool, res.Commit.Hash)
			case res.Commit != nil:
				b.WriteString("Written to the working tree; nothing could be committed.\n")
				person = append(person, "Written; nothing could be committed.")
			default:
				b.WriteString("Written to the working tree (not committed).\n")
				person = append(person, "Written, not committed.")
			}
			if res.Commit != nil {
				// What git said of the commit, both read alike.
				both := func(format string, args ...any) {
					fmt.Fprintf(&b, format+"\n", args...)
					person = append(person, fmt.Sprintf(format, args...))
				}
				for _, w := range res.Commit.Warnings {
					both("Warning: %s.", w)
				}
				for _, u := range res.Commit.StagedLost {
					both("%s: %s.", u.Path, u.Reason)
				}
				for _, p := range res.Commit.HookChanged {
					both("The pre-commit hook changed %s; the commit holds its version.", p)
				}
				for _, u := range res.Commit.Uncommitted {
					both("%s was written but not committed: %s", u.Path, u.Reason)
				}
			}
			a.log(ActionApply, tool, fmt.Sprintf("%d %s written", applied, output.Plural(applied, "hunk")))
			a.emit(Event{Kind: EventApplied, Tool: tool, Text: fmt.Sprintf("%d %s applied", applied, output.Plural(applied, "hunk"))})
		}
	} else {
		b.WriteString("Nothing was written.\n")
		person = append(person, "Nothing was written.")
	}
	if noted > 0 {
		b.WriteString("A hunk rejected with a note: do what the note says.\n")
	}
	if counts[audit.Rejected] > noted {
		b.WriteString("A hunk rejected without a note: do not propose it again; go on with the rest of the task, or ask the person what they want instead.\n")
	}
	r := reviewed{done: failed == 0}
	if applied > 0 && a.Settings.TestCmd != "" {
		res, terr := a.runCommand(ctx, a.Settings.TestCmd)
		if terr != nil {
			return reviewed{}, terr
		}
		a.log(ActionTest, "", fmt.Sprintf("%s: exit %d", a.Settings.TestCmd, res.ExitCode))
		if res.ExitCode == 0 {
			fmt.Fprintf(&b, "The tests pass (%s).\n", a.Settings.TestCmd)
			person = append(person, fmt.Sprintf("The tests pass (%s).", a.Settings.TestCmd))
		} else {
			fmt.Fprintf(&b, "The tests fail (%s, exit code %d). Output:\n%s\nFix the code so that they pass.\n", a.Settings.TestCmd, res.ExitCode, tail(res.Output, 4000))
			person = append(person, fmt.Sprintf("The tests fail (%s, exit code %d); the end of their output:\n%s", a.Settings.TestCmd, res.ExitCode, tail(res.Output, 1000)))
			r.done = false
		}
	}
	if failed > 0 {
		b.WriteString("Next:\n")
		writeAdvice(&b, plans, out)
	}
	r.feedback, r.summary = b.String(), strings.Join(person, " ")
	return a.told(tool, r), nil
}

// told shows the person the summary of what became of an edit (the
// event's Detail holds what the model is told), and returns r.
func (a *Agent) told(tool string, r reviewed) reviewed {
	a.emit(Event{Kind: EventFeedback, Tool: tool, Text: r.summary, Detail: r.feedback})
	return r
}

// reviewCounts says to the person what became of the hunks of a reviewed
// proposal: "Review: 2 hunks applied, 1 rejected."
func reviewCounts(applied, rejected, undecided, failed, already int) string {
	var parts []string
	for _, c := range []struct {
		n    int
		what string
	}{{applied, "applied"}, {rejected, "rejected"}, {undecided, "not approved"}, {failed, "not placed"}, {already, "already in the file"}} {
		if c.n == 0 {
			continue
		}
		if len(parts) == 0 {
			parts = append(parts, fmt.Sprintf("%d %s %s", c.n, output.Plural(c.n, "hunk"), c.what))
			continue
		}
		parts = append(parts, fmt.Sprintf("%d %s", c.n, c.what))
	}
	if len(parts) == 0 {
		return "Review: no hunks."
	}
	return "Review: " + strings.Join(parts, ", ") + "."
}

func onlyFileOps(plans []*edit.FilePlan) bool {
	for _, p := range plans {
		if len(p.Diff.Hunks) > 0 {
			return false
		}
	}
	return len(plans) > 0
}

// writeFailures explains the hunks that could not be placed, with the
// nearest lines of the file, so that the next attempt can succeed. It
// first says which hunks lost read_file's line numbers.
func writeFailures(b *strings.Builder, plans []*edit.FilePlan) {
	writeUnnumbered(b, plans)
	for _, p := range plans {
		for _, e := range p.Errors {
			if alreadyIn(e) {
				continue // see writeAlready
			}
			fmt.Fprintf(b, "- %s: not placed: %v", hunkName(p, e.Hunk), e.Err)
			if e.Detail != "" {
				fmt.Fprintf(b, " (%s)", e.Detail)
			}
			b.WriteString("\n")
			writeMisread(b, e)
			if len(e.Nearest) > 0 {
				fmt.Fprintf(b, "  The nearest lines of %s are:\n", p.Path())
				writeNumbered(b, e.Nearest)
			}
		}
	}
}

// record is the commit record of a reviewed proposal.
func (a *Agent) record(out *Outcome, message string) audit.Record {
	var hunks []audit.HunkRecord
	var notes []audit.Note
	for _, h := range out.Hunks {
		hunks = append(hunks, audit.HunkRecord{Path: h.Path, Start: h.Start, Hash: h.Hash, Decision: h.Decision, Interpreted: h.Interpreted, Uncertain: h.Uncertain})
		if h.Decision == audit.Rejected {
			notes = append(notes, audit.Note{Path: h.Path, Start: h.Start, Text: h.Note})
		}
	}
	r := audit.Reviewed(a.st.Session, a.st.Model, hunks)
	r.Subject = commitSubject(message, a.st.Turn.Request)
	if t := audit.AttributionTrailer(a.Settings.Attribution, a.st.Model); t != "" {
		r.BodyTrailers = append(r.BodyTrailers, t)
	}
	r.Body = fmt.Sprintf("Requested: %s\n\nProposed by %s; %d of %d %s approved in review.", clipText(a.st.Turn.Request, 500), a.st.Model, r.Applied(), len(out.Hunks), output.Plural(len(out.Hunks), "hunk"))
	// The person's notes, as pair apply records them.
	if n := audit.NotesText(notes); n != "" {
		r.Body += "\n\n" + n
	}
	return r
}

// command runs a command through the policy gate.
func (a *Agent) command(ctx context.Context, call ToolCall, command, reason string) (string, bool, error) {
	s := a.settings()
	if !allowed(command, s) {
		req := &CommandRequest{ID: call.ID, Kind: KindCommand, Command: command, Reason: reason}
		d, err := a.Reviewer.ReviewCommand(ctx, req)
		if errors.Is(err, ErrHunksOnly) {
			a.block("run_command", command, notAsked)
			return notAskedModel("not run: this command"), false, nil
		}
		if errors.Is(err, ErrNeedsReview) {
			a.st.Turn.Pending = &Pending{ID: "c" + call.ID, Kind: KindCommand, Tool: "run_command", CallID: call.ID, ArgsHash: hashOf(command), Command: command, Phase: "review"}
			a.st.Turn.ReviewReason = "the model wants to run a command: " + command
			a.log(ActionReview, "run_command", "paused: "+command)
			a.emit(Event{Kind: EventNeedsDecision, Tool: "run_command", Text: a.st.Turn.ReviewReason})
			return "", false, ErrPaused
		}
		if err != nil {
			return "", false, err
		}
		if !d.Approved {
			a.log(ActionReview, "run_command", "rejected: "+command)
			msg := "the person declined to run it"
			if d.Note != "" {
				msg += ", saying: " + d.Note
			}
			return msg, false, nil
		}
		a.log(ActionReview, "run_command", "approved: "+command)
		// Until its outcome is recorded, a crash leaves the command
		// "applying": a resume does not run it again.
		a.st.Turn.Pending = &Pending{ID: "c" + call.ID, Kind: KindCommand, Tool: "run_command", CallID: call.ID, ArgsHash: hashOf(command), Command: command, Phase: "applying"}
		if err := a.checkpoint(); err != nil {
			return "", false, err
		}
		defer func() { a.st.Turn.Pending = nil }()
	} else {
		a.log(ActionReview, "run_command", "allowed by the configuration: "+command)
	}
	res, err := a.runCommand(ctx, command)
	if err != nil {
		return "", false, err
	}
	return fmt.Sprintf("exit code %d\n%s", res.ExitCode, tail(res.Output, commandTail)), res.ExitCode == 0, nil
}

func (a *Agent) runCommand(ctx context.Context, command string) (CommandResult, error) {
	a.emit(Event{Kind: EventCommand, Text: command})
	run := a.RunCommand
	if run == nil {
		run = func(ctx context.Context, c string) (CommandResult, error) {
			s := a.settings()
			return Shell(ctx, a.Tree.Dir, c, s.CommandEnv(), s.CommandTimeout)
		}
	}
	res, err := run(ctx, command)
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	if err != nil {
		res = CommandResult{ExitCode: -1, Output: err.Error()}
	}
	a.log(ActionCommand, "run_command", fmt.Sprintf("%s: exit %d", command, res.ExitCode))
	return res, nil
}

// notAsked says to the person why a command or MCP call the model asked
// for was not made under --yes or --decisions; notAskedModel says it to
// the model, after what was not made.
const notAsked = "not approved: --yes and --decisions answer hunks only (.pair.yml may allow it; without those flags you are asked)"

func notAskedModel(what string) string {
	return what + " needs the person's own approval, and they were not asked: their decisions were given ahead, for the hunks of your edits only. " +
		"Go on without it; if it is needed, say so in your final answer."
}

// allowed reports whether the configuration lets a command run without
// asking: the test command, or an allowlist entry (exact, or with a
// trailing " *" for any arguments).
func allowed(command string, s Settings) bool {
	c := strings.TrimSpace(command)
	if c == "" {
		return false
	}
	if strings.ContainsAny(c, ";&|`$<>\n") {
		return false // one plain command, nothing chained or redirected
	}
	if s.TestCmd != "" && c == strings.TrimSpace(s.TestCmd) {
		return true
	}
	for _, p := range s.AllowCommands {
		p = strings.TrimSpace(p)
		if p == c {
			return true
		}
		if prefix, ok := strings.CutSuffix(p, " *"); ok && (c == prefix || strings.HasPrefix(c, prefix+" ")) {
			return true
		}
	}
	return false
}

func hashOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}

func hasDiff(s string) bool {
	return strings.Contains(s, "```diff") || strings.Contains(s, "```patch") ||
		(strings.Contains(s, "\n+++ ") && strings.Contains(s, "\n@@"))
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

func summarize(plans []*edit.FilePlan) string {
	var paths []string
	for _, p := range plans {
		paths = append(paths, p.Path())
	}
	if len(paths) > 3 {
		return fmt.Sprintf("%s and %d more files", strings.Join(paths[:2], ", "), len(paths)-2)
	}
	return strings.Join(paths, ", ")
}

func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString("    " + l + "\n")
	}
	return b.String()
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "\n(truncated)"
}

func tail(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	if len(s) <= n {
		return s
	}
	return "(earlier output cut)\n" + s[len(s)-n:]
}

package agent

import (
	"encoding/json"
	"time"
)

// StateVersion is the version of State's JSON form.
const StateVersion = 1

// State is the whole state of a session: the conversation in pair's own
// types, the files in context, the grants, the action log and the counts.
// It is plain JSON so that a paused session can be saved and resumed by
// another process.
type State struct {
	Version int       `json:"version"`
	Session string    `json:"session"`
	Model   string    `json:"model"`
	Updated time.Time `json:"updated"`
	// Mode is the session's: edit or ask (read-only tools only).
	Mode     Mode      `json:"mode"`
	Messages []Message `json:"messages"`
	// Files are the paths in context; Sent maps each to the hash of the
	// content last sent to the model, so that a file is sent again only
	// when it changed.
	Files []string          `json:"files,omitempty"`
	Sent  map[string]string `json:"sent,omitempty"`
	// Seen is what the model was last shown of each file, oldest first,
	// the base of a three-way reading of its hunks (see seen.go).
	Seen []SeenFile `json:"seen,omitempty"`
	// Grants are the paths whose hunks the person approved for the rest of
	// the session.
	Grants  []string     `json:"grants,omitempty"`
	Log     []Action     `json:"action_log"`
	Blocked []Blocked    `json:"blocked_actions"`
	Plan    []PlanEntry  `json:"plan"`
	Results []ToolResult `json:"tool_results"`
	Usage   Usage        `json:"usage"`
	// NoTools records that the model's server refused tools: the session
	// goes on in text-only mode (see textonly.go).
	NoTools bool `json:"no_tools,omitempty"`
	// Instructions are the files sent to the model as the project's
	// instructions (AGENTS.md and the like) at the start of the
	// conversation.
	Instructions []string `json:"instructions,omitempty"`
	// Turn is the request being worked on (or the last one).
	Turn Turn `json:"turn"`
}

// Turn is one request and its progress.
type Turn struct {
	Request  string `json:"request"`
	TaskType string `json:"task_type"`
	Steps    int    `json:"steps"`   // model calls so far
	Retries  int    `json:"retries"` // failed edits or tests sent back
	// Status is set once the turn ends.
	Status       Status `json:"status,omitempty"`
	Final        string `json:"final_output,omitempty"`
	ReviewReason string `json:"review_reason,omitempty"`
	// ReviewRefused is the flag deciding ahead (--yes, --decisions) that
	// the paused review refused, for approving interpreted hunks.
	ReviewRefused string `json:"review_refused,omitempty"`
	Error         string `json:"error,omitempty"`
	// Pending is the action waiting for a decision when the turn paused.
	Pending *Pending `json:"pending,omitempty"`
	// Applied counts hunks written in this turn; Commits the commits made.
	Applied int      `json:"applied"`
	Commits []string `json:"commits,omitempty"`
	// Continued reports that a reply cut at the length limit was asked
	// for again in this turn (once only).
	Continued bool `json:"continued,omitempty"`
	// NotCommitted says why approved hunks of this turn were written but
	// not committed: the turn then fails, even when the model finishes.
	NotCommitted string `json:"not_committed,omitempty"`
	// Paths are the files the turn read or changed, for the answer.
	Paths   []string  `json:"paths,omitempty"`
	Started time.Time `json:"started"`
	Ended   time.Time `json:"ended,omitempty"`
}

// Pending is an action that needs the person's decision.
type Pending struct {
	ID     string      `json:"id"`
	Kind   PendingKind `json:"kind"`
	Tool   string      `json:"tool"` // the tool (server.tool for mcp), or "reply" for fenced diffs
	CallID string      `json:"call_id,omitempty"`
	// ArgsHash identifies the arguments, so that a resumed decision
	// applies to exactly this action.
	ArgsHash string `json:"args_hash"`
	// Diff is the proposal's diff text (for a write_file, its path and
	// content, see writeText), Command the command.
	Diff    string `json:"diff,omitempty"`
	Message string `json:"message,omitempty"`
	Command string `json:"command,omitempty"`
	// Arguments are, for an mcp call, its arguments (a JSON object).
	Arguments string `json:"arguments,omitempty"`
	// Review is the reviewer's own record of the review so far (its
	// decisions, splits and edits), opaque to the agent.
	Review json.RawMessage `json:"review,omitempty"`
	// Phase is "review" while the person decides, and "applying" from
	// just before the approved hunks are written until the outcome is
	// recorded: a session found in "applying" was interrupted there, and
	// its action goes back to the person instead of being repeated.
	Phase string `json:"phase"`
	// Reply is, for a proposal in a reply's text, that text.
	Reply string `json:"reply,omitempty"`
	// Bases are what the whole files of an edit (write_file, whole files
	// in a reply) are changes from, fixed when it was first proposed: a
	// resume places it on the same bases (see base).
	Bases []Base `json:"bases,omitempty"`
	// Interpret records, for an edit, whether it was placed offering
	// interpreted hunks (Settings.Interpret): a resume places it the same
	// way, so that the review it goes on with is the one saved. Nil in a
	// session saved before it was recorded.
	Interpret *bool `json:"interpret,omitempty"`
}

// Base is what a whole file of an edit is a change from (see base).
type Base struct {
	Path string `json:"path"`
	Text string `json:"text,omitempty"`
	// Missing reports a base without the file: the edit creates it.
	Missing bool `json:"missing,omitempty"`
	// From is "seen" (the model's last view of the whole file) or "HEAD".
	From string `json:"from"`
}

// Action is one entry of the action log: every tool call, decision,
// execution and refusal of the session.
type Action struct {
	Time   time.Time  `json:"time"`
	Kind   ActionKind `json:"kind"`
	Tool   string     `json:"tool,omitempty"`
	Detail string     `json:"detail"`
}

// ActionKind is what an entry of the action log records.
type ActionKind string

// The kinds of the action log, as its JSON writes them.
const (
	ActionRequest    ActionKind = "request"     // the person's request
	ActionToolCall   ActionKind = "tool_call"   // a tool the model called
	ActionToolResult ActionKind = "tool_result" // what the tool answered
	ActionBlocked    ActionKind = "blocked"     // an action refused by the policy
	ActionReview     ActionKind = "review"      // a review: decided or paused
	ActionApply      ActionKind = "apply"       // approved hunks written
	ActionCommit     ActionKind = "commit"      // the pair commit made
	ActionCommand    ActionKind = "command"     // a command run
	ActionTest       ActionKind = "test"        // the test command run
	ActionMCP        ActionKind = "mcp"         // an MCP server's tool called
	ActionNotice     ActionKind = "notice"      // something the person was told
	ActionResume     ActionKind = "resume"      // a paused turn resumed
	ActionRetry      ActionKind = "retry"       // a failed edit or test sent back
	ActionTruncated  ActionKind = "truncated"   // the reply cut at the output limit
	ActionFinal      ActionKind = "final"       // the model's final answer
	ActionError      ActionKind = "error"       // the turn failed
)

// Blocked is a refused action: a path outside the sandbox, a secret, an
// unknown tool, an edit or command in a read-only session.
type Blocked struct {
	Tool   string `json:"tool"`
	Target string `json:"target,omitempty"`
	Reason string `json:"reason"`
}

// PlanEntry is one tool call of the model, with its risk.
type PlanEntry struct {
	ID        string `json:"id"`
	Tool      string `json:"tool"`
	Arguments string `json:"arguments"`
	Risk      Risk   `json:"risk"`
}

// ToolResult is the outcome of one tool call as the model saw it.
type ToolResult struct {
	ID     string `json:"id"`
	Tool   string `json:"tool"`
	OK     bool   `json:"ok"`
	Result string `json:"result"`
}

// Status is how a turn ended.
type Status string

// The statuses of a turn.
const (
	StatusOK          Status = "ok"
	StatusNeedsReview Status = "needs_review" // paused: an action waits for a decision
	StatusTruncated   Status = "truncated"    // the reply was cut at the model's length limit
	StatusFailed      Status = "failed"
)

// PendingKind is the kind of action that waits for a decision.
type PendingKind string

// The kinds of pending actions.
const (
	KindEdit    PendingKind = "edit"    // a proposal of hunks
	KindCommand PendingKind = "command" // a shell command
	KindMCP     PendingKind = "mcp"     // a call of an MCP server's tool
)

// Mode is what a session, or one run of it, may do.
type Mode string

// The modes.
const (
	ModeEdit Mode = "edit" // read, propose edits, run commands
	ModeAsk  Mode = "ask"  // read-only tools only
)

// NewState starts a session.
func NewState(session, model string, mode Mode, files []string) *State {
	return &State{
		Version: StateVersion, Session: session, Model: model, Mode: mode,
		Files: files, Sent: map[string]string{},
		Log: []Action{}, Blocked: []Blocked{}, Plan: []PlanEntry{}, Results: []ToolResult{},
	}
}

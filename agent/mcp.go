package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/pair-cli/pair/internal/output"
)

// DefaultExternalTimeout bounds one call of an external tool when its
// Timeout is zero.
const DefaultExternalTimeout = 30 * time.Second

// abandonAfter is how long a call whose time is up may take to return
// before the loop stops waiting for it.
const abandonAfter = 2 * time.Second

// callInterruptedError is ErrApplyInterrupted for an approved call of an
// external tool: pair stopped while making it, and it is not made again.
type callInterruptedError struct{ tool string }

func (e *callInterruptedError) Error() string {
	return "pair stopped while making the approved call of " + e.tool + " of the pending review; it was not made again"
}

func (e *callInterruptedError) Unwrap() error { return ErrApplyInterrupted }

// ExternalTool is a tool that lives outside pair, such as a tool of one of
// the person's MCP servers. It is offered to the model next to pair's own
// tools and goes through the same policy gate: RiskRead and RiskAllow run
// at once, RiskReview goes to the Reviewer as a command does (and may
// pause the turn), RiskDeny never runs. pair ask offers RiskRead only.
//
// The person and the action log know it as Server.Tool (Name); the model
// calls it Server__Tool (the names an OpenAI-style API accepts, see
// WireName), or by its Name.
type ExternalTool struct {
	Server, Tool string
	Description  string
	// Schema is the JSON schema of the arguments, an object; empty means
	// any object.
	Schema json.RawMessage
	Risk   Risk
	// Timeout bounds one call (DefaultExternalTimeout when zero).
	Timeout time.Duration
	// Check, when not nil, validates the arguments (one JSON object)
	// before the gate; its error goes back to the model, and nothing is
	// called or reviewed.
	Check func(args json.RawMessage) error
	// Call runs the tool with checked arguments. Its text is the result for
	// the model; an error is reported to the model as the call's failure.
	// It must return soon after ctx ends.
	Call func(ctx context.Context, args json.RawMessage) (string, error)
}

// Name is the tool's name for the person and the log: server.tool.
func (t *ExternalTool) Name() string { return t.Server + "." + t.Tool }

var unsafeName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9_-]`) })

// WireName is the tool's name for the model: Server__Tool, with any
// character that function names may not hold ("^[a-zA-Z0-9_-]{1,64}$"
// for OpenAI) replaced by "_", and shortened with a hash past 64.
func (t *ExternalTool) WireName() string {
	n := unsafeName().ReplaceAllString(t.Server, "_") + "__" + unsafeName().ReplaceAllString(t.Tool, "_")
	if len(n) > 64 {
		n = n[:55] + "_" + hashOf(t.Name())[:8]
	}
	return n
}

// findExternal finds an external tool by the name the model used: its
// wire name, or server.tool.
func (a *Agent) findExternal(name string) *ExternalTool {
	for i := range a.External {
		t := &a.External[i]
		if t.WireName() == name || t.Name() == name {
			return t
		}
	}
	return nil
}

// offeredExternal returns the external tools offered in this mode: never
// the denied ones, and in pair ask only the read-only ones.
func (a *Agent) offeredExternal(readOnly bool) []*ExternalTool {
	var out []*ExternalTool
	seen := map[string]bool{}
	for i := range a.External {
		t := &a.External[i]
		if t.Risk == RiskDeny || readOnly && t.Risk != RiskRead || seen[t.WireName()] || findTool(t.WireName()) != nil {
			continue
		}
		seen[t.WireName()] = true
		out = append(out, t)
	}
	return out
}

// externalDefs returns the definitions of the offered external tools.
func (a *Agent) externalDefs(readOnly bool) []ToolDef {
	var defs []ToolDef
	for _, t := range a.offeredExternal(readOnly) {
		desc := fmt.Sprintf("[%s, a tool of the MCP server %q", t.Name(), t.Server)
		if t.Risk == RiskReview {
			desc += "; the person reviews each call, which runs only if they approve it"
		}
		desc += "] " + t.Description
		params := t.Schema
		if len(strings.TrimSpace(string(params))) == 0 {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		defs = append(defs, ToolDef{Name: t.WireName(), Description: strings.TrimSpace(desc), Parameters: params})
	}
	return defs
}

func (a *Agent) externalNames(readOnly bool) []string {
	var out []string
	for _, t := range a.offeredExternal(readOnly) {
		out = append(out, t.WireName())
	}
	return out
}

// externalPrompt tells the model about the external tools, if any are
// offered.
func (a *Agent) externalPrompt(mode Mode) string {
	if len(a.offeredExternal(mode == ModeAsk)) == 0 {
		return ""
	}
	return `
Tools named SERVER__TOOL come from the person's MCP servers (issue trackers, databases, documentation and the like). Read-only ones run at once; a call that may change something outside the repository is shown to the person first and is made only if they approve it.
`
}

// external runs a call of an external tool through the policy gate.
func (a *Agent) external(ctx context.Context, t *ExternalTool, call ToolCall) (string, bool, error) {
	name := t.Name()
	if a.mode == ModeAsk && t.Risk != RiskRead {
		a.block(name, "", "pair ask is read-only: only read-only MCP tools may be called")
		return "error: this session is read-only (pair ask); " + name + " may change things outside the repository and is not allowed. Answer the question instead.", false, nil
	}
	if t.Risk == RiskDeny {
		a.block(name, "", "denied by the configuration (.pair.yml)")
		return "error: the person's configuration denies " + name + "; do not call it", false, nil
	}
	args, err := externalArgs(name, call.Arguments)
	if err != nil {
		return "error: " + err.Error(), false, nil
	}
	if t.Check != nil {
		if err := t.Check(json.RawMessage(args)); err != nil {
			return "error: " + (&ArgsError{Tool: name, Reasons: []string{err.Error()}}).Error(), false, nil
		}
	}
	switch t.Risk {
	case RiskRead:
		a.log(ActionReview, name, "runs at once: read-only (its server marks it so)")
		return a.callExternal(ctx, t, args)
	case RiskAllow:
		a.log(ActionReview, name, "runs at once: allowed by the configuration")
		return a.callExternal(ctx, t, args)
	case RiskReview:
		return a.reviewExternal(ctx, t, call.ID, args)
	}
	a.block(name, "", fmt.Sprintf("unknown risk %q", t.Risk))
	return "error: " + name + " cannot be called", false, nil
}

// externalArgs checks that args is one JSON object and returns it compact
// ("{}" for none).
func externalArgs(name, args string) (string, error) {
	if _, err := (&schema{Type: "object"}).validate(name, args); err != nil {
		return "", err
	}
	args = strings.TrimSpace(args)
	if args == "" {
		return "{}", nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(args)); err != nil {
		return "", &ArgsError{Tool: name, Reasons: []string{err.Error()}}
	}
	return b.String(), nil
}

// reviewExternal asks the person about a side-effecting call, as for a
// command, and makes it once if they approve. Without anyone to ask, the
// turn pauses with the call pending (Kind "mcp").
func (a *Agent) reviewExternal(ctx context.Context, t *ExternalTool, callID, args string) (string, bool, error) {
	name := t.Name()
	pending := &Pending{ID: "m" + callID, Kind: KindMCP, Tool: name, CallID: callID, ArgsHash: externalHash(name, args), Arguments: args, Phase: "review"}
	d, err := a.Reviewer.ReviewCommand(ctx, &CommandRequest{ID: callID, Kind: KindMCP, Server: t.Server, Tool: name, Arguments: args})
	if errors.Is(err, ErrHunksOnly) {
		a.block(name, args, notAsked)
		return notAskedModel("not made: this call of " + name), false, nil
	}
	if errors.Is(err, ErrNeedsReview) {
		a.st.Turn.Pending = pending
		a.st.Turn.ReviewReason = fmt.Sprintf("the model wants to call %s with %s", name, clipText(args, 300))
		a.log(ActionReview, name, "paused: "+args)
		a.emit(Event{Kind: EventNeedsDecision, Tool: name, Text: a.st.Turn.ReviewReason})
		return "", false, ErrPaused
	}
	if err != nil {
		return "", false, err
	}
	if !d.Approved {
		msg := "the person declined this call of " + name + "; it was not made"
		if d.Note != "" {
			msg += ". They said: " + d.Note
		}
		a.log(ActionReview, name, "rejected: "+args+noteSuffix(d.Note))
		return msg, false, nil
	}
	a.log(ActionReview, name, "approved: "+args)
	// Until its outcome is recorded, a crash leaves the call "applying": a
	// resume does not make it again.
	pending.Phase = "applying"
	a.st.Turn.Pending = pending
	if err := a.checkpoint(); err != nil {
		return "", false, err
	}
	out, ok, err := a.callExternal(ctx, t, args)
	if err != nil {
		// Ctrl-C during the call: whether it had an effect is not known.
		// It stays "applying", and pair review tells the model so
		// instead of making it again.
		a.st.Turn.ReviewReason = "the approved call of " + name + " was interrupted; its outcome is not known"
		return "", false, err
	}
	a.st.Turn.Pending = nil
	return out, ok, nil
}

func noteSuffix(note string) string {
	if note == "" {
		return ""
	}
	return " (" + note + ")"
}

func externalHash(name, args string) string { return hashOf(name + "\x00" + args) }

// resumeExternal finishes a paused call: the person decides now, and an
// approved call is made once.
func (a *Agent) resumeExternal(ctx context.Context, p *Pending) (string, bool, error) {
	if externalHash(p.Tool, p.Arguments) != p.ArgsHash {
		return "", false, fmt.Errorf("the pending call of %s %w", p.Tool, ErrPendingMismatch)
	}
	t := a.findExternal(p.Tool)
	switch {
	case t == nil:
		a.log(ActionMCP, p.Tool, "not available now: the call was not made")
		a.emit(Event{Kind: EventNotice, Tool: p.Tool, Text: p.Tool + " is not available now (its server is not configured or did not start): the call was not made"})
		return "not run: " + p.Tool + " is not available now (its MCP server is not configured or did not start), so the call was not made", false, nil
	case t.Risk == RiskDeny:
		a.block(p.Tool, "", "denied by the configuration (.pair.yml)")
		return "not run: the person's configuration now denies " + p.Tool + "; the call was not made", false, nil
	}
	return a.reviewExternal(ctx, t, p.CallID, p.Arguments)
}

// answerCall gives a resumed call its result, as call does for a call
// made at once.
func (a *Agent) answerCall(p *Pending, text string, ok bool) {
	text = clipText(text, maxToolResult)
	a.st.Results = append(a.st.Results, ToolResult{ID: p.CallID, Tool: p.Tool, OK: ok, Result: text})
	a.log(ActionToolResult, p.Tool, text)
	a.emit(Event{Kind: EventToolResult, Tool: p.Tool, Text: text, Detail: map[bool]string{true: "ok", false: "error"}[ok]})
	a.st.Messages = append(a.st.Messages, Message{Role: RoleTool, ToolCallID: p.CallID, Content: nonEmpty0(text)})
}

// callExternal makes the call, within the tool's time limit. Ctrl-C ends
// the turn; every other failure is the result for the model.
func (a *Agent) callExternal(ctx context.Context, t *ExternalTool, args string) (string, bool, error) {
	name := t.Name()
	timeout := t.Timeout
	if timeout <= 0 {
		timeout = DefaultExternalTimeout
	}
	if t.Call == nil {
		return "error: " + name + " cannot be called", false, nil
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type result struct {
		out string
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := t.Call(cctx, json.RawMessage(args))
		done <- result{out, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-cctx.Done():
		// A call returns soon after its context ends; one that does not
		// is left behind rather than hanging the session.
		select {
		case r = <-done:
		case <-time.After(abandonAfter):
			r = result{err: cctx.Err()}
		}
	}
	if r.err != nil {
		if ctx.Err() != nil {
			a.log(ActionMCP, name, "interrupted")
			return "", false, ctx.Err()
		}
		msg := r.err.Error()
		if errors.Is(cctx.Err(), context.DeadlineExceeded) {
			msg = fmt.Sprintf("%s did not answer within %v, and the call was cancelled (its server may be busy or stuck; whether it had an effect is not known)", name, timeout)
		}
		a.log(ActionMCP, name, "failed: "+msg)
		a.emit(Event{Kind: EventNotice, Tool: name, Text: msg})
		return "error: " + msg, false, nil
	}
	a.log(ActionMCP, name, fmt.Sprintf("ok, %d %s: %s", len(r.out), output.Plural(len(r.out), "byte"), clipText(strings.Join(strings.Fields(r.out), " "), 200)))
	return r.out, true, nil
}

package agent

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Redacted is what stands for the API key in any text the model is sent,
// the session keeps or the events show.
const Redacted = "[redacted]"

// minRedact is the shortest key redacted: a shorter one ("x", "none",
// which local servers take) would blank out ordinary words.
const minRedact = 8

// Redact returns text with the API key (Settings.APIKey) replaced by
// Redacted.
func (s Settings) Redact(text string) string {
	if len(s.APIKey) < minRedact || !strings.Contains(text, s.APIKey) {
		return text
	}
	return strings.ReplaceAll(text, s.APIKey, Redacted)
}

// redact takes the API key out of the state, in place. It runs where
// the state leaves the agent: before each request to the model, and at
// each checkpoint (the session file, and the end of every Run and
// Resume). So whatever way a text came in (a command's or a test's
// output, a file read, a search, an MCP result, a hook's message, the
// feedback after a review), neither the model nor the session file nor
// the report sees the key. Events are redacted as they are emitted.
func (a *Agent) redact() {
	st, s := a.st, a.Settings
	if st == nil || len(s.APIKey) < minRedact {
		return
	}
	r := func(p *string) { *p = s.Redact(*p) }
	for i := range st.Messages {
		m := &st.Messages[i]
		r(&m.Content)
		r(&m.Request)
		for j := range m.ToolCalls {
			r(&m.ToolCalls[j].Arguments)
		}
	}
	for i := range st.Results {
		r(&st.Results[i].Result)
	}
	for i := range st.Log {
		r(&st.Log[i].Detail)
	}
	for i := range st.Blocked {
		r(&st.Blocked[i].Target)
		r(&st.Blocked[i].Reason)
	}
	for i := range st.Plan {
		r(&st.Plan[i].Arguments)
	}
	for i := range st.Seen {
		// What the model was shown, the base of a three-way reading: it
		// was shown the key redacted.
		r(&st.Seen[i].Text)
	}
	t := &st.Turn
	for _, p := range []*string{&t.Request, &t.Final, &t.ReviewReason, &t.Error, &t.NotCommitted} {
		r(p)
	}
	if p := t.Pending; p != nil {
		for _, f := range []*string{&p.Diff, &p.Message, &p.Command, &p.Arguments, &p.Reply} {
			r(f)
		}
		// The review saved at a pause holds the files it was placed
		// against: one that holds the key no longer matches when the
		// review goes on, and its hunks are offered afresh.
		if q, err := json.Marshal(s.APIKey); err == nil {
			q = q[1 : len(q)-1] // the key as it is written inside a JSON string
			if bytes.Contains(p.Review, q) {
				p.Review = bytes.ReplaceAll(p.Review, q, []byte(Redacted))
			}
		}
	}
}

// redactEvent takes the API key out of an event before it is shown.
func (a *Agent) redactEvent(e Event) Event {
	s := a.Settings
	e.Text, e.Tool, e.Detail = s.Redact(e.Text), s.Redact(e.Tool), s.Redact(e.Detail)
	return e
}

// redactedError is an error whose text holds the API key: its message
// says Redacted instead, and errors.Is and errors.As still see the
// error itself.
type redactedError struct {
	err error
	msg string
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// redactErr returns err with the API key out of its message.
func (a *Agent) redactErr(err error) error {
	if err == nil {
		return nil
	}
	if msg := a.Settings.Redact(err.Error()); msg != err.Error() {
		return &redactedError{err: err, msg: msg}
	}
	return err
}

package agent

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Text-only mode is for models whose server refuses tools (Ollama
// answers "… does not support tools" for a model whose template has
// none), or when the configuration says so (Settings.NoTools). No tools
// are sent: the model reads files by writing READ lines, which pair
// answers in the next message, and proposes edits as fenced diffs in its
// reply.

// textOnly reports whether the session works without tools.
func (a *Agent) textOnly() bool { return a.st.NoTools || a.Settings.NoTools }

// toolsRefused reports whether err is the server refusing the tools of
// the request: a 4xx answer other than those that mean something else
// (authentication, a wrong URL, a timeout, a rate limit).
func toolsRefused(err error) bool {
	var se *StatusError
	if !errors.As(err, &se) || se.Code < 400 || se.Code > 499 {
		return false
	}
	switch se.Code {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusRequestTimeout,
		http.StatusTooManyRequests, http.StatusRequestEntityTooLarge:
		return strings.Contains(strings.ToLower(se.Message), "tool")
	}
	return true
}

// goTextOnly switches the session to text-only mode after the server
// refused tools with err: the system prompt becomes the text-only one,
// and the calls and results of the conversation so far become text.
func (a *Agent) goTextOnly(err error) {
	a.st.NoTools = true
	a.log(ActionNotice, "", "the server refused tools ("+err.Error()+"): going on without tools for this session")
	a.emit(Event{Kind: EventNotice, Text: fmt.Sprintf("the model %s has no tool support (%v); going on without tools: it reads files with READ lines and proposes edits as fenced diffs", a.st.Model, err)})
	a.st.Messages = textMessages(a.st.Messages, systemPrompt(a.mode, true, a.Settings))
}

// undoTextOnly is what a switch to text-only mode changed, to take it
// back when the request fails without tools as well.
type undoTextOnly struct {
	messages []Message
	err      error
}

// textMessages is msgs without tool calls and tool messages: the system
// prompt replaced by system, calls and results written as text.
func textMessages(msgs []Message, system string) []Message {
	out := make([]Message, 0, len(msgs))
	for _, m := range msgs {
		switch {
		case m.Role == RoleSystem:
			m.Content = system
		case m.Role == RoleTool:
			m = Message{Role: RoleUser, Content: "Result of your earlier tool call:\n" + m.Content}
		case len(m.ToolCalls) > 0:
			var b strings.Builder
			b.WriteString(m.Content)
			for _, c := range m.ToolCalls {
				fmt.Fprintf(&b, "\n(called %s %s)", c.Name, c.Arguments)
			}
			m = Message{Role: m.Role, Content: strings.TrimSpace(b.String())}
		}
		// Two user messages in a row are joined: some templates want
		// the roles to alternate.
		if n := len(out); n > 0 && m.Role == RoleUser && out[n-1].Role == RoleUser && out[n-1].Request == "" && m.Request == "" {
			out[n-1].Content += "\n\n" + m.Content
			continue
		}
		out = append(out, m)
	}
	return out
}

// readLine is a read request of text-only mode, on a line of its own:
// READ path, READ path 10-80, LIST [glob], SEARCH pattern [glob], MAP
// [focus], STATUS, DIFF [path], LOG [path].
var readLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(READ|LIST|SEARCH|MAP|STATUS|DIFF|LOG)(?:[ \t]+(.*?))?\s*$`)
})

// textRequests returns the read requests in a reply of text-only mode,
// outside fenced blocks.
func textRequests(reply string) []string {
	var out []string
	fenced := false
	for _, l := range strings.Split(reply, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			continue
		}
		if !fenced && readLine().MatchString(l) {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}

// maxTextRequests bounds the read requests answered for one reply.
const maxTextRequests = 10

// answerReads runs the read requests of a reply as the read-only tools
// they stand for, through the same gate (paths refused, blocked actions
// recorded), and returns the next user message with their results.
func (a *Agent) answerReads(ctx context.Context, reqs []string) string {
	var b strings.Builder
	for i, r := range reqs {
		if i == maxTextRequests {
			fmt.Fprintf(&b, "(only the first %d requests were answered)\n", maxTextRequests)
			break
		}
		name, args, err := parseTextRequest(r)
		id := fmt.Sprintf("text_%d_%d", a.st.Turn.Steps, i+1)
		a.st.Plan = append(a.st.Plan, PlanEntry{ID: id, Tool: name, Arguments: r, Risk: RiskRead})
		a.log(ActionToolCall, name, r)
		a.emit(Event{Kind: EventToolCall, Tool: name, Text: r})
		var result string
		ok := err == nil
		if err != nil {
			result = "error: " + err.Error()
		} else {
			t := findTool(name)
			result, ok, _ = a.dispatch(ctx, t, ToolCall{ID: id, Name: name, Arguments: args})
		}
		result = clipText(result, maxToolResult)
		a.st.Results = append(a.st.Results, ToolResult{ID: id, Tool: name, OK: ok, Result: result})
		a.log(ActionToolResult, name, result)
		a.emit(Event{Kind: EventToolResult, Tool: name, Text: result, Detail: map[bool]string{true: "ok", false: "error"}[ok]})
		fmt.Fprintf(&b, "%s\n%s", r, result)
		if !strings.HasSuffix(result, "\n") {
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

var lineRange = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d+)(?:-(\d+))?$`) })

// parseTextRequest turns a request line (see readLine) into the tool and
// the JSON arguments it stands for.
func parseTextRequest(line string) (name, args string, err error) {
	m := readLine().FindStringSubmatch(line)
	fields := strings.Fields(m[2])
	var v map[string]any
	switch m[1] {
	case "READ":
		name = "read_file"
		if len(fields) == 0 {
			return name, "", errors.New("READ needs a path: READ path, or READ path 10-80 for lines 10 to 80")
		}
		v = map[string]any{"path": fields[0]}
		if len(fields) > 1 {
			r := lineRange().FindStringSubmatch(fields[1])
			if r == nil || len(fields) > 2 {
				return name, "", fmt.Errorf("READ %s: %q is not a line range such as 10-80", fields[0], strings.Join(fields[1:], " "))
			}
			from, _ := strconv.Atoi(r[1])
			v["start_line"] = max(from, 1)
			if r[2] != "" {
				to, _ := strconv.Atoi(r[2])
				v["end_line"] = max(to, 1)
			}
		}
	case "LIST":
		name, v = "list_files", map[string]any{}
		if len(fields) > 0 {
			v["glob"] = fields[0]
		}
	case "SEARCH":
		name = "search_files"
		if len(fields) == 0 {
			return name, "", errors.New("SEARCH needs a pattern: SEARCH regexp, or SEARCH regexp glob")
		}
		v = map[string]any{"pattern": fields[0]}
		if len(fields) > 1 {
			v["glob"] = fields[1]
		}
	case "MAP":
		name, v = "repo_map", map[string]any{}
		if len(fields) > 0 {
			v["focus"] = fields[0]
		}
	case "STATUS":
		name, v = "git_status", map[string]any{}
		if len(fields) > 0 {
			return name, "", errors.New("STATUS takes nothing after it")
		}
	case "DIFF", "LOG":
		name, v = map[string]string{"DIFF": "git_diff", "LOG": "git_log"}[m[1]], map[string]any{}
		if len(fields) > 1 {
			return name, "", fmt.Errorf("%s takes one path at most: %s path", m[1], m[1])
		}
		if len(fields) > 0 {
			v["path"] = fields[0]
		}
	}
	return name, jsonResult(v), nil
}

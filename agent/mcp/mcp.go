package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/pair-cli/pair/internal/config"
	"time"
	"unicode/utf8"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/agent/mcp/internal/schema"
	"github.com/pair-cli/pair/internal/output"
)

// Defaults of a server's time limits.
const (
	DefaultTimeout      = agent.DefaultExternalTimeout // one call
	DefaultStartTimeout = 60 * time.Second             // the start and the listing of tools
	// terminateAfter is how long a stdio server has to exit once its
	// input is closed, before SIGTERM (and as long again before SIGKILL).
	terminateAfter = 2 * time.Second
	// crashWait is how long a failed call waits to learn whether its
	// server went away.
	crashWait = 3 * time.Second
)

// The configuration's words for a tool's risk.
const (
	Allow  = config.ToolAllow  // run without asking
	Review = config.ToolReview // ask the person first
	Deny   = config.ToolDeny   // never run, never offer
)

// Config is one MCP server of the configuration: a subprocess over stdio
// (Command) or a streamable HTTP endpoint (URL).
type Config struct {
	Name string
	// Command runs with Args in Dir, with Env as its environment (nil:
	// pair's own). Its standard error is kept for error messages.
	Command string
	Args    []string
	Env     []string
	Dir     string
	// URL is a streamable HTTP endpoint; Headers go with every request.
	URL     string
	Headers map[string]string
	// Timeout bounds one call (DefaultTimeout when zero); StartTimeout the
	// start and the listing of tools (DefaultStartTimeout when zero).
	Timeout, StartTimeout time.Duration
	// Tools overrides the risk of tools, by their name on the server:
	// Allow, Review or Deny; "*" is every tool not named.
	Tools map[string]string
}

func (c Config) describe() string {
	if c.URL != "" {
		return "http " + c.URL
	}
	return strings.TrimSpace("stdio " + strings.Join(append([]string{c.Command}, c.Args...), " "))
}

func (c Config) check() error {
	switch {
	case c.Name == "":
		return errors.New("an MCP server needs a name")
	case c.Command == "" && c.URL == "":
		return fmt.Errorf("MCP server %s: give a command (stdio) or a url (HTTP)", c.Name)
	case c.Command != "" && c.URL != "":
		return fmt.Errorf("MCP server %s: give a command or a url, not both", c.Name)
	}
	for tool, word := range c.Tools {
		if word != Allow && word != Review && word != Deny {
			return fmt.Errorf("MCP server %s: tool %s: %q is not allow, review or deny", c.Name, tool, word)
		}
	}
	return nil
}

// Classify is the risk of a tool whose server says readOnly (its
// readOnlyHint) and whose configuration says override (Allow, Review,
// Deny, or nothing): read-only only when the server marks it so and the
// configuration does not say otherwise; Allow lets a tool that is not
// read-only run without asking, and Review or Deny always win.
func Classify(readOnly bool, override string) agent.Risk {
	switch override {
	case Deny:
		return agent.RiskDeny
	case Review:
		return agent.RiskReview
	case Allow:
		if readOnly {
			return agent.RiskRead
		}
		return agent.RiskAllow
	}
	if readOnly {
		return agent.RiskRead
	}
	return agent.RiskReview
}

// Set is the running servers of a session.
type Set struct {
	Servers []*Server
}

// Start starts the servers, all at once, and lists their tools. It never
// fails as a whole: a server that cannot be started has its Err set and
// offers no tools. Close stops them.
func Start(ctx context.Context, configs []Config) *Set {
	s := &Set{Servers: make([]*Server, len(configs))}
	var wg sync.WaitGroup
	for i, c := range configs {
		wg.Go(func() { s.Servers[i] = start(ctx, c) })
	}
	wg.Wait()
	return s
}

// Tools returns the tools of the servers that started, for the agent.
func (s *Set) Tools() []agent.ExternalTool {
	if s == nil {
		return nil
	}
	var out []agent.ExternalTool
	for _, srv := range s.Servers {
		if srv.Err != nil {
			continue
		}
		for _, t := range srv.Tools {
			out = append(out, agent.ExternalTool{
				Server: srv.Config.Name, Tool: t.Name, Description: t.Description,
				Schema: t.Schema, Risk: t.Risk, Timeout: srv.Config.Timeout,
				Check: t.check,
				Call: func(ctx context.Context, args json.RawMessage) (string, error) {
					return srv.call(ctx, t.Name, args)
				},
			})
		}
	}
	return out
}

// Close stops every server (closing a stdio server's input, then SIGTERM,
// then SIGKILL, and killing what is left of its process group) and waits
// for them.
func (s *Set) Close() {
	if s == nil {
		return
	}
	var wg sync.WaitGroup
	for _, srv := range s.Servers {
		if srv != nil {
			wg.Go(srv.Close)
		}
	}
	wg.Wait()
}

// Server is one configured server.
type Server struct {
	Config Config
	// Err is why the server could not be started and listed; nil when it
	// runs.
	Err error
	// Tools are its tools, with their risk, in the server's order.
	Tools []*Tool

	conn   *conn
	cmd    *exec.Cmd
	stderr *tail
	gone   chan struct{} // closed once the connection has ended

	mu      sync.Mutex
	closing bool
	down    string // how the server went away: "crashed (exit status 3)"
}

// Name is the server's name in the configuration.
func (s *Server) Name() string { return s.Config.Name }

// Describe says how the server is reached: "stdio COMMAND ARGS" or
// "http URL".
func (s *Server) Describe() string { return s.Config.describe() }

// Down reports how a started server went away, with the end of its
// standard error ("" while it runs).
func (s *Server) Down() string {
	s.mu.Lock()
	down := s.down
	s.mu.Unlock()
	if down == "" {
		return ""
	}
	return down + s.lastOutput()
}

func (s *Server) downStatus() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.down
}

// Unmatched returns the names the configuration's tools overrides give
// that are not tools of the server (and not "*").
func (s *Server) Unmatched() []string {
	var out []string
	for name := range s.Config.Tools {
		if name != "*" && !slices.ContainsFunc(s.Tools, func(t *Tool) bool { return t.Name == name }) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// Tool is a tool of a server, as pair classifies it.
type Tool struct {
	Name, Description string
	// ReadOnly is the server's readOnlyHint; Override the
	// configuration's word for the tool, if any.
	ReadOnly bool
	Override string
	Risk     agent.Risk
	// Schema is the JSON schema of its arguments, as the server gave it
	// (an empty object schema if it gave none that is an object).
	Schema json.RawMessage
	// Unchecked, when not empty, says why arguments are only checked to
	// be an object: pair cannot use the tool's schema.
	Unchecked string

	schema *schema.Schema
}

func start(ctx context.Context, c Config) *Server {
	s := &Server{Config: c, stderr: &tail{max: 4 << 10}, gone: make(chan struct{})}
	if err := c.check(); err != nil {
		s.Err = err
		close(s.gone)
		return s
	}
	timeout := c.StartTimeout
	if timeout <= 0 {
		timeout = DefaultStartTimeout
	}
	sctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if c.URL != "" {
		s.conn = dialStreamable(c.URL, c.Headers)
	} else {
		cmd := exec.Command(c.Command, c.Args...)
		cmd.Dir, cmd.Env, cmd.Stderr = c.Dir, c.Env, s.stderr
		cmd.WaitDelay = time.Second
		ownGroup(cmd)
		s.cmd = cmd
		conn, _, err := dialStdio(cmd)
		if err != nil {
			s.Err = s.startError(ctx, sctx, timeout, err)
			close(s.gone)
			return s
		}
		s.conn = conn
	}
	go s.watch()
	tools, err := s.initialize(sctx)
	if err != nil {
		s.Err = s.startError(ctx, sctx, timeout, err)
		s.killGroup() // a server that failed its start gets no time to exit
		s.Close()
		return s
	}
	s.Tools = tools
	return s
}

// startError explains why a server did not start.
func (s *Server) startError(ctx, sctx context.Context, timeout time.Duration, err error) error {
	var ee *exec.Error
	var pe *fs.PathError
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, &ee):
		return fmt.Errorf("cannot start %s: %w", s.Config.Command, ee.Err)
	case errors.As(err, &pe) && strings.Contains(pe.Op, "exec"):
		return fmt.Errorf("cannot start %s: %w", s.Config.Command, pe.Err)
	case errors.Is(sctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("no answer within %v%s", timeout, s.lastOutput())
	case s.cmd != nil && closedConn(err):
		return fmt.Errorf("it stopped before it answered%s", s.lastOutput())
	}
	return fmt.Errorf("%s%s", output.Clip(err.Error(), 300), s.lastOutput())
}

func closedConn(err error) bool {
	return errors.Is(err, errClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.ErrClosedPipe)
}

// lastOutput is the end of a stdio server's standard error, for messages.
func (s *Server) lastOutput() string {
	text := strings.TrimSpace(s.stderr.String())
	if text == "" {
		return ""
	}
	return "; its last output: " + oneLine(text, 500)
}

// watch waits for the connection to end. When pair did not end it, the
// server went away by itself: watch records how, and kills what is left
// of its process group.
func (s *Server) watch() {
	<-s.conn.done
	err := s.conn.err
	s.mu.Lock()
	if s.closing {
		s.down = "was stopped"
	} else {
		s.down = s.goneReason(err)
	}
	s.mu.Unlock()
	s.killGroup()
	close(s.gone)
}

// goneReason says how a server went away, from the error that ended its
// connection: the process's exit, or what broke the connection.
func (s *Server) goneReason(err error) string {
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return "crashed (" + ee.ProcessState.String() + ")"
	case err == nil && s.cmd != nil:
		return "exited"
	case err == nil:
		return "closed the connection"
	case s.cmd != nil:
		return "broke the connection (" + output.Clip(err.Error(), 200) + ") and was stopped"
	}
	return "became unreachable (" + output.Clip(err.Error(), 200) + ")"
}

// call calls a tool. Every failure is an error that says what happened:
// the server was already gone, went away during the call, refused it, or
// answered something that is not a tool result. An error of the tool
// itself (isError) is an error too, with the tool's text.
func (s *Server) call(ctx context.Context, tool string, args json.RawMessage) (string, error) {
	name := s.Config.Name + "." + tool
	if down := s.downStatus(); down != "" {
		return "", fmt.Errorf("the MCP server %s is down (it %s earlier): %s was not called", s.Config.Name, down, name)
	}
	var res callResult
	err := s.conn.call(ctx, "tools/call", callParams{Name: tool, Arguments: args}, &res)
	if err != nil {
		return "", s.callError(ctx, name, err)
	}
	return render(name, &res)
}

func (s *Server) callError(ctx context.Context, name string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var werr *rpcError
	if errors.As(err, &werr) {
		return fmt.Errorf("the MCP server %s refused the call of %s: %s (code %d)", s.Config.Name, name, werr.Message, werr.Code)
	}
	closed := closedConn(err)
	wait := 200 * time.Millisecond
	if closed && s.cmd != nil {
		wait = crashWait
	}
	select {
	case <-s.gone:
		return fmt.Errorf("the MCP server %s %s during the call of %s%s; its tools cannot be called any more in this session", s.Config.Name, s.downStatus(), name, s.lastOutput())
	case <-time.After(wait):
	}
	if closed {
		return fmt.Errorf("the connection to the MCP server %s was lost during the call of %s: %s", s.Config.Name, name, output.Clip(err.Error(), 300))
	}
	var merr *malformedError
	if errors.As(err, &merr) {
		return fmt.Errorf("the MCP server %s sent a malformed answer to the call of %s: %s", s.Config.Name, name, output.Clip(err.Error(), 300))
	}
	return fmt.Errorf("the call of %s to the MCP server %s failed: %s", name, s.Config.Name, output.Clip(err.Error(), 300))
}

// Close stops the server and waits for it; it is safe to call more than
// once.
func (s *Server) Close() {
	if s.conn == nil {
		return
	}
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	done := make(chan struct{})
	go func() {
		s.conn.t.close() // its exit status after SIGTERM says nothing useful
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2*terminateAfter + 2*time.Second):
	}
	s.killGroup()
	select {
	case <-s.gone:
	case <-time.After(time.Second):
	}
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// oneLine folds s onto one line and keeps its last n bytes or fewer (the
// end of a server's output says why it stopped), never cutting a UTF-8
// character in two.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		i := len(s) - n
		for i < len(s) && !utf8.RuneStart(s[i]) {
			i++
		}
		s = "…" + s[i:]
	}
	return s
}

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "devel"
}

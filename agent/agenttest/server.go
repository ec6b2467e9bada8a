package agenttest

import (
	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/internal/replay"
	openai "github.com/sashabaranov/go-openai"
)

// MemoryURL is the base URL of the in-memory clients. Their transport
// answers every request itself, whatever the host.
const MemoryURL = "http://agenttest.invalid/v1"

// DefaultChunk is the size in bytes of the pieces of a streamed reply when
// Reply.Chunk is zero: small, so that words and arguments are split.
const DefaultChunk = replay.DefaultChunk

// The script and what the server records, as package replay defines them.
type (
	Call          = replay.Call
	Reply         = replay.Reply
	Request       = replay.Request
	StreamOptions = replay.StreamOptions
	Message       = replay.Message
	ToolCall      = replay.ToolCall
	FunctionCall  = replay.FunctionCall
	Tool          = replay.Tool
	Usage         = replay.Usage
	Function      = replay.Function
)

// TB is what the server needs of a test: *testing.T satisfies it, and so
// does any reporter with these methods.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Failed() bool
	Cleanup(func())
}

// Server is a fake OpenAI-compatible server. It is an http.Handler.
type Server struct {
	*replay.Server
	t TB
}

// NewServer returns a server that answers with replies, in order. At the
// end of the test it stops, and replies left unused fail the test.
func NewServer(t TB, replies ...Reply) *Server {
	t.Helper()
	s := &Server{Server: replay.New(func(msg string) { t.Errorf("%s", msg) }, replies...), t: t}
	t.Cleanup(func() {
		s.Close()
		if !t.Failed() {
			s.Verify()
		}
	})
	return s
}

// Verify fails the test if scripted replies are left unused.
func (s *Server) Verify() {
	s.t.Helper()
	s.Server.Verify()
}

// Client returns a go-openai client that reaches the server in memory.
func (s *Server) Client() *openai.Client {
	cfg := openai.DefaultConfig("agenttest-key")
	cfg.BaseURL = MemoryURL
	cfg.HTTPClient = s.HTTPClient()
	return openai.NewClientWithConfig(cfg)
}

// Config returns the configuration of an agent.Client that reaches the
// server in memory.
func (s *Server) Config() agent.Config {
	return agent.Config{
		BaseURL:    MemoryURL,
		APIKey:     "agenttest-key",
		Model:      "agenttest-model",
		HTTPClient: s.HTTPClient(),
	}
}

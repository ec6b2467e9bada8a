package agent

import "encoding/json"

// Role says who wrote a message of the conversation.
type Role string

// The roles of the OpenAI chat protocol.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one message of the conversation, in pair's own type: the
// State holds these, never the client library's.
type Message struct {
	Role    Role   `json:"role"`
	Content string `json:"content,omitempty"`
	// ToolCalls are the calls an assistant message makes.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID is, for a tool message, the call it answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
	// Request is, for a user message that carries a person's request,
	// the request as typed (Content adds the files in context); it is
	// for showing the conversation, and is not sent.
	Request string `json:"request,omitempty"`
}

// ToolCall is one call of a tool by the model, with its arguments as the
// model wrote them (JSON text, possibly malformed).
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ToolDef is a tool offered to the model: its name, what it does, and the
// JSON schema of its arguments.
type ToolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Usage counts the tokens of one reply, or of a session.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// Add adds u2 to u.
func (u *Usage) Add(u2 Usage) {
	u.PromptTokens += u2.PromptTokens
	u.CompletionTokens += u2.CompletionTokens
	u.TotalTokens += u2.TotalTokens
}

// Reply is one complete model reply, assembled from its stream.
type Reply struct {
	Content      string     `json:"content,omitempty"`
	ToolCalls    []ToolCall `json:"tool_calls,omitempty"`
	FinishReason string     `json:"finish_reason"`
	Usage        Usage      `json:"usage"`
	// Retries are the notices of the attempts that failed and were
	// retried before this reply (or this error) came.
	Retries []string `json:"retries,omitempty"`
}

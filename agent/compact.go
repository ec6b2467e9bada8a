package agent

// elided replaces the content of a message compact dropped.
const elided = "(elided to keep the conversation within the model's context; call the tool again, or read the file, if it is still needed)"

// compact returns the messages to send when the conversation has grown
// past budget characters: the contents of the oldest tool results, then
// of the oldest long user messages (files in context, outputs), are
// replaced by a short note, until it fits or only the last turn is left.
// The system prompt, every request as typed, the assistant's messages and
// the structure of calls and answers are kept, and the state itself is
// never changed.
func compact(msgs []Message, budget int) []Message {
	size := 0
	for _, m := range msgs {
		size += len(m.Content)
		for _, c := range m.ToolCalls {
			size += len(c.Arguments)
		}
	}
	if budget <= 0 || size <= budget {
		return msgs
	}
	// The last user message with a request starts the turn under way: it
	// and what follows are sent whole.
	keepFrom := len(msgs)
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == RoleUser && msgs[i].Request != "" {
			keepFrom = i
			break
		}
	}
	out := make([]Message, len(msgs))
	copy(out, msgs)
	for _, role := range []Role{RoleTool, RoleUser} {
		for i := 0; i < keepFrom && size > budget; i++ {
			m := &out[i]
			if m.Role != role || len(m.Content) <= len(elided)*2 {
				continue
			}
			size -= len(m.Content)
			if m.Request != "" {
				// Keep what the person asked; drop the files sent with it.
				m.Content = m.Request + "\n\n" + elided
			} else {
				m.Content = elided
			}
			size += len(m.Content)
		}
	}
	return out
}

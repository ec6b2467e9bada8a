package bench

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/pair-cli/pair/internal/replay"
)

// SentSize measures what a model is sent. Bytes counts everything: the
// request bodies as they went over the wire. Chars and Tokens count the
// text the model reads of them: the messages' content and tool calls (as
// the model sees them, not JSON-escaped in the request) and the tool
// definitions (their JSON, as servers put it in the prompt), with an
// estimate of the tokens. The tool definitions and the tool results are
// also counted apart. Every request counts whole, as the model reads it
// again.
type SentSize struct {
	Bytes         int `json:"bytes"`
	Chars         int `json:"chars"`
	Tokens        int `json:"tokens_estimate"`
	ToolDefChars  int `json:"tool_definition_chars"`
	ToolDefTokens int `json:"tool_definition_tokens_estimate"`
	ToolChars     int `json:"tool_result_chars"`
	ToolTokens    int `json:"tool_result_tokens_estimate"`
}

func (s *SentSize) add(o SentSize) {
	s.Bytes += o.Bytes
	s.Chars += o.Chars
	s.Tokens += o.Tokens
	s.ToolDefChars += o.ToolDefChars
	s.ToolDefTokens += o.ToolDefTokens
	s.ToolChars += o.ToolChars
	s.ToolTokens += o.ToolTokens
}

// MeasureSent measures the request bodies: all their bytes, and the text
// of those that are chat completion requests.
func MeasureSent(bodies [][]byte) SentSize {
	var s SentSize
	for _, b := range bodies {
		s.Bytes += len(b)
		var req struct {
			Messages []struct {
				Role      string `json:"role"`
				Content   string `json:"content"`
				ToolCalls []struct {
					Function struct {
						Name      string `json:"name"`
						Arguments string `json:"arguments"`
					} `json:"function"`
				} `json:"tool_calls"`
			} `json:"messages"`
			Tools json.RawMessage `json:"tools"`
		}
		if json.Unmarshal(b, &req) != nil {
			continue
		}
		for _, m := range req.Messages {
			n, t := utf8.RuneCountInString(m.Content), replay.EstimateTokens(m.Content)
			s.Chars += n
			s.Tokens += t
			if m.Role == "tool" {
				s.ToolChars += n
				s.ToolTokens += t
			}
			for _, c := range m.ToolCalls {
				text := c.Function.Name + c.Function.Arguments
				s.Chars += utf8.RuneCountInString(text)
				s.Tokens += replay.EstimateTokens(text)
			}
		}
		if len(req.Tools) > 0 {
			n, t := utf8.RuneCount(req.Tools), replay.EstimateTokens(string(req.Tools))
			s.Chars += n
			s.Tokens += t
			s.ToolDefChars += n
			s.ToolDefTokens += t
		}
	}
	return s
}

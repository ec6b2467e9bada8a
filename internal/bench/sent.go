package bench

import (
	"encoding/json"
	"regexp"
	"sync"
	"unicode/utf8"
)

// SentSize measures what a model reads: the characters of the messages'
// content (as the model sees it, not JSON-escaped in the request) and an
// estimate of their tokens, for all messages and for the tool results
// alone. Every request counts whole, as the model reads it again.
type SentSize struct {
	Chars      int `json:"chars"`
	Tokens     int `json:"tokens_estimate"`
	ToolChars  int `json:"tool_result_chars"`
	ToolTokens int `json:"tool_result_tokens_estimate"`
}

func (s *SentSize) add(o SentSize) {
	s.Chars += o.Chars
	s.Tokens += o.Tokens
	s.ToolChars += o.ToolChars
	s.ToolTokens += o.ToolTokens
}

// MeasureSent measures the messages of the request bodies; a body that
// is not a chat completion request counts for nothing.
func MeasureSent(bodies [][]byte) SentSize {
	var s SentSize
	for _, b := range bodies {
		var req struct {
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		}
		if json.Unmarshal(b, &req) != nil {
			continue
		}
		for _, m := range req.Messages {
			n, t := utf8.RuneCountInString(m.Content), EstimateTokens(m.Content)
			s.Chars += n
			s.Tokens += t
			if m.Role == "tool" {
				s.ToolChars += n
				s.ToolTokens += t
			}
		}
	}
	return s
}

// pretoken splits text as the pre-tokenizer of OpenAI's cl100k and
// o200k encodings roughly does: a word with one leading non-letter, up
// to three digits, a run of punctuation, line breaks, other white space.
var pretoken = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[^\r\n\pL\pN]?\pL+|\pN{1,3}| ?[^\s\pL\pN]+[\r\n]*|\s*[\r\n]+|\s+`)
})

// EstimateTokens estimates the tokens of text without the model's
// vocabulary: one per pre-token, and one more per further 6 bytes of a
// long one (rare identifiers and long runs of punctuation are split).
func EstimateTokens(text string) int {
	n := 0
	for _, p := range pretoken().FindAllString(text, -1) {
		n += 1 + max(len(p)-1, 0)/6
	}
	return n
}

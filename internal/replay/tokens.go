package replay

import (
	"regexp"
	"sync"
)

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

package mcp

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// The end of a server's output is kept, folded onto one line, and never
// starts in the middle of a UTF-8 character.
func TestOneLine(t *testing.T) {
	if got := oneLine("a\n  b\tc\n", 10); got != "a b c" {
		t.Errorf("short text: got %q", got)
	}
	long := strings.Repeat("é", 300) // two bytes each
	for n := 1; n <= 9; n++ {
		got := oneLine(long, n)
		if !utf8.ValidString(got) || !strings.HasPrefix(got, "…") {
			t.Errorf("n=%d: got %q, want valid UTF-8 after an ellipsis", n, got)
		}
		if rest := strings.TrimPrefix(got, "…"); len(rest) > n || len(rest) < n-1 {
			t.Errorf("n=%d: kept %d bytes", n, len(rest))
		}
	}
	if got := oneLine("error: disk full", 9); got != "…disk full" {
		t.Errorf("got %q, want the last 9 bytes", got)
	}
}

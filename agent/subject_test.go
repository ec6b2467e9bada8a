package agent

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCommitSubject: the model's message when it reads as a subject;
// else the request, without its polite opening, in capitals, shortened
// at a word; never the model's prose.
func TestCommitSubject(t *testing.T) {
	long := "rename the configuration loader and every caller of it across the whole repository, keeping the old names as aliases"
	for _, c := range []struct{ message, request, want string }{
		{"Guard Upper against the empty string", "fix the panic", "Guard Upper against the empty string"},
		{"app: a friendlier greeting.", "x", "app: a friendlier greeting"},
		{"Commit: Guard Upper against the empty string", "x", "Guard Upper against the empty string"},
		{"`Fix the typo`", "x", "Fix the typo"},
		{"I'll guard against the empty string, which currently panics on `s[0]`.", "guard Upper against the empty string", "Guard Upper against the empty string"},
		{"Here is the change to app.go:", "make the greeting friendlier", "Make the greeting friendlier"},
		{"Sure! Let me fix that.", "Please fix the panic in Upper.", "Fix the panic in Upper"},
		{"", "can you make the greeting friendlier?", "Make the greeting friendlier"},
		{"", "Could you please add a test for Bye, please", "Add a test for Bye"},
		{"", "rename Greet\n\nand its callers too", "Rename Greet"},
		{"", long, "Rename the configuration loader and every caller of it across the whole"},
		{"", "   ", "Change files as requested"},
	} {
		got := commitSubject(c.message, c.request)
		if got != c.want {
			t.Errorf("commitSubject(%q, %q): got %q, want %q", c.message, c.request, got, c.want)
		}
		if n := utf8.RuneCountInString(got); n > maxSubject || strings.Contains(got, "\n") {
			t.Errorf("commitSubject(%q, %q) = %q: %d characters or several lines", c.message, c.request, got, n)
		}
	}
}

// TestCommitLine: the reply's "Commit:" line outside its fenced blocks.
func TestCommitLine(t *testing.T) {
	for _, c := range []struct{ reply, want string }{
		{"I'll fix it.\n\nCommit: Guard Upper against the empty string\n\n```diff\n-a\n+b\n```\n", "Guard Upper against the empty string"},
		{"**Commit:** Fix the typo\n```diff\n```", "Fix the typo"},
		{"```diff\n+Commit: inside the diff\n```\n", ""},
		{"I'll guard against the empty string.\n```diff\n```\n", ""},
	} {
		if got := commitLine(c.reply); got != c.want {
			t.Errorf("commitLine(%q): got %q, want %q", c.reply, got, c.want)
		}
	}
}

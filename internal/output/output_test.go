package output

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestOneLineKeepsCharacters(t *testing.T) {
	s := OneLine(strings.Repeat("é", 10), 5)
	if !utf8.ValidString(s) || s != "éé…" {
		t.Errorf("got %q, want two whole characters and an ellipsis", s)
	}
}

func TestWording(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Plural(0, "file"), "files"},
		{Plural(1, "file"), "file"},
		{Plural(2, "file"), "files"},
		{OneLine("a\n\tb  c", 10), "a b c"},
		{OneLine("abcdef", 3), "abc…"},
		{Clip("abc", 3), "abc"},
		{Clip("abcdef", 3), "abc…"},
		{Clip("a\n b", 10), "a\n b"},
		{Clip("aé", 2), "a…"}, // é is two bytes: not cut in two
		{Clip("日本", 2), "…"},
		{Clip("日本", 3), "日…"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// TestUsagefWraps: a reason wrapped with %w is found by errors.Is, and
// the message is the one fmt.Errorf would make.
func TestUsagefWraps(t *testing.T) {
	reason := errors.New("no series")
	err := Usagef("apply: %w (start one)", reason)
	var ue *UsageError
	if !errors.As(err, &ue) || !errors.Is(err, reason) || err.Error() != "apply: no series (start one)" {
		t.Errorf("got %q (%#v), want a UsageError wrapping the reason", err, err)
	}
	if err := Usagef("apply: %s and %v", "a", reason); errors.Unwrap(err) != nil || err.Error() != "apply: a and no series" {
		t.Errorf("without %%w: got %q wrapping %v, want nothing wrapped", err, errors.Unwrap(err))
	}
}

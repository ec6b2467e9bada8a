package output

import (
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

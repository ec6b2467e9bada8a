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

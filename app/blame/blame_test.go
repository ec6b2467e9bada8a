package blame

import (
	"bytes"
	"strings"
	"testing"
)

// A line's text, an author's name and a model's name are anyone's text:
// printed escaped, with nothing that reaches the terminal as a control.
func TestPrintLinesEscapes(t *testing.T) {
	var out bytes.Buffer
	printLines(&out, []Line{
		{Line: 1, Commit: strings.Repeat("a", 40), Author: "Eve\x1b[2J <eve@example.com>", Date: "2025-01-02T03:04:05Z", Text: "x := 1 \x1b]0;title\x07"},
		{Line: 2, Commit: strings.Repeat("b", 40), Author: "Ada <ada@example.com>", Date: "2025-01-03T03:04:05Z", Text: "y", Pair: &Pair{Model: "gpt\x1b[31m", Decision: "edited"}},
		{Line: 3, Author: "Not Committed Yet", Text: "z"},
	})
	got := out.String()
	if strings.ContainsAny(got, "\x1b\x07") {
		t.Fatalf("control characters printed:\n%q", got)
	}
	for _, want := range []string{
		"aaaaaaaa (Eve",
		"2025-01-02 1) x := 1 ",
		"bbbbbbbb (gpt",
		" [edited] 2025-01-03 2) y\n",
		"00000000 (Not Committed Yet",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}

func TestStatsAdd(t *testing.T) {
	var s Stats
	s.add(Stats{Lines: 10, Model: 4, Approved: 2, Edited: 1, Interpreted: 1, Applied: 3})
	s.add(Stats{Lines: 10})
	if s.Lines != 20 || s.Model != 4 || s.Applied != 3 || share(s.Model, s.Lines) != 0.2 || share(0, 0) != 0 {
		t.Errorf("got %+v", s)
	}
}

package edittest_test

import (
	"testing"

	"github.com/pair-cli/pair/edit/edittest"
)

func TestLinesShow(t *testing.T) {
	const diff = " a\n-b\n+c\n+\n"
	if got := edittest.Show(edittest.Lines(" a", "-b", "+c", "+")); got != diff {
		t.Errorf("Show(Lines(...)) = %q, want %q", got, diff)
	}
}

// Package edittest holds what tests of pair's packages share about
// hunks: lines written as in a diff, and hunk lines shown back that way.
// The release binary does not link it (cmd/pair/deps_test.go).
package edittest

import (
	"strings"

	"github.com/pair-cli/pair/edit"
)

// Lines builds hunk lines from strings written as in a diff: a leading
// ' ', '-' or '+' gives the kind, the rest is the text.
func Lines(lines ...string) []edit.Line {
	out := make([]edit.Line, 0, len(lines))
	for _, l := range lines {
		out = append(out, edit.Line{Kind: edit.Kind(l[0]), Text: l[1:]})
	}
	return out
}

// Show writes hunk lines back as diff lines, one per line.
func Show(lines []edit.Line) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteByte(byte(l.Kind))
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

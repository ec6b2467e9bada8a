// rule_duplicateonce.go: the rule duplicateOnce, one rule of the placement table.

package edit

import "strings"

// ruleDuplicateOnce is the rule of that id; see its Statement.
var ruleDuplicateOnce = Rule{
	ID:        "duplicateOnce",
	Stage:     StageCandidates,
	Verdicts:  []Verdict{Certain},
	Statement: "A hunk that repeats an earlier hunk of the file line for line, and fits letter for letter at one place only, is applied once: the repeat is skipped and reported.",
}

// repeats finds the earlier hunk that a hunk repeats line for line, in
// time linear in the hunks' lines: call it on each hunk in order.
type repeats map[string]int

// of returns the earlier hunk that hunk i, h, repeats line for line, or
// -1, and remembers h.
func (rp repeats) of(i int, h *Hunk) int {
	var b strings.Builder
	n := 0
	for _, l := range h.Lines {
		n += len(l.Text) + 2
	}
	b.Grow(n)
	for _, l := range h.Lines {
		b.WriteByte(byte(l.Kind))
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	k := b.String()
	if j, ok := rp[k]; ok {
		return j
	}
	rp[k] = i
	return -1
}

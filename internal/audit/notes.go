package audit

import (
	"fmt"
	"strings"
)

// Note is what the person said when rejecting a hunk, for the commit
// message: the hunk's path and first line (0 for a change without lines),
// and the note.
type Note struct {
	Path  string
	Start int
	Text  string
}

// NotesText returns the paragraph of a commit body that records the notes
// given with rejections, one line each ("- calc.go:12: keep the old
// name"), or "" when there is none. pair apply and pair edit both write it.
func NotesText(notes []Note) string {
	var b strings.Builder
	for _, n := range notes {
		text := strings.Join(strings.Fields(n.Text), " ") // one line each
		if text == "" {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("Rejected with a note:")
		}
		where := n.Path
		if n.Start > 0 {
			where = fmt.Sprintf("%s:%d", n.Path, n.Start)
		}
		fmt.Fprintf(&b, "\n- %s: %s", where, text)
	}
	return b.String()
}

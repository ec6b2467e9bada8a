package agent

import (
	"fmt"
	"strings"

	"github.com/pair-cli/pair/edit"
)

// writeMisread names the lines of the file a refused hunk got wrong
// ("line 93 is `return value;`, your context says `return result;`; ..."),
// so that the model learns to mark its changes, not only that the hunk
// did not match.
func writeMisread(b *strings.Builder, e *edit.PlacementError) {
	for _, m := range e.Misread {
		fmt.Fprintf(b, "  %s\n", m.Teach())
	}
	if e.Interpreted != nil && e.Interpreted.Pass == edit.PassInterpreted {
		b.WriteString("  (pair could read your intent only by changing the line(s) above, which you did not mark; it did not.)\n")
	}
}

package agent

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pair-cli/pair/edit"
)

// writeNumbered writes lines of a file numbered as read_file numbers
// them: "N<TAB>line", the numbers right-aligned to the widest.
func writeNumbered(b *strings.Builder, lines []edit.NumberedLine) {
	width := 0
	for _, l := range lines {
		width = max(width, len(strconv.Itoa(l.N)))
	}
	for _, l := range lines {
		fmt.Fprintf(b, "%*d\t%s\n", width, l.N, l.Text)
	}
}

// writeUnnumbered tells the model which hunks carried read_file's line
// numbers, which pair removed (see edit.Unnumber), so that it leaves them
// out next time.
func writeUnnumbered(b *strings.Builder, plans []*edit.FilePlan) {
	var where []string
	for _, p := range plans {
		var hunks []string
		for i, h := range p.Diff.Hunks {
			if h.Numbered {
				hunks = append(hunks, strconv.Itoa(i+1))
			}
		}
		switch len(hunks) {
		case 0:
		case 1:
			where = append(where, fmt.Sprintf("%s hunk %s", p.Path(), hunks[0]))
		default:
			where = append(where, fmt.Sprintf("%s hunks %s", p.Path(), strings.Join(hunks, ", ")))
		}
	}
	if len(where) > 0 {
		fmt.Fprintf(b, "The lines of %s carried read_file's line numbers (N<TAB>), which are not part of the file; pair removed them. Leave them out of diffs.\n", strings.Join(where, " and "))
	}
}

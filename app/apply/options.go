// options.go: git apply's smaller options: --recount and --verbose.

package apply

import (
	"fmt"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/safetext"
)

// recount gives each hunk of the patch the line counts of its lines, as
// git apply --recount reads them, whatever its header says.
func recount(p *edit.Patch) {
	for _, f := range p.Files {
		for _, h := range f.Hunks {
			if h.HasNumbers {
				h.OldLines, h.NewLines = len(h.Pre()), len(h.Post())
			}
		}
	}
}

// verbose names each file of the patch on standard error as it is
// checked, as git apply --verbose does.
func (a *applier) verbose(plans []*edit.FilePlan) {
	if !a.o.Verbose {
		return
	}
	for _, p := range plans {
		fmt.Fprintf(a.o.IO.Err, "Checking patch %s...\n", safetext.Name(p.Path()))
	}
}

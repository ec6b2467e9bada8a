package agent

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/audit"
)

// hunkName names hunk i of a plan's diff as the model wrote it: its file,
// its number in the diff, and its header's line number when it had one
// ("app.go hunk 2 (@@ -40)").
func hunkName(p *edit.FilePlan, i int) string {
	s := fmt.Sprintf("%s hunk %d", p.Path(), i+1)
	if p.Diff != nil && i < len(p.Diff.Hunks) && p.Diff.Hunks[i].HasNumbers {
		s += fmt.Sprintf(" (@@ -%d)", p.Diff.Hunks[i].OldStart)
	}
	return s
}

// alreadyIn reports whether a hunk was not placed because the file
// already holds its result: not a failure, and nothing to do.
func alreadyIn(e *edit.PlacementError) bool { return errors.Is(e.Err, edit.ErrAlreadyApplied) }

// countErrors counts the hunks that were not placed: those already in the
// file, and the others, which failed.
func countErrors(plans []*edit.FilePlan) (already, failed int) {
	for _, p := range plans {
		for _, e := range p.Errors {
			if alreadyIn(e) {
				already++
			} else {
				failed++
			}
		}
	}
	return already, failed
}

// writeAlready lists the hunks whose result the file already holds.
func writeAlready(b *strings.Builder, plans []*edit.FilePlan) {
	for _, p := range plans {
		for _, e := range p.Errors {
			if alreadyIn(e) {
				fmt.Fprintf(b, "- %s: already in the file; nothing to do\n", hunkName(p, e.Hunk))
			}
		}
	}
}

// writeAdvice says, for each hunk that was not placed, what to send next,
// as its reason calls for; and, when some hunks of the edit were placed,
// which of them were applied and that only the others are to be sent
// again, against the file as it is now. out is the review of the placed
// hunks (nil when none was placed).
func writeAdvice(b *strings.Builder, plans []*edit.FilePlan, out *Outcome) {
	var failed []string
	for _, p := range plans {
		for _, e := range p.Errors {
			if alreadyIn(e) {
				continue
			}
			name := hunkName(p, e.Hunk)
			failed = append(failed, name)
			fmt.Fprintf(b, "- %s: %s\n", name, advice(e))
		}
	}
	if out == nil || len(failed) == 0 {
		return
	}
	var applied []string
	for _, h := range out.Hunks {
		if h.Decision != audit.Approved && h.Decision != audit.Edited {
			continue
		}
		if p, r := resolvedOf(plans, h, nil); r != nil {
			if n := hunkName(p, r.Hunk); !slices.Contains(applied, n) {
				applied = append(applied, n)
			}
		}
	}
	if len(applied) > 0 {
		fmt.Fprintf(b, "Applied: %s; do not send %s again.\n", strings.Join(applied, ", "), map[bool]string{true: "it", false: "them"}[len(applied) == 1])
	}
	fmt.Fprintf(b, "Send only %s, in a new diff against the file as it is now", strings.Join(failed, ", "))
	if len(applied) > 0 {
		b.WriteString(": it holds the applied hunks, so its line numbers may have moved")
	}
	b.WriteString(".\n")
}

// advice is the next step for a hunk that could not be placed, by its
// reason.
func advice(e *edit.PlacementError) string {
	shown := "copied exactly from the file (read it again)"
	if len(e.Nearest) > 0 {
		shown = "copied exactly from the file's lines shown above, without their line numbers"
	}
	switch {
	case errors.Is(e.Err, edit.ErrAmbiguous):
		return "its lines fit more than one place. Add a context line, copied from the file, that is found only at the place you mean, " +
			"or give the @@ header that place's line number (@@ -N,M +N,M @@): pair uses it to choose among places."
	case errors.Is(e.Err, edit.ErrOverlap):
		return "it changes lines that another hunk of this edit also changes or keeps. Send one hunk for those lines, with every change to them in it."
	case errors.Is(e.Err, edit.ErrConflict):
		return "the lines it changes were changed since you read them. Read the file again and write the hunk against it as it is now."
	case errors.Is(e.Err, edit.ErrNoOp):
		return "it has no + or - lines that change anything. Leave it out, or mark the lines it changes with - and +."
	case errors.Is(e.Err, edit.ErrNoContext):
		return "it has no context lines to find its place by. Add the two or three unchanged lines around the change, " + shown + "."
	case errors.Is(e.Err, edit.ErrSyntax):
		return "it fits only loosely, and there it breaks the file's syntax. Send its context and - lines " + shown + "."
	}
	return "its context and - lines match nothing in the file. Send them " + shown + "."
}

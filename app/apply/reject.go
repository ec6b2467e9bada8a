// reject.go: git apply --reject: the hunks that place are applied, and
// those that do not are written to <file>.rej, as git writes them.

package apply

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/safetext"
)

// ErrRejected is returned by --reject when a hunk could not be placed:
// the others were applied, and it was written to a .rej file.
var ErrRejected = errors.New("hunks rejected")

// rejectLater keeps the hunks of plans that could not be placed, for
// writeRejects.
func (a *applier) rejectLater(plans []*edit.FilePlan) {
	for _, p := range plans {
		a.rejects = append(a.rejects, p.Errors...)
	}
	a.rejectPlans = plans
}

// writeRejects writes each file's hunks that could not be placed to
// <file>.rej, and fails saying so; nil when there were none.
func (a *applier) writeRejects() error {
	if len(a.rejects) == 0 {
		return nil
	}
	var names []string
	for _, p := range a.rejectPlans {
		var hunks []*edit.Hunk
		for _, e := range a.rejects {
			if e.Path == p.Path() && e.Hunk < len(p.Diff.Hunks) {
				hunks = append(hunks, p.Diff.Hunks[e.Hunk])
			}
		}
		if len(hunks) == 0 {
			continue
		}
		name := p.Path() + ".rej"
		if err := a.tree.WriteReject(name, rejectText(p.Path(), hunks, a.written)); err != nil {
			return a.fail(fmt.Errorf("write the rejected hunks: %w", err))
		}
		names = append(names, name)
	}
	n := len(a.rejects)
	return &output.ExitError{Code: output.Failure, Err: ErrRejected,
		Msg: fmt.Sprintf("apply: %d %s could not be placed and %s written to %s", n, output.Plural(n, "hunk"),
			map[bool]string{true: "was", false: "were"}[n == 1], safetext.Text(strings.Join(names, ", ")))}
}

// rejectText writes hunks as git apply --reject writes a .rej file: a
// diff line naming the file twice, then the hunks as the patch wrote
// them (written, see hunkText), else as they are now.
func rejectText(name string, hunks []*edit.Hunk, written map[*edit.Hunk]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "diff a/%s b/%s\t(rejected hunks)\n", name, name)
	for _, h := range hunks {
		if w, ok := written[h]; ok {
			b.WriteString(w)
		} else {
			b.WriteString(hunkText(h))
		}
	}
	return b.String()
}

// keepWritten keeps the text of each hunk of files as the patch wrote
// it, before -R, --recount or --whitespace=fix change it: git's .rej
// file repeats the hunk as written.
func (a *applier) keepWritten(files []*edit.FileDiff) {
	a.written = map[*edit.Hunk]string{}
	for _, f := range files {
		for _, h := range f.Hunks {
			a.written[h] = hunkText(h)
		}
	}
}

// hunkText writes h as a patch does: its header line as written, else
// as git diff writes one, and its lines.
func hunkText(h *edit.Hunk) string {
	var b strings.Builder
	if h.Header != "" {
		b.WriteString(h.Header)
	} else {
		fmt.Fprintf(&b, "@@ -%s +%s @@", hunkRange(h.OldStart, h.OldLines), hunkRange(h.NewStart, h.NewLines))
		if h.Section != "" {
			b.WriteString(" " + h.Section)
		}
	}
	b.WriteByte('\n')
	lastOld, lastNew := -1, -1
	for i, l := range h.Lines {
		if l.Kind != edit.Add {
			lastOld = i
		}
		if l.Kind != edit.Delete {
			lastNew = i
		}
	}
	for i, l := range h.Lines {
		eol := l.EOL
		if eol == "" {
			eol = "\n"
		}
		b.WriteString(string(l.Kind) + l.Text + eol)
		if i == lastOld && h.OldNoNewline || i == lastNew && h.NewNoNewline {
			b.WriteString("\\ No newline at end of file\n")
		}
	}
	return b.String()
}

// hunkRange writes one side of a hunk header as git diff does: the
// count left out when it is 1.
func hunkRange(start, n int) string {
	if n == 1 {
		return strconv.Itoa(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// edit.go: a hunk edited in review: the text to edit, and Edit, which takes it back or says why not.

package review

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/internal/output"
)

// Header returns the "@@ -a,b +c,d @@" line of an item as it would be
// written: old numbers from its place in the file, new numbers as if every
// earlier hunk of the file were applied.
func (r *Review) Header(it *Item) string {
	h := &it.Hunk
	delta := 0
	for i := range r.Items {
		o := &r.Items[i]
		if o.File == it.File && !o.Whole && o.Hunk.Start < h.Start {
			delta += o.Hunk.NewCount() - o.Hunk.OldCount()
		}
	}
	oc, nc := h.OldCount(), h.NewCount()
	oldStart, newStart := h.Start+1, h.Start+1+delta
	if oc == 0 {
		oldStart-- // git numbers an empty side by the line before it
	}
	if nc == 0 {
		newStart--
	}
	s := fmt.Sprintf("@@ -%s +%s @@", span(oldStart, oc), span(newStart, nc))
	if f := r.FileOf(it); f.Diff != nil && it.Hunk.Hunk < len(f.Diff.Hunks) && it.Hunk.Part == 0 {
		if sec := f.Diff.Hunks[it.Hunk.Hunk].Section; sec != "" {
			s += " " + sec
		}
	}
	return s
}

func span(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// editGuide ends the text a person edits: our own words for what the
// editor may change.
const editGuide = `# ---
# Edit the hunk above, then save and quit the editor.
#   To keep a line the hunk removes, turn its '-' into a ' '.
#   To leave out a line the hunk adds, delete that '+' line.
#   Change or add '+' lines freely.
#   Do not change ' ' and '-' lines otherwise: they are the file's own
#   lines, and the edit is refused if they differ.
# Lines starting with # are ignored. Delete every line to cancel the edit
# and keep the hunk as it was.
`

// EditText is the text the person edits for the current item (e): a
// comment naming the file, the hunk in unified form, and a short guide.
func (r *Review) EditText() (string, error) {
	it, err := r.current()
	if err != nil {
		return "", err
	}
	if err := r.editable(it); err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Editing a hunk of %s.\n", r.FileOf(it).Path())
	b.WriteString(r.Header(it))
	b.WriteByte('\n')
	for _, l := range it.Hunk.Lines {
		b.WriteByte(byte(l.Kind))
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	b.WriteString(editGuide)
	return b.String(), nil
}

func (r *Review) editable(it *Item) error {
	if it.Whole {
		return fmt.Errorf("%w: it has no lines (%s %s)", ErrCannotEdit, r.FileOf(it).Action(), r.FileOf(it).Path())
	}
	if r.FileOf(it).Action() == "delete" {
		return fmt.Errorf("%w: it deletes the whole file; approve or reject it", ErrCannotEdit)
	}
	return nil
}

// CanEdit reports whether the current item can be edited.
func (r *Review) CanEdit() bool {
	it := r.Current()
	return it != nil && r.editable(it) == nil
}

// editedNote is the note an edited hunk carries.
const editedNote = "edited in review"

// ErrEditCanceled is returned by Edit when the person emptied the text:
// the hunk stays as it was.
var ErrEditCanceled = errors.New("the edit is empty: the hunk is unchanged")

// EditError explains why an edited hunk was refused. The hunk stays as it
// was and is offered again.
type EditError struct {
	Line   int // 1-based line of the edited text, 0 when not about one line
	Reason string
}

func (e *EditError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d of the edit: %s", e.Line, e.Reason)
	}
	return e.Reason
}

// Edit replaces the current hunk with the person's edit of EditText and
// approves it as Edited (a text saved unchanged approves the hunk as it
// is). The edit must keep the hunk's context and removed
// lines as they are (a removed line may become context) and must still
// change something; anything else is refused with an *EditError and
// changes nothing. An empty text cancels the edit (ErrEditCanceled).
func (r *Review) Edit(text string) error {
	it, err := r.current()
	if err != nil {
		return err
	}
	if err := r.editable(it); err != nil {
		return err
	}
	type numbered struct {
		edit.Line
		n int
	}
	if emptyEdit(text) {
		return ErrEditCanceled
	}
	var lines []numbered
	text = strings.TrimSuffix(text, "\n")
	for i, raw := range strings.Split(text, "\n") {
		n := i + 1
		raw = strings.TrimSuffix(raw, "\r")
		switch {
		case strings.HasPrefix(raw, "#"), strings.HasPrefix(raw, "@@"), strings.HasPrefix(raw, `\ `):
			continue
		case raw == "":
			lines = append(lines, numbered{edit.Line{Kind: edit.Context}, n})
		case raw[0] == ' ' || raw[0] == '-' || raw[0] == '+':
			lines = append(lines, numbered{edit.Line{Kind: edit.Kind(raw[0]), Text: raw[1:]}, n})
		default:
			return &EditError{Line: n, Reason: fmt.Sprintf("%q does not start with ' ', '-' or '+'", clip(raw))}
		}
	}
	want := oldSide(it.Hunk.Lines)
	// Blank lines at the end are what editors leave, unless the hunk
	// needs them as the file's own empty lines.
	for n := len(lines); n > 0 && lines[n-1].Kind == edit.Context && lines[n-1].Text == ""; n = len(lines) {
		olds := 0
		for _, l := range lines {
			if l.Kind != edit.Add {
				olds++
			}
		}
		if olds <= len(want) {
			break
		}
		lines = lines[:n-1]
	}
	if len(lines) == 0 {
		return ErrEditCanceled
	}

	k, changes := 0, false
	edited := make([]edit.Line, 0, len(lines))
	for _, l := range lines {
		if l.Kind == edit.Add {
			changes = true
			edited = append(edited, l.Line)
			continue
		}
		if l.Kind == edit.Delete {
			changes = true
		}
		if k >= len(want) {
			return &EditError{Line: l.n, Reason: fmt.Sprintf("the hunk covers %d %s of the file, and this is one more; ' ' and '-' lines must stay the file's own lines", len(want), output.Plural(len(want), "line"))}
		}
		if l.Text != want[k] {
			return &EditError{Line: l.n, Reason: fmt.Sprintf("the file has %q here, the edit has %q; ' ' and '-' lines must stay the file's own lines (to keep a removed line, turn its '-' into ' ')", clip(want[k]), clip(l.Text))}
		}
		edited = append(edited, l.Line)
		k++
	}
	if k < len(want) {
		return &EditError{Reason: fmt.Sprintf("the edit lost %d of the file's lines (first: %q); keep every ' ' and '-' line, turning a '-' into ' ' to keep it", len(want)-k, clip(want[k]))}
	}
	if !changes {
		return &EditError{Reason: "the edit changes nothing; reject the hunk (n) instead"}
	}
	if slices.Equal(edited, it.Hunk.Lines) {
		// Saved as it was: an approval, as in git add -p, not an edit.
		r.set(r.Cursor, audit.Approved, "")
		r.advance()
		return nil
	}
	h := it.Hunk
	h.Lines = edited
	h.Notes = slices.Clone(it.Hunk.Notes)
	if !slices.Contains(h.Notes, editedNote) {
		h.Notes = append(h.Notes, editedNote)
	}
	if h.FinalNewline != edit.NewlineKeep && !lastLineChanges(edited) {
		h.FinalNewline = edit.NewlineKeep
	}
	if _, err := edit.Apply(r.FileOf(it).Old, []edit.Resolved{h}); err != nil {
		return &EditError{Reason: fmt.Sprintf("the edited hunk does not apply: %v", err)}
	}
	// Whatever else of the file is approved, now or later, must still go
	// with it: an added line between two pieces of a split hunk would land
	// inside the other piece.
	for i := range r.Items {
		o := &r.Items[i]
		if i == r.Cursor || o.File != it.File || o.Whole {
			continue
		}
		if _, err := edit.Apply(r.FileOf(it).Old, []edit.Resolved{h, o.Hunk}); err != nil {
			return &EditError{Reason: fmt.Sprintf("the edited hunk would overlap hunk %s of the same file (%s); add lines only inside the hunk's own changes", o.ID, r.Where(o))}
		}
	}
	if it.Original == nil {
		orig := it.Hunk
		it.Original = &orig
	}
	it.Hunk = h
	r.set(r.Cursor, audit.Edited, "")
	r.advance()
	return nil
}

// emptyEdit reports whether an edited text has no hunk line left, only
// blank lines and the lines Edit skips: the person deleted every line,
// which cancels the edit. (A blank line would otherwise be read as an
// empty context line.)
func emptyEdit(text string) bool {
	for _, raw := range strings.Split(text, "\n") {
		switch {
		case strings.TrimSpace(raw) == "",
			strings.HasPrefix(raw, "#"), strings.HasPrefix(raw, "@@"), strings.HasPrefix(raw, `\ `):
		default:
			return false
		}
	}
	return true
}

// lastLineChanges reports whether the hunk's last line is a change, which
// a final-newline marker needs.
func lastLineChanges(ls []edit.Line) bool {
	return len(ls) > 0 && ls[len(ls)-1].Kind != edit.Context
}

func oldSide(ls []edit.Line) []string {
	var out []string
	for _, l := range ls {
		if l.Kind != edit.Add {
			out = append(out, l.Text)
		}
	}
	return out
}

// clip shortens s to 60 characters, never cutting one in two.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= 60 {
		return s
	}
	return string([]rune(s)[:57]) + "..."
}

// review.go: Proposal and Review, the decision model: one pure method per review key.

package review

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/internal/safetext"
)

// Proposal is a patch placed against the working tree: what a review
// decides about. It is plain data and JSON-serialisable.
type Proposal struct {
	Files []File `json:"files"`
}

// File is one file of a proposal, as edit.FilePlan placed it.
type File struct {
	// OldPath is the file the hunks were placed against ("" for a created
	// file); NewPath is where the result goes ("" for a deleted file).
	OldPath string         `json:"old_path"`
	NewPath string         `json:"new_path"`
	Diff    *edit.FileDiff `json:"diff"`
	// Old is the content the hunks were placed against.
	Old    string          `json:"old"`
	Hunks  []edit.Resolved `json:"hunks"`
	Failed []Failure       `json:"failed,omitempty"`
	// Typechange, for a submodule pointer, is "file" or "folder" when
	// another file of the proposal takes its place, or when it takes the
	// place of a file the proposal deletes (git's typechange, two
	// sections of one path; see markTypechanges).
	Typechange string `json:"typechange,omitempty"`
}

// Path is the path the file is written to, or deleted at.
func (f *File) Path() string {
	if f.NewPath != "" {
		return f.NewPath
	}
	return f.OldPath
}

// renamedWithLines reports whether the file is renamed (or copied) and
// changed in lines as well: its rename is an item of its own.
func (f *File) renamedWithLines() bool {
	return f.Action() == "rename" && len(f.Hunks) > 0 && !f.whole()
}

// Action is what the file's change does: modify, create, delete or rename.
func (f *File) Action() string {
	switch {
	case f.OldPath == "":
		return "create"
	case f.NewPath == "":
		return "delete"
	case f.OldPath != f.NewPath && f.Diff != nil && f.Diff.Copied:
		return "copy"
	case f.OldPath != f.NewPath:
		return "rename"
	}
	return "modify"
}

// linkMode is git's mode of a symbolic link.
const linkMode = "120000"

// modeChange names what the file's change does to its mode: a mode change
// ("mode 100644 → 100755"), a symbolic link made, changed or replaced, or
// a file created with a mode other than 100644. It returns "" when none.
func (f *File) modeChange() string {
	d := f.Diff
	if d == nil {
		return ""
	}
	switch {
	case f.Action() == "create" && d.NewMode == linkMode:
		return "new symbolic link"
	case f.Action() == "create" && d.NewMode != "" && d.NewMode != "100644":
		return "new, mode " + d.NewMode
	case d.ModeChange() && (d.OldMode == linkMode || d.NewMode == linkMode):
		return "mode " + d.OldMode + " → " + d.NewMode + ", symbolic link"
	case d.ModeChange():
		return "mode " + d.OldMode + " → " + d.NewMode
	case d.OldMode == linkMode || d.NewMode == linkMode:
		return "symbolic link"
	}
	return ""
}

// Changes names, for the person, what the file's change does besides
// editing the content of a file: a deletion, a rename, a mode change, a
// symbolic link. A grant (the A key) never covers these, and the summary
// always names them. Names in it are escaped for safetext.
func (f *File) Changes() []string {
	var out []string
	switch f.Action() {
	case "delete":
		out = append(out, "deleted")
	case "rename":
		out = append(out, "renamed from "+safetext.Name(f.OldPath))
	case "copy":
		out = append(out, "copied from "+safetext.Name(f.OldPath))
	}
	if m := f.modeChange(); m != "" {
		out = append(out, m)
	}
	if k := f.kind(); k != "" {
		out = append(out, k)
	}
	return out
}

// Failure is a hunk of the patch that could not be placed: it is listed,
// never offered for approval.
type Failure struct {
	Hunk    int                 `json:"hunk"` // 0-based index in the file's diff
	Reason  string              `json:"reason"`
	Detail  string              `json:"detail,omitempty"`
	Nearest []edit.NumberedLine `json:"nearest,omitempty"`
	// Already marks a hunk whose result the file already holds: nothing
	// to do, rather than a failure (edit.ErrAlreadyApplied).
	Already bool `json:"already,omitempty"`
}

// FromPlans turns placed file plans into a proposal.
func FromPlans(plans []*edit.FilePlan) Proposal {
	p := Proposal{Files: make([]File, 0, len(plans))}
	for _, fp := range plans {
		f := File{OldPath: fp.OldPath, NewPath: fp.NewPath, Diff: fp.Diff, Old: fp.Old, Hunks: fp.Hunks}
		for _, e := range fp.Errors {
			reason := "cannot be placed"
			if e.Err != nil {
				reason = e.Err.Error()
			}
			f.Failed = append(f.Failed, Failure{Hunk: e.Hunk, Reason: reason, Detail: e.Detail, Nearest: e.Nearest,
				Already: errors.Is(e.Err, edit.ErrAlreadyApplied)})
		}
		// A skipped hunk (it changes nothing, is applied already, or
		// repeats another) leaves the file as it would be: nothing to do.
		for _, e := range fp.Skipped {
			f.Failed = append(f.Failed, Failure{Hunk: e.Hunk, Reason: e.Err.Error(), Detail: e.Detail, Nearest: e.Nearest, Already: true})
		}
		slices.SortStableFunc(f.Failed, func(a, b Failure) int { return a.Hunk - b.Hunk })
		p.Files = append(p.Files, f)
	}
	markTypechanges(p.Files)
	return p
}

// Item is one thing the person decides: a placed hunk, a piece of a split
// hunk, or, for a file whose change has no lines (a pure rename or mode
// change, an empty file created or deleted), the file change itself.
type Item struct {
	// ID is stable for the life of the review: "3" for the third item of
	// the proposal, "3.2" for the second piece of it after a split.
	ID   string `json:"id"`
	File int    `json:"file"` // index in Proposal.Files
	// Hunk is what is written if the item is approved: the placed hunk,
	// a piece of it, or the person's edit of it.
	Hunk edit.Resolved `json:"hunk"`
	// Whole marks an item that stands for the file's change itself.
	Whole    bool           `json:"whole,omitempty"`
	Decision audit.Decision `json:"decision,omitempty"`
	// Note goes with a rejection, for the model.
	Note string `json:"note,omitempty"`
	// Original is the hunk as placed, when the person edited it.
	Original *edit.Resolved `json:"original,omitempty"`
	// Granted marks an approval that came from a session-wide grant
	// rather than from an answer to this hunk.
	Granted bool `json:"granted,omitempty"`
}

// Review is the state of one review: the proposal, an item per decision
// to make, the cursor, and the session-wide grants. Its methods are the
// effects of the review keys; none of them does any input or output, so
// a terminal, a web page or a script drive them alike, and a review saved
// as JSON half-way can be finished later.
type Review struct {
	Proposal Proposal `json:"proposal"`
	Items    []Item   `json:"items"`
	Cursor   int      `json:"cursor"`
	// Grants are the paths whose hunks are approved for the rest of the
	// session (the A key). They are never a blanket grant, and they cover
	// edits of a file's content only (see Covered).
	Grants []string `json:"grants,omitempty"`
	// Quit is set when the person quit: everything undecided was
	// rejected.
	Quit bool `json:"quit,omitempty"`
}

// Errors of the review keys; the review is unchanged when one is returned.
var (
	// ErrNoItem means the review has nothing to decide.
	ErrNoItem = errors.New("nothing to review")
	// ErrCannotSplit means the hunk has a single run of changes.
	ErrCannotSplit = errors.New("this hunk cannot be split: it has one run of changes")
	// ErrCannotEdit means the item has no lines a person can edit.
	ErrCannotEdit = errors.New("this change cannot be edited")
	// ErrNoOther means there is no hunk in the direction asked for.
	ErrNoOther = errors.New("no such hunk")
	// ErrNoMatch means a search found no hunk.
	ErrNoMatch = errors.New("no hunk matches")
	// ErrBadDecision means a decision that does not fit the hunk: an
	// unknown one, or "edited" for a hunk that was not edited.
	ErrBadDecision = errors.New("not a decision for this hunk")
)

// New starts the review of p. Hunks of a file in grants are approved at
// once (and marked Granted) when the grant covers them (see Covered); the
// cursor is on the first undecided item.
func New(p Proposal, grants []string) *Review {
	r := &Review{Proposal: p, Grants: slices.Clone(grants)}
	for fi := range p.Files {
		f := &p.Files[fi]
		if len(f.Failed) == 0 && (len(f.Hunks) == 0 || f.whole()) {
			// A change without lines, or whose lines are no text (a
			// binary file, a link, a submodule): the file change is the
			// item, with the guard of its hunks (a deletion that loses
			// uncommitted content).
			it := Item{File: fi, Whole: true}
			for _, h := range f.Hunks {
				it.Hunk.Guard = cmp.Or(it.Hunk.Guard, h.Guard)
			}
			r.add(it)
			continue
		}
		if f.renamedWithLines() {
			// The rename is decided on its own, before its hunks:
			// rejecting every hunk keeps it or not as the person says,
			// never silently.
			r.add(Item{File: fi, Whole: true})
		}
		for _, h := range f.Hunks {
			r.add(Item{File: fi, Hunk: h})
		}
	}
	for i := range r.Items {
		if r.Covered(&r.Items[i]) {
			r.Items[i].Decision, r.Items[i].Granted = audit.Approved, true
		}
	}
	r.Cursor = 0
	if !r.decidable(0) {
		r.advance()
	}
	return r
}

// Covered reports whether a grant approves the item: its file's path is
// granted, and the change only edits the content of a file that is not
// configuration. A deletion, a rename, a mode change or a symbolic link is
// always asked, as is any edit of a file that pair or git reads as
// configuration (audit.ConfigFile).
func (r *Review) Covered(it *Item) bool {
	f := r.FileOf(it)
	return slices.Contains(r.Grants, f.Path()) && r.grantable(f) && it.Hunk.Guard == ""
}

func (r *Review) grantable(f *File) bool {
	return f.Action() == "modify" && f.modeChange() == "" && !f.whole() && !audit.ConfigFile(f.Path())
}

// NotCovered says, for an item of a granted file that the grant does not
// approve, why it is asked all the same; it returns "" otherwise.
func (r *Review) NotCovered(it *Item) string {
	f := r.FileOf(it)
	switch {
	case !slices.Contains(r.Grants, f.Path()) || r.grantable(f):
		return ""
	case audit.ConfigFile(f.Path()):
		return "asked although the file is always approved: pair or git reads it as configuration"
	}
	return "asked although the file is always approved: that covers edits of its content, not this change (" + strings.Join(f.Changes(), ", ") + ")"
}

func (r *Review) add(it Item) {
	it.ID = fmt.Sprint(len(r.Items) + 1)
	r.Items = append(r.Items, it)
}

func (r *Review) path(i int) string { return r.Proposal.Files[r.Items[i].File].Path() }

func (r *Review) decidable(i int) bool {
	return i >= 0 && i < len(r.Items) && r.Items[i].Decision == audit.Undecided
}

// Current returns the item under the cursor, or nil when there is none.
func (r *Review) Current() *Item {
	if r.Cursor < 0 || r.Cursor >= len(r.Items) {
		return nil
	}
	return &r.Items[r.Cursor]
}

// FileOf returns the file an item belongs to.
func (r *Review) FileOf(it *Item) *File { return &r.Proposal.Files[it.File] }

// Done reports whether every item is decided.
func (r *Review) Done() bool {
	for i := range r.Items {
		if r.Items[i].Decision == audit.Undecided {
			return false
		}
	}
	return true
}

// Undecided returns the number of items still undecided.
func (r *Review) Undecided() int {
	n := 0
	for i := range r.Items {
		if r.Items[i].Decision == audit.Undecided {
			n++
		}
	}
	return n
}

// advance moves the cursor to the next undecided item after it, or else
// the first undecided one; with none left, the cursor stays.
func (r *Review) advance() {
	for i := r.Cursor + 1; i < len(r.Items); i++ {
		if r.decidable(i) {
			r.Cursor = i
			return
		}
	}
	for i := 0; i <= r.Cursor && i < len(r.Items); i++ {
		if r.decidable(i) {
			r.Cursor = i
			return
		}
	}
}

func (r *Review) current() (*Item, error) {
	it := r.Current()
	if it == nil {
		return nil, ErrNoItem
	}
	return it, nil
}

func (r *Review) set(i int, d audit.Decision, note string) {
	it := &r.Items[i]
	if d == audit.Approved && it.Original != nil {
		d = audit.Edited // approving an edited hunk approves the edit
	}
	it.Decision, it.Granted = d, false
	it.Note = ""
	if d == audit.Rejected {
		it.Note = strings.TrimSpace(note)
	}
}

// Approve approves the current item (y) and moves on.
func (r *Review) Approve() error { return r.decide(audit.Approved, "") }

// Reject rejects the current item (n) with an optional note for the model,
// and moves on.
func (r *Review) Reject(note string) error { return r.decide(audit.Rejected, note) }

func (r *Review) decide(d audit.Decision, note string) error {
	if _, err := r.current(); err != nil {
		return err
	}
	r.set(r.Cursor, d, note)
	r.advance()
	return nil
}

// ApproveFile approves the current item and every later undecided item of
// the same file (a), and moves on.
func (r *Review) ApproveFile() error { return r.decideFile(audit.Approved, "") }

// RejectFile rejects the current item and every later undecided item of
// the same file (d), each with the note, and moves on.
func (r *Review) RejectFile(note string) error { return r.decideFile(audit.Rejected, note) }

func (r *Review) decideFile(d audit.Decision, note string) error {
	it, err := r.current()
	if err != nil {
		return err
	}
	file := it.File
	r.set(r.Cursor, d, note)
	for i := r.Cursor + 1; i < len(r.Items) && r.Items[i].File == file; i++ {
		if r.Items[i].Decision == audit.Undecided {
			r.set(i, d, note)
		}
	}
	r.advance()
	return nil
}

// AlwaysApprove approves the current item and the rest of its file, and
// grants the file's path for the rest of the session (A): later proposals
// in the same session that edit its content are approved without asking
// (see Covered).
func (r *Review) AlwaysApprove() error {
	it, err := r.current()
	if err != nil {
		return err
	}
	if p := r.FileOf(it).Path(); !slices.Contains(r.Grants, p) {
		r.Grants = append(r.Grants, p)
	}
	return r.ApproveFile()
}

// ApproveAhead approves every undecided item, as --yes does, but guarded
// ones (edit.Resolved.Guard) and those of a file that pair or git reads
// as configuration (audit.ConfigFile): they stay undecided, for the
// person, and are not written. It returns the paths of the configuration
// files, in the proposal's order.
func (r *Review) ApproveAhead() []string {
	var left []string
	for i := range r.Items {
		// A guarded hunk (edit.Resolved.Guard) is for a person who sees it.
		if r.Items[i].Decision != audit.Undecided || r.Items[i].Hunk.Guard != "" {
			continue
		}
		if p := r.path(i); audit.ConfigFile(p) {
			if !slices.Contains(left, p) {
				left = append(left, p)
			}
			continue
		}
		r.set(i, audit.Approved, "")
	}
	return left
}

// NotAhead tells the person, in one sentence, that the configuration
// files ApproveAhead left undecided were not written under flag.
func NotAhead(paths []string, flag string) string {
	return fmt.Sprintf("pair: not written: %s: %s never approves an edit to a file that pair or git reads as configuration",
		strings.Join(safetext.Names(paths), ", "), flag)
}

// QuitReview rejects every undecided item (q): the review is done.
func (r *Review) QuitReview() {
	for i := range r.Items {
		if r.Items[i].Decision == audit.Undecided {
			r.set(i, audit.Rejected, "")
		}
	}
	r.Quit = true
}

// Split cuts the current hunk at the context lines between its runs of
// changes (s). The pieces replace it, undecided, and the cursor is on the
// first. A decision the hunk had is dropped with it.
func (r *Review) Split() error {
	it, err := r.current()
	if err != nil {
		return err
	}
	if it.Whole || !edit.CanSplit(it.Hunk) {
		return ErrCannotSplit
	}
	if it.Original != nil {
		return fmt.Errorf("%w: it was edited", ErrCannotSplit)
	}
	parts := edit.Split(it.Hunk)
	pieces := make([]Item, len(parts))
	for k, h := range parts {
		pieces[k] = Item{ID: fmt.Sprintf("%s.%d", it.ID, k+1), File: it.File, Hunk: h}
	}
	r.Items = slices.Replace(r.Items, r.Cursor, r.Cursor+1, pieces...)
	return nil
}

// CanSplit reports whether Split would split the current item.
func (r *Review) CanSplit() bool {
	it := r.Current()
	return it != nil && !it.Whole && it.Original == nil && edit.CanSplit(it.Hunk)
}

// NextUndecided moves to the next undecided item after the cursor (j).
func (r *Review) NextUndecided() error {
	for i := r.Cursor + 1; i < len(r.Items); i++ {
		if r.decidable(i) {
			r.Cursor = i
			return nil
		}
	}
	return fmt.Errorf("%w: no undecided hunk after this one", ErrNoOther)
}

// PrevUndecided moves to the previous undecided item (k).
func (r *Review) PrevUndecided() error {
	for i := r.Cursor - 1; i >= 0; i-- {
		if r.decidable(i) {
			r.Cursor = i
			return nil
		}
	}
	return fmt.Errorf("%w: no undecided hunk before this one", ErrNoOther)
}

// Next moves to the next item, decided or not (J).
func (r *Review) Next() error {
	if r.Cursor+1 >= len(r.Items) {
		return fmt.Errorf("%w: this is the last hunk", ErrNoOther)
	}
	r.Cursor++
	return nil
}

// Prev moves to the previous item, decided or not (K).
func (r *Review) Prev() error {
	if r.Cursor <= 0 || len(r.Items) == 0 {
		return fmt.Errorf("%w: this is the first hunk", ErrNoOther)
	}
	r.Cursor--
	return nil
}

// Goto moves to item n, counted from 1 as the progress shows it (g).
func (r *Review) Goto(n int) error {
	if n < 1 || n > len(r.Items) {
		return fmt.Errorf("%w: there are %d hunks; %d is not one of them", ErrNoOther, len(r.Items), n)
	}
	r.Cursor = n - 1
	return nil
}

// Search moves to the next item, after the cursor and wrapping around,
// with a line that matches the regular expression (/). Context, removed
// and added lines are searched, and the file's path.
func (r *Review) Search(pattern string) error {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return fmt.Errorf("bad search pattern: %w", err)
	}
	n := len(r.Items)
	for k := 1; k <= n; k++ {
		i := (r.Cursor + k) % n
		if r.matches(i, re) {
			r.Cursor = i
			return nil
		}
	}
	return fmt.Errorf("%w /%s/", ErrNoMatch, pattern)
}

func (r *Review) matches(i int, re *regexp.Regexp) bool {
	if re.MatchString(r.path(i)) {
		return true
	}
	for _, l := range r.Items[i].Hunk.Lines {
		if re.MatchString(l.Text) {
			return true
		}
	}
	return false
}

// Decide sets the decision of the item with the given id, wherever the
// cursor is (a web page's buttons, a saved answer). Undecided takes a
// decision back.
func (r *Review) Decide(id string, d audit.Decision, note string) error {
	for i := range r.Items {
		if r.Items[i].ID != id {
			continue
		}
		switch d {
		case audit.Approved, audit.Rejected, audit.Undecided:
		case audit.Edited:
			if r.Items[i].Original == nil {
				return badDecision(fmt.Sprintf("hunk %s was not edited; approve it instead", id))
			}
		default:
			return badDecision(fmt.Sprintf("unknown decision %q", d))
		}
		r.set(i, d, note)
		if i == r.Cursor && d != audit.Undecided {
			r.advance()
		}
		return nil
	}
	return fmt.Errorf("%w: no hunk %q", ErrNoOther, id)
}

// badDecision is an ErrBadDecision that says what was wrong in its own
// words.
type badDecision string

func (e badDecision) Error() string        { return string(e) }
func (e badDecision) Is(target error) bool { return target == ErrBadDecision }

// Position returns the cursor as the progress shows it: item n of total,
// counted from 1.
func (r *Review) Position() (n, total int) { return r.Cursor + 1, len(r.Items) }

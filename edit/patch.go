// patch.go: the Patch and FileDiff types: what a patch says about each file.

package edit

import "strings"

// Kind says what a line of a hunk does.
type Kind byte

// The three kinds of hunk line, written as the unified diff prefix.
const (
	Context Kind = ' '
	Delete  Kind = '-'
	Add     Kind = '+'
)

// Line is one line of a hunk. Text never holds the line terminator.
type Line struct {
	Kind Kind
	Text string
	// EOL is the line's terminator as the patch wrote it, "\n" or
	// "\r\n", where the patch's carriage returns are content (some of
	// its lines end with CRLF, others not, as git diff writes a change of
	// a CRLF file); "" otherwise: an added line then takes the ending of
	// the line it replaces, or the file's usual one.
	EOL string `json:",omitempty"`
}

// Hunk is one "@@" section of a file diff, as written by its author.
// Its numbers are hints only: placement is by content.
type Hunk struct {
	// OldStart, OldLines, NewStart and NewLines are the header numbers as
	// written (1-based starts). They are zero when the header had none.
	OldStart, OldLines, NewStart, NewLines int
	// HasNumbers reports whether the header carried line numbers at all
	// ("@@ ... @@" and "@@" do not).
	HasNumbers bool
	// Section is the text after the closing "@@", such as a function name.
	Section string
	// Header is the "@@" line as the patch wrote it, which a .rej file
	// repeats; "" for a hunk made otherwise.
	Header string
	Lines  []Line
	// OldNoNewline and NewNoNewline record a "\ No newline at end of file"
	// marker after the last old-side or new-side line of the hunk.
	OldNoNewline, NewNoNewline bool
	// Numbered reports that the lines carried their line numbers, as
	// read_file shows them, and Unnumber removed them.
	Numbered bool
	// written holds the lines of a Numbered hunk as written, numbers
	// included.
	written []Line
}

// Pre returns the hunk's pre-image: its context and deleted lines in order.
func (h *Hunk) Pre() []string { return h.side(Delete) }

// Post returns the hunk's post-image: its context and added lines in order.
func (h *Hunk) Post() []string { return h.side(Add) }

func (h *Hunk) side(k Kind) []string {
	var out []string
	for _, l := range h.Lines {
		if l.Kind == Context || l.Kind == k {
			out = append(out, l.Text)
		}
	}
	return out
}

// Changes reports whether the hunk adds or deletes anything.
func (h *Hunk) Changes() bool {
	for _, l := range h.Lines {
		if l.Kind != Context {
			return true
		}
	}
	return false
}

// FileDiff is the part of a patch that concerns one file.
type FileDiff struct {
	// OldPath and NewPath are the file's paths before and after, with
	// git's "a/" and "b/" prefixes removed where the patch used them.
	// They are empty for /dev/null (a created or a deleted file).
	OldPath, NewPath string
	// Stripped reports whether "a/" and "b/" prefixes were removed. When
	// false, the caller may try the paths without their first component,
	// as with patch -p1 (see Candidates).
	Stripped bool
	// OldMode and NewMode are git file modes ("100644", "100755") from the
	// extended headers, empty when not given.
	OldMode, NewMode string
	// New, Deleted, Renamed and Copied come from the headers.
	New, Deleted, Renamed, Copied bool
	// Indexed reports a git "index" header line: the diff was made by git,
	// so its hunks have git's shape (the same number of context lines on
	// each side, unless the file ends), and a hunk without it was damaged.
	Indexed bool
	// Score is the percentage of a "similarity index" line (a rename or a
	// copy) or of a "dissimilarity index" line (Rewrite: git diff -B), 0
	// without one.
	Score   int
	Rewrite bool
	// Binary is set for "Binary files ... differ" and "GIT binary patch";
	// BinaryPatch holds the data of the latter (see ApplyBinary); the
	// former has none and cannot be applied.
	Binary      bool
	BinaryPatch *BinaryPatch
	// OldID and NewID are the blob ids of the "index" line, as written
	// (abbreviated unless --full-index), "" without one.
	OldID, NewID string
	// FileBlob, when set, is the id of the blob git reads the file this
	// section applies to as, where its filters or end-of-line conversions
	// make that other than the file's bytes: the index line's old id is
	// compared with it (see staleGit).
	FileBlob string `json:",omitempty"`
	// Names holds the names of a ---/+++ pair that no "diff --git" line
	// opened, as written, for StripNames and Other; nil otherwise.
	Names *Names
	Hunks []*Hunk
	// Placing holds git apply's options of placement for this file's
	// hunks, as the caller asked (see PlaceOptions).
	Placing PlaceOptions
}

// PlaceOptions are git apply's options that change where a hunk may go.
// The zero value is pair's own reading.
type PlaceOptions struct {
	// ContextGiven and Context are git apply -C<n>: a hunk whose lines do
	// not fit as written may fit with its outermost context lines left
	// out, as git leaves them out, down to Context lines on each side.
	ContextGiven bool
	Context      int
	// IgnoreWhitespace is git apply --ignore-whitespace: context and
	// deleted lines match with runs of whitespace collapsed, as strictly
	// as lines that match letter for letter, and added lines are written
	// as the patch has them.
	IgnoreWhitespace bool
	// FixWhitespace, when set, is git apply --whitespace=fix's fix of a
	// line by the file's whitespace rules: the patch's context and
	// deleted lines were fixed so, and git compares the file's lines
	// fixed too (see contextAsGit). It is not saved with a session.
	FixWhitespace func(string) string `json:"-"`
}

// SetPlacing gives every file of the patch the options o.
func (p *Patch) SetPlacing(o PlaceOptions) {
	for _, f := range p.Files {
		f.Placing = o
	}
}

// CreatesOnly reports whether f creates its file by a header that git
// apply holds to, so that the file must not exist, not even empty: git's
// "new file mode" (any section a diff --git line opened), or an old side
// dated the epoch, as diff -N writes a file it adds. A traditional
// creation from /dev/null, as models write one, is not: it may fill an
// empty file.
func (f *FileDiff) CreatesOnly() bool {
	return f.New && (f.Names == nil || f.Names.Old != "")
}

// Path returns the path the diff writes to (or deletes, for a deletion).
func (f *FileDiff) Path() string {
	if f.NewPath != "" {
		return f.NewPath
	}
	return f.OldPath
}

// Source returns the path whose content the hunks apply to, or "" for a
// created file.
func (f *FileDiff) Source() string {
	if f.New {
		return ""
	}
	if f.OldPath != "" {
		return f.OldPath
	}
	return f.NewPath
}

// Candidates returns the paths p may name, most likely first: p itself
// and, when the patch did not use git's prefixes, p without its first
// directory (as patch -p1 would read "--- x/file"). For the file of a
// traditional diff, the name of its other side follows (see Other), as
// patch takes the name that exists. The caller picks the first that
// exists.
func (f *FileDiff) Candidates(p string) []string {
	out := []string{p}
	other := ""
	if p != "" && p == f.Source() {
		other = f.Other()
	}
	for i, c := range []string{p, other} {
		if c == "" {
			continue
		}
		if i > 0 {
			out = append(out, c)
		}
		if !f.Stripped {
			if _, rest, ok := strings.Cut(c, "/"); ok && rest != "" {
				out = append(out, rest)
			}
		}
	}
	return out
}

// ModeChange reports whether the diff changes the file mode.
func (f *FileDiff) ModeChange() bool {
	return f.OldMode != "" && f.NewMode != "" && f.OldMode != f.NewMode
}

// Patch is a parsed unified diff: one FileDiff per file, in order.
type Patch struct {
	Files []*FileDiff
}

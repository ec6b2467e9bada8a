// format.go: the edit forms a reply may hold, told apart and turned into one Patch.

package edit

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// Form is one of the edit formats that patches and models' replies are
// written in. Every form becomes the same FileDiff and Hunk model, placed
// by the same engine.
type Form string

// The edit forms ParseEdits recognises, in the order it looks for them.
const (
	// FormV4A is the apply_patch form: "*** Begin Patch", "*** Update
	// File: p", "*** Add File: p", "*** Delete File: p", "*** Move to: q",
	// "@@ anchor" lines, "*** End of File", "*** End Patch".
	FormV4A Form = "v4a"
	// FormSearchReplace is Aider's blocks: a path line, then
	// "<<<<<<< SEARCH", the lines to find, "=======", the lines that
	// replace them, ">>>>>>> REPLACE".
	FormSearchReplace Form = "search-replace"
	// FormUnified is a unified diff, bare or in fenced blocks (see Parse).
	FormUnified Form = "unified"
	// FormWholeFile is a file's complete new content in a fenced block,
	// under its path (a path line before the fence, or "```lang path").
	FormWholeFile Form = "whole-file"
)

// ErrNoEdits is returned by ParseEdits when the text holds no edit in any
// form it knows.
var ErrNoEdits = errors.New("no edit found: no unified diff, SEARCH/REPLACE block, *** Begin Patch or whole file in a fence under its path")

// FormatError is an edit that is malformed: a marker missing or out of
// place. Line is 1-based in the text given to ParseEdits.
type FormatError struct {
	Form Form
	Line int
	Msg  string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("%s: line %d: %s", e.Form, e.Line, e.Msg)
}

// Ignored is a fenced block of the text that was not taken as an edit,
// with why: example code without a path, a block of another form, an
// excerpt rather than a whole file.
type Ignored struct {
	Line   int    `json:"line"` // 1-based line of the opening fence
	Reason string `json:"reason"`
}

// Edits is what ParseEdits found in a text: edits in one form, and the
// fenced blocks it did not take.
type Edits struct {
	Form Form
	// Files holds the file diffs of the unified, SEARCH/REPLACE and V4A
	// forms, with their hunks as written. A V4A deletion and V4A anchors
	// need the file's content: Patch completes them.
	Files []*FileDiff
	// Whole holds the files of the whole-file form; Patch diffs them
	// against the current content.
	Whole   []WholeFile
	Ignored []Ignored

	// Base, when set, returns what a whole file was written against: the
	// content the model last saw of it (its error wraps fs.ErrNotExist for
	// a file it knew as missing). A whole file is then the change from its
	// base, to be placed on the file as it is now like any diff, its hunks
	// read three-way against the base (FilePlan.ThreeWay), so that lines
	// changed since are kept. Without Base it is diffed against the file
	// as it is now.
	Base ReadFunc

	hints     map[*Hunk]v4aHint
	deleteAll map[*FileDiff]bool
}

// ErrDeletedSince means a whole file was written against content that the
// file no longer has: it was deleted since.
var ErrDeletedSince = errors.New("the file was deleted since the model read it")

// WholeError is a whole file that cannot be read as a change from its
// base (Edits.Base): the base could not be had, or the file was deleted
// since (ErrDeletedSince).
type WholeError struct {
	Path string
	Err  error
}

func (e *WholeError) Error() string { return e.Path + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *WholeError) Unwrap() error { return e.Err }

// ParseEdits finds the edits in a patch or a model's reply and says which
// form they are written in. It looks for V4A first, then SEARCH/REPLACE
// blocks, then a unified diff, then whole files in fences under their
// paths; the first form found is the text's form, and fenced blocks that
// are not part of it are listed in Ignored. A fenced block with no path
// naming it is example code, never a whole-file edit. The line numbers a
// model copied from read_file into a unified diff are removed (see
// Unnumber).
func ParseEdits(text string) (*Edits, error) {
	lines := splitPatchLines(text)
	switch {
	case hasV4A(lines):
		return parseV4A(lines)
	case hasSearchReplace(lines):
		return parseSearchReplace(lines)
	}
	if p, err := parseLines(lines, lineEnds(text)); err == nil {
		Unnumber(p)
		e := &Edits{Form: FormUnified, Files: p.Files}
		for _, b := range diffFences(lines) {
			if !looksLikeDiff(b.body) {
				e.Ignored = append(e.Ignored, Ignored{Line: b.open + 1, Reason: "not a diff: taken as example code"})
			}
		}
		return e, nil
	} else if !errors.Is(err, ErrNoDiff) {
		return nil, err
	}
	e := parseWholeFiles(lines)
	if len(e.Whole) == 0 {
		return nil, ErrNoEdits
	}
	return e, nil
}

// ReadFunc returns the current content of a file named by a patch. For a
// file that does not exist, the error wraps fs.ErrNotExist.
type ReadFunc func(path string) (string, error)

// Patch returns the edits as one patch for the placement engine. Forms
// that need a file's current content read it with read: whole files are
// diffed against it (a file that does not exist is created), V4A
// deletions delete every line of it, and V4A "@@" anchors and "*** End of
// File" become line hints. Anchors are hints only: hunks are still placed
// by their content, with the same rules as any hunk. A whole file that
// keeps less than half of a file's lines is taken as an excerpt: it is
// added to Ignored, not to the patch. A hunk whose line numbers were
// removed gets them back when the file holds its lines with them (see
// KeepOwnNumbers).
func (e *Edits) Patch(read ReadFunc) (*Patch, error) {
	p := &Patch{}
	for _, fd := range e.Files {
		switch {
		case e.deleteAll[fd]:
			old, err := read(fd.OldPath)
			if err != nil {
				return nil, fmt.Errorf("delete %s: %w", fd.OldPath, err)
			}
			d, err := fileDiffOf(fd.OldPath, "", old, "")
			if err != nil {
				return nil, err
			}
			fd.Hunks = d.Hunks
		case len(e.hints) > 0 && fd.Source() != "":
			old, err := read(fd.Source())
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
			if err == nil {
				e.applyHints(fd, old)
			}
		}
		if fd.numbered() && fd.Source() != "" {
			if old, err := read(fd.Source()); err == nil {
				KeepOwnNumbers(fd, old)
			}
		}
		p.Files = append(p.Files, fd)
	}
	for _, w := range e.Whole {
		fd, why, err := e.wholeDiff(w, read)
		if err != nil {
			return nil, err
		}
		if why != "" {
			e.Ignored = append(e.Ignored, Ignored{Line: w.Line, Reason: why})
			continue
		}
		p.Files = append(p.Files, fd)
	}
	if len(p.Files) == 0 {
		var why []string
		for _, ig := range e.Ignored {
			why = append(why, fmt.Sprintf("line %d: %s", ig.Line, ig.Reason))
		}
		return nil, fmt.Errorf("%w (%s)", ErrNoEdits, strings.Join(why, "; "))
	}
	return p, nil
}

// wholeDiff is the file diff of the whole file w: from its base (Base),
// or else from the file as it is now. why says why w is not an edit: an
// excerpt, or a file that already has its content.
func (e *Edits) wholeDiff(w WholeFile, read ReadFunc) (fd *FileDiff, why string, err error) {
	cur, err := read(w.Path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, "", err
	}
	if exists {
		if fd, err := w.Diff(cur, true); err != nil || len(fd.Hunks) == 0 {
			return nil, w.Path + " is unchanged", err
		}
	}
	old, oldExists := cur, exists
	if e.Base != nil {
		old, err = e.Base(w.Path)
		oldExists = err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, "", &WholeError{w.Path, err}
		}
		if oldExists && !exists {
			return nil, "", &WholeError{w.Path, ErrDeletedSince}
		}
	}
	if oldExists {
		if why := w.excerpt(old); why != "" {
			return nil, why, nil
		}
	}
	fd, err = w.Diff(old, oldExists)
	if err != nil {
		return nil, "", err
	}
	if len(fd.Hunks) == 0 && oldExists {
		return nil, w.Path + " is unchanged from what the model read; it was changed since", nil
	}
	return fd, "", nil
}

// fileDiffOf is the file diff that turns old into nw, as git would write
// it: an empty oldPath creates the file, an empty newPath deletes it.
func fileDiffOf(oldPath, newPath, old, nw string) (*FileDiff, error) {
	text, err := Render(oldPath, newPath, "", old, Diff(old, nw))
	if err != nil {
		return nil, err
	}
	p, err := Parse(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", newPath+oldPath, err)
	}
	if len(p.Files) != 1 {
		return nil, fmt.Errorf("%s: the diff names %d files", newPath+oldPath, len(p.Files))
	}
	return p.Files[0], nil
}

// fencedBlock is a fenced code block: open and end are the indexes of its
// fence lines (end is len(lines) for a block never closed).
type fencedBlock struct {
	open, end int
	info      string
	body      []string
}

// fenceOpen reports whether l opens a fenced block, with the length of its
// backtick run and its info string.
func fenceOpen(l string) (n int, info string, ok bool) {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 {
		return 0, "", false
	}
	n = len(t) - len(strings.TrimLeft(t, "`"))
	if n < 3 {
		return 0, "", false
	}
	info = strings.TrimSpace(t[n:])
	if strings.Contains(info, "`") {
		return 0, "", false
	}
	return n, info, true
}

func fenceCloses(l string, n int) bool {
	t := strings.TrimSpace(l)
	return len(t) >= n && strings.Trim(t, "`") == ""
}

func fencedBlocks(lines []string) []fencedBlock {
	var out []fencedBlock
	for i := 0; i < len(lines); i++ {
		n, info, ok := fenceOpen(lines[i])
		if !ok {
			continue
		}
		end := i + 1
		for end < len(lines) && !fenceCloses(lines[end], n) {
			end++
		}
		out = append(out, fencedBlock{open: i, end: end, info: info, body: lines[i+1 : min(end, len(lines))]})
		i = end
	}
	return out
}

// pathLine reads a line that names a file on its own, as models write it
// before a fence: "path/to/file.go", "`path`", "**path**", "# path",
// "path:". strict asks for more evidence (used for whole files, where a
// prose line taken as a path would create a file): a name with spaces must
// then be quoted in backticks.
func pathLine(l string, strict bool) (string, bool) {
	s := strings.TrimSpace(l)
	if strings.HasPrefix(s, "#") {
		s = strings.TrimSpace(strings.TrimLeft(s, "#"))
	}
	s = strings.TrimSuffix(s, ":")
	quoted := false
	for _, q := range []string{"**", "`", "*", "'", `"`} {
		if len(s) > 2*len(q) && strings.HasPrefix(s, q) && strings.HasSuffix(s, q) {
			s, quoted = s[len(q):len(s)-len(q)], true
		}
	}
	s = strings.TrimSpace(strings.TrimSuffix(s, ":"))
	if !plausiblePath(s) {
		return "", false
	}
	if strings.Contains(s, " ") && !quoted {
		// Prose has more words, and rarely ends in an extension.
		if strict || strings.Count(s, " ") > 2 || path.Ext(s) == "" {
			return "", false
		}
	}
	return s, true
}

// plausiblePath reports whether s could be a file's path: no characters
// that prose, markup or shells use, and an extension, a directory, or a
// well-known extensionless name.
func plausiblePath(s string) bool {
	if s == "" || len(s) > 255 || strings.ContainsAny(s, "`<>|*?\"\t") || strings.HasPrefix(s, "-") ||
		strings.HasSuffix(s, ".") || strings.HasSuffix(s, "/") || strings.Contains(s, "://") {
		return false
	}
	base := path.Base(s)
	if path.Ext(base) != "" && path.Ext(base) != base || strings.Contains(s, "/") {
		return true
	}
	switch base {
	case "Makefile", "makefile", "GNUmakefile", "Dockerfile", "Containerfile", "Rakefile", "Gemfile",
		"Procfile", "Justfile", "justfile", "Jenkinsfile", "Vagrantfile", "LICENSE", "README", "CMakeLists.txt":
		return true
	}
	return false
}

// infoPath returns the path in a fence's info string: "go path/x.go",
// "path/x.go" or "go title=path/x.go".
func infoPath(info string) (string, bool) {
	fields := strings.Fields(info)
	for i, f := range fields {
		if _, v, ok := strings.Cut(f, "="); ok && i > 0 {
			f = strings.Trim(v, `"'`)
		}
		if i == 0 && !strings.ContainsAny(f, "./") {
			continue // a language name
		}
		if plausiblePath(f) {
			return f, true
		}
	}
	return "", false
}

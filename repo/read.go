// read.go: the model's reads: SearchFiles, ReadText and ReadEditTarget, kept to text and to the guard.

package repo

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/pair-cli/pair/internal/output"
)

// The model's tools see the tree through read-only views: search and read
// files (this file), list them (list.go), git status (status.go), the diff
// against HEAD (workdiff.go) and the history (history.go). All of them
// stay inside the sandbox: paths go through Clean and Guard, links are not
// followed out of the tree (nor into .git), and nothing under .git is
// listed or read as a file.

// ErrBinary is returned by ReadText for a file that is not text.
var ErrBinary = errors.New("binary file")

// binarySniff is how much of a file is looked at for a NUL byte, the sign
// of a binary file (as git does).
const binarySniff = 8000

// isBinary reports whether b looks like the content of a binary file.
func isBinary(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), binarySniff)], 0) >= 0
}

// Match is a line that SearchFiles found.
type Match struct {
	Path string // slash path relative to the root
	Line int    // 1-based line number
	Text string // the line without its terminator, clipped to maxMatchText bytes
}

// maxMatchText is the longest line text a Match holds; longer lines are
// clipped (on a character boundary) and end with "…".
const maxMatchText = 300

// maxSearchSize is the size of the largest file SearchFiles reads; larger
// files (data, generated code, logs) are skipped.
const maxSearchSize = 4 << 20

// SearchFiles finds the lines that match a regular expression (Go syntax,
// matched line by line) in the files that ListFiles lists for glob, in
// path then line order: at most limit matches (all when limit <= 0), and
// truncated says that there were more. Binary files (a NUL byte in their
// first 8000 bytes), symbolic links, files over 4 MiB and, unless access
// allows them, files that look like secrets and ignored files are not
// searched. A pattern that does not compile is an error that says why.
func (t *Tree) SearchFiles(pattern, glob string, access Access, limit int) (matches []Match, truncated bool, err error) {
	if pattern == "" {
		return nil, false, errors.New("empty search pattern")
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, false, fmt.Errorf("search pattern %q: %w", pattern, err)
	}
	files, _, err := t.ListFiles(glob, access, 0)
	if err != nil {
		return nil, false, err
	}
	for _, p := range files {
		if !access.Secrets && IsSecret(p) {
			continue
		}
		b, ok := t.readRegular(p, maxSearchSize)
		if !ok || isBinary(b) {
			continue
		}
		for n := 1; len(b) > 0; n++ {
			line := b
			if i := bytes.IndexByte(b, '\n'); i >= 0 {
				line, b = b[:i], b[i+1:]
			} else {
				b = nil
			}
			line = bytes.TrimSuffix(line, []byte("\r"))
			if !re.Match(line) {
				continue
			}
			if limit > 0 && len(matches) == limit {
				return matches, true, nil
			}
			matches = append(matches, Match{Path: p, Line: n, Text: output.Clip(string(line), maxMatchText)})
		}
	}
	return matches, false, nil
}

// readRegular reads a regular file of the walk (not a link) of at most
// max bytes; ok is false for anything else, or a file that is gone.
func (t *Tree) readRegular(p string, max int64) (b []byte, ok bool) {
	fi, err := t.root.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > max {
		return nil, false
	}
	f, err := t.root.Open(p)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	b, err = io.ReadAll(io.LimitReader(f, max+1))
	if err != nil || int64(len(b)) > max {
		return nil, false
	}
	return b, true
}

// ReadText reads a text file of the tree: at most maxChars characters
// (runes; all of it when maxChars <= 0), cut on a character boundary, and
// truncated says the file holds more. The path goes through Clean and
// Guard: escapes, .git, secrets and ignored files are refused with their
// errors unless access allows them; a file beyond a symbolic link (a
// linked folder) is refused with a *LinkError that says where the link
// leads, and a link to a file inside the tree is followed only to a file
// that the same rules allow. A directory is an error, and so is a binary
// file (ErrBinary).
func (t *Tree) ReadText(p string, access Access, maxChars int) (text string, truncated bool, err error) {
	cp, err := t.Clean(p)
	if err != nil {
		return "", false, err
	}
	if err := t.links.checkLinks(cp, LinkRead); err != nil {
		return "", false, err
	}
	if err := t.Guard(cp, access); err != nil {
		return "", false, err
	}
	if err := t.guardLinks(cp, access); err != nil {
		return "", false, err
	}
	f, err := t.root.Open(cp)
	if err != nil {
		return "", false, wrapEscape(cp, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", false, err
	}
	if fi.IsDir() {
		return "", false, fmt.Errorf("%s: is a directory", cp)
	}
	if !fi.Mode().IsRegular() {
		return "", false, fmt.Errorf("%s: not a regular file", cp)
	}
	var r io.Reader = f
	if maxChars > 0 && int64(maxChars) < fi.Size() {
		// Enough bytes for maxChars characters and one more.
		r = io.LimitReader(f, int64(maxChars)*utf8.UTFMax+1)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return "", false, fmt.Errorf("%s: %w", cp, err)
	}
	if isBinary(b) {
		return "", false, fmt.Errorf("%s: %w", cp, ErrBinary)
	}
	if maxChars <= 0 {
		return string(b), false, nil
	}
	i, n := 0, 0
	for i < len(b) && n < maxChars {
		_, size := utf8.DecodeRune(b[i:])
		i += size
		n++
	}
	return string(b[:i]), i < len(b), nil
}

// guardLinks checks where a clean path leads when it goes through
// symbolic links: the file it reaches must be inside the tree, outside
// .git, and allowed by Guard, so that a link cannot give what its target's
// name would not.
func (t *Tree) guardLinks(p string, access Access) error {
	link := false
	for d := p; d != "." && d != "/"; d = path.Dir(d) {
		fi, err := t.root.Lstat(d)
		if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			link = true
			break
		}
	}
	if !link {
		return nil
	}
	top, err := filepath.EvalSymlinks(t.Dir)
	if err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(filepath.Join(t.Dir, filepath.FromSlash(p)))
	if err != nil {
		return nil // a broken link: opening it says so
	}
	rel, err := filepath.Rel(top, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s: %w", p, ErrOutsideRepo)
	}
	target, err := t.Clean(filepath.ToSlash(rel))
	if err != nil {
		return fmt.Errorf("%s: link to %w", p, err)
	}
	if err := t.Guard(target, access); err != nil {
		return fmt.Errorf("%s: link to %w", p, err)
	}
	return nil
}

// ReadEditTarget reads the file an edit names, to turn the edit into a
// diff (a whole file, SEARCH/REPLACE, V4A): ReadText of the whole file,
// except that a path beyond a symbolic link reads as an empty file. The
// placement of that diff refuses such a path with git's wording ("affected
// file ... is beyond a symbolic link"), as for any other edit form, and
// nothing is read through the link.
func (t *Tree) ReadEditTarget(p string, access Access) (string, error) {
	s, _, err := t.ReadText(p, access, 0)
	if errors.Is(err, ErrBeyondLink) {
		return "", nil
	}
	return s, err
}

package chat

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The chat's line history is kept per repository, in its git common
// directory (pair/history), so that the up arrow brings back the lines of
// earlier runs, as a shell's history does. It holds what the person typed
// (requests and slash commands), one a line, the newest last.
const (
	// historyKeep is how many lines are loaded at the start, and kept
	// when the file is rewritten.
	historyKeep = 500
	// historyMaxBytes bounds the file: past it, the file is rewritten
	// with its last historyKeep lines; a longer file is read from its
	// last historyMaxBytes only.
	historyMaxBytes = 256 << 10
)

// lineHistory is the history file of one repository; the zero value (no
// path) keeps nothing.
type lineHistory struct {
	path string
}

// newLineHistory returns the history of the repository whose git common
// directory is commonDir; "" (no repository) keeps none.
func newLineHistory(commonDir string) lineHistory {
	if commonDir == "" {
		return lineHistory{}
	}
	return lineHistory{path: filepath.Join(commonDir, "pair", "history")}
}

// load returns the last historyKeep lines, oldest first. A missing file,
// or one that is a link or not a regular file, has none.
func (h lineHistory) load() []string {
	b, err := h.read()
	if err != nil {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(b) >= historyMaxBytes && len(lines) > 0 {
		lines = lines[1:] // the first may be cut
	}
	lines = slicesTail(lines, historyKeep)
	out := lines[:0]
	for _, l := range lines {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// read reads the file's last historyMaxBytes, never through a link.
func (h lineHistory) read() ([]byte, error) {
	if h.path == "" {
		return nil, fs.ErrNotExist
	}
	f, err := h.open(os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if off := fi.Size() - historyMaxBytes; off > 0 {
		if _, err := f.Seek(off, io.SeekStart); err != nil {
			return nil, err
		}
	}
	return io.ReadAll(io.LimitReader(f, historyMaxBytes))
}

// open opens the history file with flag, refusing a link as the file or
// as its directory.
func (h lineHistory) open(flag int) (*os.File, error) {
	dir := filepath.Dir(h.path)
	if fi, err := os.Lstat(dir); err != nil {
		return nil, err
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory; pair does not follow links", dir)
	}
	if fi, err := os.Lstat(h.path); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", h.path)
	}
	return os.OpenFile(h.path, flag|historyNoFollow, 0o600)
}

// add appends a line typed at the prompt; a line with a line end or a
// control character other than a tab is not kept. Errors are ignored: the
// history is a convenience, never a reason to stop the chat.
func (h lineHistory) add(line string) {
	if h.path == "" || strings.TrimSpace(line) == "" || strings.ContainsFunc(line, func(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f }) {
		return
	}
	if err := os.Mkdir(filepath.Dir(h.path), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return
	}
	f, err := h.open(os.O_WRONLY | os.O_APPEND | os.O_CREATE)
	if err != nil {
		return
	}
	_, err = f.WriteString(line + "\n")
	fi, serr := f.Stat()
	f.Close()
	if err == nil && serr == nil && fi.Size() > historyMaxBytes {
		h.trim()
	}
}

// trim rewrites the file with its last historyKeep lines, and at most
// half of historyMaxBytes (so that the next lines do not trim it again),
// through a temporary file renamed over it.
func (h lineHistory) trim() {
	lines := h.load()
	size := 0
	for i := len(lines) - 1; i >= 0; i-- {
		if size += len(lines[i]) + 1; size > historyMaxBytes/2 {
			lines = lines[i+1:]
			break
		}
	}
	var b bytes.Buffer
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	tmp, err := os.CreateTemp(filepath.Dir(h.path), "history-*")
	if err != nil {
		return
	}
	_, err = tmp.Write(b.Bytes())
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), h.path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}

// slicesTail returns the last n elements of s.
func slicesTail(s []string, n int) []string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

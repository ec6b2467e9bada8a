// text.go: lines and texts: splitting, joining and the final newline.

package edit

import "strings"

// fileText is a file split into lines, keeping each line's terminator so
// that everything outside the changed lines is written back byte for byte.
type fileText struct {
	lines []string // content without terminator
	eols  []string // "\n", "\r\n", or "" for a last line without newline
}

func splitFile(s string) fileText {
	n := strings.Count(s, "\n") + 1
	t := fileText{lines: make([]string, 0, n), eols: make([]string, 0, n)}
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			t.lines = append(t.lines, s)
			t.eols = append(t.eols, "")
			break
		}
		line, eol := s[:i], "\n"
		if strings.HasSuffix(line, "\r") {
			line, eol = line[:len(line)-1], "\r\n"
		}
		t.lines = append(t.lines, line)
		t.eols = append(t.eols, eol)
		s = s[i+1:]
	}
	return t
}

// splitLines returns the lines of s as splitFile does, without their
// terminators, and whether s ends with one.
func splitLines(s string) (lines []string, finalNewline bool) {
	if s == "" {
		return nil, true
	}
	lines = make([]string, 0, strings.Count(s, "\n")+1)
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return append(lines, s), false
		}
		lines = append(lines, strings.TrimSuffix(s[:i], "\r"))
		s = s[i+1:]
	}
	return lines, true
}

// finalNewline reports whether the file ends with a line terminator (an
// empty file counts as ending with one).
func (t fileText) finalNewline() bool {
	return len(t.eols) == 0 || t.eols[len(t.eols)-1] != ""
}

// eol returns the file's dominant line terminator, "\n" when it has none.
func (t fileText) eol() string {
	crlf, lf := 0, 0
	for _, e := range t.eols {
		switch e {
		case "\r\n":
			crlf++
		case "\n":
			lf++
		}
	}
	if crlf > lf {
		return "\r\n"
	}
	return "\n"
}

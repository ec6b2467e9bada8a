package display

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Marker follows a line that held characters shown escaped.
const Marker = " ⚠ control characters"

// NameMarker follows a name, inside a sentence, that held characters shown
// escaped.
const NameMarker = " (⚠ control characters)"

// keep says which controls pass through as they are.
type keep uint8

const (
	keepTab keep = 1 << iota
	keepNewline
)

// Escape returns s with every control character but tab, every format
// character and every invalid byte in its visible form, and whether
// anything was escaped. It adds no marker.
func Escape(s string) (string, bool) { return escape(s, keepTab) }

// Line returns one line of untrusted text fit to print: as Escape, with
// Marker at the end when anything was escaped.
func Line(s string) string {
	e, marked := escape(s, keepTab)
	if marked {
		return e + Marker
	}
	return e
}

// Name returns a file name (or another untrusted word printed inside a
// sentence) fit to print: tab and newline are escaped too, and NameMarker
// follows when anything was escaped.
func Name(s string) string {
	e, marked := escape(s, 0)
	if marked {
		return e + NameMarker
	}
	return e
}

// Names applies Name to each of names.
func Names(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = Name(n)
	}
	return out
}

// Text returns untrusted text of any number of lines fit to print:
// newlines and tabs stay, everything else is escaped as by Escape, and each
// line that held an escaped character ends with Marker.
func Text(s string) string {
	if safe(s, keepTab|keepNewline) {
		return s
	}
	var b strings.Builder
	for line := range strings.SplitAfterSeq(s, "\n") {
		body, nl := strings.CutSuffix(line, "\n")
		b.WriteString(Line(body))
		if nl {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// safe reports whether s prints as it is.
func safe(s string, k keep) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return safeRunes(s[i:], k)
		}
		if c < 0x20 || c == 0x7f {
			if !(c == '\t' && k&keepTab != 0 || c == '\n' && k&keepNewline != 0) {
				return false
			}
		}
	}
	return true
}

func safeRunes(s string, k keep) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || hidden(r, k) {
			return false
		}
		i += size
	}
	return true
}

// hidden reports whether r must be shown escaped.
func hidden(r rune, k keep) bool {
	switch {
	case r == '\t':
		return k&keepTab == 0
	case r == '\n':
		return k&keepNewline == 0
	case r < 0x20 || r == 0x7f:
		return true
	case r < 0x80:
		return false
	case r <= 0x9f, r == '\u2028', r == '\u2029':
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

func escape(s string, k keep) (string, bool) {
	if safe(s, k) {
		return s, false
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case !hidden(r, k):
			b.WriteString(s[i : i+size])
		case r < 0x20:
			b.WriteByte('^')
			b.WriteByte(byte(r) + 0x40)
		case r == 0x7f:
			b.WriteString("^?")
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
		i += size
	}
	return b.String(), true
}

// Writer prints streamed untrusted text as Text does, however it is cut
// into writes: a character split between two writes is kept until it is
// whole, and a line's marker comes before its newline. Call Flush at the
// end of the stream, or before printing anything else on its line.
type Writer struct {
	W       io.Writer
	partial []byte // the start of a character cut by the end of a write
	marked  bool   // the open line held an escaped character
}

// Write escapes p and writes it to w.W. It reports len(p) when all went
// out.
func (w *Writer) Write(p []byte) (int, error) {
	buf := append(w.partial, p...)
	w.partial = nil
	// Keep back an incomplete character at the end.
	cut := len(buf)
	for i := len(buf) - 1; i >= 0 && i >= len(buf)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(buf[i]) {
			if buf[i] >= utf8.RuneSelf && !utf8.FullRune(buf[i:]) {
				cut = i
			}
			break
		}
	}
	w.partial = append([]byte(nil), buf[cut:]...)
	if err := w.emit(string(buf[:cut])); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what is held back of a cut character (escaped, as it can
// no longer be completed), and the open line's marker.
func (w *Writer) Flush() error {
	rest := string(w.partial)
	w.partial = nil
	if err := w.emit(rest); err != nil {
		return err
	}
	if w.marked {
		w.marked = false
		_, err := io.WriteString(w.W, Marker)
		return err
	}
	return nil
}

func (w *Writer) emit(s string) error {
	if s == "" {
		return nil
	}
	var b strings.Builder
	for line := range strings.SplitAfterSeq(s, "\n") {
		body, nl := strings.CutSuffix(line, "\n")
		e, marked := escape(body, keepTab)
		b.WriteString(e)
		w.marked = w.marked || marked
		if nl {
			if w.marked {
				b.WriteString(Marker)
			}
			w.marked = false
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w.W, b.String())
	return err
}

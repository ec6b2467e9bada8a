package safetext

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Marker follows a line that held control or format characters, shown
// escaped.
const Marker = " ⚠ control characters"

// InvisibleMarker follows a line that held, and no control character,
// characters that print as nothing or as a blank: invisible letters such as
// the Hangul fillers, variation selectors, spaces other than the plain
// space.
const InvisibleMarker = " ⚠ invisible characters"

// LookalikeMarker follows a line that held, and nothing else escaped,
// letters of another script that look like Latin ones inside a Latin word
// (or Latin letters inside a word of that script).
const LookalikeMarker = " ⚠ lookalike letters"

// NameMarker follows a name, inside a sentence, that held characters shown
// escaped. NameMarkerFor gives the one for what was escaped.
const NameMarker = " (⚠ control characters)"

// kind says what a text held that is shown escaped; the highest one names
// the marker.
type kind uint8

const (
	kindLookalike kind = 1 << iota
	kindInvisible
	kindControl
)

// marker returns the line marker for k, or "" when nothing was escaped.
func (k kind) marker() string {
	switch {
	case k&kindControl != 0:
		return Marker
	case k&kindInvisible != 0:
		return InvisibleMarker
	case k != 0:
		return LookalikeMarker
	}
	return ""
}

// nameMarker returns the marker for a name, or "".
func (k kind) nameMarker() string {
	if m := k.marker(); m != "" {
		return " (" + strings.TrimPrefix(m, " ") + ")"
	}
	return ""
}

// keep says which controls pass through as they are.
type keep uint8

const (
	keepTab keep = 1 << iota
	keepNewline
)

// Escape returns s with every control character but tab, every format
// character, every invisible character, every lookalike letter in a word
// of another script and every invalid byte in its visible form, and
// whether anything was escaped. It adds no marker.
func Escape(s string) (string, bool) {
	e, k := escape(s, keepTab)
	return e, k != 0
}

// EscapeMarked returns s escaped as by Escape, and the marker that names
// what was escaped (Marker, InvisibleMarker or LookalikeMarker), or ""
// when nothing was.
func EscapeMarked(s string) (shown, marker string) {
	e, k := escape(s, keepTab)
	return e, k.marker()
}

// Line returns one line of untrusted text fit to print: as Escape, with
// the marker of what was escaped at the end.
func Line(s string) string {
	e, k := escape(s, keepTab)
	return e + k.marker()
}

// Name returns a file name (or another untrusted word printed inside a
// sentence) fit to print: tab and newline are escaped too, and NameMarker
// (or its kin for invisible or lookalike characters) follows when anything
// was escaped.
func Name(s string) string {
	e, k := escape(s, 0)
	return e + k.nameMarker()
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
// line that held an escaped character ends with its marker.
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
			return safeRunes(s[i:], k) && lookalikes(s) == nil
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
		if r == utf8.RuneError && size == 1 || hidden(r, k) != 0 {
			return false
		}
		i += size
	}
	return true
}

// hidden reports whether r must be shown escaped, and why: a control or
// format character, or an invisible one.
func hidden(r rune, k keep) kind {
	switch {
	case r == '\t':
		if k&keepTab == 0 {
			return kindControl
		}
		return 0
	case r == '\n':
		if k&keepNewline == 0 {
			return kindControl
		}
		return 0
	case r < 0x20 || r == 0x7f:
		return kindControl
	case r < 0x80:
		return 0
	case r <= 0x9f, r == '\u2028', r == '\u2029', unicode.Is(unicode.Cf, r):
		return kindControl
	case invisible(r):
		return kindInvisible
	}
	return 0
}

// invisible reports whether r prints as nothing, or as a blank other than
// the plain space: Unicode's default-ignorable code points (the Hangul
// fillers U+115F, U+1160, U+3164 and U+FFA0, the combining grapheme
// joiner, the variation selectors U+FE00–FE0F and U+E0100–E01EF…), every
// white space but space, tab and newline (no-break and typographic spaces,
// U+3000), the Braille blank U+2800, and code points not yet assigned,
// which most fonts show as nothing or as the same box.
func invisible(r rune) bool {
	return unicode.In(r, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector, unicode.White_Space) ||
		r == '\u2800' || !assigned(r)
}

// assigned reports whether r is an assigned code point of the Unicode
// version Go knows (private use counts as assigned).
func assigned(r rune) bool {
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs) &&
		!unicode.Is(unicode.Noncharacter_Code_Point, r)
}

func escape(s string, k keep) (string, kind) {
	if safe(s, k) {
		return s, 0
	}
	look := lookalikes(s)
	var b strings.Builder
	b.Grow(len(s) + 8)
	var why kind
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		h := hidden(r, k)
		if len(look) > 0 && look[0] == i {
			look = look[1:]
			h |= kindLookalike
		}
		why |= h
		switch {
		case r == utf8.RuneError && size == 1:
			why |= kindControl
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case h == 0:
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
	return b.String(), why
}

// Writer prints streamed untrusted text as Text does, however it is cut
// into writes: a character split between two writes is kept until it is
// whole, so is a word (of up to maxHeldWord bytes), and a line's marker
// comes before its newline. Call Flush at the end of the stream, or
// before printing anything else on its line.
type Writer struct {
	W       io.Writer
	partial []byte // the start of a character cut by the end of a write
	marked  kind   // what the open line held that was escaped
}

// maxHeldWord bounds the word a Writer keeps back at the end of a write.
const maxHeldWord = 64

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
	// Keep back the word at the end too (up to a bound): a letter of
	// another script is marked by the word around it.
	for cut > 0 && len(buf)-cut < maxHeldWord {
		r, size := utf8.DecodeLastRune(buf[:cut])
		if !word(r) {
			break
		}
		cut -= size
	}
	w.partial = append([]byte(nil), buf[cut:]...)
	if err := w.emit(string(buf[:cut])); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what is held back (a word, a cut character escaped as it
// can no longer be completed), and the open line's marker.
func (w *Writer) Flush() error {
	rest := string(w.partial)
	w.partial = nil
	if err := w.emit(rest); err != nil {
		return err
	}
	if m := w.marked.marker(); m != "" {
		w.marked = 0
		_, err := io.WriteString(w.W, m)
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
		e, why := escape(body, keepTab)
		b.WriteString(e)
		w.marked |= why
		if nl {
			b.WriteString(w.marked.marker())
			w.marked = 0
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w.W, b.String())
	return err
}

// parse.go: one configuration file parsed into its variables, in order, byte for byte as git parses it.

package gitconfig

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// Entry is one variable set in a configuration file.
type Entry struct {
	Section    string // in lower case
	Subsection string // as written; in lower case in the [section.subsection] form
	// HasSub says the header names a subsection, even an empty one
	// ([section ""], [section.]).
	HasSub  bool
	Key     string // in lower case
	Value   string
	NoValue bool // the key stands alone, without "=": a boolean true
}

// Name is the variable's name as git config --list shows it:
// section[.subsection].key.
func (e Entry) Name() string {
	if e.Section == "" && !e.HasSub {
		return e.Key // a key before any section header
	}
	if e.HasSub {
		return e.Section + "." + e.Subsection + "." + e.Key
	}
	return e.Section + "." + e.Key
}

// Is reports whether the entry is section.subsection.key (subsection ""
// for none): the section and key in any case, the subsection exactly.
func (e Entry) Is(section, subsection, key string) bool {
	return strings.EqualFold(e.Section, section) && e.HasSub == (subsection != "") && e.Subsection == subsection && strings.EqualFold(e.Key, key)
}

// ErrSyntax is the error of a file that git would refuse to read.
var ErrSyntax = errors.New("bad config line")

// SyntaxError is a file that does not parse, at the line git names.
type SyntaxError struct {
	Line int
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("bad config line %d", e.Line) }

func (e *SyntaxError) Unwrap() error { return ErrSyntax }

// parser reads a file one byte at a time as git's config parser does,
// "\r\n" read as "\n" and the end of the file as a final "\n".
type parser struct {
	b    []byte
	pos  int
	line int
	eof  bool
}

func (p *parser) next() byte {
	if p.pos >= len(p.b) {
		p.eof = true
		return '\n'
	}
	c := p.b[p.pos]
	p.pos++
	if c == '\r' && p.pos < len(p.b) && p.b[p.pos] == '\n' {
		c = '\n'
		p.pos++
	}
	if c == '\n' {
		p.line++
	}
	return c
}

// isSpace is isspace as git defines it: not "\v" nor "\f".
func isSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

func isAlpha(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

func isKeyChar(c byte) bool { return isAlpha(c) || '0' <= c && c <= '9' || c == '-' }

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// Parse parses a configuration file's content into its variables in
// order. A file git would refuse is a *SyntaxError.
func Parse(b []byte) ([]Entry, error) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	p := &parser{b: b, line: 1}
	var entries []Entry
	var h header
	comment := false
	for {
		c := p.next()
		if c == '\n' {
			if p.eof {
				return entries, nil
			}
			comment = false
			continue
		}
		if comment || isSpace(c) {
			continue
		}
		if c == '#' || c == ';' {
			comment = true
			continue
		}
		if c == '[' {
			var ok bool
			if h, ok = p.header(); !ok {
				return nil, &SyntaxError{Line: p.line}
			}
			continue
		}
		if !isAlpha(c) {
			return nil, &SyntaxError{Line: p.line}
		}
		e, ok := p.variable(c)
		if !ok {
			return nil, &SyntaxError{Line: p.line}
		}
		e.Section, e.Subsection, e.HasSub = h.section, h.sub, h.hasSub
		entries = append(entries, e)
	}
}

// header is a section header's section and subsection.
type header struct {
	section, sub string
	hasSub       bool
}

// header reads a section header after its "[".
func (p *parser) header() (header, bool) {
	var name []byte
	for {
		c := p.next()
		if p.eof {
			return header{}, false
		}
		if c == ']' {
			break
		}
		if isSpace(c) {
			// git takes an empty name here ("[ \"x\"]"): what it
			// refuses is a header with nothing in it at all.
			sub, ok := p.extendedHeader(c)
			if !ok {
				return header{}, false
			}
			return header{section: string(name), sub: sub, hasSub: true}, true
		}
		if !isKeyChar(c) && c != '.' {
			return header{}, false
		}
		name = append(name, lower(c))
	}
	if len(name) == 0 {
		return header{}, false
	}
	section, sub, hasSub := strings.Cut(string(name), ".")
	return header{section: section, sub: sub, hasSub: hasSub}, true
}

// extendedHeader reads ` "subsection"]` after a section's name, c the
// blank that ended the name.
func (p *parser) extendedHeader(c byte) (string, bool) {
	for {
		if c == '\n' {
			return "", false
		}
		c = p.next()
		if !isSpace(c) {
			break
		}
	}
	if c != '"' {
		return "", false
	}
	var sub []byte
	for {
		c := p.next()
		if c == '\n' {
			return "", false
		}
		if c == '"' {
			break
		}
		if c == '\\' {
			if c = p.next(); c == '\n' {
				return "", false
			}
		}
		sub = append(sub, c)
	}
	if p.next() != ']' {
		return "", false
	}
	return string(sub), true
}

// variable reads a key, whose first letter is c, and its value.
func (p *parser) variable(c byte) (Entry, bool) {
	key := []byte{lower(c)}
	for {
		c = p.next()
		if p.eof || !isKeyChar(c) {
			break
		}
		key = append(key, lower(c))
	}
	for c == ' ' || c == '\t' {
		c = p.next()
	}
	e := Entry{Key: string(key), NoValue: true}
	if c == '\n' {
		return e, true
	}
	if c != '=' {
		return e, false
	}
	v, ok := p.value()
	e.Value, e.NoValue = v, false
	return e, ok
}

// value reads a value after its "=": blanks before and after it
// dropped, each blank within it read as a space, unless quoted; comments
// cut, escapes decoded, and a backslash at the end of a line joining the
// next.
func (p *parser) value() (string, bool) {
	var v []byte
	quote, comment := false, false
	spaces := 0
	for {
		c := p.next()
		if c == '\n' {
			if quote {
				return "", false
			}
			return string(v), true
		}
		if comment {
			continue
		}
		if isSpace(c) && !quote {
			if len(v) > 0 {
				spaces++
			}
			continue
		}
		if !quote && (c == ';' || c == '#') {
			comment = true
			continue
		}
		for ; spaces > 0; spaces-- {
			v = append(v, ' ')
		}
		if c == '\\' {
			c = p.next()
			switch c {
			case '\n':
				continue
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			case '\\', '"':
			default:
				return "", false
			}
			v = append(v, c)
			continue
		}
		if c == '"' {
			quote = !quote
			continue
		}
		v = append(v, c)
	}
}

// Bool reads a boolean as git does: a key without a value, "true",
// "yes", "on" and a non-zero number are true; "", "false", "no", "off"
// and 0 are false; in any case.
func Bool(v string, noValue bool) (bool, error) {
	if noValue {
		return true, nil
	}
	switch strings.ToLower(v) {
	case "true", "yes", "on":
		return true, nil
	case "", "false", "no", "off":
		return false, nil
	}
	n, ok := parseInt(v)
	if !ok {
		return false, fmt.Errorf("bad boolean config value %q", v)
	}
	return n != 0, nil
}

// parseInt reads a git integer: decimal, with an optional k, m or g
// suffix; only whether it is zero matters to Bool.
func parseInt(v string) (int64, bool) {
	s := strings.TrimSpace(v)
	if s == "" {
		return 0, false
	}
	switch lower(s[len(s)-1]) {
	case 'k', 'm', 'g':
		s = s[:len(s)-1]
	}
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int64(s[i]-'0')
		if n > 1<<40 {
			n = 1 << 40 // big enough to be non-zero
		}
	}
	if neg {
		n = -n
	}
	return n, true
}

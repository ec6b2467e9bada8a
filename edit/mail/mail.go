// Package mail reads patches sent as mail the way git am reads them: a
// mailbox is split into messages as git mailsplit splits it, and each
// message gives its author, date, subject, message and patch as git
// mailinfo gives them. It is pure text in, text out.
package mail

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	netmail "net/mail"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Mail is one mailed patch.
type Mail struct {
	Name, Email string    // the author, from From: (RFC 2047 words decoded)
	Date        time.Time // the author date, from Date: (zero when absent or unreadable)
	Subject     string    // the subject, its [PATCH n/m] and Re: prefixes removed
	// Body is the message after the subject, up to the --- separator,
	// without its trailers; Trailers are the lines of its last paragraph
	// when that paragraph is trailers only (Signed-off-by: …).
	Body     string
	Trailers []string
	Patch    string // the diff and anything after the separator
}

// ErrNoPatch is a message that holds no diff.
var ErrNoPatch = errors.New("the message holds no patch")

// IsMailbox reports whether text is mail: a mailbox (its first line a
// "From " line as git format-patch writes it) or one message whose
// headers name its author and subject.
func IsMailbox(text string) bool {
	first, _, _ := strings.Cut(text, "\n")
	if isFromLine(strings.TrimSuffix(first, "\r")) {
		return true
	}
	hdr, _, ok := cutHeaders(text)
	return ok && hdr.get("from") != "" && hdr.get("subject") != ""
}

// Split splits a mailbox into its messages, as git mailsplit does: a
// message starts at each "From " line that ends with a date (the line
// itself is not part of it). Carriage returns before line ends are
// removed where every line has one (see dropCR). Text without such a
// line is one message.
func Split(text string) []string {
	text = dropCR(text)
	var msgs []string
	var cur strings.Builder
	started := false
	for line := range strings.SplitAfterSeq(text, "\n") {
		if isFromLine(strings.TrimSuffix(line, "\n")) {
			if started && strings.TrimSpace(cur.String()) != "" {
				msgs = append(msgs, cur.String())
			}
			cur.Reset()
			started = true
			continue
		}
		started = true
		cur.WriteString(line)
	}
	if strings.TrimSpace(cur.String()) != "" {
		msgs = append(msgs, cur.String())
	}
	return msgs
}

// dropCR removes the carriage return before each line end of text when
// every line has one: the mail's transport wrote them. Where only some
// lines have one, as in git format-patch's mail of a change to a CRLF
// file, they are the files' content and are kept, as git am --keep-cr
// keeps them (git am without it drops them, and the patch fails).
func dropCR(text string) string {
	if n := strings.Count(text, "\n"); n == 0 || strings.Count(text, "\r\n") < n {
		return text
	}
	return strings.ReplaceAll(text, "\r\n", "\n")
}

// isFromLine reports whether line is a mailbox's "From " line: "From ",
// then a sender, then a date whose time is h:mm or hh:mm:ss and whose
// year follows it ("From 1a2b… Mon Sep 17 00:00:00 2001").
func isFromLine(line string) bool {
	return len(line) >= 20 && strings.HasPrefix(line, "From ") && fromDate().MatchString(line[5:])
}

// fromDate is built on first use: package init stays cheap.
var fromDate = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\s\d{1,2}:\d\d(:\d\d)?\s(.*\s)?\d{4}(\s.*)?$`)
})

// header is a message's header fields, names in lower case, continuation
// lines joined.
type header map[string][]string

func (h header) get(name string) string {
	if v := h[name]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// cutHeaders reads the header fields at the start of msg up to the blank
// line; ok is false when msg does not start with a field.
func cutHeaders(msg string) (h header, body string, ok bool) {
	h = header{}
	last := ""
	rest := msg
	for rest != "" {
		line, after, _ := strings.Cut(rest, "\n")
		line = strings.TrimSuffix(line, "\r")
		if line == "" {
			return h, after, len(h) > 0
		}
		if (line[0] == ' ' || line[0] == '\t') && last != "" {
			v := h[last]
			v[len(v)-1] += " " + strings.TrimSpace(line)
			rest = after
			continue
		}
		name, value, found := strings.Cut(line, ":")
		if !found || name == "" || strings.ContainsAny(name, " \t") {
			return h, rest, len(h) > 0
		}
		last = strings.ToLower(name)
		h[last] = append(h[last], strings.TrimSpace(value))
		rest = after
	}
	return h, "", len(h) > 0
}

// Parse reads one message of Split.
func Parse(msg string) (Mail, error) {
	msg = dropCR(msg)
	h, body, ok := cutHeaders(msg)
	if !ok {
		return Mail{}, errors.New("the message has no header")
	}
	body, err := decodeBody(h, body)
	if err != nil {
		return Mail{}, err
	}
	var m Mail
	m.setFrom(h.get("from"))
	m.setDate(h.get("date"))
	subject := decodeWords(h.get("subject"))

	// Fields at the start of the body win over the header's, as git
	// mailinfo takes them (a patch mailed on someone else's behalf).
	body = strings.TrimLeft(body, "\n")
	if ih, rest, ok := cutHeaders(body); ok && inBody(ih) {
		if v := ih.get("from"); v != "" {
			m.setFrom(v)
		}
		if v := ih.get("date"); v != "" {
			m.setDate(v)
		}
		if v := ih.get("subject"); v != "" {
			subject = decodeWords(v)
		}
		body = rest
	}
	m.Subject = CleanSubject(subject)
	message, patch := cutPatch(body)
	m.Body, m.Trailers = cutTrailers(StripSpace(message))
	m.Patch = dropSignature(patch)
	if strings.TrimSpace(m.Patch) == "" {
		return m, ErrNoPatch
	}
	return m, nil
}

// inBody reports whether h holds only the fields git takes from the
// start of a body.
func inBody(h header) bool {
	for k := range h {
		if k != "from" && k != "date" && k != "subject" {
			return false
		}
	}
	return true
}

// setFrom sets the author from a From: field: "Name <email>", a quoted or
// encoded name, or "email (Name)". A missing name is the address.
func (m *Mail) setFrom(v string) {
	v = strings.TrimSpace(v)
	if v == "" {
		return
	}
	if a, err := netmail.ParseAddress(v); err == nil {
		m.Name, m.Email = a.Name, a.Address
	} else if i, j := strings.LastIndexByte(v, '<'), strings.LastIndexByte(v, '>'); i >= 0 && j > i {
		m.Name = strings.Trim(strings.TrimSpace(decodeWords(v[:i])), `"`)
		m.Email = strings.TrimSpace(v[i+1 : j])
	} else {
		m.Name, m.Email = "", v
	}
	m.Name = strings.Join(strings.Fields(m.Name), " ")
	if m.Name == "" {
		m.Name = m.Email
	}
}

// setDate sets the author date from a Date: field, keeping its zone.
func (m *Mail) setDate(v string) {
	if t, err := netmail.ParseDate(v); err == nil {
		m.Date = t
	}
}

// decodeWords decodes RFC 2047 encoded words; text it cannot decode is
// kept as it is.
func decodeWords(s string) string {
	d := mime.WordDecoder{CharsetReader: charsetReader}
	if out, err := d.DecodeHeader(s); err == nil {
		return out
	}
	return s
}

// charsetReader turns the Latin-1 family into UTF-8; UTF-8 and ASCII the
// decoder reads itself.
func charsetReader(charset string, in io.Reader) (io.Reader, error) {
	if !isLatin1(charset) {
		return nil, fmt.Errorf("charset %q not supported", charset)
	}
	b, err := io.ReadAll(in)
	if err != nil {
		return nil, err
	}
	return strings.NewReader(latin1(b)), nil
}

func isLatin1(charset string) bool {
	switch strings.ToLower(charset) {
	case "iso-8859-1", "latin1", "latin-1":
		return true
	}
	return false
}

func latin1(b []byte) string {
	var s strings.Builder
	for _, c := range b {
		s.WriteRune(rune(c))
	}
	return s.String()
}

// decodeBody undoes the body's transfer encoding (quoted-printable,
// base64) and turns a Latin-1 body into UTF-8, as git mailinfo does.
func decodeBody(h header, body string) (string, error) {
	ct, params, _ := mime.ParseMediaType(h.get("content-type"))
	if strings.HasPrefix(ct, "multipart/") {
		return decodeParts(params["boundary"], body)
	}
	var b []byte
	switch enc := strings.ToLower(strings.TrimSpace(h.get("content-transfer-encoding"))); enc {
	case "quoted-printable":
		b = decodeQP(body)
	case "base64":
		var err error
		if b, err = io.ReadAll(base64.NewDecoder(base64.StdEncoding, &spaceless{r: strings.NewReader(body)})); err != nil {
			return "", fmt.Errorf("the base64 body does not decode: %w", err)
		}
	default:
		b = []byte(body)
	}
	b = []byte(dropCR(string(b)))
	if isLatin1(params["charset"]) && !utf8.Valid(b) {
		return latin1(b), nil
	}
	return string(b), nil
}

// decodeQP decodes a quoted-printable body as git mailinfo does: =XX is
// the byte XX, = at the end of a line joins it to the next, and, unlike
// RFC 2045's decoders, a line keeps its trailing white space (a diff's
// context line, the "-- " before a signature). An = that starts neither
// stays as it is.
func decodeQP(body string) []byte {
	out := make([]byte, 0, len(body))
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '=' {
			out = append(out, c)
			continue
		}
		rest := body[i+1:]
		switch {
		case rest == "" || rest[0] == '\n':
			i++ // a soft line break
		case strings.HasPrefix(rest, "\r\n"):
			i += 2
		case len(rest) >= 2 && isHex(rest[0]) && isHex(rest[1]):
			out = append(out, unhex(rest[0])<<4|unhex(rest[1]))
			i += 2
		default:
			out = append(out, c)
		}
	}
	return out
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// decodeParts reads a multipart body (git format-patch --attach, or a
// patch attached by a mail program) as git mailinfo reads it: the
// preamble left out, then each part decoded, one after the other, the
// message in the first and the patch in the attachment.
func decodeParts(boundary, body string) (string, error) {
	if boundary == "" {
		return "", errors.New("the multipart message has no boundary")
	}
	r := multipart.NewReader(strings.NewReader(body), boundary)
	var out strings.Builder
	for {
		p, err := r.NextRawPart()
		if err == io.EOF {
			return out.String(), nil
		}
		if err != nil {
			return "", fmt.Errorf("the multipart message does not split into its parts: %w", err)
		}
		raw, err := io.ReadAll(p)
		if err != nil {
			return "", fmt.Errorf("the multipart message does not split into its parts: %w", err)
		}
		h := header{}
		for k, v := range p.Header {
			h[strings.ToLower(k)] = v
		}
		text, err := decodeBody(h, string(raw))
		if err != nil {
			return "", err
		}
		if out.WriteString(text); text != "" && !strings.HasSuffix(text, "\n") {
			out.WriteByte('\n')
		}
	}
}

// spaceless reads r without its white space (base64 comes in lines).
type spaceless struct{ r io.Reader }

func (s *spaceless) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	j := 0
	for _, c := range p[:n] {
		if c != '\n' && c != '\r' && c != ' ' && c != '\t' {
			p[j] = c
			j++
		}
	}
	return j, err
}

// CleanSubject removes what mail adds before a subject, as git mailinfo
// does: leading "Re:", white space, colons and bracketed tags such as
// [PATCH v2 1/3], then makes each run of white space one space.
func CleanSubject(s string) string {
	for s != "" {
		switch c := s[0]; {
		case len(s) > 3 && (c == 'r' || c == 'R') && (s[1] == 'e' || s[1] == 'E') && s[2] == ':':
			s = s[3:]
		case c == ' ' || c == '\t' || c == ':':
			s = s[1:]
		case c == '[':
			end := strings.IndexByte(s, ']')
			if end < 0 {
				return strings.Join(strings.Fields(s), " ")
			}
			s = s[end+1:]
		default:
			return strings.Join(strings.Fields(s), " ")
		}
	}
	return ""
}

// cutPatch splits a body at the first line where git mailinfo sees the
// patch start: "---" alone (the separator before the diffstat, dropped),
// "--- " and a name, "diff -" or "Index: ".
func cutPatch(body string) (message, patch string) {
	at := 0
	for at < len(body) {
		line, _, found := strings.Cut(body[at:], "\n")
		next := at + len(line) + 1
		if !found {
			next = len(body)
		}
		switch {
		case strings.HasPrefix(line, "diff -"), strings.HasPrefix(line, "Index: "),
			strings.HasPrefix(line, "--- ") && len(line) > 4 && !isSpace(line[4]):
			return body[:at], body[at:]
		case strings.HasPrefix(line, "---") && strings.TrimSpace(line[3:]) == "":
			return body[:at], body[next:]
		}
		at = next
	}
	return body, ""
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// dropSignature removes the signature git format-patch ends a patch with
// ("-- " and the version of git), which is not part of the diff.
func dropSignature(patch string) string {
	i := strings.LastIndex(patch, "\n-- \n")
	if i < 0 {
		if strings.HasPrefix(patch, "-- \n") {
			i = -1
		} else {
			return patch
		}
	}
	tail := patch[i+len("\n-- \n"):]
	if strings.Count(strings.TrimRight(tail, "\n"), "\n") > 2 {
		return patch // more than a signature follows: it is the diff's
	}
	return patch[:i+1]
}

// StripSpace tidies a message as git stripspace does (and git commit and
// git am with it): trailing white space removed from each line, runs of
// blank lines made one, no blank line at the start or the end, and no
// final newline.
func StripSpace(s string) string {
	var out []string
	blank := false
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimRight(l, " \t\r")
		if l == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
			blank = false
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// isTrailer reports whether l is "Token: value": the token letters,
// digits and dashes, not starting with a dash.
func isTrailer(l string) bool {
	token, _, ok := strings.Cut(l, ": ")
	if !ok || token == "" || token[0] == '-' {
		return false
	}
	for _, c := range token {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// cutTrailers splits the trailers off a message: its last paragraph
// when every line of it is a trailer (or continues one).
func cutTrailers(msg string) (body string, trailers []string) {
	if msg == "" {
		return "", nil
	}
	// The subject is a paragraph of its own: a body of one paragraph is
	// the message's last.
	i := strings.LastIndex(msg, "\n\n")
	last, body := msg, ""
	if i >= 0 {
		last, body = msg[i+2:], msg[:i]
	}
	for _, l := range strings.Split(last, "\n") {
		switch {
		case isTrailer(l):
			trailers = append(trailers, l)
		case (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")) && len(trailers) > 0:
			trailers[len(trailers)-1] += "\n" + l
		default:
			return msg, nil
		}
	}
	return body, trailers
}

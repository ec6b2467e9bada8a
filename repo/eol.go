// eol.go: git's line-ending rules (core.autocrlf, the text, eol and binary attributes) on the content pair commits.

package repo

import (
	"bytes"
	"strings"
)

// eolRules tells whether git converts a working-tree file's CRLF line
// endings to LF when it reads the file (its clean conversion), from
// core.autocrlf and the text, eol and binary attributes.
type eolRules struct {
	attrs    *attrSource
	autocrlf bool // core.autocrlf is true or input
}

// eolRules reads the line-ending rules.
func (t *Tree) eolRules() (*eolRules, error) {
	cfg, err := t.repo.loadConfig()
	if err != nil {
		return nil, err
	}
	e := &eolRules{attrs: t.attrSource(cfg)}
	switch strings.ToLower(cfg.get("core", "autocrlf")) {
	case "true", "yes", "on", "1", "input":
		e.autocrlf = true
	}
	return e, nil
}

// attr returns the state of one attribute for p (slash-separated):
// "set", "unset", its value, or "" when unspecified.
func (e *eolRules) attr(p, name string) (string, error) {
	a, err := e.attrs.rules(p)
	if err != nil {
		return "", err
	}
	return a.value(p, name), nil
}

// clean returns content as git stores it for the working-tree file p:
// CRLF turned into LF when git converts the file's line endings.
func (e *eolRules) clean(p string, content []byte) ([]byte, error) {
	if !bytes.Contains(content, []byte("\r\n")) {
		return content, nil
	}
	binary, err := e.attr(p, "binary")
	if err != nil || binary == "set" {
		return content, err
	}
	text, err := e.attr(p, "text")
	if err != nil {
		return content, err
	}
	auto := false
	switch text {
	case "set":
	case "unset":
		return content, nil
	case "auto":
		auto = true
	default:
		eol, err := e.attr(p, "eol")
		if err != nil {
			return content, err
		}
		if eol != "crlf" && eol != "lf" && !e.autocrlf {
			return content, nil
		}
		auto = true
	}
	if auto && looksBinary(content) {
		return content, nil
	}
	return bytes.ReplaceAll(content, []byte("\r\n"), []byte("\n")), nil
}

// looksBinary is git's test for text=auto: a NUL byte, or a CR not
// followed by LF.
func looksBinary(b []byte) bool {
	if bytes.IndexByte(b, 0) >= 0 {
		return true
	}
	for i, c := range b {
		if c == '\r' && (i+1 == len(b) || b[i+1] != '\n') {
			return true
		}
	}
	return false
}

// toCRLF turns each LF not preceded by CR into CRLF, as git writes a text
// file whose working-tree line ending is CRLF.
func toCRLF(b []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(b) + bytes.Count(b, []byte("\n")))
	for i, c := range b {
		if c == '\n' && (i == 0 || b[i-1] != '\r') {
			out.WriteByte('\r')
		}
		out.WriteByte(c)
	}
	return out.Bytes()
}

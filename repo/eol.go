// eol.go: git's line-ending rules (core.autocrlf, the text, eol and binary attributes) on the content pair commits.

package repo

import (
	"bytes"
	"path"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitattributes"
)

// eolRules tells whether git converts a working-tree file's CRLF line
// endings to LF when it reads the file (its clean conversion), from
// core.autocrlf and the text, eol and binary attributes.
type eolRules struct {
	t        *Tree  // the tree, whose .gitattributes files are read
	infoFile string // $GIT_COMMON_DIR/info/attributes
	global   string // core.attributesFile
	autocrlf bool   // core.autocrlf is true or input
}

// eolRules reads the line-ending rules. info/attributes is the common
// directory's: a linked worktree shares it, as git reads it.
func (t *Tree) eolRules() (*eolRules, error) {
	cfg, err := t.repo.loadConfig()
	if err != nil {
		return nil, err
	}
	e := &eolRules{t: t, infoFile: filepath.Join(t.commonDir, "info", "attributes")}
	switch strings.ToLower(cfg.get("core", "autocrlf")) {
	case "true", "yes", "on", "1", "input":
		e.autocrlf = true
	}
	if p := cfg.get("core", "attributesFile"); p != "" {
		e.global = expandPath(p, t.Dir)
	}
	return e, nil
}

// readAttrs reads one attributes file outside the tree, or, with domain
// not nil, the .gitattributes of the tree's directory domain (never
// through a link); a missing file has none (see readPatternFile).
func (e *eolRules) readAttrs(file string, domain []string, macros bool) ([]gitattributes.MatchAttribute, error) {
	var b []byte
	var err error
	if domain != nil {
		b, err = e.t.disk.readTreePatternFile(nil, path.Join(path.Join(domain...), ".gitattributes"))
	} else {
		b, err = readPatternFile(file)
	}
	if err != nil || b == nil {
		return nil, err
	}
	return gitattributes.ReadAttributes(bytes.NewReader(b), domain, macros)
}

// attr returns the state of one attribute for p (slash-separated):
// "set", "unset", its value, or "" when unspecified. Files of higher
// priority (info/attributes, deeper .gitattributes) win.
func (e *eolRules) attr(p, name string) (string, error) {
	var stack []gitattributes.MatchAttribute
	if e.global != "" {
		a, err := e.readAttrs(e.global, nil, true)
		if err != nil {
			return "", err
		}
		stack = append(stack, a...)
	}
	dirs := strings.Split(path.Dir(p), "/")
	if path.Dir(p) == "." {
		dirs = nil
	}
	for i := 0; i <= len(dirs); i++ {
		domain := append([]string{}, dirs[:i]...)
		a, err := e.readAttrs("", domain, i == 0)
		if err != nil {
			return "", err
		}
		stack = append(stack, a...)
	}
	a, err := e.readAttrs(e.infoFile, nil, true)
	if err != nil {
		return "", err
	}
	stack = append(stack, a...)
	// One attribute at a time: the matcher stops at the first (highest
	// priority) match only then.
	res, _ := gitattributes.NewMatcher(stack).Match(strings.Split(p, "/"), []string{name})
	at, ok := res[name]
	switch {
	case !ok || at.IsUnspecified():
		return "", nil
	case at.IsSet():
		return "set", nil
	case at.IsUnset():
		return "unset", nil
	}
	return at.Value(), nil
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

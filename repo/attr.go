// attr.go: git's attributes files read and matched as git check-attr does: the lines, macros and the order of priority.

package repo

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// maxAttrLine is git's bound on a line of an attributes file
// (ATTR_MAX_LINE_LENGTH): a longer line is ignored.
const maxAttrLine = 2048

// attrBlank is what separates the fields of an attributes line for git.
const attrBlank = " \t\r\n"

// attrRule is one line of an attributes file: a pattern and the
// attributes it gives.
type attrRule struct {
	ignoreRule
	attrs []string // "name", "-name", "!name" or "name=value", in order
}

// attrRules are the lines of the attributes files in git's order of
// priority, lowest first: core.attributesFile, each .gitattributes from
// the top down, then info/attributes; with the macros they define.
type attrRules struct {
	lines  []attrRule
	macros map[string][]string // a later (higher-priority) definition wins
}

func newAttrRules() *attrRules {
	return &attrRules{macros: map[string][]string{"binary": {"-diff", "-merge", "-text"}}}
}

// parse adds the lines of an attributes file whose directory is base
// ("" for the top and the files outside the tree), as git parses them: a
// pattern, quoted as C quotes a string when it starts with `"`, then the
// attributes. A line with an invalid attribute name, a negative pattern
// or over maxAttrLine bytes is ignored whole. Macros ("[attr]name")
// count only where git reads them: outside the tree and in the top
// .gitattributes.
func (a *attrRules) parse(b []byte, base string, macros bool) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	for _, l := range strings.Split(string(b), "\n") {
		if len(l) >= maxAttrLine {
			continue
		}
		l = strings.TrimLeft(l, attrBlank)
		if l == "" || l[0] == '#' {
			continue
		}
		pat, rest, ok := "", "", false
		if l[0] == '"' {
			pat, rest, ok = unquoteC(l)
		}
		if !ok {
			n := strings.IndexAny(l, attrBlank)
			if n < 0 {
				n = len(l)
			}
			pat, rest = l[:n], l[n:]
		}
		attrs, ok := parseAttrStates(rest)
		if !ok {
			continue
		}
		if name, isMacro := strings.CutPrefix(pat, "[attr]"); isMacro && name != "" {
			if macros && validAttrName(name) {
				a.macros[name] = attrs
			}
			continue
		}
		if strings.HasPrefix(pat, "!") {
			continue // git refuses negative patterns here
		}
		a.lines = append(a.lines, attrRule{ignoreRule: newPatternRule(pat, base), attrs: attrs})
	}
}

// parseAttrStates splits the attributes of a line; ok is false when one
// has a name git refuses.
func parseAttrStates(s string) ([]string, bool) {
	var attrs []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(attrBlank, r) }) {
		name, _, _ := strings.Cut(f, "=")
		if name != "" && (name[0] == '-' || name[0] == '!') {
			name = name[1:]
		}
		if !validAttrName(name) {
			return nil, false
		}
		attrs = append(attrs, f)
	}
	return attrs, true
}

// validAttrName is git's rule for an attribute's name: letters, digits,
// "-", "." and "_", not starting with "-".
func validAttrName(name string) bool {
	if name == "" || name[0] == '-' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '-' || c == '.' || c == '_' || '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'z') {
			return false
		}
	}
	return true
}

// unquoteC reads the C-quoted string at the start of s (`"a\tb"`, octal
// escapes as `\303`), as git unquotes a quoted pattern; rest is what
// follows the closing quote. ok is false when s does not start with a
// well-formed quoted string.
func unquoteC(s string) (out, rest string, ok bool) {
	var b []byte
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			return string(b), s[i+1:], true
		case '\\':
			i++
			if i == len(s) {
				return "", "", false
			}
			switch c = s[i]; c {
			case 'a':
				c = '\a'
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'v':
				c = '\v'
			case '\\', '"':
			case '0', '1', '2', '3':
				if i+2 >= len(s) || s[i+1] < '0' || s[i+1] > '7' || s[i+2] < '0' || s[i+2] > '7' {
					return "", "", false
				}
				c = (c-'0')<<6 | (s[i+1]-'0')<<3 | (s[i+2] - '0')
				i += 2
			default:
				return "", "", false
			}
		}
		b = append(b, c)
	}
	return "", "", false
}

// states returns every attribute git gives the file p, as git
// check-attr -a finds them: the lines that match p from the highest
// priority down, each line's attributes from its last, the first to say
// something of an attribute deciding it; a macro set there gives its
// attributes too, at the same place. The value is "set", "unset", the
// attribute's value, or "" when a line made it unspecified ("!name").
func (a *attrRules) states(p string) map[string]string {
	got := map[string]string{}
	for i := len(a.lines) - 1; i >= 0; i-- {
		if r := &a.lines[i]; r.matches(p, false) {
			a.fill(got, r.attrs)
		}
	}
	return got
}

func (a *attrRules) fill(got map[string]string, attrs []string) {
	for j := len(attrs) - 1; j >= 0; j-- {
		name, v := attrState(attrs[j])
		if _, ok := got[name]; ok {
			continue
		}
		got[name] = v
		if def, ok := a.macros[name]; ok && v == "set" {
			a.fill(got, def)
		}
	}
}

// attrState reads one attribute of a line.
func attrState(at string) (name, value string) {
	switch {
	case strings.HasPrefix(at, "-"):
		name, _, _ = strings.Cut(at[1:], "=")
		return name, "unset"
	case strings.HasPrefix(at, "!"):
		name, _, _ = strings.Cut(at[1:], "=")
		return name, ""
	}
	if name, v, ok := strings.Cut(at, "="); ok {
		return name, v
	}
	return at, "set"
}

// value returns the state of the attribute name for the file p: "set",
// "unset", its value, or "" when unspecified.
func (a *attrRules) value(p, name string) string {
	return a.states(p)[name]
}

// attrSource reads the attributes files of a tree, each once.
type attrSource struct {
	disk      *disk  // the tree's files
	top       string // the top of the tree, for a relative core.attributesFile
	commonDir string // whose info/attributes git reads
	cfg       gitConfig
	files     map[string][]byte // by name
}

func (t *Tree) attrSource(cfg gitConfig) *attrSource {
	return &attrSource{disk: &t.disk, top: t.Dir, commonDir: t.commonDir, cfg: cfg, files: map[string][]byte{}}
}

// read reads an attributes file once: one of the tree (a clean path)
// when inTree, else one of the person's or the git directory's.
func (s *attrSource) read(name string, inTree bool) ([]byte, error) {
	key := name // absolute
	if inTree {
		key = "tree:" + name
	}
	if b, ok := s.files[key]; ok {
		return b, nil
	}
	var b []byte
	var err error
	if inTree {
		b, err = s.disk.readTreePatternFile(nil, name)
	} else {
		b, err = readPatternFile(name)
	}
	if err != nil {
		return nil, err
	}
	s.files[key] = b
	return b, nil
}

// rules reads the attributes files git reads for p: the global one
// (core.attributesFile, else $XDG_CONFIG_HOME/git/attributes), the
// .gitattributes of each directory from the top down to p's, and the
// common directory's info/attributes (which a linked worktree shares).
// Those of the tree are never read through a link; each is bounded in
// size (see readPatternFile).
func (s *attrSource) rules(p string) (*attrRules, error) {
	a := newAttrRules()
	if g, ok := s.cfg.lookup("core", "attributesFile"); ok && g != "" {
		b, err := s.read(expandPath(g, s.top), false)
		if err != nil {
			return nil, err
		}
		a.parse(b, "", true)
	} else if !ok {
		if xdg := os.Getenv("XDG_CONFIG_HOME"); xdg != "" {
			g = filepath.Join(xdg, "git", "attributes")
		} else if home := os.Getenv("HOME"); home != "" {
			g = filepath.Join(home, ".config", "git", "attributes")
		}
		if g != "" {
			b, err := s.read(g, false)
			if err != nil {
				return nil, err
			}
			a.parse(b, "", true)
		}
	}
	dirs := strings.Split(p, "/")
	for i := 0; i < len(dirs); i++ {
		dir := strings.Join(dirs[:i], "/")
		b, err := s.read(path.Join(dir, ".gitattributes"), true)
		if err != nil {
			return nil, err
		}
		base := ""
		if dir != "" {
			base = dir + "/"
		}
		a.parse(b, base, i == 0)
	}
	b, err := s.read(filepath.Join(s.commonDir, "info", "attributes"), false)
	if err != nil {
		return nil, err
	}
	a.parse(b, "", true)
	return a, nil
}

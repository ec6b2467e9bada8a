package repo

import (
	"path"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// ltok is a token of chroma's lexer that is not white space or a comment.
type ltok struct {
	typ  chroma.TokenType
	val  string // trimmed of white space
	line int    // 0-based line of its start
}

// isName reports a token that names something (not a builtin).
func (t ltok) isName() bool {
	return t.typ.InCategory(chroma.Name) && !t.typ.InSubCategory(chroma.NameBuiltin) && t.typ != chroma.NameDecorator
}

// isKeyword reports a keyword token whose text is word.
func (t ltok) isKeyword(word string) bool {
	return t.val == word && (t.typ.InCategory(chroma.Keyword) || t.typ == chroma.NameOther || t.typ == chroma.Name)
}

// lexFile returns the tokens of src by the chroma lexer that name's
// extension picks, nil when there is none or it fails. A name token
// that holds more than an identifier (a lexer's slip, "gen() {") is split
// into the identifier and punctuation.
func lexFile(name string, src []byte) []ltok {
	l := lexerFor(name)
	if l == nil {
		return nil
	}
	it, err := l.Tokenise(nil, string(src))
	if err != nil {
		return nil
	}
	var out []ltok
	line := 0
	for t := it(); t != chroma.EOF; t = it() {
		v := strings.TrimSpace(t.Value)
		if v != "" && !t.Type.InCategory(chroma.Comment) {
			start := line + strings.Count(t.Value[:strings.Index(t.Value, v)], "\n")
			tok := ltok{typ: t.Type, val: v, line: start}
			if tok.isName() {
				if loc := identRe().FindStringIndex(v); loc != nil && loc[0] == 0 && loc[1] < len(v) {
					out = append(out, ltok{typ: t.Type, val: v[:loc[1]], line: start})
					tok = ltok{typ: chroma.Punctuation, val: strings.TrimSpace(v[loc[1]:]), line: start}
				}
			}
			out = append(out, tok)
		}
		line += strings.Count(t.Value, "\n")
	}
	return out
}

// lexerCache holds the lexer for each extension (or name, for a file
// without one): chroma's Match tries every lexer's patterns.
var lexerCache sync.Map

// lexerFor returns chroma's lexer for a file name, nil for none or for
// markup and data.
func lexerFor(name string) chroma.Lexer {
	base := path.Base(name)
	key := strings.ToLower(path.Ext(base))
	if key == "" {
		key = base
	}
	if l, ok := lexerCache.Load(key); ok {
		l, _ := l.(chroma.Lexer)
		return l
	}
	l := lexers.Match(base)
	if l != nil && markup()[strings.ToLower(l.Config().Name)] {
		l = nil
	}
	lexerCache.Store(key, l)
	return l
}

// markup are the chroma lexers of data and prose, whose names are no
// program's identifiers.
var markup = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"json": true, "yaml": true, "toml": true, "markdown": true, "restructuredtext": true,
		"xml": true, "html": true, "css": true, "scss": true, "ini": true, "plaintext": true,
		"diff": true, "csv": true, "svg": true, "text only": true, "properties": true,
		"docker": true, "makefile": false,
	}
})

// tokenRefs counts the identifiers that name tokens use, except those at
// the indexes of declared.
func tokenRefs(toks []ltok, declared map[int]bool) map[string]int {
	refs := map[string]int{}
	for i, t := range toks {
		if t.isName() && !declared[i] && identRe().MatchString(t.val) {
			refs[identRe().FindString(t.val)]++
		}
	}
	return refs
}

// srcLines splits a file into lines for the declarations' text.
func srcLines(src []byte) []string {
	return strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
}

// indentOf is the width of a line's leading white space.
func indentOf(line string) int {
	return len(line) - len(strings.TrimLeft(line, " \t"))
}

// pythonSymbols reads a Python file's top-level classes (with their
// methods and class attributes), defs with their signatures and
// constants from chroma's tokens.
func pythonSymbols(name string, src []byte) fileSymbols {
	toks := lexFile(name, src)
	lines := srcLines(src)
	var fs fileSymbols
	declared := map[int]bool{}
	class, body := -1, -1 // the open top-level class and its body's indent
	lastLine := -1
	for i, t := range toks {
		first := t.line != lastLine
		lastLine = t.line
		if !first || t.line >= len(lines) {
			continue
		}
		indent := indentOf(lines[t.line])
		if indent == 0 && t.typ != chroma.NameDecorator && !t.isKeyword("class") && !(t.isKeyword("async") || t.isKeyword("def")) {
			class = -1
		}
		kw := i
		if t.isKeyword("async") && i+1 < len(toks) {
			kw = i + 1
		}
		if kw+1 >= len(toks) {
			continue
		}
		switch {
		case toks[kw].isKeyword("def") && toks[kw+1].typ == chroma.NameFunction:
			parent := -1
			if indent > 0 {
				if class < 0 || (body >= 0 && indent != body) {
					continue
				}
				body, parent = indent, class
			} else {
				class = -1
			}
			declared[kw+1] = true
			fs.defs = append(fs.defs, symbol{name: toks[kw+1].val, text: pySig(lines, t.line), parent: parent})
		case t.isKeyword("class") && toks[i+1].typ == chroma.NameClass && indent == 0:
			declared[i+1] = true
			text := strings.TrimSuffix(strings.TrimSpace(lines[t.line]), ":")
			fs.defs = append(fs.defs, symbol{name: toks[i+1].val, text: clipSig(text), parent: -1})
			class, body = len(fs.defs)-1, -1
		case t.typ == chroma.Name && (toks[i+1].val == "=" || toks[i+1].val == ":") && (indent == 0 || class >= 0 && (body < 0 || indent == body)):
			parent := -1
			if indent > 0 {
				body, parent = indent, class
			} else if !pyConstName(t.val) {
				continue
			}
			declared[i] = true
			fs.defs = append(fs.defs, symbol{name: t.val, text: clipSig(strings.TrimSpace(lines[t.line])), parent: parent})
		}
	}
	fs.refs = tokenRefs(toks, declared)
	return fs
}

// pyConstName reports a module-level name the map shows: UPPER_CASE
// constants and CamelCase aliases, not every variable.
func pyConstName(s string) bool {
	return s != "" && s[0] >= 'A' && s[0] <= 'Z'
}

// pySig is the signature of the def at line i: the def up to its colon,
// over as many lines as its parameters take (up to 8).
func pySig(lines []string, i int) string {
	var b strings.Builder
	depth := 0
	for j := i; j < len(lines) && j < i+8; j++ {
		for _, c := range strings.TrimSpace(lines[j]) {
			switch c {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			case ':':
				if depth == 0 {
					return clipSig(b.String())
				}
			}
			b.WriteRune(c)
		}
		b.WriteByte(' ')
	}
	return clipSig(b.String())
}

// jsModifiers are the words that may come before a class member's name.
var jsModifiers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"public": true, "private": true, "protected": true, "static": true, "readonly": true,
		"async": true, "abstract": true, "override": true, "declare": true, "get": true,
		"set": true, "accessor": true, "*": true, "#": true,
	}
})

// jsSymbols reads a JavaScript or TypeScript file from chroma's tokens:
// its top-level functions, classes with their methods and fields,
// interfaces with their members, types, enums and top-level consts.
func jsSymbols(name string, src []byte) fileSymbols {
	toks := lexFile(name, src)
	lines := srcLines(src)
	var fs fileSymbols
	declared := map[int]bool{}
	depth, paren := 0, 0
	type body struct{ sym, depth int }
	var bodies []body // open class and interface bodies
	pending := -1     // a class or interface whose body the next "{" opens
	def := func(i int, parent int, kind string) int {
		declared[i] = true
		text := ""
		if toks[i].line < len(lines) {
			line := lines[toks[i].line]
			if parent >= 0 {
				// A member on its class's line: from its name on.
				if b := strings.IndexByte(line, '{'); b >= 0 {
					if n := strings.Index(line[b:], toks[i].val); n > 0 {
						line = strings.TrimSpace(strings.TrimRight(line[b+n:], "} "))
					}
				}
			}
			text = jsSig(line, kind)
		}
		fs.defs = append(fs.defs, symbol{name: toks[i].val, text: text, parent: parent})
		return len(fs.defs) - 1
	}
	nameAt := func(i int) bool { return i < len(toks) && toks[i].isName() && isIdent(toks[i].val) }
	for i, t := range toks {
		if t.typ.InCategory(chroma.Punctuation) || t.typ == chroma.Error {
			for _, c := range t.val {
				switch c {
				case '{':
					depth++
					if pending >= 0 {
						bodies = append(bodies, body{pending, depth})
						pending = -1
					}
				case '(':
					paren++
				case ')':
					paren--
				case '}':
					depth--
					for len(bodies) > 0 && bodies[len(bodies)-1].depth > depth {
						bodies = bodies[:len(bodies)-1]
					}
				}
			}
			continue
		}
		if declared[i] {
			continue
		}
		if depth == 0 {
			switch {
			case (t.isKeyword("class") || t.isKeyword("interface")) && nameAt(i+1):
				pending = def(i+1, -1, "class")
			case (t.isKeyword("enum") || t.isKeyword("namespace") || t.isKeyword("module")) && nameAt(i+1):
				def(i+1, -1, "class")
			case t.isKeyword("type") && nameAt(i+1) && i+2 < len(toks) && (toks[i+2].val == "=" || strings.HasPrefix(toks[i+2].val, "<")):
				def(i+1, -1, "type")
			case t.isKeyword("function"):
				j := i + 1
				if j < len(toks) && toks[j].val == "*" {
					j++
				}
				if nameAt(j) {
					def(j, -1, "function")
				}
			case (t.isKeyword("const") || t.isKeyword("let") || t.isKeyword("var")) && nameAt(i+1):
				if i+3 < len(toks) && toks[i+2].val == "=" && (toks[i+3].isKeyword("require") || toks[i+3].isKeyword("import")) {
					continue
				}
				d := def(i+1, -1, "const")
				if i+3 < len(toks) && toks[i+2].val == "=" && strings.HasPrefix(toks[i+3].val, "{") {
					pending = d // an object literal: its methods and properties are members
				}
			case nameAt(i) && (i == 0 || toks[i-1].line != t.line || strings.HasSuffix(toks[i-1].val, ";") || strings.HasSuffix(toks[i-1].val, "}")):
				// exports.f = …, module.exports.f = …, C.prototype.m = …
				j := i
				for j+2 < len(toks) && toks[j+1].val == "." && nameAt(j+2) {
					j += 2
				}
				if j == i || j+1 >= len(toks) || toks[j+1].val != "=" {
					continue
				}
				parent := -1
				if toks[i+2].val == "prototype" {
					for k, d := range fs.defs {
						if d.name == t.val && d.parent < 0 {
							parent = k
						}
					}
				}
				def(j, parent, "field")
			}
			continue
		}
		if len(bodies) == 0 || bodies[len(bodies)-1].depth != depth || paren != 0 || !nameAt(i) && !t.typ.InCategory(chroma.Keyword) {
			continue
		}
		// A member starts after "{", ";", "}" or a modifier.
		if i == 0 || i+1 >= len(toks) || !isIdent(t.val) || jsModifiers()[t.val] && nameAt(i+1) {
			continue
		}
		prev := toks[i-1].val
		if strings.HasSuffix(prev, "@") || t.typ == chroma.NameDecorator {
			continue // a decorator's name
		}
		decorated := strings.HasSuffix(prev, ")") && t.line < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[t.line]), "@")
		if !jsModifiers()[prev] && !decorated && !strings.HasSuffix(prev, "{") && !strings.HasSuffix(prev, ";") && !strings.HasSuffix(prev, "}") && !strings.HasSuffix(prev, ",") {
			continue
		}
		next := toks[i+1].val
		switch {
		case strings.HasPrefix(next, "(") || strings.HasPrefix(next, "<"):
			def(i, bodies[len(bodies)-1].sym, "method")
		case strings.HasPrefix(next, ":") || strings.HasPrefix(next, "=") || strings.HasPrefix(next, ";") || strings.HasPrefix(next, "?") || strings.HasPrefix(next, "!"):
			if t.typ.InCategory(chroma.Keyword) {
				continue
			}
			def(i, bodies[len(bodies)-1].sym, "field")
		}
	}
	fs.refs = tokenRefs(toks, declared)
	return fs
}

// jsSig is the declaration on a line as the map shows it: without
// "export" and "default", a function's or class's body cut at its "{",
// an arrow function up to its "=>", and a long value left out.
func jsSig(line, kind string) string {
	s := strings.TrimSpace(line)
	for _, p := range []string{"export ", "default ", "declare "} {
		s = strings.TrimPrefix(s, p)
	}
	s = strings.TrimRight(s, "; ")
	switch kind {
	case "class", "function", "method":
		s = cutBody(s)
	case "const", "field":
		if strings.Contains(s, "function") {
			s = cutBody(s)
		} else if i := strings.Index(s, "=>"); i >= 0 {
			s = s[:i+2]
		} else if len(s) > 60 || strings.HasSuffix(s, "{") || strings.HasSuffix(s, "[") || strings.HasSuffix(s, "(") {
			if i := strings.Index(s, " = "); i >= 0 {
				s = s[:i]
			}
		}
	}
	return clipSig(s)
}

// cutBody cuts a declaration at the "{" that opens its body: the first
// one outside parentheses, brackets and generic arguments.
func cutBody(s string) string {
	depth := 0
	for i, c := range s {
		switch c {
		case '(', '[', '<':
			depth++
		case ')', ']', '>':
			if depth > 0 && !(c == '>' && i > 0 && s[i-1] == '=') {
				depth--
			}
		case '{':
			if depth == 0 {
				return strings.TrimSpace(s[:i])
			}
		}
	}
	return s
}

// genericSymbols reads any file chroma lexes: the functions and classes
// its lexer names, and the names it uses.
func genericSymbols(name string, src []byte) fileSymbols {
	toks := lexFile(name, src)
	if toks == nil {
		return fileSymbols{}
	}
	lines := srcLines(src)
	var fs fileSymbols
	declared := map[int]bool{}
	for i, t := range toks {
		if (t.typ == chroma.NameFunction || t.typ == chroma.NameClass) && t.line < len(lines) && isIdent(t.val) {
			declared[i] = true
			fs.defs = append(fs.defs, symbol{name: t.val, text: clipSig(cutBody(strings.TrimSpace(lines[t.line]))), parent: -1})
		}
	}
	fs.refs = tokenRefs(toks, declared)
	return fs
}

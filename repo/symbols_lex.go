// symbols_lex.go: declarations of Python, JavaScript and TypeScript, and every language's references, from lex.go.

package repo

import (
	"strings"
	"sync"
)

// tokenRefs counts the names that tokens use, except builtins and those
// at the indexes of declared.
func tokenRefs(toks []ltok, declared map[int]bool) map[string]int {
	refs := map[string]int{}
	for i, t := range toks {
		if t.kind == tokIdent && !declared[i] {
			refs[t.val]++
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
// constants from its tokens.
func pythonSymbols(name string, src []byte) fileSymbols {
	toks := lexFile(name, src)
	lines := srcLines(src)
	var fs fileSymbols
	declared := map[int]bool{}
	class, body := -1, -1 // the open top-level class and its body's indent
	lastLine := -1
	depth := 0 // of brackets: a line inside them continues a statement
	for i, t := range toks {
		first := t.line != lastLine
		lastLine = t.line
		if first && t.line < len(lines) && indentOf(lines[t.line]) == 0 && (t.kind == tokDecorator || t.isKeyword("def") || t.isKeyword("class") || t.isKeyword("async")) {
			depth = 0 // whatever was left open before
		}
		statement := first && depth == 0
		if t.kind == tokPunct {
			switch t.val {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth = max(depth-1, 0)
			}
		}
		if !statement || t.line >= len(lines) {
			continue
		}
		indent := indentOf(lines[t.line])
		if indent == 0 && t.kind != tokDecorator && !t.isKeyword("class") && !(t.isKeyword("async") || t.isKeyword("def")) {
			class = -1
		}
		if class >= 0 && body < 0 && indent > 0 {
			body = indent // the class body's first statement
		}
		kw := i
		if t.isKeyword("async") && i+1 < len(toks) {
			kw = i + 1
		}
		if kw+1 >= len(toks) {
			continue
		}
		switch {
		case toks[kw].isKeyword("def") && toks[kw+1].isName():
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
		case t.isKeyword("class") && toks[i+1].isName() && indent == 0:
			declared[i+1] = true
			text := strings.TrimSuffix(strings.TrimSpace(lines[t.line]), ":")
			fs.defs = append(fs.defs, symbol{name: toks[i+1].val, text: clipSig(text), parent: -1})
			class, body = len(fs.defs)-1, -1
		case t.isName() && (toks[i+1].val == "=" || toks[i+1].val == ":") && (indent == 0 || class >= 0 && (body < 0 || indent == body)):
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

// jsSymbols reads a JavaScript or TypeScript file from its tokens:
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
		if t.kind == tokPunct {
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
		if len(bodies) == 0 || bodies[len(bodies)-1].depth != depth || paren != 0 || !nameAt(i) && t.kind != tokKeyword {
			continue
		}
		// A member starts after "{", ";", "}" or a modifier.
		if i == 0 || i+1 >= len(toks) || !isIdent(t.val) || jsModifiers()[t.val] && nameAt(i+1) {
			continue
		}
		prev := toks[i-1].val
		decorated := toks[i-1].kind == tokDecorator || prev == ")" && t.line < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[t.line]), "@")
		if !jsModifiers()[prev] && !decorated && !strings.HasSuffix(prev, "{") && !strings.HasSuffix(prev, ";") && !strings.HasSuffix(prev, "}") && !strings.HasSuffix(prev, ",") {
			continue
		}
		next := toks[i+1].val
		switch {
		case strings.HasPrefix(next, "(") || strings.HasPrefix(next, "<"):
			def(i, bodies[len(bodies)-1].sym, "method")
		case strings.HasPrefix(next, ":") || strings.HasPrefix(next, "=") || strings.HasPrefix(next, ";") || strings.HasPrefix(next, "?") || strings.HasPrefix(next, "!"):
			if t.kind == tokKeyword {
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

// genericSymbols reads a file of any other language lexFile reads: the
// names that follow a keyword of definition (class, fn, func, function,
// def, …; of Lua's "function M.f", the last), in a C-like language the
// functions declared with a type before their name (Dart's
// "String name(…) {"), and the names it uses.
func genericSymbols(name string, src []byte) fileSymbols {
	toks := lexFile(name, src)
	if toks == nil {
		return fileSymbols{}
	}
	l, _ := langOf(name)
	lines := srcLines(src)
	var fs fileSymbols
	declared := map[int]bool{}
	for i := 0; i+1 < len(toks); i++ {
		j := -1
		switch t := toks[i]; {
		case t.kind != tokPunct && t.kind != tokDecorator && defKeywords()[t.val] && toks[i+1].isName():
			j = i + 1
			for t.val == "function" && j+2 < len(toks) && (toks[j+1].val == "." || toks[j+1].val == ":") && toks[j+2].isName() {
				j += 2
			}
		case l.fam == famC && i > 0 && t.isName() && toks[i+1].val == "(" && typedFunc(toks, i):
			j = i
		}
		if j < 0 || toks[i].line >= len(lines) || !isIdent(toks[j].val) {
			continue
		}
		declared[j] = true
		fs.defs = append(fs.defs, symbol{name: toks[j].val, text: clipSig(cutBody(strings.TrimSpace(lines[toks[i].line]))), parent: -1})
		i = j
	}
	fs.refs = tokenRefs(toks, declared)
	return fs
}

// typedFunc reports whether the name at i, which "(" follows, declares a
// function: a type (a name, a keyword such as "void", or the ">" or "?"
// or "]" that ends one) comes before it, and "{" or "=>" after its parameters' ")".
func typedFunc(toks []ltok, i int) bool {
	switch p := toks[i-1]; {
	case p.isName(), p.val == ">", p.val == "?", p.val == "]":
	case p.kind == tokKeyword && strings.Contains(" void int char bool double float long short unsigned ", " "+p.val+" "):
	default:
		return false
	}
	depth := 0
	for j := i + 1; j < len(toks) && j < i+200; j++ {
		switch toks[j].val {
		case "(":
			depth++
		case ")":
			if depth--; depth == 0 {
				next := ""
				if j+1 < len(toks) {
					next = toks[j+1].val
				}
				return next == "{" || next == "=>" || next == "async"
			}
		}
	}
	return false
}

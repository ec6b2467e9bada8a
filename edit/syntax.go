// syntax.go: the syntax check that keeps a reading from breaking a file.

package edit

import (
	"fmt"
	goparser "go/parser"
	goscanner "go/scanner"
	"go/token"
	"path"
	"strings"
)

// A syntaxCheck is a cheap test that a file of some language is well
// formed: it returns "" when the text passes, else what is wrong.
type syntaxCheck struct {
	name  string
	check func(text string) string
	// quick, when set, checks only the parts of a file's lines around
	// the given line ranges [from, to): true means the whole file passes.
	quick func(lines []string, ranges [][2]int) bool
}

// language names a file's language, judged by its name: "" when no
// check below knows it.
func language(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".go":
		return "go"
	case ".py", ".pyi":
		return "python"
	case ".json":
		return "json"
	case ".yaml", ".yml":
		return "yaml"
	case ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".java", ".cs", ".kt", ".kts", ".scala",
		".swift", ".rs", ".dart", ".php":
		return "c"
	case ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx":
		return "js"
	case ".css", ".scss", ".less":
		return "css"
	}
	return ""
}

// blockComments reports whether a file's language, judged by its name,
// writes block comments between "/*" and "*/".
func blockComments(name string) bool {
	switch language(name) {
	case "go", "c", "js", "css":
		return true
	}
	return false
}

// syntaxFor returns the check for a file's language, judged by its name,
// and false when there is none.
func syntaxFor(name string) (syntaxCheck, bool) {
	switch language(name) {
	case "go":
		return syntaxCheck{"go/parser", checkGo, quickGo}, true
	case "python":
		return syntaxCheck{"Python indentation", checkPython, nil}, true
	case "json":
		return syntaxCheck{"JSON brackets and quotes", func(s string) string { return checkBrackets(s, jsonLang) }, nil}, true
	case "yaml":
		return syntaxCheck{"YAML brackets and quotes", func(s string) string { return checkBrackets(s, yamlLang) }, nil}, true
	case "c":
		return syntaxCheck{"brackets and quotes", func(s string) string { return checkBrackets(s, cLang) }, nil}, true
	case "js":
		return syntaxCheck{"brackets and quotes", func(s string) string { return checkBrackets(s, jsLang) }, nil}, true
	}
	return syntaxCheck{}, false
}

func checkGo(text string) string {
	_, err := goparser.ParseFile(token.NewFileSet(), "", text, goparser.SkipObjectResolution)
	if err != nil {
		return err.Error()
	}
	return ""
}

// quickGo parses only the top-level declarations of a Go file that the
// ranges touch: from the declaration keyword at column 0 at or above each
// range to the line before the next one below it. gofmt'd Go starts every
// top-level declaration, and nothing else, at column 0 with its keyword,
// but for the lines of raw strings and comments: a range next to those
// may fail here and pass on the whole file, never the other way.
func quickGo(lines []string, ranges [][2]int) bool {
	starts := func(l string) bool {
		for _, kw := range []string{"func ", "func(", "type ", "var ", "const ", "import "} {
			if strings.HasPrefix(l, kw) {
				return true
			}
		}
		return strings.HasPrefix(l, "type(") || strings.HasPrefix(l, "var(") || strings.HasPrefix(l, "const(") || strings.HasPrefix(l, "import(")
	}
	var b strings.Builder
	b.WriteString("package p\n")
	done := 0 // lines before done are in b already
	for _, r := range ranges {
		from, to := min(r[0], len(lines)), min(r[1], len(lines))
		for from > 0 && (from == len(lines) || !starts(lines[from])) {
			from--
		}
		if from == 0 && (len(lines) == 0 || !starts(lines[0])) {
			return false // no declaration above: a package clause or worse
		}
		for to < len(lines) && !starts(lines[to]) {
			to++
		}
		from = max(from, done)
		for _, l := range lines[from:to] {
			b.WriteString(l)
			b.WriteByte('\n')
		}
		done = max(done, to)
	}
	return checkGo(b.String()) == ""
}

// checkPython checks indentation as Python's tokenizer does: a line is
// indented deeper than the one before only after a line that opens a
// block (ending in a colon), a line after one does so, and every dedent
// returns to an open level. Lines inside brackets, after a backslash or
// inside a triple-quoted string continue their logical line.
func checkPython(text string) string {
	levels := []int{0}
	opens := false // the last logical line ends with a colon
	depth := 0     // open brackets
	triple := ""   // the quotes of an open triple-quoted string
	cont := false  // the last line ended with a backslash
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		continued := depth > 0 || triple != "" || cont
		cont = false
		if !continued {
			s := strings.TrimLeft(line, " \t\f")
			if s == "" || s[0] == '#' {
				continue
			}
			w := indentWidth(line)
			top := levels[len(levels)-1]
			switch {
			case w > top:
				if !opens {
					return fmt.Sprintf("line %d: unexpected indent", n+1)
				}
				levels = append(levels, w)
			case opens:
				return fmt.Sprintf("line %d: expected an indented block", n+1)
			case w < top:
				for len(levels) > 1 && levels[len(levels)-1] > w {
					levels = levels[:len(levels)-1]
				}
				if levels[len(levels)-1] != w {
					return fmt.Sprintf("line %d: unindent does not match any outer indentation level", n+1)
				}
			}
		}
		// Scan the line for brackets, strings and comments.
		last := byte(0) // the last significant character outside strings
		for i := 0; i < len(line); i++ {
			c := line[i]
			if triple != "" {
				if c == '\\' {
					i++
				} else if strings.HasPrefix(line[i:], triple) {
					i += 2
					triple = ""
					last = c
				}
				continue
			}
			switch c {
			case '#':
				i = len(line)
				continue
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				if depth > 0 {
					depth--
				}
			case '"', '\'':
				if strings.HasPrefix(line[i:], strings.Repeat(string(c), 3)) {
					triple = strings.Repeat(string(c), 3)
					i += 2
					continue
				}
				// A string on one line; unterminated, it ends the line.
				j := i + 1
				for j < len(line) && line[j] != c {
					if line[j] == '\\' {
						j++
					}
					j++
				}
				i = j
			case '\\':
				if i == len(line)-1 {
					cont = true
				}
			}
			if c != ' ' && c != '\t' {
				last = c
			}
		}
		if triple == "" && depth == 0 && !cont {
			opens = last == ':'
		}
	}
	if triple != "" {
		return "a triple-quoted string is not closed"
	}
	if opens {
		return "the file ends where an indented block is expected"
	}
	return ""
}

// bracketLang says how a language writes comments and strings.
type bracketLang struct {
	line       string // line comment, "" for none
	block      bool   // /* */ comments
	quotes     string // quote characters of one-line strings
	multiQuote byte   // quote of strings that may span lines, 0 for none
	hashSpace  bool   // '#' starts a comment only at the start or after a space (YAML)
}

var (
	cLang    = bracketLang{line: "//", block: true, quotes: `"'`}
	jsLang   = bracketLang{line: "//", block: true, quotes: `"'`, multiQuote: '`'}
	jsonLang = bracketLang{quotes: `"`}
	yamlLang = bracketLang{line: "#", quotes: `"`, hashSpace: true}
)

// checkBrackets checks that brackets pair up and strings close, outside
// comments and strings.
func checkBrackets(text string, lang bracketLang) string {
	var stack []byte
	var where []int
	inBlock, inMulti := false, false
	pairs := map[byte]byte{')': '(', ']': '[', '}': '{'}
	for n, line := range strings.Split(text, "\n") {
		for i := 0; i < len(line); i++ {
			c := line[i]
			switch {
			case inBlock:
				if strings.HasPrefix(line[i:], "*/") {
					inBlock = false
					i++
				}
				continue
			case inMulti:
				if c == '\\' {
					i++
				} else if c == lang.multiQuote {
					inMulti = false
				}
				continue
			}
			switch {
			case lang.block && strings.HasPrefix(line[i:], "/*"):
				inBlock = true
				i++
			case lang.line != "" && strings.HasPrefix(line[i:], lang.line) &&
				(!lang.hashSpace || i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
				i = len(line)
			case lang.multiQuote != 0 && c == lang.multiQuote:
				inMulti = true
			case strings.IndexByte(lang.quotes, c) >= 0:
				j := i + 1
				for j < len(line) && line[j] != c {
					if line[j] == '\\' {
						j++
					}
					j++
				}
				if j >= len(line) {
					return fmt.Sprintf("line %d: a string is not closed", n+1)
				}
				i = j
			case c == '(' || c == '[' || c == '{':
				stack = append(stack, c)
				where = append(where, n+1)
			case c == ')' || c == ']' || c == '}':
				if len(stack) == 0 || stack[len(stack)-1] != pairs[c] {
					return fmt.Sprintf("line %d: %q closes nothing open", n+1, c)
				}
				stack, where = stack[:len(stack)-1], where[:len(where)-1]
			}
		}
	}
	if len(stack) > 0 {
		return fmt.Sprintf("line %d: %q is never closed", where[len(where)-1], stack[len(stack)-1])
	}
	return ""
}

// goRawLines reports which of lines of Go source begin inside a raw
// string literal ("`...`"), whose text, indentation included, is the
// string's own: inside says the first line does.
func goRawLines(lines []string, inside bool) []bool {
	src := strings.Join(lines, "\n")
	if inside {
		src = "`" + src // the same lines, the literal open from the start
	}
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var sc goscanner.Scanner
	sc.Init(file, []byte(src), func(token.Position, string) {}, 0)
	raw := make([]bool, len(lines))
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			return raw
		}
		if tok != token.STRING || !strings.HasPrefix(lit, "`") {
			continue
		}
		first := fset.Position(pos).Line // 1-based: the literal's opening line
		for l := first; l < first+strings.Count(lit, "\n") && l < len(raw); l++ {
			raw[l] = true
		}
	}
}

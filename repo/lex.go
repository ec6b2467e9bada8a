// lex.go: a small lexer of pair's own: the tokens of a source file by language, for symbols and references.

package repo

import (
	"bytes"
	"path"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// tokKind is what a token of lexFile is.
type tokKind uint8

const (
	tokIdent     tokKind = iota // a name
	tokKeyword                  // a reserved word of the language
	tokPunct                    // an operator or a punctuation mark
	tokDecorator                // @name (a decorator or annotation): the name
	tokBuiltin                  // a name the language defines (len, console)
	tokValue                    // a string, number or regular expression; never emitted
)

// ltok is a token of a source file: its strings, numbers and comments are
// skipped.
type ltok struct {
	kind tokKind
	val  string
	line int // 0-based line of its start
}

// isName reports a token that names something.
func (t ltok) isName() bool { return t.kind == tokIdent || t.kind == tokBuiltin }

// isKeyword reports a keyword or a name whose text is word: a word that is
// a keyword only where it stands ("type", "module") lexes as a name.
func (t ltok) isKeyword(word string) bool {
	return t.val == word && (t.kind == tokKeyword || t.isName())
}

// family is a group of languages that share their keywords.
type family uint8

const (
	famNone family = iota
	famPython
	famJS
	famC // C, C++, the JVM's and .NET's languages, Rust, Swift, Dart, PHP
	famShell
	famRuby
	famLua
	nFamilies
)

// lexFlags say how a language writes comments, strings and names.
type lexFlags uint16

const (
	slashComments  lexFlags = 1 << iota // "//" and "/* */"
	hashComments                        // "#" to the end of the line
	nestedComments                      // "/* /* */ */"
	tripleQuotes                        // """…""" and '''…'''
	multiline                           // a quoted string may span lines
	dollarNames                         // "$" is a letter of names
	heredocs                            // <<EOF (shell, Ruby) and <<<EOF (PHP)
	rustQuotes                          // 'a lifetimes and r#"…"# raw strings
	verbatim                            // C#'s @"…"
	decorators                          // @name
)

// lang is how lexFile reads one language.
type lang struct {
	fam   family
	flags lexFlags
}

// langs are the languages lexFile reads, by extension (or file name).
var langs = sync.OnceValue(func() map[string]lang {
	m := map[string]lang{}
	add := func(l lang, keys string) {
		for _, k := range strings.Fields(keys) {
			m[k] = l
		}
	}
	slash, jvm := slashComments, slashComments|tripleQuotes|nestedComments|decorators
	add(lang{famPython, hashComments | tripleQuotes}, ".py .pyi .pyw")
	add(lang{famJS, slash | dollarNames | decorators}, ".js .mjs .cjs .jsx .ts .tsx .mts .cts")
	add(lang{famC, slash}, ".c .h .cc .cpp .cxx .c++ .hh .hpp .hxx .h++ .m .mm .zig")
	add(lang{famC, slash | tripleQuotes | decorators}, ".java .groovy .gradle jenkinsfile")
	add(lang{famC, jvm}, ".kt .kts .scala .sc .swift .dart")
	add(lang{famC, slash | tripleQuotes | verbatim}, ".cs")
	add(lang{famC, slash | nestedComments | rustQuotes}, ".rs")
	add(lang{famC, slash | hashComments | multiline | heredocs}, ".php")
	add(lang{famShell, hashComments | multiline | heredocs}, ".sh .bash .zsh .ksh")
	add(lang{famRuby, hashComments | multiline | heredocs}, ".rb .rake .gemspec rakefile gemfile")
	add(lang{famLua, 0}, ".lua")
	return m
})

// langOf returns the language of a file by its extension, or its name
// when it has none.
func langOf(name string) (lang, bool) {
	base := path.Base(name)
	key := strings.ToLower(path.Ext(base))
	if key == "" {
		key = strings.ToLower(base)
	}
	l, ok := langs()[key]
	return l, ok
}

// keywords are each family's reserved words.
var keywords = sync.OnceValue(func() [nFamilies]map[string]bool {
	return wordSets(map[family]string{
		famPython: "False None True and as assert async await break class continue def del elif else except finally " +
			"for from global if import in is lambda nonlocal not or pass raise return try while with yield self",
		famJS: "await break case catch class const continue debugger default delete do else enum export extends " +
			"false finally for function if implements import in instanceof interface let new null package private " +
			"protected public return static super switch this throw true try typeof undefined var void while with yield",
		famC: "abstract as auto bool break case catch char class const continue crate default defer delete do double " +
			"dyn echo else elseif enum explicit extends extern false final finally float fn for foreach fun func " +
			"function goto guard if impl implements import in inline instanceof int interface internal is let long " +
			"loop match mod mut namespace new nil null nullptr operator override package private protected protocol " +
			"pub public return self short signed sizeof static struct super switch this throw throws trait true try " +
			"typedef typename union unsafe unsigned use using val var virtual void volatile where while",
		famShell: "if then else elif fi case esac for while until do done in function select time return local " +
			"export readonly declare typeset unset shift break continue exit",
		famRuby: "alias and begin break case class def defined do else elsif end ensure false for if in module next " +
			"nil not or redo rescue retry return self super then true undef unless until when while yield require " +
			"require_relative include extend attr_reader attr_writer attr_accessor private protected public",
		famLua: "and break do else elseif end false for function goto if in local nil not or repeat return then " +
			"true until while self",
	})
})

// builtins are the names Python and JavaScript define, which are no
// reference to a file of the project.
var builtins = sync.OnceValue(func() [nFamilies]map[string]bool {
	return wordSets(map[family]string{
		famPython: "abs all any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex " +
			"delattr dict dir divmod enumerate eval exec filter float format frozenset getattr globals hasattr hash " +
			"help hex id input int isinstance issubclass iter len list locals map max memoryview min next object oct " +
			"open ord pow print property range repr reversed round set setattr slice sorted staticmethod str sum " +
			"super tuple type vars zip __import__ __name__ __file__ cls NotImplemented Ellipsis",
		famJS: "Array Boolean Date Error Function JSON Map Math Number Object Promise Reflect RegExp Set String Symbol " +
			"WeakMap WeakSet console document globalThis window",
	})
})

// defKeywords are the words that the name of a function, class or type
// follows, in any family.
var defKeywords = sync.OnceValue(func() map[string]bool {
	return wordSet("class interface struct enum trait protocol extension actor mixin union " +
		"fn func fun function def typealias typedef namespace module")
})

// wordSets makes each family's set of the words given, separated by
// spaces.
func wordSets(words map[family]string) [nFamilies]map[string]bool {
	var sets [nFamilies]map[string]bool
	for f, w := range words {
		sets[f] = wordSet(w)
	}
	return sets
}

// wordSet is the set of the words of s.
func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// lexFile returns the tokens of src in the language name's extension
// picks, nil when it is none the map reads.
func lexFile(name string, src []byte) []ltok {
	l, ok := langOf(name)
	if !ok {
		return nil
	}
	return lex(l, src)
}

// lexer holds the state of one lex.
type lexer struct {
	lang
	src     []byte
	pos     int
	line    int
	kw      map[string]bool
	builtin map[string]bool
	out     []ltok
	last    tokKind // of the last token, tokValue after a string or number
	lastVal string
	depth   int      // of "{" open
	tmpl    []int    // JS: the depth at each "${" of a template literal
	docs    []string // the here-documents whose bodies start on the next line
}

// lex returns the tokens of src. It never fails: what it cannot read it
// skips or takes for punctuation, and an unterminated string or comment
// ends at the end of the file (a one-line string at the end of its line).
// It takes time linear in src.
func lex(l lang, src []byte) []ltok {
	x := &lexer{lang: l, src: src, kw: keywords()[l.fam], builtin: builtins()[l.fam], last: tokPunct}
	for x.pos < len(src) {
		c := src[x.pos]
		switch {
		case c == '\n':
			x.pos++
			x.line++
			if len(x.docs) > 0 {
				x.heredocBodies()
			}
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			x.pos++
		case x.comment(), x.quoted():
		case isDigit(c) || c == '.' && isDigit(x.at(1)):
			x.number()
		case c == '}' && len(x.tmpl) > 0 && x.tmpl[len(x.tmpl)-1] == x.depth:
			x.tmpl = x.tmpl[:len(x.tmpl)-1]
			x.pos++
			x.template()
		case c == '@':
			x.atSign()
		case c == '/' && (x.fam == famJS || x.fam == famRuby) && x.operandNext():
			x.regex()
		case x.nameStart(x.pos):
			x.word()
		default:
			x.punct()
		}
	}
	return x.out
}

// at returns the byte i after the position, 0 past the end.
func (x *lexer) at(i int) byte {
	if x.pos+i < len(x.src) {
		return x.src[x.pos+i]
	}
	return 0
}

// emit appends a token on the current line.
func (x *lexer) emit(k tokKind, v string) {
	x.out = append(x.out, ltok{kind: k, val: v, line: x.line})
	x.last, x.lastVal = k, v
}

// skipTo moves to end, counting the lines it passes.
func (x *lexer) skipTo(end int) {
	end = min(end, len(x.src))
	x.line += bytes.Count(x.src[x.pos:end], []byte("\n"))
	x.pos = end
}

// value notes a skipped string, number or regular expression.
func (x *lexer) value() { x.last, x.lastVal = tokValue, "" }

// toEOL moves to the end of the line, before its "\n".
func (x *lexer) toEOL() {
	if i := bytes.IndexByte(x.src[x.pos:], '\n'); i >= 0 {
		x.pos += i
	} else {
		x.pos = len(x.src)
	}
}

// operandNext reports whether an operand, not an operator, comes next:
// where "/" starts a regular expression.
func (x *lexer) operandNext() bool {
	switch x.last {
	case tokValue, tokIdent, tokBuiltin:
		return false
	case tokKeyword:
		switch x.lastVal {
		case "this", "super", "self", "true", "false", "null", "nil", "undefined", "end":
			return false
		}
		return true
	}
	return x.lastVal != ")" && x.lastVal != "]" && x.lastVal != "}"
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }

// nameStart reports whether a name starts at i.
func (x *lexer) nameStart(i int) bool {
	if i >= len(x.src) {
		return false
	}
	c := x.src[i]
	if c < utf8.RuneSelf {
		return isASCIILetter(c) || c == '$' && x.flags&dollarNames != 0
	}
	r, _ := utf8.DecodeRune(x.src[i:])
	return unicode.IsLetter(r)
}

// nameEnd returns where the name that starts at i ends.
func (x *lexer) nameEnd(i int) int {
	for i < len(x.src) {
		c := x.src[i]
		if c < utf8.RuneSelf {
			if !isASCIILetter(c) && !isDigit(c) && !(c == '$' && x.flags&dollarNames != 0) {
				break
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(x.src[i:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			break
		}
		i += n
	}
	return i
}

// word lexes a name or keyword, or a string's prefix and the string.
func (x *lexer) word() {
	end := x.nameEnd(x.pos + 1)
	w := string(x.src[x.pos:end])
	if end < len(x.src) {
		next := x.src[end]
		quote := next == '"' || next == '\''
		switch {
		case x.fam == famPython && quote && len(w) <= 2 && strings.Trim(w, "rRbBuUfFtT") == "":
			x.pos = end
			x.quoted()
			return
		case x.flags&rustQuotes != 0 && (w == "r" || w == "br" || w == "cr") && (next == '"' || next == '#'):
			x.pos = end
			x.rawRust()
			return
		case x.flags&rustQuotes != 0 && (w == "b" || w == "c") && quote:
			x.pos = end
			x.quoted()
			return
		case x.fam == famC && x.flags&slashComments != 0 && next == '"' && (w == "R" || w == "LR" || w == "uR" || w == "UR" || w == "u8R"):
			x.pos = end
			x.rawCpp()
			return
		}
	}
	x.pos = end
	switch {
	case x.kw[w]:
		x.emit(tokKeyword, w)
	case x.builtin[w]:
		x.emit(tokBuiltin, w)
	default:
		x.emit(tokIdent, w)
	}
}

func (x *lexer) number() {
	i := x.pos + 1
	for i < len(x.src) {
		c := x.src[i]
		switch {
		case (c == 'e' || c == 'E' || c == 'p' || c == 'P') && i+1 < len(x.src) && (x.src[i+1] == '+' || x.src[i+1] == '-'):
			i += 2
		case isDigit(c) || isASCIILetter(c):
			i++
		case c == '.' && i+1 < len(x.src) && isDigit(x.src[i+1]):
			i++
		default:
			x.pos = i
			x.value()
			return
		}
	}
	x.pos = len(x.src)
	x.value()
}

// comment skips a comment that starts here, and reports whether one did.
func (x *lexer) comment() bool {
	c, next := x.src[x.pos], x.at(1)
	switch {
	case c == '#' && next == '!' && x.pos == 0:
		x.toEOL()
	case c == '/' && next == '/' && x.flags&slashComments != 0:
		x.toEOL()
	case c == '/' && next == '*' && x.flags&slashComments != 0:
		x.blockComment()
	case c == '#' && x.flags&hashComments != 0:
		if x.fam == famShell && x.pos > 0 && !strings.ContainsRune(" \t\r\n;&|()<>", rune(x.src[x.pos-1])) {
			return false // $#, ${#a}, a#b
		}
		x.toEOL()
	case c == '-' && next == '-' && x.fam == famLua:
		x.pos += 2
		if !x.longBracket() {
			x.toEOL()
		}
	case c == '=' && x.fam == famRuby && (x.pos == 0 || x.src[x.pos-1] == '\n') && bytes.HasPrefix(x.src[x.pos:], []byte("=begin")):
		if i := bytes.Index(x.src[x.pos:], []byte("\n=end")); i >= 0 {
			x.skipTo(x.pos + i + 1)
		} else {
			x.skipTo(len(x.src))
		}
		x.toEOL()
	default:
		return false
	}
	return true
}

// blockComment skips a "/* */" comment, nested where the language nests
// them.
func (x *lexer) blockComment() {
	depth := 0
	for x.pos < len(x.src) {
		switch c, next := x.src[x.pos], x.at(1); {
		case c == '/' && next == '*' && (depth == 0 || x.flags&nestedComments != 0):
			depth++
			x.pos += 2
		case c == '*' && next == '/':
			x.pos += 2
			if depth--; depth == 0 {
				return
			}
		default:
			if c == '\n' {
				x.line++
			}
			x.pos++
		}
	}
}

// longBracket skips a Lua long string or comment, [[…]] or [==[…]==],
// and reports whether one starts here.
func (x *lexer) longBracket() bool {
	if x.at(0) != '[' {
		return false
	}
	i := x.pos + 1
	for i < len(x.src) && x.src[i] == '=' {
		i++
	}
	if i >= len(x.src) || x.src[i] != '[' {
		return false
	}
	closing := "]" + strings.Repeat("=", i-x.pos-1) + "]"
	x.pos = i + 1
	x.skipPast(closing)
	return true
}

// skipPast moves past the next occurrence of s, or to the end.
func (x *lexer) skipPast(s string) {
	if i := bytes.Index(x.src[x.pos:], []byte(s)); i >= 0 {
		x.skipTo(x.pos + i + len(s))
	} else {
		x.skipTo(len(x.src))
	}
	x.value()
}

// quoted skips a string that starts here, and reports whether one did.
func (x *lexer) quoted() bool {
	c := x.src[x.pos]
	switch {
	case c == '\'' && x.flags&rustQuotes != 0:
		x.rustTick()
	case (c == '"' || c == '\'') && x.flags&tripleQuotes != 0 && x.at(1) == c && x.at(2) == c:
		x.pos += 3
		x.str(c, true, 3)
	case c == '"' || c == '\'':
		x.pos++
		x.str(c, x.flags&multiline != 0, 1)
	case c == '`' && x.fam == famJS:
		x.pos++
		x.template()
	case c == '`':
		x.pos++
		x.str(c, x.flags&multiline != 0, 1)
	case c == '[' && x.fam == famLua:
		return x.longBracket()
	case c == '%' && x.fam == famRuby:
		return x.percent()
	default:
		return false
	}
	return true
}

// str skips the rest of a string that n quotes q opened, over lines when
// multi is set; a one-line string ends at the end of its line.
func (x *lexer) str(q byte, multi bool, n int) {
	escapes := !(q == '\'' && x.fam == famShell)
	for x.pos < len(x.src) {
		c := x.src[x.pos]
		switch {
		case c == '\\' && escapes:
			x.skipTo(x.pos + 2)
			continue
		case c == q && (n == 1 || x.at(1) == q && x.at(2) == q):
			x.pos += n
			x.value()
			return
		case c == '\n':
			if !multi {
				x.value()
				return
			}
			x.line++
		}
		x.pos++
	}
	x.value()
}

// template skips the text of a JS template literal up to its end or to a
// "${", whose expression is lexed as code up to its "}".
func (x *lexer) template() {
	for x.pos < len(x.src) {
		switch c := x.src[x.pos]; {
		case c == '\\':
			x.skipTo(x.pos + 2)
			continue
		case c == '`':
			x.pos++
			x.value()
			return
		case c == '$' && x.at(1) == '{':
			x.pos += 2
			x.tmpl = append(x.tmpl, x.depth)
			x.last, x.lastVal = tokPunct, "{"
			return
		case c == '\n':
			x.line++
		}
		x.pos++
	}
	x.value()
}

// rustTick skips a Rust character literal; a lifetime's quote alone.
func (x *lexer) rustTick() {
	if x.at(1) == '\\' {
		x.pos++
		x.str('\'', false, 1)
		return
	}
	_, n := utf8.DecodeRune(x.src[min(x.pos+1, len(x.src)):])
	if x.at(1+n) == '\'' && x.at(1) != '\n' {
		x.pos += 2 + n
		x.value()
		return
	}
	x.pos++ // 'a
}

// rawRust skips a raw string r"…" or r#"…"#.
func (x *lexer) rawRust() {
	i := x.pos
	for i < len(x.src) && x.src[i] == '#' {
		i++
	}
	if i >= len(x.src) || x.src[i] != '"' {
		x.emit(tokPunct, "#") // r#ident
		x.pos++
		return
	}
	hashes := i - x.pos
	x.pos = i + 1
	x.skipPast("\"" + strings.Repeat("#", hashes))
}

// rawCpp skips a C++ raw string R"delim(…)delim".
func (x *lexer) rawCpp() {
	open := bytes.IndexByte(x.src[x.pos:min(x.pos+18, len(x.src))], '(') // a delimiter has at most 16 characters
	if open < 0 || bytes.ContainsAny(x.src[x.pos+1:x.pos+open], " \\\n\")") {
		x.pos++
		x.str('"', false, 1)
		return
	}
	delim := string(x.src[x.pos+1 : x.pos+open])
	x.pos += open + 1
	x.skipPast(")" + delim + "\"")
}

// percent skips a Ruby %-literal (%w[…], %q(…), %r{…}, %(…)), and reports
// whether one starts here.
func (x *lexer) percent() bool {
	i := x.pos + 1
	if strings.IndexByte("qQwWiIrsx", x.at(1)) >= 0 {
		i++
	} else if !x.operandNext() {
		return false
	}
	if i >= len(x.src) {
		return false
	}
	open := x.src[i]
	if open < utf8.RuneSelf && (isASCIILetter(open) || isDigit(open)) || open == ' ' || open == '\t' || open == '\n' || open == '=' || open >= utf8.RuneSelf {
		return false
	}
	closing := open
	if j := strings.IndexByte("([{<", open); j >= 0 {
		closing = ")]}>"[j]
	}
	x.pos = i + 1
	depth := 1
	for x.pos < len(x.src) {
		c := x.src[x.pos]
		switch {
		case c == '\\':
			x.skipTo(x.pos + 2)
			continue
		case c == closing:
			if depth--; depth == 0 {
				x.pos++
				x.value()
				return true
			}
		case c == open:
			depth++
		case c == '\n':
			x.line++
		}
		x.pos++
	}
	x.value()
	return true
}

// regex skips a regular expression literal, up to the end of its line at
// most.
func (x *lexer) regex() {
	x.pos++
	class := false
	for x.pos < len(x.src) {
		switch x.src[x.pos] {
		case '\\':
			if x.at(1) == '\n' {
				x.value()
				return
			}
			x.pos += 2
			continue
		case '[':
			class = true
		case ']':
			class = false
		case '\n':
			x.value()
			return
		case '/':
			if !class {
				x.pos = x.nameEnd(x.pos + 1) // its flags
				x.value()
				return
			}
		}
		x.pos++
	}
	x.pos = min(x.pos, len(x.src))
	x.value()
}

// atSign lexes what starts with "@": a decorator or annotation, a Ruby
// instance variable, a C# verbatim string or name.
func (x *lexer) atSign() {
	switch {
	case x.fam == famRuby:
		x.pos++ // @a and @@a are names
		if x.at(0) == '@' {
			x.pos++
		}
	case x.flags&verbatim != 0 && (x.at(1) == '"' || x.at(1) == '$' && x.at(2) == '"'):
		x.pos += 2
		if x.src[x.pos-1] == '$' {
			x.pos++
		}
		x.verbatimStr()
	case x.flags&verbatim != 0 && x.nameStart(x.pos+1):
		x.pos++
		end := x.nameEnd(x.pos)
		x.emit(tokIdent, string(x.src[x.pos:end]))
		x.pos = end
	case x.nameStart(x.pos+1) && (x.flags&decorators != 0 || x.fam == famPython && x.lineStart()):
		x.pos++
		end := x.nameEnd(x.pos)
		x.emit(tokDecorator, string(x.src[x.pos:end]))
		x.pos = end
	default:
		x.punct()
	}
}

// lineStart reports whether only white space comes before the position
// on its line.
func (x *lexer) lineStart() bool {
	i := x.pos - 1
	for i >= 0 && (x.src[i] == ' ' || x.src[i] == '\t') {
		i--
	}
	return i < 0 || x.src[i] == '\n'
}

// verbatimStr skips the rest of a C# @"…" string, where "" is a quote.
func (x *lexer) verbatimStr() {
	for x.pos < len(x.src) {
		switch x.src[x.pos] {
		case '"':
			if x.at(1) != '"' {
				x.pos++
				x.value()
				return
			}
			x.pos++
		case '\n':
			x.line++
		}
		x.pos++
	}
	x.value()
}

// operators are the operators of more than one character, longest first.
var operators = [...]string{
	"===", "!==", "**=", "...", "<<=", ">>=", ">>>", "<=>", "//=", "&&=", "||=", "??=",
	"=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=",
	"&=", "|=", "^=", "**", "->", "::", ":=", "<<", ">>", "//", "..",
}

// punct lexes an operator or punctuation mark, and notes a here-document
// that "<<" starts.
func (x *lexer) punct() {
	c := x.src[x.pos]
	if c >= utf8.RuneSelf {
		_, n := utf8.DecodeRune(x.src[x.pos:])
		x.pos += n // a symbol outside strings: nothing the map reads
		return
	}
	if c == '<' && x.flags&heredocs != 0 && x.heredoc() {
		return
	}
	op := string(c)
	for _, o := range operators {
		if len(x.src)-x.pos >= len(o) && string(x.src[x.pos:x.pos+len(o)]) == o {
			op = o
			break
		}
	}
	switch op {
	case "{":
		x.depth++
	case "}":
		x.depth--
	}
	x.pos += len(op)
	x.emit(tokPunct, op)
}

// heredoc notes the here-document that starts here, and reports whether
// one does: <<EOF, <<-EOF, <<'EOF' in shell; <<~EOF, <<-EOF, <<EOF in
// Ruby; <<<EOF in PHP.
func (x *lexer) heredoc() bool {
	if x.at(1) != '<' {
		return false
	}
	i := x.pos + 2
	switch x.fam {
	case famShell:
		if x.at(2) == '<' {
			return false // a here-string
		}
		if i < len(x.src) && x.src[i] == '-' {
			i++
		}
		for i < len(x.src) && (x.src[i] == ' ' || x.src[i] == '\t') {
			i++
		}
	case famRuby:
		if i < len(x.src) && (x.src[i] == '~' || x.src[i] == '-') {
			i++
		} else if i < len(x.src) && !(x.src[i] >= 'A' && x.src[i] <= 'Z' || x.src[i] == '\'' || x.src[i] == '"') {
			return false
		}
	default:
		if x.at(2) != '<' {
			return false
		}
		i++
		for i < len(x.src) && x.src[i] == ' ' {
			i++
		}
	}
	q := byte(0)
	if i < len(x.src) && (x.src[i] == '\'' || x.src[i] == '"' || x.src[i] == '\\') {
		q = x.src[i]
		i++
	}
	end := i
	for end < len(x.src) && (isASCIILetter(x.src[end]) || isDigit(x.src[end])) {
		end++
	}
	if end == i || isDigit(x.src[i]) {
		return false // a shift
	}
	x.docs = append(x.docs, string(x.src[i:end]))
	if q != 0 && q != '\\' && end < len(x.src) && x.src[end] == q {
		end++
	}
	x.emit(tokPunct, "<<")
	x.pos = end
	return true
}

// heredocBodies skips the bodies of the here-documents that the line
// before started, each up to the line that ends it.
func (x *lexer) heredocBodies() {
	for _, id := range x.docs {
		for x.pos < len(x.src) {
			end := bytes.IndexByte(x.src[x.pos:], '\n')
			if end < 0 {
				end = len(x.src) - x.pos
			}
			line := bytes.TrimLeft(x.src[x.pos:x.pos+end], " \t")
			x.skipTo(x.pos + end + 1)
			if rest, ok := bytes.CutPrefix(line, []byte(id)); ok && (len(rest) == 0 || !isASCIILetter(rest[0]) && !isDigit(rest[0])) {
				break
			}
		}
	}
	x.docs = x.docs[:0]
}

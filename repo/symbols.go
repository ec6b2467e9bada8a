// symbols.go: a file's declarations and references, by language, for the repository map.

package repo

import (
	"bytes"
	"path"
	"regexp"
	"strings"
	"sync"
)

// symbol is a declaration of a source file as the map shows it.
type symbol struct {
	name   string // the identifier it declares, by which references find it
	text   string // what the map shows: the declaration, its signature short
	parent int    // index of the class or type it is a member of; -1 at top level
}

// fileSymbols are the declarations of a file and the identifiers it
// references, with how often.
type fileSymbols struct {
	defs []symbol
	refs map[string]int
}

// maxSigLen is the longest declaration the map shows whole; a longer one
// has its parameters shown as "…".
const maxSigLen = 100

// maxLexSize is the size of the largest file lexFile reads; larger non-Go
// files are listed by name.
const maxLexSize = 256 << 10

// parseSymbols returns the declarations and references of a source file,
// chosen by its extension (or a shell script's #! line). Go is parsed
// (go/parser); Python and JavaScript/TypeScript are read from lexFile's
// tokens; Ruby, Rust, Java, Kotlin, C#, Scala, C, C++ and shell take
// their declarations from a line scan and their references from lexFile;
// any other language lexFile reads (Swift, Dart, PHP, Groovy, Lua, …)
// gives the names that follow its keywords of definition, and its
// references.
func parseSymbols(name string, src []byte) fileSymbols {
	ext := strings.ToLower(path.Ext(name))
	if ext == ".go" {
		return goSymbols(name, src)
	}
	if len(src) > maxLexSize {
		return fileSymbols{}
	}
	switch ext {
	case ".py", ".pyi":
		return pythonSymbols(name, src)
	case ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts":
		return jsSymbols(name, src)
	}
	var rules []scanRule
	switch ext {
	case ".rb", ".rake":
		rules = rubyRules()
	case ".rs":
		rules = rustRules()
	case ".java", ".kt", ".kts", ".cs", ".scala":
		rules = jvmRules()
	case ".c", ".cc", ".cpp", ".cxx", ".c++", ".m", ".mm":
		rules = cRules(false)
	case ".h", ".hh", ".hpp", ".hxx", ".h++":
		rules = cRules(true)
	case ".sh", ".bash", ".zsh", ".ksh":
		rules = shellRules()
	case "":
		if first, _, _ := bytes.Cut(src, []byte("\n")); bytes.HasPrefix(first, []byte("#!")) && bytes.Contains(first, []byte("sh")) {
			rules = shellRules()
			name += ".sh"
		}
	}
	if rules != nil {
		fs := fileSymbols{defs: scanSymbols(src, rules)}
		if toks := lexFile(name, src); toks != nil {
			fs.refs = tokenRefs(toks, nil)
		}
		return fs
	}
	return genericSymbols(name, src)
}

// identRe is an identifier of most languages.
var identRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z_$][\w$]*`) })

// scanName is the identifier a line scan's declaration declares: its last
// word, without "()", generic arguments or a "self." prefix.
func scanName(s string) string {
	s = strings.TrimSuffix(s, "()")
	if i := strings.IndexByte(s, '<'); i > 0 {
		s = s[:i]
	}
	if i := strings.LastIndexAny(s, " .:"); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// oneLine collapses runs of white space to one space.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// clipSig shortens a declaration longer than maxSigLen: its first
// parenthesised list becomes "(…)", and what is still too long is cut
// with "…".
func clipSig(s string) string {
	s = oneLine(s)
	if len(s) <= maxSigLen {
		return s
	}
	if open := strings.IndexByte(s, '('); open >= 0 {
		depth := 0
		for i := open; i < len(s); i++ {
			switch s[i] {
			case '(':
				depth++
			case ')':
				depth--
			}
			if depth == 0 {
				s = s[:open+1] + "…" + s[i:]
				break
			}
		}
	}
	if len(s) > maxSigLen {
		cut := maxSigLen
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// isIdent reports whether s is one identifier.
func isIdent(s string) bool {
	return s != "" && identRe().FindString(s) == s
}

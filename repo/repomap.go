package repo

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// maxMapSize is the size of the largest file whose symbols RepoMap reads;
// larger ones are listed by name.
const maxMapSize = 1 << 20

// RepoMap returns a map of the repository for a model to find its way:
// one entry per file that ListFiles lists, sorted by path, each the path
// on a line and then its top-level symbols, one per line, indented by two
// spaces (four for members of a class, impl or trait):
//
//	repo/tree.go
//	  package repo
//	  type Tree
//	  func Open
//	  func (Tree) Close
//
// Go files are parsed (go/parser): the package, every func and type,
// methods as "func (T) Name", exported consts and vars. Other common
// languages are scanned line by line for their declarations, a heuristic:
// Python def/class (and methods), JavaScript/TypeScript function, class,
// interface, type, enum, exported consts and const arrow functions, Rust
// fn/struct/enum/trait/impl/mod (and fns in impls and traits),
// Java/Kotlin/C# classes, interfaces, enums and methods, C/C++ function
// definitions (and prototypes in headers) and struct/class/enum/union/
// namespace, Ruby def/class/module, shell functions. Other files, binary
// files, files over 1 MiB, and files that look like secrets (unless access
// allows them) are listed by name only; ignored files are not listed
// unless access allows them.
//
// The map is kept within about budgetTokens tokens, counted as 4
// characters each (no bound when budgetTokens <= 0). When the whole map is
// larger, the symbols of the entries with the most symbol text go first,
// one entry at a time, each leaving "path (N symbols)"; if the paths alone
// are still too many, the map ends with "… N more files" after as many as
// fit. truncated reports either cut.
func (t *Tree) RepoMap(access Access, budgetTokens int) (text string, truncated bool, err error) {
	files, _, err := t.ListFiles("", access, 0)
	if err != nil {
		return "", false, err
	}
	entries := make([]mapEntry, len(files))
	for i, p := range files {
		entries[i].path = p
		if !access.Secrets && IsSecret(p) {
			continue
		}
		b, ok := t.readRegular(p, maxMapSize)
		if !ok || isBinary(b) {
			continue
		}
		entries[i].syms = symbols(p, b)
	}
	text, truncated = renderMap(entries, budgetTokens*4)
	return text, truncated, nil
}

// mapEntry is a file of the repository map and its symbols.
type mapEntry struct {
	path    string
	syms    []string
	dropped int // symbols left out for the budget
}

func (e *mapEntry) header() string {
	if e.dropped > 0 {
		return fmt.Sprintf("%s (%d symbols)\n", e.path, e.dropped)
	}
	return e.path + "\n"
}

func (e *mapEntry) symSize() int {
	n := 0
	for _, s := range e.syms {
		n += len(s) + 3 // "  " and "\n"
	}
	return n
}

// renderMap writes the entries within budget characters (no bound when
// budget <= 0), dropping symbols of the largest entries first, then
// entries from the end.
func renderMap(entries []mapEntry, budget int) (string, bool) {
	total := 0
	for i := range entries {
		total += len(entries[i].header()) + entries[i].symSize()
	}
	truncated := false
	if budget > 0 && total > budget {
		order := make([]int, len(entries))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool {
			return entries[order[a]].symSize() > entries[order[b]].symSize()
		})
		for _, i := range order {
			if total <= budget {
				break
			}
			e := &entries[i]
			if len(e.syms) == 0 {
				break // sorted: none left with symbols
			}
			total -= len(e.header()) + e.symSize()
			e.dropped, e.syms = len(e.syms), nil
			total += len(e.header())
			truncated = true
		}
	}
	var b strings.Builder
	for i := range entries {
		e := &entries[i]
		if budget > 0 && total > budget {
			more := fmt.Sprintf("… %d more files\n", len(entries)-i)
			if b.Len()+len(e.header())+len(more) > budget {
				b.WriteString(more)
				return b.String(), true
			}
		}
		b.WriteString(e.header())
		for _, s := range e.syms {
			b.WriteString("  ")
			b.WriteString(s)
			b.WriteByte('\n')
		}
	}
	return b.String(), truncated
}

// symbols returns the top-level declarations of a source file as RepoMap
// lists them, chosen by the file's extension (or a shell script's #!
// line); nil for a file in no language it knows.
func symbols(name string, src []byte) []string {
	ext := strings.ToLower(path.Ext(name))
	switch ext {
	case ".go":
		return goSymbols(name, src)
	case ".py", ".pyi":
		return pythonSymbols(src)
	case ".rb", ".rake":
		return scanSymbols(src, rubyRules())
	case ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts":
		return scanSymbols(src, jsRules())
	case ".rs":
		return scanSymbols(src, rustRules())
	case ".java", ".kt", ".kts", ".cs", ".scala":
		return scanSymbols(src, jvmRules())
	case ".c", ".cc", ".cpp", ".cxx", ".c++", ".m", ".mm":
		return scanSymbols(src, cRules(false))
	case ".h", ".hh", ".hpp", ".hxx", ".h++":
		return scanSymbols(src, cRules(true))
	case ".sh", ".bash", ".zsh", ".ksh":
		return scanSymbols(src, shellRules())
	case "":
		if first, _, _ := bytes.Cut(src, []byte("\n")); bytes.HasPrefix(first, []byte("#!")) && bytes.Contains(first, []byte("sh")) {
			return scanSymbols(src, shellRules())
		}
	}
	return nil
}

// goSymbols lists a Go file's package, funcs, methods, types and exported
// consts and vars, in source order. A file that does not parse gives what
// was read before the error.
func goSymbols(name string, src []byte) []string {
	f, _ := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
	if f == nil || f.Name == nil {
		return nil
	}
	out := []string{"package " + f.Name.Name}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) > 0 {
				out = append(out, fmt.Sprintf("func (%s) %s", recvType(d.Recv.List[0].Type), d.Name.Name))
			} else {
				out = append(out, "func "+d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					out = append(out, "type "+s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							out = append(out, d.Tok.String()+" "+n.Name)
						}
					}
				}
			}
		}
	}
	return out
}

// recvType is the base type name of a method's receiver: T for *T, T[K].
func recvType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return "?"
		}
	}
}

// pythonSymbols lists top-level defs and classes, and the methods of
// top-level classes, of a Python file.
func pythonSymbols(src []byte) []string {
	var out []string
	class, body := false, ""
	for _, line := range strings.Split(string(src), "\n") {
		line = strings.TrimRight(line, " \t\r")
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		indent := line[:len(line)-len(trimmed)]
		if indent == "" {
			class, body = false, ""
			if m := pyClass().FindStringSubmatch(line); m != nil {
				out = append(out, "class "+m[1])
				class = true
			} else if m := pyDef().FindStringSubmatch(line); m != nil {
				out = append(out, "def "+m[2])
			}
			continue
		}
		if !class {
			continue
		}
		if body == "" {
			body = indent
		}
		if indent == body {
			if m := pyDef().FindStringSubmatch(trimmed); m != nil {
				out = append(out, "  def "+m[2])
			}
		}
	}
	return out
}

var (
	pyClass = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^class\s+([A-Za-z_]\w*)`) })
	pyDef   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(async\s+)?def\s+([A-Za-z_]\w*)`) })
)

// scanRule is one kind of declaration a line scan recognises: a line that
// matches re declares the symbol that format makes of the submatches (none
// when it returns ""). Unless indented is set, the line must start at
// column 0. An indented line that a member rule matches is shown indented
// under the declarations before it (a method under its class).
type scanRule struct {
	re       *regexp.Regexp
	format   func(m []string) string
	indented bool
	member   bool
}

// scanSymbols applies the first matching rule to each line of src.
func scanSymbols(src []byte, rules []scanRule) []string {
	var out []string
	for _, line := range strings.Split(string(src), "\n") {
		line = strings.TrimRight(line, " \t\r")
		if line == "" {
			continue
		}
		indented := line[0] == ' ' || line[0] == '\t'
		for _, r := range rules {
			if indented && !r.indented {
				continue
			}
			m := r.re.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			if s := r.format(m); s != "" {
				if r.member && indented {
					s = "  " + s
				}
				out = append(out, s)
			}
			break
		}
	}
	return out
}

// group returns a format that writes prefix and submatch i.
func group(prefix string, i int) func([]string) string {
	return func(m []string) string { return prefix + m[i] }
}

// kindName returns a format that writes submatch k (a keyword) then
// submatch n (a name).
func kindName(k, n int) func([]string) string {
	return func(m []string) string { return m[k] + " " + m[n] }
}

var rubyRules = sync.OnceValue(func() []scanRule {
	return []scanRule{
		{re: regexp.MustCompile(`^\s*(class|module)\s+([A-Z][\w:]*)`), format: kindName(1, 2), indented: true, member: true},
		{re: regexp.MustCompile(`^\s*def\s+((self\.)?[\w?!=\[\]<>+\-*/%~]+)`), format: group("def ", 1), indented: true, member: true},
	}
})

const jsName = `[A-Za-z_$][\w$]*`

var jsRules = sync.OnceValue(func() []scanRule {
	return []scanRule{
		{re: regexp.MustCompile(`^(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*(` + jsName + `)`), format: group("function ", 1)},
		{re: regexp.MustCompile(`^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?class\s+(` + jsName + `)`), format: group("class ", 1)},
		{re: regexp.MustCompile(`^(?:export\s+)?(?:declare\s+)?(?:const\s+)?(interface|type|enum)\s+(` + jsName + `)`), format: kindName(1, 2)},
		{re: regexp.MustCompile(`^(?:export\s+)?(?:const|let|var)\s+(` + jsName + `)\s*(?::[^=]*)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]*)?=>|` + jsName + `\s*=>)`), format: group("const ", 1)},
		{re: regexp.MustCompile(`^export\s+(?:const|let|var)\s+(` + jsName + `)`), format: group("const ", 1)},
	}
})

const rustVis = `(?:pub(?:\s*\([^)]*\))?\s+)?`

var rustRules = sync.OnceValue(func() []scanRule {
	return []scanRule{
		{re: regexp.MustCompile(`^` + rustVis + `(?:default\s+)?(?:(?:const|async|unsafe|extern(?:\s+"[^"]*")?)\s+)*fn\s+(\w+)`), format: group("fn ", 1)},
		{re: regexp.MustCompile(`^` + rustVis + `(struct|enum|union|type|mod|static|const)\s+(\w+)`), format: kindName(1, 2)},
		{re: regexp.MustCompile(`^` + rustVis + `(?:unsafe\s+)?(?:auto\s+)?trait\s+(\w+)`), format: group("trait ", 1)},
		{re: regexp.MustCompile(`^(?:unsafe\s+)?impl\b(?:\s*<[^{]*?>)?\s*([^{]+?)\s*(?:\{.*)?$`), format: func(m []string) string {
			s, _, _ := strings.Cut(m[1], " where ")
			return "impl " + strings.TrimSuffix(strings.TrimSpace(s), " where")
		}},
		{re: regexp.MustCompile(`^macro_rules!\s*(\w+)`), format: group("macro ", 1)},
		{re: regexp.MustCompile(`^\s+` + rustVis + `(?:default\s+)?(?:(?:const|async|unsafe|extern(?:\s+"[^"]*")?)\s+)*fn\s+(\w+)`), format: group("fn ", 1), indented: true, member: true},
	}
})

const jvmMods = `(?:(?:public|private|protected|internal|static|final|abstract|sealed|partial|open|data|inner|enum|annotation|value|readonly|unsafe|new|override|virtual|file|non-sealed|strictfp|implicit|case)\s+)*`

var jvmKeywords = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "catch": true, "return": true,
	"new": true, "throw": true, "else": true, "using": true, "lock": true, "foreach": true,
	"synchronized": true, "when": true, "try": true, "do": true,
}

var jvmRules = sync.OnceValue(func() []scanRule {
	return []scanRule{
		{re: regexp.MustCompile(`^\s*(?:@\w+(?:\([^)]*\))?\s+)*` + jvmMods + `(class|interface|enum|record|object|struct|trait)\s+(\w+)`), format: kindName(1, 2), indented: true},
		{re: regexp.MustCompile(`^(\s*)(?:(?:public|private|protected|internal|override|open|suspend|inline|abstract|final|operator|infix|tailrec|external|actual|expect)\s+)*fun\s+(?:<[^>]*>\s*)?(?:[\w.]+\.)?(\w+)\s*\(`), format: func(m []string) string {
			if m[1] != "" {
				return "  fun " + m[2]
			}
			return "fun " + m[2]
		}, indented: true},
		{re: regexp.MustCompile(`^\s+(?:(?:public|private|protected|internal|static|final|abstract|synchronized|override|virtual|async|native|sealed|extern|unsafe|new|partial|default|strictfp|def)\s+)+(?:[\w<>\[\],.?]+(?:\s*,\s*[\w<>\[\],.?]+)*\s+)?(\w+)\s*[(\[]`), format: func(m []string) string {
			if jvmKeywords[m[1]] {
				return ""
			}
			return "  " + m[1] + "()"
		}, indented: true},
	}
})

var cKeywords = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "return": true, "sizeof": true,
	"else": true, "do": true, "case": true, "typedef": true, "defined": true,
}

// cRules are the C and C++ declarations at column 0: type definitions,
// and function definitions (type words, a name, "(", and no ";" at the
// end of the line); in a header, prototypes (ending with ";") too.
// cTypeRe and cFuncRe are cRules' expressions, compiled once.
var (
	cTypeRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:typedef\s+)?(?:template\s*<[^>]*>\s*)?(struct|class|enum|union|namespace)\s+(?:class\s+)?([A-Za-z_]\w*)\s*(?:final\s*)?(?:[:{].*)?$`)
	})
	cFuncRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^((?:[\w:<>,]+[\s\*&]+)*)(~?[A-Za-z_]\w*(?:::~?[A-Za-z_]\w*)*)\s*\((.*)$`)
	})
)

func cRules(header bool) []scanRule {
	return []scanRule{
		{re: cTypeRe(), format: kindName(1, 2)},
		{re: cFuncRe(), format: func(m []string) string {
			words, name, rest := m[1], m[2], m[3]
			first, _, _ := strings.Cut(words, " ")
			if cKeywords[name] || cKeywords[first] || first == "return" || first == "else" || first == "goto" {
				return ""
			}
			if strings.Contains(rest, ";") && !(header && strings.HasSuffix(rest, ";")) {
				return "" // a statement, or a prototype outside a header
			}
			return name + "()"
		}},
	}
}

var shellRules = sync.OnceValue(func() []scanRule {
	return []scanRule{
		{re: regexp.MustCompile(`^\s*function\s+([A-Za-z_][\w.:-]*)`), format: func(m []string) string { return m[1] + "()" }, indented: true},
		{re: regexp.MustCompile(`^\s*([A-Za-z_][\w.:-]*)\s*\(\)`), format: func(m []string) string { return m[1] + "()" }, indented: true},
	}
})

// symbols_scan.go: declarations of Ruby, Rust, the JVM languages, C and shell, found line by line with patterns.

package repo

import (
	"regexp"
	"strings"
	"sync"
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

// scanSymbols applies the first matching rule to each line of src. An
// indented member is a member of the last declaration at column 0.
func scanSymbols(src []byte, rules []scanRule) []symbol {
	var out []symbol
	top := -1
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
				sym := symbol{name: scanName(strings.TrimSpace(s)), text: strings.TrimSpace(s), parent: -1}
				switch {
				case strings.HasPrefix(s, "  ") && top >= 0:
					sym.parent = top
				case r.member && indented && top >= 0:
					sym.parent = top
				default:
					top = len(out)
				}
				out = append(out, sym)
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

var jvmKeywords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"if": true, "for": true, "while": true, "switch": true, "catch": true, "return": true,
		"new": true, "throw": true, "else": true, "using": true, "lock": true, "foreach": true,
		"synchronized": true, "when": true, "try": true, "do": true,
	}
})

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
			if jvmKeywords()[m[1]] {
				return ""
			}
			return "  " + m[1] + "()"
		}, indented: true},
	}
})

var cKeywords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"if": true, "for": true, "while": true, "switch": true, "return": true, "sizeof": true,
		"else": true, "do": true, "case": true, "typedef": true, "defined": true,
	}
})

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
			if cKeywords()[name] || cKeywords()[first] || first == "return" || first == "else" || first == "goto" {
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

// rank.go: PageRank over files, personalised by what the request mentions and the files in context.

package repo

import (
	"math"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
)

// mapFile is a file of the map: its symbols, and how it ranks.
type mapFile struct {
	path string
	fileSymbols
	test      bool // a test file: ranked low
	other     bool // binary: ranked low
	context   bool // in the model's context already: not shown
	mentioned bool // its path is mentioned
	shown     bool // in the focus
	rank      float64
	symRank   []float64
}

// Boosts of what the request mentions, and the cuts of what matters less.
const (
	boostIdent   = 1000.0 // a symbol named by an identifier-like word
	boostWord    = 100.0  // a symbol named by a plain word
	boostPath    = 20.0   // a symbol of a file the request names
	personal     = 100.0  // the weight of a mentioned or in-context file in PageRank's restart
	testCut      = 0.1    // a test file's symbols and its rank
	damping      = 0.85
	rankRounds   = 50
	manyDefiners = 5    // a name defined in more files than this is common
	memberCut    = 0.3  // a member: its name is more often another's
	unreferenced = 0.05 // the share of its file's rank an unreferenced symbol has
)

// mentions are the identifiers and paths a request names.
type mentions struct {
	idents map[string]float64 // identifier to its boost
	paths  []string           // lowercased words that look like paths
	words  map[string]bool    // lowercased words, to match file names
}

var (
	mentionWordRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[\w$./-]+`) })
	// stopWords are plain English words that name no symbol in a request.
	stopWords = map[string]bool{
		"that": true, "this": true, "with": true, "from": true, "when": true, "what": true,
		"have": true, "should": true, "does": true, "code": true, "make": true, "into": true,
		"like": true, "also": true, "then": true, "them": true, "than": true, "there": true,
		"where": true, "which": true, "would": true, "could": true, "after": true, "before": true,
		"just": true, "only": true, "some": true, "more": true, "most": true, "each": true,
		"other": true, "same": true, "used": true, "uses": true, "using": true, "please": true,
		"function": true, "method": true, "class": true, "file": true, "files": true, "change": true,
		"instead": true, "because": true, "need": true, "needs": true, "want": true, "wrong": true,
		"returns": true, "return": true, "called": true, "calls": true, "every": true, "about": true,
	}
)

// parseMentions reads the words of texts.
func parseMentions(texts []string) mentions {
	m := mentions{idents: map[string]float64{}, words: map[string]bool{}}
	for _, text := range texts {
		for _, w := range mentionWordRe().FindAllString(text, -1) {
			w = strings.Trim(w, ".-/")
			if strings.ContainsAny(w, "./") {
				m.paths = append(m.paths, strings.ToLower(strings.TrimPrefix(w, "./")))
			}
			for _, id := range identRe().FindAllString(w, -1) {
				m.words[strings.ToLower(id)] = true
				boost := 0.0
				switch {
				case identLike(id):
					boost = boostIdent
				case len(id) >= 4 && !stopWords[strings.ToLower(id)]:
					boost = boostWord
				}
				if boost > m.idents[id] {
					m.idents[id] = boost
				}
			}
		}
	}
	return m
}

// identLike reports a word that is written as code: with an underscore,
// a digit or a capital letter after its first, as in parse_args, utf8,
// parseArgs, HTTPClient. A word that is only capitalised (Tree, or Fix at
// the start of a sentence) is a plain word.
func identLike(w string) bool {
	for i, r := range w {
		if r == '_' && i > 0 || unicode.IsDigit(r) || unicode.IsUpper(r) && i > 0 {
			return true
		}
	}
	return false
}

// mentionsPath reports whether the request names the file at p: its path,
// a path it ends with, its name, or (for a word of five letters or more)
// its name without the extension.
func (m mentions) mentionsPath(p string) bool {
	lp := strings.ToLower(p)
	base := path.Base(lp)
	for _, w := range m.paths {
		if lp == w || strings.HasSuffix(lp, "/"+w) || base == w || strings.HasSuffix(w, "/") && strings.HasPrefix(lp, w) {
			return true
		}
	}
	stem := strings.TrimSuffix(base, path.Ext(base))
	return len(stem) >= 5 && m.words[stem]
}

// identWeight is how much a reference to ident counts: more for a
// mentioned one and a long compound name, less for a private one and a
// name that many files define (String, init, constructor).
func identWeight(ident string, definers int, mentioned bool) float64 {
	w := 1.0
	switch {
	case mentioned:
	case len(ident) <= 2:
		return 0 // i, s, ok: a local variable's name far more often than a symbol's
	case len(ident) == 3:
		w *= 0.1
	}
	if mentioned {
		w *= 10
	}
	if len(ident) >= 8 && (strings.Contains(ident, "_") || identLike(ident[1:])) {
		w *= 10
	}
	if strings.HasPrefix(ident, "_") {
		w *= 0.1
	}
	if definers > manyDefiners {
		w *= 0.1
	}
	return w
}

// langFamily groups the extensions whose files refer to each other's
// names.
var langFamily = sync.OnceValue(func() map[string]string {
	return map[string]string{
		".js": "js", ".jsx": "js", ".mjs": "js", ".cjs": "js", ".ts": "js", ".tsx": "js", ".mts": "js", ".cts": "js",
		".py": "py", ".pyi": "py", ".c": "c", ".h": "c", ".cc": "c", ".cpp": "c", ".cxx": "c", ".hh": "c", ".hpp": "c", ".hxx": "c",
		".java": "jvm", ".kt": "jvm", ".kts": "jvm", ".scala": "jvm",
	}
})

// sameLanguage reports whether a file at from can refer to names declared
// in the file at to: both are in one language (or family).
func sameLanguage(from, to string) bool {
	a, b := strings.ToLower(path.Ext(from)), strings.ToLower(path.Ext(to))
	if fa, ok := langFamily()[a]; ok {
		return fa == langFamily()[b]
	}
	return a == b
}

// rankFiles ranks the files and their symbols: PageRank over the graph in
// which a file links to each file that defines an identifier it uses,
// restarting at the mentioned and in-context files (and those that define
// a mentioned identifier); a symbol then ranks by the share of rank that
// flows to it along those links, and by its file's rank.
func rankFiles(files []*mapFile, m mentions) {
	definers := map[string][]int{}
	for i, f := range files {
		seen := map[string]bool{}
		for _, s := range f.defs {
			if !seen[s.name] {
				seen[s.name] = true
				definers[s.name] = append(definers[s.name], i)
			}
		}
	}
	// A plain word that names a symbol of many files points at none.
	for id, b := range m.idents {
		if b == boostWord && len(definers[id]) > manyDefiners {
			delete(m.idents, id)
		}
	}
	type edge struct {
		from, to int
		ident    string
		w        float64
	}
	var edges []edge
	out := make([]float64, len(files))
	for i, f := range files {
		keys := make([]string, 0, len(f.refs))
		for k := range f.refs {
			keys = append(keys, k)
		}
		sort.Strings(keys) // a deterministic sum
		for _, k := range keys {
			scope, id := splitScoped(k)
			var ds []int
			for _, d := range definers[id] {
				if d != i && sameLanguage(f.path, files[d].path) && inScope(scope, f.path, files[d].path) {
					ds = append(ds, d)
				}
			}
			if len(ds) == 0 {
				continue
			}
			w := identWeight(id, len(definers[id]), m.idents[id] > 0) * math.Sqrt(float64(f.refs[k]))
			if w == 0 {
				continue
			}
			for _, d := range ds {
				edges = append(edges, edge{i, d, id, w})
				out[i] += w
			}
		}
	}

	restart := make([]float64, len(files))
	sum := 0.0
	for i, f := range files {
		restart[i] = 1
		if f.test {
			restart[i] = testCut // what tests use is less central than what code uses
		}
		if f.context || f.mentioned {
			restart[i] += personal
		}
		for _, s := range f.defs {
			if m.idents[s.name] > 0 {
				restart[i] += personal
				break
			}
		}
		sum += restart[i]
	}
	for i := range restart {
		restart[i] /= sum
	}
	rank := append([]float64(nil), restart...)
	next := make([]float64, len(files))
	for range rankRounds {
		dangling := 0.0
		for i := range files {
			if out[i] == 0 {
				dangling += rank[i]
			}
		}
		for i := range next {
			next[i] = (1-damping)*restart[i] + damping*dangling*restart[i]
		}
		for _, e := range edges {
			next[e.to] += damping * rank[e.from] * e.w / out[e.from]
		}
		rank, next = next, rank
	}

	flow := map[int]map[string]float64{}
	for _, e := range edges {
		if flow[e.to] == nil {
			flow[e.to] = map[string]float64{}
		}
		flow[e.to][e.ident] += rank[e.from] * e.w / out[e.from]
	}
	for i, f := range files {
		f.rank = rank[i]
		cut := 1.0
		if f.test {
			cut = testCut
		}
		if f.other {
			cut *= testCut
		}
		f.rank *= cut
		if f.mentioned {
			f.rank *= boostPath
		}
		same := map[string]int{}
		for _, s := range f.defs {
			same[s.name]++
		}
		f.symRank = make([]float64, len(f.defs))
		for j, s := range f.defs {
			r := flow[i][s.name]/float64(same[s.name]) + unreferenced*rank[i]/float64(len(f.defs))
			if s.parent >= 0 {
				r *= memberCut
			}
			if b := m.idents[s.name]; b > 0 {
				r *= b
			}
			if f.mentioned {
				r *= boostPath
			}
			f.symRank[j] = r * cut
		}
	}
}

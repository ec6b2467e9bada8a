// repomap.go: Map, the repository map: files ranked by the reference graph and the request, within a budget.

package repo

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"time"
)

// maxMapSize is the size of the largest file whose symbols the map reads;
// larger ones are listed by name.
const maxMapSize = 1 << 20

// charsPerToken is how the map counts its budget: 4 characters a token.
const charsPerToken = 4

// Map returns a map of the repository for a model to find its way: the
// files and their declarations that rank highest, within opts.Budget,
// and whether anything was left out. Each file is its path on a line,
// then its declarations with short signatures, indented by two spaces
// (four for the members of a class or type):
//
//	repo/tree.go
//	  type Tree struct
//	    Dir string
//	    func (t *Tree) Close() error
//	  func Open(dir string) (*Tree, error)
//
// The files come best first, those whose declarations the budget leaves
// out by path after them, and a last line counts the files left out.
//
// Files and declarations rank by the references between files: a file
// that uses an identifier links to the files that define it, PageRank
// ranks the files, restarting at the files in context, the files the
// request names and those that define an identifier it names, and a
// declaration ranks by the rank that flows to it along the links of its
// name. Declarations the request names rank first. Test files rank low.
// The budget is filled with the declarations in rank order, the lowest
// left out; a member brings its class along.
//
// Left out: files under testdata, fixtures, vendor, node_modules and
// third_party folders, lock files, minified code, generated files
// ("Code generated … DO NOT EDIT."), data files over 32 KiB, ignored files
// (unless access allows them), and the files in context; a file the
// focus matches is never left out for its kind. Files that look like
// secrets are listed by name only, unless access allows them; so are
// binary files, files over 1 MiB and files in no language the map reads.
//
// How declarations are read: Go with go/parser; Python, JavaScript and
// TypeScript from the tokens of a small lexer of our own (lex.go), classes
// with their members; Ruby, Rust, Java, Kotlin, C#, Scala, C, C++ and
// shell by a line scan; Swift, Dart, PHP, Groovy and Lua by the names that
// follow their keywords of definition (class, func, function, …).
// References come from the same parse or tokens: every identifier a file
// uses.
func (t *Tree) Map(access Access, opts MapOptions) (text string, truncated bool, err error) {
	budget := opts.Budget
	if budget == 0 {
		budget = DefaultMapBudget
	}
	all, _, err := t.ListFiles("", access, 0)
	if err != nil {
		return "", false, err
	}
	var focus map[string]bool
	if opts.Focus != "" {
		fl, _, err := t.ListFiles(opts.Focus, access, 0)
		if err != nil {
			return "", false, err
		}
		focus = map[string]bool{}
		for _, p := range fl {
			focus[p] = true
		}
	}
	context := map[string]bool{}
	for _, p := range opts.InContext {
		context[path.Clean(strings.TrimPrefix(p, "./"))] = true
	}
	m := parseMentions(opts.Mentioned)
	var files []*mapFile
	for _, p := range all {
		focused := focus[p]
		if !focused && leftOutPath(p) {
			continue
		}
		f := &mapFile{path: p, test: isTestPath(p), context: context[p], shown: focus == nil || focused}
		f.shown = f.shown && !f.context
		f.mentioned = m.mentionsPath(p)
		if !access.Secrets && IsSecret(p) {
			files = append(files, f)
			continue
		}
		r := t.mapRead(p)
		if r.leftOut && !focused {
			continue
		}
		f.other, f.fileSymbols = r.other, r.syms
		files = append(files, f)
	}
	rankFiles(files, m)
	text, truncated = renderMap(files, budget*charsPerToken)
	return text, truncated, nil
}

// mapRead is what the map reads of a file.
type mapRead struct {
	size    int64
	mod     time.Time
	leftOut bool // by its content (see leftOutContent)
	other   bool // binary
	syms    fileSymbols
}

// mapRead reads the symbols of the file at p, or takes them from the
// cache while the file keeps its size and modification time.
func (t *Tree) mapRead(p string) mapRead {
	fi, err := t.root.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return mapRead{}
	}
	if c, ok := t.mapCache.Load(p); ok {
		if c := c.(mapRead); c.size == fi.Size() && c.mod.Equal(fi.ModTime()) {
			return c
		}
	}
	r := mapRead{size: fi.Size(), mod: fi.ModTime()}
	b, ok := t.readRegular(p, maxMapSize)
	switch {
	case !ok:
		return r // too large, or changed since: not kept
	case isBinary(b):
		r.other = true
	case leftOutContent(p, b):
		r.leftOut = true
	default:
		r.syms = parseSymbols(p, b)
	}
	t.mapCache.Store(p, r)
	return r
}

// RepoMap is Map of the whole tree, for no request in particular, within
// about budgetTokens tokens (no bound when budgetTokens <= 0).
func (t *Tree) RepoMap(access Access, budgetTokens int) (text string, truncated bool, err error) {
	if budgetTokens <= 0 {
		budgetTokens = -1
	}
	return t.Map(access, MapOptions{Budget: budgetTokens})
}

// mapSym is a declaration that may go in the map.
type mapSym struct {
	file *mapFile
	i    int // index in file.defs
}

// symLine is the line of a declaration in the map.
func symLine(f *mapFile, i int) string {
	if f.defs[i].parent >= 0 {
		return "    " + f.defs[i].text + "\n"
	}
	return "  " + f.defs[i].text + "\n"
}

// renderMap writes the shown files within budget characters (no bound
// when budget < 0): declarations in rank order while they fit, then the
// paths of the other files in rank order, then a count of those left out.
func renderMap(files []*mapFile, budget int) (string, bool) {
	var shown []*mapFile
	var syms []mapSym
	for _, f := range files {
		if !f.shown {
			continue
		}
		shown = append(shown, f)
		for i := range f.defs {
			syms = append(syms, mapSym{f, i})
		}
	}
	sort.SliceStable(syms, func(a, b int) bool {
		return syms[a].file.symRank[syms[a].i] > syms[b].file.symRank[syms[b].i]
	})
	sort.SliceStable(shown, func(a, b int) bool { return shown[a].rank > shown[b].rank })

	const tail = len("… 1000000 more files\n")
	room := budget - tail
	unbounded := budget < 0
	picked := map[*mapFile]map[int]bool{}
	var order []*mapFile // files in the order their first declaration was picked
	used := 0
	left := false
	for _, s := range syms {
		cost := len(symLine(s.file, s.i))
		sel := picked[s.file]
		if sel == nil {
			cost += len(s.file.path) + 1
		}
		parent := s.file.defs[s.i].parent
		if parent >= 0 && !sel[parent] {
			cost += len(symLine(s.file, parent))
		}
		if !unbounded && used+cost > room {
			left = true
			continue
		}
		if sel == nil {
			sel = map[int]bool{}
			picked[s.file] = sel
			order = append(order, s.file)
		}
		sel[s.i] = true
		if parent >= 0 {
			sel[parent] = true
		}
		used += cost
	}
	more := 0
	for _, f := range shown {
		if picked[f] != nil {
			continue
		}
		if !unbounded && used+len(f.path)+1 > room {
			more++
			continue
		}
		picked[f] = map[int]bool{}
		order = append(order, f)
		used += len(f.path) + 1
	}

	var b strings.Builder
	for _, f := range order {
		b.WriteString(f.path)
		b.WriteByte('\n')
		sel := picked[f]
		for i, s := range f.defs {
			if s.parent >= 0 || !sel[i] {
				continue
			}
			b.WriteString(symLine(f, i))
			for j := i + 1; j < len(f.defs); j++ {
				if f.defs[j].parent == i && sel[j] {
					b.WriteString(symLine(f, j))
				}
			}
		}
	}
	if more > 0 {
		fmt.Fprintf(&b, "… %d more files\n", more)
	}
	return b.String(), left || more > 0
}

package apply

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The generator: random small repositories and random changes to them,
// made into a patch by one of the makers (git diff -M -C --binary, git
// format-patch, diff -ruN), applied by pair and by git apply, git am or
// patch -p1 (see runGitCase). A case is all a seed's.

// excluded are the change kinds the generator knows but does not make
// yet, each with why. Taking a kind out of the list switches it on.
var excluded = map[string]string{
	"binary":  "binary patches (GIT binary patch, literal and delta) are being added on another branch; pair refuses them here",
	"symlink": "symbolic links as content (create, change, typechange) are being added on another branch; pair refuses them here",
}

// makers are the commands that make a case's patch, chosen by its seed
// (see runGitCase), with the change kinds each cannot write.
var makers = []struct {
	name, cmd string
	unwrites  []string
}{
	{"git diff", "git diff -M -C --binary base HEAD", nil},
	{"git format-patch", formatPatch, nil},
	{"git diff", "git diff -M -C --binary base HEAD", nil},
	// diff writes no modes, no links and no binary content.
	{"diff -ruN", diffRuN, []string{"mode", "binary", "symlink"}},
}

// kinds are the changes the generator makes, each chosen at random.
var kinds = []string{"edit", "edit", "edit", "rename", "rename-edit", "copy", "mode", "delete", "new", "crlf", "newline", "binary", "symlink"}

// words make the lines of the generated files.
var words = strings.Fields("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon")

type genFile struct {
	name    string
	content string
	exec    bool
}

type generator struct {
	r     *rand.Rand
	files map[string]*genFile
	n     int // names given so far
	log   []string
}

func (g *generator) line() string {
	n := 2 + g.r.IntN(5)
	w := make([]string, n)
	for i := range w {
		w[i] = words[g.r.IntN(len(words))]
	}
	return strings.Join(w, " ")
}

// text is a file of a few lines; some files end without a newline, some
// (when crlf) with CRLF.
func (g *generator) text(crlf bool) string {
	n := 1 + g.r.IntN(25)
	lines := make([]string, n)
	for i := range lines {
		lines[i] = g.line()
	}
	eol := "\n"
	if g.r.IntN(8) == 0 && crlf {
		eol = "\r\n"
	}
	s := strings.Join(lines, eol)
	if g.r.IntN(6) != 0 {
		s += eol
	}
	return s
}

func (g *generator) name() string {
	g.n++
	dirs := []string{"", "", "src/", "src/lib/", "doc/"}
	return fmt.Sprintf("%sf%d.txt", dirs[g.r.IntN(len(dirs))], g.n)
}

// pick returns a file of the repository, or nil when it has none.
func (g *generator) pick() *genFile {
	if len(g.files) == 0 {
		return nil
	}
	var names []string
	for n := range g.files {
		names = append(names, n)
	}
	slices.Sort(names)
	return g.files[names[g.r.IntN(len(names))]]
}

// edit changes a few lines of s: replaced, inserted, deleted.
func (g *generator) edit(s string) string {
	eol := "\n"
	if strings.Contains(s, "\r\n") {
		eol = "\r\n"
	}
	final := strings.HasSuffix(s, eol)
	lines := strings.Split(strings.TrimSuffix(s, eol), eol)
	for range 1 + g.r.IntN(3) {
		i := g.r.IntN(len(lines) + 1)
		switch g.r.IntN(3) {
		case 0:
			lines = slices.Insert(lines, i, g.line())
		case 1:
			if i < len(lines) && len(lines) > 1 {
				lines = slices.Delete(lines, i, i+1)
			}
		default:
			if i < len(lines) {
				lines[i] = g.line()
			}
		}
	}
	out := strings.Join(lines, eol)
	if final {
		out += eol
	}
	return out
}

// change makes one change of kind k to the files, or reports false;
// first says the repository's first commit is being made.
func (g *generator) change(k string, first bool) bool {
	f := g.pick()
	crlfOK := first || excluded["crlf-created"] == ""
	switch k {
	case "new":
		nf := &genFile{name: g.name(), content: g.text(crlfOK), exec: g.r.IntN(4) == 0}
		g.files[nf.name] = nf
	case "edit":
		if f == nil {
			return false
		}
		f.content = g.edit(f.content)
	case "rename", "rename-edit", "copy":
		if f == nil || !crlfOK && strings.Contains(f.content, "\r") {
			return false
		}
		nf := &genFile{name: g.name(), content: f.content, exec: f.exec}
		if k != "copy" {
			delete(g.files, f.name)
		}
		if k != "rename" {
			nf.content = g.edit(nf.content)
		}
		g.files[nf.name] = nf
	case "mode":
		if f == nil {
			return false
		}
		f.exec = !f.exec
	case "delete":
		if f == nil {
			return false
		}
		delete(g.files, f.name)
	case "crlf":
		if f == nil {
			return false
		}
		if strings.Contains(f.content, "\r\n") {
			f.content = strings.ReplaceAll(f.content, "\r\n", "\n")
		} else {
			f.content = strings.ReplaceAll(f.content, "\n", "\r\n")
		}
	case "newline":
		if f == nil || f.content == "" {
			return false
		}
		// With the file's own line ending: pair ends a file's new last
		// line as the file ends its lines, where git writes the patch's.
		eol := "\n"
		if strings.Contains(f.content, "\r\n") {
			eol = "\r\n"
		}
		if strings.HasSuffix(f.content, "\n") {
			f.content = strings.TrimSuffix(f.content, eol)
		} else {
			f.content += eol
		}
	case "binary":
		b := make([]byte, 16+g.r.IntN(64))
		for i := range b {
			b[i] = byte(g.r.IntN(256))
		}
		b[0] = 0
		nf := &genFile{name: g.name(), content: string(b)}
		g.files[nf.name] = nf
	case "symlink":
		if f == nil {
			return false
		}
		nf := &genFile{name: g.name() + ".link", content: "-> " + f.name}
		g.files[nf.name] = nf
	}
	g.log = append(g.log, k)
	return true
}

// write makes the directory hold exactly the generator's files.
func (g *generator) write(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.Name() != ".git" {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, f := range g.files {
		p := filepath.Join(dir, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(f.content, "-> "); ok && strings.HasSuffix(f.name, ".link") {
			rel, _ := filepath.Rel(filepath.Dir(f.name), target)
			if err := os.Symlink(rel, p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		mode := os.FileMode(0o644)
		if f.exec {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(f.content), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
}

// genCase checks the case of one seed.
func genCase(t *testing.T, seed uint64) {
	g := &generator{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), files: map[string]*genFile{}}
	m := makers[seed%uint64(len(makers))]
	allowed := slices.DeleteFunc(slices.Clone(kinds), func(k string) bool { return excluded[k] != "" || slices.Contains(m.unwrites, k) })
	for range 1 + g.r.IntN(5) {
		g.change("new", true)
	}
	g.log = nil
	var base []*genFile
	for _, f := range g.files {
		c := *f
		base = append(base, &c)
	}
	setup := func(dir string) {
		saved := g.files
		g.files = map[string]*genFile{}
		for _, f := range base {
			g.files[f.name] = f
		}
		g.write(t, dir)
		g.files = saved
	}
	for range 1 + g.r.IntN(4) {
		g.change(allowed[g.r.IntN(len(allowed))], false)
	}
	change := func(dir string) {
		g.write(t, dir)
		sh(t, dir, "git add -A; git commit -q --allow-empty -m change")
	}
	t.Logf("seed %d: %s; patch by %s", seed, strings.Join(g.log, ", "), m.name)
	runGitCase(t, setup, change, m.cmd)
}

func TestApplyLikeGitGenerated(t *testing.T) {
	t.Parallel()
	n := 200
	if testing.Short() {
		n = 40
	}
	for seed := range uint64(n) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			genCase(t, seed)
		})
	}
}

func FuzzApplyLikeGit(f *testing.F) {
	for seed := range uint64(8) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) { genCase(t, seed) })
}

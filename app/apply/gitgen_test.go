package apply

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The generator: random small repositories and random changes to them,
// made into a patch by one of the makers (git diff -M -C --binary, git
// format-patch, diff -ruN, git diff -U0, diff -U0, git diff with other
// prefixes or none), applied by pair and
// by git apply, git am or patch -p1 (see runGitCase). A case is all a
// seed's.

// makers are the commands that make a case's patch, chosen by its seed
// (see runGitCase), with the change kinds each cannot write.
var makers = []struct {
	name, cmd string
	unwrites  []string
}{
	{"git diff", "git diff -M -C --binary base HEAD", nil},
	{"git format-patch", formatPatch, nil},
	{"git diff -U0", gitDiffU0, nil},
	{"diff -ruN", diffRuN, traditionalUnwrites},
	// -C -C finds copies of files the change leaves as they were.
	{"git diff -C -C", "git diff -M -C -C --binary base HEAD", nil},
	{"diff -U0", diffU0, traditionalUnwrites},
	{"git diff --src-prefix", gitDiffPrefixes, nil},
	{"git diff --no-prefix", gitDiffNoPrefix, nil},
}

// traditionalUnwrites are the kinds diff cannot write: it writes no
// modes, no links, no binary content, no empty new file, and no file
// that becomes a folder.
var traditionalUnwrites = []string{"mode", "binary", "binary-edit", "symlink", "retarget", "typechange", "empty", "folder"}

// kinds are the changes the generator makes, each chosen at random.
var kinds = []string{
	"edit", "edit", "edit", "append", "rename", "rename-edit", "copy", "mode", "delete", "new", "empty",
	"crlf", "newline", "binary", "binary-edit", "symlink", "retarget", "typechange", "folder",
}

// baseKinds make the files of a case's first commit.
var baseKinds = []string{"new", "new", "new", "new", "binary", "symlink"}

// words make the lines of the generated files.
var words = strings.Fields("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon")

// A genFile is a file of a generated repository: text, binary content
// or a symbolic link (its content the target).
type genFile struct {
	name    string
	content string
	exec    bool
	form    string // "text", "binary" or "link"
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
// end their lines with CRLF.
func (g *generator) text() string {
	n := 1 + g.r.IntN(25)
	lines := make([]string, n)
	for i := range lines {
		lines[i] = g.line()
	}
	eol := "\n"
	if g.r.IntN(8) == 0 {
		eol = "\r\n"
	}
	s := strings.Join(lines, eol)
	if g.r.IntN(6) != 0 {
		s += eol
	}
	return s
}

// binary is content git takes as binary: a NUL first, then random
// bytes, sometimes enough of them for git to write a delta.
func (g *generator) binary() string {
	n := 16 + g.r.IntN(64)
	if g.r.IntN(3) == 0 {
		n = 1000 + g.r.IntN(3000)
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(g.r.IntN(256))
	}
	b[0] = 0
	return string(b)
}

// binaryEdit changes a few runs of the bytes of s: replaced, inserted,
// cut.
func (g *generator) binaryEdit(s string) string {
	b := []byte(s)
	for range 1 + g.r.IntN(3) {
		i := g.r.IntN(len(b) + 1)
		n := 1 + g.r.IntN(40)
		switch g.r.IntN(3) {
		case 0:
			ins := make([]byte, n)
			for j := range ins {
				ins[j] = byte(g.r.IntN(256))
			}
			b = slices.Insert(b, i, ins...)
		case 1:
			b = slices.Delete(b, i, min(i+n, len(b)))
		default:
			for j := i; j < min(i+n, len(b)); j++ {
				b[j] = byte(g.r.IntN(256))
			}
		}
	}
	if len(b) == 0 {
		b = []byte{0}
	}
	b[0] = 0
	return string(b)
}

// name is a new file's name; every fifth has a space in it.
func (g *generator) name() string {
	g.n++
	dirs := []string{"", "", "src/", "src/lib/", "doc/"}
	dir := dirs[g.r.IntN(len(dirs))]
	if g.n%5 == 0 {
		return fmt.Sprintf("%sf%d x.txt", dir, g.n)
	}
	return fmt.Sprintf("%sf%d.txt", dir, g.n)
}

// pick returns a file of the repository of one of the forms, or nil
// when it has none.
func (g *generator) pick(forms ...string) *genFile {
	var names []string
	for n, f := range g.files {
		if slices.Contains(forms, f.form) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil
	}
	slices.Sort(names)
	return g.files[names[g.r.IntN(len(names))]]
}

// target is a link's target for a link named name: another file of the
// repository or its folder, relative to the link's folder, or sometimes
// a name that does not exist.
func (g *generator) target(name string) string {
	to := "missing.txt"
	if f := g.pick("text", "binary", "link"); f != nil && f.name != name && g.r.IntN(5) != 0 {
		to = f.name
		if d := path.Dir(f.name); d != "." && g.r.IntN(3) == 0 {
			to = d
		}
	}
	rel, err := filepath.Rel(filepath.Dir(name), to)
	if err != nil {
		return to
	}
	return filepath.ToSlash(rel)
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

// change makes one change of kind k to the files, or reports false.
func (g *generator) change(k string) bool {
	switch k {
	case "new", "empty", "binary", "symlink":
		nf := &genFile{name: g.name(), form: "text"}
		switch k {
		case "new":
			nf.content, nf.exec = g.text(), g.r.IntN(4) == 0
		case "binary":
			nf.content, nf.form = g.binary(), "binary"
		case "symlink":
			nf.content, nf.form = g.target(nf.name), "link"
		}
		g.files[nf.name] = nf
	case "edit":
		f := g.pick("text")
		if f == nil || f.content == "" {
			return false
		}
		f.content = g.edit(f.content)
	case "append":
		// Lines after the last, whether it ends with a newline or not.
		f := g.pick("text")
		if f == nil {
			return false
		}
		eol := "\n"
		if strings.Contains(f.content, "\r\n") {
			eol = "\r\n"
		}
		final := f.content == "" || strings.HasSuffix(f.content, "\n")
		if !final && g.r.IntN(2) == 0 {
			f.content += eol
		}
		for range 1 + g.r.IntN(3) {
			if !strings.HasSuffix(f.content, "\n") && f.content != "" {
				f.content += eol
			}
			f.content += g.line()
		}
		if final || g.r.IntN(2) == 0 {
			f.content += eol
		}
	case "binary-edit":
		f := g.pick("binary")
		if f == nil {
			return false
		}
		f.content = g.binaryEdit(f.content)
	case "retarget":
		f := g.pick("link")
		if f == nil {
			return false
		}
		f.content = g.target(f.name)
	case "typechange":
		f := g.pick("text", "link")
		if f == nil {
			return false
		}
		if f.form == "link" {
			f.form, f.content = "text", g.text()
		} else {
			f.form, f.content, f.exec = "link", g.target(f.name), false
		}
	case "folder":
		// A file becomes a folder of the same name, with a file in it.
		f := g.pick("text", "binary", "link")
		if f == nil {
			return false
		}
		delete(g.files, f.name)
		g.n++
		nf := &genFile{name: fmt.Sprintf("%s/f%d.txt", f.name, g.n), content: g.text(), form: "text"}
		g.files[nf.name] = nf
	case "rename", "rename-edit", "copy":
		f := g.pick("text", "binary", "link")
		if f == nil {
			return false
		}
		nf := &genFile{name: g.name(), content: f.content, exec: f.exec, form: f.form}
		if k != "copy" {
			delete(g.files, f.name)
		}
		if k != "rename" {
			switch f.form {
			case "text":
				nf.content = g.edit(nf.content)
			case "binary":
				nf.content = g.binaryEdit(nf.content)
			default:
				nf.content = g.target(nf.name)
			}
		}
		g.files[nf.name] = nf
	case "mode":
		f := g.pick("text", "binary")
		if f == nil {
			return false
		}
		f.exec = !f.exec
	case "delete":
		f := g.pick("text", "binary", "link")
		if f == nil {
			return false
		}
		delete(g.files, f.name)
	case "crlf":
		f := g.pick("text")
		if f == nil {
			return false
		}
		if strings.Contains(f.content, "\r\n") {
			f.content = strings.ReplaceAll(f.content, "\r\n", "\n")
		} else {
			f.content = strings.ReplaceAll(f.content, "\n", "\r\n")
		}
	case "newline":
		f := g.pick("text")
		if f == nil || f.content == "" {
			return false
		}
		// With the file's own line ending: given a plain newline, a CRLF
		// file's new last line ends as the file ends its lines for pair,
		// as the patch says for git, and a last line left ending in a CR
		// loses it for pair (known, and left as pair's tolerance of
		// patches written with LF for CRLF files).
		eol := "\n"
		if strings.Contains(f.content, "\r\n") {
			eol = "\r\n"
		}
		if strings.HasSuffix(f.content, "\n") {
			f.content = strings.TrimSuffix(f.content, eol)
		} else {
			f.content += eol
		}
	}
	g.log = append(g.log, k)
	return true
}

// snapshot is a copy of the files as they are now.
func (g *generator) snapshot() map[string]*genFile {
	c := make(map[string]*genFile, len(g.files))
	for n, f := range g.files {
		cf := *f
		c[n] = &cf
	}
	return c
}

// writeFiles makes the directory hold exactly files.
func (g *generator) writeFiles(t *testing.T, dir string, files map[string]*genFile) {
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
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if f.form == "link" {
			if err := os.Symlink(f.content, p); err != nil {
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
	can := func(k string) bool { return !slices.Contains(m.unwrites, k) }
	firsts := slices.DeleteFunc(slices.Clone(baseKinds), func(k string) bool { return !can(k) })
	allowed := slices.DeleteFunc(slices.Clone(kinds), func(k string) bool { return !can(k) })
	for range 1 + g.r.IntN(5) {
		g.change(firsts[g.r.IntN(len(firsts))])
	}
	g.log = nil
	base := g.snapshot()
	setup := func(dir string) { g.writeFiles(t, dir, base) }
	// The changes, in one commit or a few (git format-patch writes a
	// mail for each).
	var commits []map[string]*genFile
	for i := range 1 + g.r.IntN(4) {
		if i > 0 && g.r.IntN(3) == 0 {
			commits = append(commits, g.snapshot())
			g.log = append(g.log, "|")
		}
		// A kind that finds nothing to change (no link to retarget) is
		// another kind's turn: every case changes something.
		for range 20 {
			if g.change(allowed[g.r.IntN(len(allowed))]) {
				break
			}
		}
	}
	commits = append(commits, g.snapshot())
	change := func(dir string) {
		for i, files := range commits {
			g.writeFiles(t, dir, files)
			sh(t, dir, fmt.Sprintf("git add -A; git diff --cached --quiet || git commit -q -m 'change %d'", i+1))
		}
	}
	t.Logf("seed %d: %s; patch by %s", seed, strings.Join(g.log, ", "), m.name)
	runGitCase(t, setup, change, m.cmd)
}

// genCases is how many seeds TestApplyLikeGitGenerated runs,
// PAIR_GITGEN_CASES when set, and the first, PAIR_GITGEN_FIRST.
func genCases(t *testing.T) (first, n uint64) {
	n = 240
	if testing.Short() {
		n = 48
	}
	for name, v := range map[string]*uint64{"PAIR_GITGEN_CASES": &n, "PAIR_GITGEN_FIRST": &first} {
		if s := os.Getenv(name); s != "" {
			x, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			*v = x
		}
	}
	return first, n
}

func TestApplyLikeGitGenerated(t *testing.T) {
	t.Parallel()
	first, n := genCases(t)
	var mu sync.Mutex
	ran, agreed := map[string]int{}, map[string]int{}
	t.Cleanup(func() {
		for _, m := range slices.Sorted(maps.Keys(ran)) {
			t.Logf("%s: %d cases, %d agree", m, ran[m], agreed[m])
		}
	})
	for seed := first; seed < first+n; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			m := makers[seed%uint64(len(makers))].name
			defer func() {
				mu.Lock()
				defer mu.Unlock()
				ran[m]++
				if !t.Failed() {
					agreed[m]++
				}
			}()
			genCase(t, seed)
		})
	}
}

func FuzzApplyLikeGit(f *testing.F) {
	for seed := range uint64(len(makers) * 2) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) { genCase(t, seed) })
}

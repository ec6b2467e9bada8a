package edit_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// goRichFile returns a Go file drawn from g, indented with tabs as gofmt
// writes it: doc comments, struct types, raw strings whose lines are
// indented with spaces, functions with nested blocks and composite
// literals.
func goRichFile(g *pyGen) []string {
	lines := []string{"package p", "", "import \"fmt\""}
	for b := range 2 + g.n(4) {
		lines = append(lines, "")
		switch g.n(4) {
		case 0:
			lines = append(lines, fmt.Sprintf("// T%d holds a thing.", b), "//", "// More about it.", fmt.Sprintf("type T%d struct {", b), "\ta int", "\ts string", "}")
		case 1:
			lines = append(lines, fmt.Sprintf("var usage%d = `", b), "Usage:", "    p [flags]", "    p help", "`")
		case 2:
			lines = append(lines, fmt.Sprintf("var cases%d = []struct {", b), "\tin  int", "\tout string", "}{")
			for c := range 1 + g.n(3) {
				lines = append(lines, fmt.Sprintf("\t{%d, %q},", c, fmt.Sprint(c)))
			}
			lines = append(lines, "}")
		default:
			lines = append(lines, fmt.Sprintf("func F%d(x int) int {", b))
			for s := range 1 + g.n(4) {
				switch g.n(3) {
				case 0:
					lines = append(lines, fmt.Sprintf("\tif x > %d {", s), fmt.Sprintf("\t\treturn x + %d", s), "\t}")
				case 1:
					lines = append(lines, fmt.Sprintf("\tfmt.Println(\"step %d\")", s))
				default:
					lines = append(lines, fmt.Sprintf("\tfor i := 0; i < %d; i++ {", s), "\t\tx += i", "\t}")
				}
			}
			lines = append(lines, "\treturn x", "}")
		}
	}
	return lines
}

// goChange returns a new version of a Go file drawn from g: statements
// added inside blocks, lines edited or deleted, a function appended. It
// reports false when the result does not parse, as a real commit's
// file would.
func goChange(g *pyGen, file []string) ([]string, bool) {
	out := slices.Clone(file)
	for range 1 + g.n(4) {
		i := g.n(len(out))
		l := out[i]
		ind := l[:len(l)-len(strings.TrimLeft(l, "\t"))]
		switch g.n(5) {
		case 0:
			if strings.HasSuffix(l, "{") {
				ind += "\t"
			}
			if ind != "" {
				out = slices.Insert(out, i+1, ind+"x++", ind+"fmt.Println(x)")
			}
		case 1:
			if strings.Contains(l, "x") && !strings.HasSuffix(l, "{") {
				out[i] = strings.Replace(l, "x", "x*2", 1)
			}
		case 2:
			out = slices.Delete(out, i, i+1)
		case 3:
			if l == "" {
				out = slices.Insert(out, i, "", "func Added() {", "\tif true {", "\t\tfmt.Println(\"added\")", "\t}", "}")
			}
		default:
			if strings.HasPrefix(l, "\t{") {
				out = slices.Insert(out, i+1, "\t{9, \"nine\"},")
			}
		}
	}
	if _, problem, _ := edit.CheckSyntax("p.go", strings.Join(out, "\n")+"\n"); problem != "" {
		return nil, false
	}
	return out, true
}

// damageIndent rewrites the indentation of a unified diff's lines as
// models damage it: mode 0 writes every leading tab as four spaces, mode
// 1 as two, mode 2 indents the at-th indented context line two spaces
// more (counted over the whole diff).
func damageIndent(patch string, mode, at int) string {
	lines := strings.SplitAfter(patch, "\n")
	n := 0
	for i, l := range lines {
		if l == "" || strings.HasPrefix(l, "---") || strings.HasPrefix(l, "+++") || !strings.ContainsAny(l[:1], " +-") {
			continue
		}
		body := l[1:]
		switch mode {
		case 0, 1:
			tabs := len(body) - len(strings.TrimLeft(body, "\t"))
			body = strings.Repeat(strings.Repeat(" ", 4-2*mode), tabs) + body[tabs:]
		default:
			if l[0] != ' ' || !strings.HasPrefix(body, "\t") {
				continue
			}
			if n++; n-1 == at {
				body = "  " + body
			}
		}
		lines[i] = l[:1] + body
	}
	return strings.Join(lines, "")
}

// showsIndent reports whether every hunk of a diff has an indented
// context or deleted line. A hunk with none is placed letter for letter,
// and its added lines are written as the patch has them: nothing in it
// says that the patch's spaces stand for the file's tabs (see
// ARCHITECTURE.md), so such diffs prove nothing here.
func showsIndent(t *testing.T, patch string) bool {
	for _, h := range onlyFile(t, patch).Hunks {
		if !slices.ContainsFunc(h.Lines, func(l edit.Line) bool { return l.Kind != edit.Add && strings.HasPrefix(l.Text, "\t") }) {
			return false
		}
	}
	return true
}

// FuzzIndentGo writes a change of a Go file as a git diff with its
// indentation damaged (see damageIndent), where every hunk shows some
// indentation of its own. Placement may refuse a hunk, but what it places
// must give the new file exactly: the added lines in the file's tabs,
// whatever the patch wrote.
func FuzzIndentGo(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, uint8(0), uint8(0))
	f.Add([]byte{3, 3, 3, 0, 1, 2, 0, 1, 2, 3, 0, 2, 1, 1, 0, 2, 2, 0, 1, 5, 3}, uint8(1), uint8(1))
	f.Add([]byte{2, 1, 2, 2, 0, 3, 1, 0, 0, 4, 1, 2, 3, 4, 0, 1, 2, 3, 3, 3, 0}, uint8(2), uint8(2))
	f.Add([]byte{0, 3, 1, 3, 2, 3, 0, 0, 0, 3, 4, 4, 4, 0, 1, 0, 3, 2, 1, 0, 4}, uint8(0), uint8(3))
	f.Fuzz(func(t *testing.T, b []byte, mode, at uint8) {
		g := &pyGen{b: b}
		file := goRichFile(g)
		changed, ok := goChange(g, file)
		if !ok {
			return
		}
		a, nb := flines(file), flines(changed)
		hs := hunksOf(lcsDiff(a, nb), 3)
		if len(hs) == 0 {
			return
		}
		clean, _ := damagedDiff(a, nb, hs, -1, 0, lossDropContext)
		if !showsIndent(t, clean) {
			return
		}
		patch := "diff --git a/p.go b/p.go\nindex 1111111..2222222 100644\n" +
			damageIndent(strings.Replace(clean, "--- a/f\n+++ b/f\n", "--- a/p.go\n+++ b/p.go\n", 1), int(mode%3), int(at))
		old, want := joinFuzz(a, "\n"), joinFuzz(nb, "\n")
		rs, errs := edit.Place(old, onlyFile(t, patch))
		if len(errs) > 0 {
			return // a refusal is always safe
		}
		got, err := edit.Apply(old, rs)
		if err != nil {
			t.Fatalf("Apply of Place's own hunks: got error %v", err)
		}
		if got != want {
			t.Fatalf("placed with a wrong result:\nold:\n%s\npatch:\n%s\ngot:\n%q\nwant:\n%q\nresolved:\n%s", old, patch, got, want, describe(rs))
		}
	})
}

// FuzzDamagedGo is FuzzDamagedPython on Go files: the syntax check that
// may choose among the readings of a damaged hunk is Go's parser.
func FuzzDamagedGo(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, uint8(0), uint8(1), uint8(lossDropContext))
	f.Add([]byte{3, 3, 3, 0, 1, 2, 0, 1, 2, 3, 0, 2, 1, 1, 0, 2, 2, 0, 1, 5, 3}, uint8(0), uint8(2), uint8(lossDropContext))
	f.Add([]byte{2, 1, 2, 2, 0, 3, 1, 0, 0, 4, 1, 2, 3, 4, 0, 1, 2, 3, 3, 3, 0}, uint8(1), uint8(0), uint8(lossMissingPlus))
	f.Add([]byte{0, 3, 1, 3, 2, 3, 0, 0, 0, 3, 4, 4, 4, 0, 1, 0, 3, 2, 1, 0, 4}, uint8(0), uint8(3), uint8(lossStaleContext))
	f.Fuzz(func(t *testing.T, b []byte, hi, li, loss uint8) {
		g := &pyGen{b: b}
		file := goRichFile(g)
		changed, ok := goChange(g, file)
		if !ok {
			return
		}
		checkDamagedLines(t, "p.go", flines(file), flines(changed), hi, li, loss, true)
	})
}

// flines makes fuzz text lines of strings, each ending with a newline.
func flines(ls []string) []fline {
	out := make([]fline, len(ls))
	for i, l := range ls {
		out[i] = fline{text: l, eol: true}
	}
	return out
}

package edit_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// pyGen draws choices from fuzz bytes, zero once they run out.
type pyGen struct{ b []byte }

func (g *pyGen) n(k int) int {
	if len(g.b) == 0 || k <= 1 {
		return 0
	}
	v := int(g.b[0])
	g.b = g.b[1:]
	return v % k
}

// pyFile returns the lines of a Python test module drawn from g: top-level
// functions and classes with 4-space bodies, some with nested blocks, two
// blank lines between them.
func pyFile(g *pyGen) []string {
	lines := []string{"import pytest", ""}
	blocks := 2 + g.n(5)
	for b := range blocks {
		lines = append(lines, "")
		body := func(ind string, name string) {
			for s := range 1 + g.n(4) {
				lines = append(lines, pyStatement(g.n(4), ind, name, s)...)
			}
		}
		if g.n(3) == 0 {
			lines = append(lines, fmt.Sprintf("class TestGroup%d:", b))
			for m := range 1 + g.n(2) {
				if m > 0 {
					lines = append(lines, "")
				}
				lines = append(lines, fmt.Sprintf("    def test_method_%d_%d(self):", b, m))
				body("        ", fmt.Sprintf("cmd%d_%d", b, m))
			}
		} else {
			lines = append(lines, fmt.Sprintf("def test_case_%d():", b))
			body("    ", fmt.Sprintf("cmd%d", b))
		}
		lines = append(lines, "")
	}
	return lines[:len(lines)-1]
}

// pyStatement returns statement s of a test body, of the given kind,
// indented by ind: an invocation, an assertion, a with block, an if
// block, an invocation whose arguments span lines, or a comment and an
// assertion.
func pyStatement(kind int, ind, name string, s int) []string {
	switch kind {
	case 0:
		return []string{fmt.Sprintf("%sresult = runner.invoke(%s, [%q])", ind, name, fmt.Sprint(s))}
	case 1:
		return []string{fmt.Sprintf("%sassert result.exit_code == %d", ind, s)}
	case 2:
		return []string{fmt.Sprintf("%swith open(%q) as f%d:", ind, name, s), fmt.Sprintf("%s    data%d = f%d.read()", ind, s, s)}
	case 3:
		return []string{fmt.Sprintf("%sif %s_%d:", ind, name, s), ind + "    assert not result.exception"}
	case 4:
		return []string{ind + "result = runner.invoke(", ind + "    " + name + ",", fmt.Sprintf("%s    [%q],", ind, fmt.Sprint(s)), ind + ")"}
	}
	return []string{ind + "# " + name + " again", fmt.Sprintf("%sassert result.output == %q", ind, name)}
}

// pyHunk returns a patch that adds a new top-level test function after the
// block that ends at line end (exclusive) of file, with lead and trail
// lines of context, one context line's indentation damaged by damage
// spaces (removed when negative), and the post-image it means.
func pyHunk(g *pyGen, file []string) (patch string, want string, ok bool) {
	// The ends of top-level blocks: a non-blank line followed by a blank.
	var ends []int
	for i := 1; i+1 < len(file); i++ {
		if strings.TrimSpace(file[i]) != "" && file[i+1] == "" && strings.HasPrefix(file[i], " ") {
			ends = append(ends, i+1)
		}
	}
	if len(ends) == 0 {
		return "", "", false
	}
	at := ends[g.n(len(ends))]
	add := []string{"", "", "def test_added():", "    result = runner.invoke(cli, [\"new\"])"}
	if g.n(2) == 0 {
		add = append(add, "    if result.output:", "        assert result.exit_code == 0")
	}
	lead, trail := 1+g.n(3), g.n(4)
	lead = min(lead, at)
	trail = min(trail, len(file)-at)
	ctxLead := append([]string(nil), file[at-lead:at]...)
	ctxTrail := append([]string(nil), file[at:at+trail]...)
	// Damage one indented context line.
	var idx []int
	for i, l := range ctxLead {
		if strings.HasPrefix(l, "  ") {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return "", "", false
	}
	d := idx[g.n(len(idx))]
	if lost := g.n(4); lost > 0 && lead > lost {
		// The other damage: the last context lines before the added ones
		// lost, with all the trailing context (no indentation damage).
		ctxLead, ctxTrail = ctxLead[:lead-lost], nil
		d = -1
	}
	switch {
	case d < 0:
	case g.n(3) == 0:
		ctxLead[d] = ctxLead[d][2:]
	case g.n(2) == 0:
		ctxLead[d] = "  " + ctxLead[d]
	default:
		ctxLead[d] = ctxLead[d][4:]
	}
	if d >= 0 && slices.Contains(file, ctxLead[d]) {
		// The damage made another line of the file: the patch names
		// that place, exactly.
		return "", "", false
	}
	var p strings.Builder
	p.WriteString("--- a/test_cli.py\n+++ b/test_cli.py\n@@ ... @@\n")
	for _, l := range ctxLead {
		p.WriteString(" " + l + "\n")
	}
	for _, l := range add {
		p.WriteString("+" + l + "\n")
	}
	for _, l := range ctxTrail {
		p.WriteString(" " + l + "\n")
	}
	post := append(append(append([]string(nil), file[:at]...), add...), file[at:]...)
	return p.String(), strings.Join(post, "\n") + "\n", true
}

// FuzzPythonIndent damages a hunk that adds a new top-level function to a
// Python test module: the indentation of one context line, or the last
// context lines before the added ones with all those after. Placement
// may refuse the hunk, but what it places must be what the patch means:
// the new function at column 0, its body four spaces in, after the block
// the context names.
func FuzzPythonIndent(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Add([]byte{0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 0, 1, 2, 0, 1, 2})
	f.Add([]byte{4, 3, 1, 0, 2, 1, 0, 1, 2, 3, 0, 2, 1, 1, 0, 2, 2, 0, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		g := &pyGen{b: b}
		file := pyFile(g)
		patch, want, ok := pyHunk(g, file)
		if !ok {
			return
		}
		old := strings.Join(file, "\n") + "\n"
		rs, errs := edit.Place(old, onlyFile(t, patch))
		if len(errs) > 0 {
			return // a refusal is always safe
		}
		got, err := edit.Apply(old, rs)
		if err != nil {
			t.Fatalf("Apply of Place's own hunks: got error %v", err)
		}
		if got != want {
			t.Fatalf("placed with a wrong result:\nold:\n%s\npatch:\n%s\ngot:\n%s\nwant:\n%s\nresolved:\n%s", old, patch, got, want, describe(rs))
		}
	})
}

// pyRichFile returns the lines of a Python module drawn from g, with more
// kinds of line than pyFile: decorators, comments (with their "#" blank
// lines), docstrings, and calls whose arguments span lines.
func pyRichFile(g *pyGen) []string {
	lines := []string{"import abc", "", "import pytest"}
	for b := range 2 + g.n(4) {
		lines = append(lines, "", "")
		if g.n(3) == 0 {
			lines = append(lines, fmt.Sprintf("# Tests of group %d.", b), "#", fmt.Sprintf("# They run in order %d.", b))
		}
		stmts := func(ind string, name string) {
			for s := range 1 + g.n(4) {
				lines = append(lines, pyStatement([]int{0, 1, 4, 3, 5}[g.n(5)], ind, name, s)...)
			}
		}
		if g.n(2) == 0 {
			lines = append(lines, fmt.Sprintf("class Group%d(metaclass=abc.ABCMeta):", b))
			for m := range 1 + g.n(3) {
				if m > 0 {
					lines = append(lines, "")
				}
				if g.n(2) == 0 {
					lines = append(lines, "    @abc.abstractproperty")
				}
				lines = append(lines, fmt.Sprintf("    def name_%d_%d(self) -> str:", b, m), fmt.Sprintf("        \"\"\"The name %d.\"\"\"", m))
				stmts("        ", fmt.Sprintf("cmd%d_%d", b, m))
			}
		} else {
			if g.n(2) == 0 {
				lines = append(lines, fmt.Sprintf("@pytest.mark.parametrize(\"n\", [%d])", b))
			}
			lines = append(lines, fmt.Sprintf("def test_case_%d(n):", b))
			stmts("    ", fmt.Sprintf("cmd%d", b))
		}
	}
	return lines
}

// pyChange returns a new version of a module drawn from g: lines edited,
// statements and decorators added, lines deleted, a function appended
// after a block. It reports false when the result does not pass the
// Python check, as a real commit's file would.
func pyChange(g *pyGen, file []string) ([]string, bool) {
	out := slices.Clone(file)
	for range 1 + g.n(4) {
		i := g.n(len(out))
		l := out[i]
		ind := l[:len(l)-len(strings.TrimLeft(l, " "))]
		switch g.n(6) {
		case 0:
			if strings.TrimSpace(l) != "" && !strings.HasSuffix(l, ":") && !strings.HasSuffix(l, "(") {
				out[i] = strings.Replace(l, "result", "outcome", 1) + "  # changed"
			}
		case 1:
			if strings.HasSuffix(l, ":") {
				ind += "    "
			}
			out = slices.Insert(out, i+1, ind+"assert check()", ind+"assert again()")
		case 2:
			out = slices.Delete(out, i, i+1)
		case 3:
			if strings.HasPrefix(strings.TrimSpace(l), "def ") || strings.HasPrefix(strings.TrimSpace(l), "@abc") {
				out = slices.Insert(out, i, ind+"@property", ind+"@abc.abstractmethod")
				if strings.HasPrefix(strings.TrimSpace(l), "@abc") {
					out = slices.Delete(out, i+2, i+3)
				}
			}
		case 4:
			if ind == "" && strings.TrimSpace(l) == "" {
				out = slices.Insert(out, i, "", "", "def test_added():", "    result = runner.invoke(cli, [\"new\"])")
			}
		default:
			out = slices.Insert(out, i, ind+"# a comment", ind+"#")
		}
	}
	if _, problem, _ := edit.CheckSyntax("m.py", strings.Join(out, "\n")+"\n"); problem != "" {
		return nil, false
	}
	return out, true
}

// FuzzDamagedPython is FuzzDamagedGit on Python modules, in a file whose
// name gives it Python's check: the check may choose among the readings
// of a damaged hunk (see chooseOrders), and every hunk it places must
// still give the real result.
func FuzzDamagedPython(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, uint8(0), uint8(1), uint8(lossDropContext))
	f.Add([]byte{0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 0, 1, 2, 0, 1, 2, 3, 3, 3}, uint8(0), uint8(2), uint8(lossDropContext))
	f.Add([]byte{4, 3, 1, 0, 2, 1, 0, 1, 2, 3, 0, 2, 1, 1, 0, 2, 2, 0, 1, 5, 3}, uint8(1), uint8(0), uint8(lossMissingPlus))
	f.Fuzz(func(t *testing.T, b []byte, hi, li, loss uint8) {
		g := &pyGen{b: b}
		file := pyRichFile(g)
		changed, ok := pyChange(g, file)
		if !ok {
			return
		}
		checkDamagedLines(t, "m.py", flines(file), flines(changed), hi, li, loss, true)
	})
}

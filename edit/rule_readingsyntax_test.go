package edit_test

import (
	"testing"

	"github.com/pair-cli/pair/edit"
)

// TestRuleReadingSyntax: a hunk whose interpreted reading would leave a
// Go file that parsed failing to parse (a stray ")" in a stale context
// line) is not taken on --interpret; before, it was, with no note.
func TestRuleReadingSyntax(t *testing.T) {
	old := text("package m", "", "func f() int {", "\tx := 1", "\ty := 2", "\treturn x + y", "}")
	patch := text("--- a/h.go", "+++ b/h.go", "@@ -3,5 +3,5 @@",
		" func f() int {", "-\tx := 1", "+\tx := 3", " \ty := 5", " \treturn x + y)", " }")
	p := edit.PlanFile("h.go", "h.go", old, onlyFile(t, patch))
	if len(p.Errors) != 1 || p.Errors[0].Interpreted == nil {
		t.Fatalf("errors %v, want the hunk refused with an interpreted reading", p.Errors)
	}
	if p.Interpret() {
		t.Errorf("Interpret took the reading, want it refused: it breaks the file's syntax")
	}
	if len(p.Errors) != 1 || lastRule(p.Errors[0]) != "readingSyntax" || p.Errors[0].Interpreted != nil {
		t.Errorf("errors %v, want the hunk refused by readingSyntax, with no reading left", p.Errors)
	}
	// A reading that keeps the syntax is taken.
	fine := text("--- a/h.go", "+++ b/h.go", "@@ -3,5 +3,5 @@",
		" func f() int {", "-\tx := 1", "+\tx := 3", " \ty := 5", " \treturn x + y + 0", " }")
	if q := edit.PlanFile("h.go", "h.go", old, onlyFile(t, fine)); !q.Interpret() || len(q.Errors) != 0 {
		t.Errorf("errors %v, want the reading taken", q.Errors)
	}
}

package edit_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// uncertainNote returns the hunk's note that gives the reason it is
// uncertain, or "".
func uncertainNote(r edit.Resolved) string {
	i := slices.IndexFunc(r.Notes, func(n string) bool { return strings.HasPrefix(n, "uncertain: ") })
	if i < 0 {
		return ""
	}
	return r.Notes[i]
}

// TestUncertainSyntax: a loose placement that breaks the file's syntax is
// refused, and its placement rides on the refusal as an uncertain reading
// with the reason, which FilePlan.Interpret turns into a hunk.
func TestUncertainSyntax(t *testing.T) {
	old := text("package calc", "", "// Add adds.", "func Add(a, b int) int {", "\tif a < 0 {", "\t\treturn b", "\t}", "\treturn a + b", "}")
	// "if a <= 0" is stale: the hunk places fuzzily, and leaves a block open.
	patch := text("--- a/calc.go", "+++ b/calc.go", "@@ ... @@", " func Add(a, b int) int {", " \tif a <= 0 {", " \t\treturn b", " \t}",
		"-\treturn a + b", "+\tif b < 0 {", "+\t\treturn a", " }")
	p := edit.PlanFile("calc.go", "calc.go", old, onlyFile(t, patch))
	if len(p.Hunks) != 0 || len(p.Errors) != 1 || !errors.Is(p.Errors[0], edit.ErrSyntax) {
		t.Fatalf("got hunks %s, errors %v, want the hunk refused by the syntax guard", describe(p.Hunks), p.Errors)
	}
	r := p.Errors[0].Interpreted
	if r == nil || r.Label() != "uncertain" || !r.Pass.OnRequest() || r.Pass.Help() != edit.UncertainHelp {
		t.Fatalf("got reading %+v, want an uncertain one", r)
	}
	if n := uncertainNote(*r); !strings.Contains(n, "syntax check (go/parser") || !strings.Contains(n, "fuzzy") {
		t.Errorf("got notes %q, want the reason: the fuzzy placement fails go/parser", r.Notes)
	}
	if len(p.Errors[0].Misread) != 0 {
		t.Errorf("got misread %v, want none: nothing was misread", p.Errors[0].Misread)
	}
	if !p.Interpret() || len(p.Hunks) != 1 || len(p.Errors) != 0 || p.Hunks[0].Pass != edit.PassUncertain {
		t.Fatalf("Interpret: got hunks %s, errors %v, want the uncertain hunk taken", describe(p.Hunks), p.Errors)
	}
	got, err := p.Result(nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(old, "\treturn a + b\n", "\tif b < 0 {\n\t\treturn a\n", 1); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestUncertainLostTrail: a hunk refused because its trailing context was
// probably lost carries the place it would have taken as an uncertain
// reading, with the reason.
func TestUncertainLostTrail(t *testing.T) {
	patch := text("--- a/test_cli.py", "+++ b/test_cli.py", "@@ ... @@",
		`     result = runner.invoke(cli, ["run"])`, "     assert not result.exception",
		"+", "+", "+def test_new(runner):", "+    assert runner")
	p := edit.PlanFile("test_cli.py", "test_cli.py", clickTests, onlyFile(t, patch))
	if len(p.Errors) != 1 || !errors.Is(p.Errors[0], edit.ErrAmbiguous) {
		t.Fatalf("got hunks %s, errors %v, want the hunk refused", describe(p.Hunks), p.Errors)
	}
	r := p.Errors[0].Interpreted
	if r == nil || r.Pass != edit.PassUncertain {
		t.Fatalf("got reading %+v, want an uncertain one", r)
	}
	if n := uncertainNote(*r); !strings.Contains(n, "trailing context was probably lost") || !strings.Contains(n, "line 4") {
		t.Errorf("got notes %q, want the reason naming line 4, which continues the block", r.Notes)
	}
	if r.Start != 1 || r.Hunk != 0 {
		t.Errorf("got start %d hunk %d, want start 1 of hunk 0", r.Start, r.Hunk)
	}
	if !edit.Interpret([]*edit.FilePlan{p}) {
		t.Fatal("Interpret took nothing")
	}
	got, err := p.Result(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(clickTests, "    assert not result.exception\n", "    assert not result.exception\n\n\ndef test_new(runner):\n    assert runner\n", 1)
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestUncertainNotOverPlaced: an uncertain reading that overlaps a placed
// hunk stays refused.
func TestUncertainNotOverPlaced(t *testing.T) {
	patch := text("--- a/test_cli.py", "+++ b/test_cli.py",
		"@@ ... @@", "     assert not result.exception", "-    assert result.output == \"ran\\n\"", "+    assert result.output == \"run\\n\"",
		"@@ ... @@", `     result = runner.invoke(cli, ["run"])`, "     assert not result.exception",
		"+", "+def test_new(runner):", "+    assert runner")
	p := edit.PlanFile("test_cli.py", "test_cli.py", clickTests, onlyFile(t, patch))
	if len(p.Hunks) != 1 || len(p.Errors) != 1 || p.Errors[0].Interpreted == nil {
		t.Fatalf("got hunks %s, errors %v, want one placed and one with an uncertain reading", describe(p.Hunks), p.Errors)
	}
	if p.Interpret() || len(p.Errors) != 1 {
		t.Errorf("Interpret: got hunks %s, want the overlapping reading left refused", describe(p.Hunks))
	}
}

// wantOffered plans patch, one file at path, on old, and fails the test
// unless the plan places no hunk (--yes writes nothing), its one hunk is
// refused by rule, the last of its trace, and its reading is labelled
// uncertain, traced to rule, and gives want when taken (--interpret).
func wantOffered(t *testing.T, path, old, patch string, rule edit.RuleID, want string) {
	t.Helper()
	p := edit.PlanFile(path, path, old, onlyFile(t, patch))
	if len(p.Hunks) != 0 || len(p.Errors) != 1 {
		t.Fatalf("got hunks %s, errors %v, want the hunk refused", describe(p.Hunks), p.Errors)
	}
	e := p.Errors[0]
	if lastRule(e) != rule {
		t.Errorf("got trace %v, want it refused by %s", e.Rules, rule)
	}
	r := e.Interpreted
	if r == nil || r.Label() != "uncertain" || !slices.Contains(r.Rules, rule) || uncertainNote(*r) == "" {
		t.Fatalf("got reading %+v, want an uncertain one traced to %s, with its reason", r, rule)
	}
	if got, err := p.Result(nil); err != nil || got != old {
		t.Errorf("before --interpret: got %q, %v, want the file unchanged", got, err)
	}
	if !p.Interpret() || len(p.Hunks) != 1 || p.Hunks[0].Pass != edit.PassUncertain {
		t.Fatalf("Interpret: got hunks %s, errors %v, want the uncertain hunk taken", describe(p.Hunks), p.Errors)
	}
	got, err := p.Result(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("taken: got\n%s\nwant\n%s", got, want)
	}
}

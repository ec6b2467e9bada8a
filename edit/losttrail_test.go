package edit_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// clickTests is a Python test module whose first test has three lines
// after its invocation.
var clickTests = text(
	"def test_run(runner):",
	"    result = runner.invoke(cli, [\"run\"])",
	"    assert not result.exception",
	"    assert result.output == \"ran\\n\"",
	"",
	"",
	"def test_stop(runner):",
	"    result = runner.invoke(cli, [\"stop\"])",
	"    assert result.exit_code == 0",
)

// TestLostTrailingContext places hunks without line numbers or trailing
// context that add a new top-level function: after the last line of a
// block it is placed; in the middle of a block that the file continues, it
// is refused, where once it was inserted there and took the rest of the
// block (an assertion) into the new function.
func TestLostTrailingContext(t *testing.T) {
	added := []string{"+", "+", "+def test_new(runner):", "+    assert runner"}
	tests := []struct {
		name   string
		old    string
		ctx    []string
		added  []string
		refuse bool
		want   string
	}{
		{
			name:   "new function inside a test",
			old:    clickTests,
			ctx:    []string{"    result = runner.invoke(cli, [\"run\"])", "    assert not result.exception"},
			added:  added,
			refuse: true,
		},
		{
			name:   "new function after a nested block, inside the outer one",
			old:    text("def f():", "    if x:", "        y()", "    z()", ""),
			ctx:    []string{"    if x:", "        y()"},
			added:  []string{"+", "+def g():", "+    pass"},
			refuse: true,
		},
		{
			name:   "closing brace inside a Go function",
			old:    text("func f() {", "\ta()", "\tb()", "}"),
			ctx:    []string{"func f() {", "\ta()"},
			added:  []string{"+}", "+", "+func g() {"},
			refuse: true,
		},
		{
			name:  "new function after a test's last line",
			old:   clickTests,
			ctx:   []string{"    assert not result.exception", "    assert result.output == \"ran\\n\""},
			added: added,
			want:  strings.Replace(clickTests, "\"ran\\n\"\n", "\"ran\\n\"\n\n\ndef test_new(runner):\n    assert runner\n", 1),
		},
		{
			name:  "line added at the block's own indentation",
			old:   clickTests,
			ctx:   []string{"    result = runner.invoke(cli, [\"run\"])"},
			added: []string{"+    assert result"},
			want:  strings.Replace(clickTests, "[\"run\"])\n", "[\"run\"])\n    assert result\n", 1),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString("--- a/f\n+++ b/f\n@@ ... @@\n")
			for _, l := range tt.ctx {
				b.WriteString(" " + l + "\n")
			}
			for _, l := range tt.added {
				b.WriteString(l + "\n")
			}
			rs, errs := edit.Place(tt.old, onlyFile(t, b.String()))
			if tt.refuse {
				if len(errs) != 1 || !errors.Is(errs[0], edit.ErrAmbiguous) || lastRule(errs[0]) != "checkLostTrail" {
					t.Fatalf("got errors %v, want the hunk refused for its lost trailing context\nresolved:\n%s", errs, describe(rs))
				}
				return
			}
			if len(errs) > 0 {
				t.Fatalf("Place: got errors %v, want none", errs)
			}
			if got := mustApply(t, tt.old, rs); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

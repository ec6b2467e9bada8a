package edit_test

import (
	"testing"

	"github.com/pair-cli/pair/edit"
)

// TestRuleBlankEdge: Aider's SEARCH/REPLACE cases of a SEARCH block
// missing its leading whitespace, one of them with a blank first line the
// file lacks (before, refused: it fit nowhere).
func TestRuleBlankEdge(t *testing.T) {
	old := "    line1\n    line2\n    line3\n"
	for _, tt := range []struct{ name, search, replace, want string }{
		{"missing leading whitespace", "line1\nline2\n", "new_line1\nnew_line2\n", "    new_line1\n    new_line2\n    line3\n"},
		{"and a blank first line", "\n  line1\n  line2\n", "  new_line1\n  new_line2\n", "    new_line1\n    new_line2\n    line3\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text := "a.txt\n```\n<<<<<<< SEARCH\n" + tt.search + "=======\n" + tt.replace + ">>>>>>> REPLACE\n```\n"
			e, err := edit.ParseEdits(text)
			if err != nil {
				t.Fatal(err)
			}
			p, err := e.Patch(func(string) (string, error) { return old, nil })
			if err != nil {
				t.Fatal(err)
			}
			plan := edit.PlanFile("a.txt", "a.txt", old, p.Files[0])
			if len(plan.Errors) != 0 {
				t.Fatalf("errors %v, want the block placed", plan.Errors)
			}
			if got, err := plan.Result(nil); err != nil || got != tt.want {
				t.Errorf("Result: got %q, %v, want %q", got, err, tt.want)
			}
		})
	}
	// The rule's trace, on the second case.
	patch := "--- a/a.txt\n+++ b/a.txt\n@@ @@\n-\n-  line1\n-  line2\n+  new_line1\n+  new_line2\n"
	wantTrace(t, old, patch, "blankEdge")
}

package edit_test

import (
	"errors"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// TestRuleContextFits: a hunk of context lines only, that fits the file
// exactly, is refused as changing nothing, and offers no reading from a
// window shifted to where its middle line is a small edit of the file's
// (--yes --interpret would have written it).
func TestRuleContextFits(t *testing.T) {
	old := text("}", "foo(1);", "}", "foo(2);", "}")
	patch := text("--- a/f.c", "+++ b/f.c", "@@ -3,3 +3,3 @@", " }", " foo(2);", " }")
	_, errs := edit.Place(old, onlyFile(t, patch))
	if len(errs) != 1 || !errors.Is(errs[0], edit.ErrNoOp) {
		t.Fatalf("errors %v, want the hunk refused as changing nothing", errs)
	}
	if errs[0].Interpreted != nil || len(errs[0].Misread) != 0 {
		t.Errorf("interpreted %v, misread %v, want neither: the hunk fits exactly", errs[0].Interpreted, errs[0].Misread)
	}
	if got := lastRule(errs[0]); got != "contextFits" {
		t.Errorf("refused by %s, want contextFits", got)
	}
}

package main

import (
	"strings"
	"testing"
)

// TestInteractiveInterpreted: a hunk whose -/+ marks were dropped is
// offered on the terminal labelled interpreted, with the line it changes
// shown as -/+ and explained by ?; approved, it is written and its
// trailer marked.
func TestInteractiveInterpreted(t *testing.T) {
	t.Parallel()
	r := newInteractiveRepo(t, goodEditor)
	r.writeFile(t, "fix.diff", "--- a/calc.go\n+++ b/calc.go\n@@ -8,4 +8,4 @@\n"+
		" // Sub returns a minus b.\n"+
		" func Sub(a, b int) int {\n"+
		" \treturn b - a\n"+
		" }\n")
	s := r.start(t, nil, "apply", "fix.diff")
	s.expect("placed: interpreted")
	s.expect("approving changes line 10 to the patch's version")
	s.expect("-\treturn a - b")
	s.expect("+\treturn b - a")
	s.answer("[1/1]", "?")
	s.expect("Approving also changes that line to the model's version")
	s.answer("[1/1]", "y")
	s.expect("Write and commit 1 hunk in 1 file [y,n,K,g,v,?]?")
	s.send("y")
	s.wait(0)

	r.wantFile(t, "calc.go", strings.Replace(calcGo, "\treturn a - b\n", "\treturn b - a\n", 1))
	got := strings.TrimSpace(r.git(t, "log", "-1", "--format=%(trailers:key=Pair-Hunk,valueonly)"))
	if !strings.HasPrefix(got, "calc.go:8 ") || !strings.HasSuffix(got, " approved interpreted") {
		t.Errorf("Pair-Hunk trailer %q, want calc.go:8 ... approved interpreted", got)
	}
}

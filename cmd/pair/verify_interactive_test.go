package main

import (
	"strings"
	"testing"
)

// TestInteractiveVerify runs the tests from the summary on a terminal: v
// names the hunk that breaks them, x rejects it and runs them again, and
// y writes what passed. The tests ran in the scratch tree: the working
// tree was not written before y.
func TestInteractiveVerify(t *testing.T) {
	t.Parallel()
	r := newInteractiveRepo(t, goodEditor)
	check := `if grep -q product calc.go; then echo 'FAIL: product'; exit 1; fi; echo ok`
	s := r.start(t, nil, "apply", "--test-cmd", check, "fix.diff")
	for i := 1; i <= 6; i++ {
		s.answer("/6]", "y")
	}
	s.expect("Write and commit 6 hunks in 3 files [y,n,K,g,v,?]?")
	s.send("v")
	s.expect("verify: FAIL in ")
	s.expect("hunk 2 (calc.go:")
	s.expect("breaks it: FAIL product")
	r.wantFile(t, "calc.go", calcGo) // nothing written yet
	s.expect("[y,n,K,g,v,x,?]?")
	s.send("x")
	s.expect("rejected hunk 2")
	s.expect("verify: PASS in ")
	s.expect("Write and commit 5 hunks in 3 files [y,n,K,g,v,?]?")
	s.send("y")
	screen := s.wait(0)
	if !strings.Contains(screen, "committed") {
		t.Errorf("nothing committed:\n%s", printable(screen))
	}
	r.wantFile(t, "calc.go", strings.Replace(calcGo, "\treturn a + b\n", "\tsum := a + b\n\treturn sum\n", 1))
}

//go:build unix

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/term"
)

// The interactive tests run pair apply as a person does: the real binary
// (the test binary, which TestMain turns into pair) on a pseudo-terminal,
// in a real git repository, answering each prompt only once it is on the
// screen.

// The repository every interactive test starts from: three files.
var (
	calcGo = "package calc\n" +
		"\n" +
		"// Add returns a plus b.\n" +
		"func Add(a, b int) int {\n" +
		"\treturn a + b\n" +
		"}\n" +
		"\n" +
		"// Sub returns a minus b.\n" +
		"func Sub(a, b int) int {\n" +
		"\treturn a - b\n" +
		"}\n" +
		"\n" +
		"// Mul returns a times b.\n" +
		"func Mul(a, b int) int {\n" +
		"\treturn a * b\n" +
		"}\n"
	greetGo = "package greet\n" +
		"\n" +
		"import \"fmt\"\n" +
		"\n" +
		"// Hello greets someone.\n" +
		"func Hello(name string) string {\n" +
		"\tgreeting := \"hello\"\n" +
		"\tpunct := \".\"\n" +
		"\treturn fmt.Sprintf(\"%s, %s%s\", greeting, name, punct)\n" +
		"}\n" +
		"\n" +
		"// Bye says goodbye.\n" +
		"func Bye(name string) string {\n" +
		"\treturn \"bye, \" + name\n" +
		"}\n"
	// Line 12 ends with two spaces, which the patch leaves out.
	notesTxt = "Notes\n" +
		"=====\n" +
		"\n" +
		"first: alpha\n" +
		"second: beta\n" +
		"third: gamma\n" +
		"fourth: delta\n" +
		"fifth: epsilon\n" +
		"sixth: zeta\n" +
		"seventh: eta\n" +
		"eighth: theta\n" +
		"ninth: iota  \n" +
		"tenth: kappa\n"
)

// sixHunks is the patch under review: six hunks over the three files.
// Hunk 3 has two runs of changes (it splits in two); hunk 5 says line 1
// for what is at line 4 (placed with an offset); hunk 6 has lost the
// trailing spaces of its context line (placed as whitespace).
const sixHunks = `--- a/calc.go
+++ b/calc.go
@@ -3,4 +3,5 @@
 // Add returns a plus b.
 func Add(a, b int) int {
-	return a + b
+	sum := a + b
+	return sum
 }
@@ -13,4 +14,4 @@
 // Mul returns a times b.
 func Mul(a, b int) int {
-	return a * b
+	return a * b // product
 }
--- a/greet.go
+++ b/greet.go
@@ -6,5 +6,5 @@
 func Hello(name string) string {
-	greeting := "hello"
+	greeting := "Hello"
 	punct := "."
-	return fmt.Sprintf("%s, %s%s", greeting, name, punct)
+	return fmt.Sprintf("%s, %s%s!", greeting, name, punct)
 }
@@ -12,4 +12,4 @@
 // Bye says goodbye.
 func Bye(name string) string {
-	return "bye, " + name
+	return "goodbye, " + name
 }
--- a/notes.txt
+++ b/notes.txt
@@ -1,3 +1,3 @@
 first: alpha
-second: beta
+second: BETA
 third: gamma
@@ -11,3 +11,3 @@
 eighth: theta
 ninth: iota
-tenth: kappa
+tenth: KAPPA
`

// The hunks as placed in the files, one line per string as in a unified
// diff: what a Pair-Hunk trailer hashes. Context lines hold the file's own
// text (hunk 6 keeps the two trailing spaces the patch lost).
var (
	hunkAdd      = []string{" // Add returns a plus b.", " func Add(a, b int) int {", "-\treturn a + b", "+\tsum := a + b", "+\treturn sum", " }"}
	hunkMul      = []string{" // Mul returns a times b.", " func Mul(a, b int) int {", "-\treturn a * b", "+\treturn a * b // product", " }"}
	hunkHello    = []string{" func Hello(name string) string {", "-\tgreeting := \"hello\"", "+\tgreeting := \"Hello\"", " \tpunct := \".\"", "-\treturn fmt.Sprintf(\"%s, %s%s\", greeting, name, punct)", "+\treturn fmt.Sprintf(\"%s, %s%s!\", greeting, name, punct)", " }"}
	hunkHello1   = hunkHello[:4] // the pieces of hunk 3 after s
	hunkHello2   = hunkHello[3:]
	hunkBye      = []string{" // Bye says goodbye.", " func Bye(name string) string {", "-\treturn \"bye, \" + name", "+\treturn \"goodbye, \" + name", " }"}
	hunkByeEdit  = []string{" // Bye says goodbye.", " func Bye(name string) string {", "-\treturn \"bye, \" + name", "+\treturn \"farewell, \" + name", " }"}
	hunkBeta     = []string{" first: alpha", "-second: beta", "+second: BETA", " third: gamma"}
	hunkKappa    = []string{" eighth: theta", " ninth: iota  ", "-tenth: kappa", "+tenth: KAPPA"}
	trailerHunks = regexp.MustCompile(`^Pair-Hunk: (\S+):(\d+) ([0-9a-f]{12}) (approved|edited|rejected)$`)
)

// The editors: each replaces one added line of the Bye hunk. The good one
// also notes the terminal's mode as it finds it; the broken one changes a
// context line instead the first time it runs; the last one saves the
// hunk as it is.
const (
	goodEditor = `#!/bin/sh
stty -g >"$(dirname "$0")/editor-stty" 2>/dev/null
sed 's/^+\(.*\)"goodbye, "/+\1"farewell, "/' "$1" >"$1.new" && mv "$1.new" "$1"
`
	brokenOnceEditor = `#!/bin/sh
n=$(cat "$(dirname "$0")/count" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" >"$(dirname "$0")/count"
if [ "$n" = 1 ]; then
	sed 's/^ func Bye(/ func Farewell(/' "$1" >"$1.new"
else
	sed 's/^+\(.*\)"goodbye, "/+\1"farewell, "/' "$1" >"$1.new"
fi
mv "$1.new" "$1"
`
	unchangedEditor = `#!/bin/sh
touch "$1"
`
)

// TestInteractiveReview is the scenario, as a new user meets it:
// six hunks over three files, approved, rejected, split, edited, then
// written and committed.
func TestInteractiveReview(t *testing.T) {
	t.Parallel()
	r := newInteractiveRepo(t, goodEditor)
	s := r.start(t, nil, "apply", "fix.diff")
	s.expect("[1/6] Approve this hunk (calc.go lines 3-6) [")
	s.expect("]?")
	if !s.raw() {
		t.Errorf("the terminal is not in raw mode at the first prompt")
	}
	s.send("y")
	s.answer("[2/6]", "n")
	s.answer("[3/6]", "s")
	s.expect("split into 2 hunks")
	s.answer("[3/7]", "y")
	s.answer("[4/7]", "n")
	s.answer("[5/7]", "e")
	s.expect("edited and approved")
	s.answer("[6/7]", "y")
	s.answer("[7/7]", "y")
	s.expect("Review summary:")
	s.expect("Write and commit 5 hunks in 3 files [y,n,K,g,v,?]?")
	s.send("y")
	screen := s.wait(0)

	// The editor ran with the terminal in its usual mode, not raw.
	if s.stty != "" {
		b, err := os.ReadFile(filepath.Join(r.root, "editor-stty"))
		if got := strings.TrimSpace(string(b)); err != nil || got != s.stty {
			t.Errorf("the editor found the terminal in mode %q, want %q as before the review (%v)", got, s.stty, err)
		}
	}

	// (a) Each file holds exactly the approved and edited hunks.
	r.wantFile(t, "calc.go", strings.Replace(calcGo, "\treturn a + b\n", "\tsum := a + b\n\treturn sum\n", 1))
	r.wantFile(t, "greet.go", strings.NewReplacer(
		`greeting := "hello"`, `greeting := "Hello"`,
		`"bye, "`, `"farewell, "`,
	).Replace(greetGo))
	r.wantFile(t, "notes.txt", strings.NewReplacer(
		"second: beta\n", "second: BETA\n",
		"tenth: kappa\n", "tenth: KAPPA\n",
	).Replace(notesTxt))

	// (b) One commit on top of the first, with exactly the changed files,
	// and nothing left over but the patch itself.
	r.wantCommitted(t, "calc.go", "greet.go", "notes.txt")
	r.wantStatus(t, "?? fix.diff\n")

	// (c) A trailer for every item reviewed, pieces of the split hunk
	// included, with its decision; git's trailer parser reads them.
	r.wantTrailers(t,
		hunkTrailer("calc.go", 3, hunkAdd, "approved"),
		hunkTrailer("calc.go", 13, hunkMul, "rejected"),
		hunkTrailer("greet.go", 6, hunkHello1, "approved"),
		hunkTrailer("greet.go", 8, hunkHello2, "rejected"),
		hunkTrailer("greet.go", 12, hunkByeEdit, "edited"),
		hunkTrailer("notes.txt", 4, hunkBeta, "approved"),
		hunkTrailer("notes.txt", 11, hunkKappa, "approved"),
	)
	if body := r.git(t, "log", "-1", "--format=%b"); !strings.Contains(body, "Applied with pair apply from fix.diff (review in the terminal): 5 of 7 hunks (4 approved, 1 edited, 2 rejected) in 3 files.") {
		t.Errorf("commit body does not count the decisions:\n%s", body)
	}
	if got := r.git(t, "log", "-1", "--format=%(trailers:key=Pair-Reviewed-By,valueonly)%(trailers:key=Pair-Model,valueonly)"); got != "Pty Author <author@example.com>\nnone\n\n" {
		t.Errorf("Pair-Reviewed-By and Pair-Model trailers = %q", got)
	}

	// (d) What the screen showed: colours, progress (growing with the
	// split), placements, the summary and the outcome.
	for _, want := range []string{
		"\x1b[32m+\tsum := a + b\x1b[m",
		"\x1b[31m-\treturn a + b\x1b[m",
		"\x1b[1m[1/6]\x1b[m \x1b[1mcalc.go lines 3-6\x1b[m",
		"\x1b[1;34m[1/6] Approve this hunk (calc.go lines 3-6) [",
		"\x1b[1m[5/7]\x1b[m \x1b[1mgreet.go lines 12-15\x1b[m",
		"[3/7]\x1b[m \x1b[1mgreet.go lines 6-8",
		"[4/7]\x1b[m \x1b[1mgreet.go lines 8-10",
		"placed: exact",
		"placed: offset (+3 lines from where the patch said)",
		"placed: whitespace",
		"calc.go                                  1 approved, 1 rejected",
		"greet.go                                 1 approved, 1 edited, 1 rejected",
		"notes.txt                                2 approved",
		"applied 5 hunks to 3 files (2 rejected)",
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen never showed %q; it showed:\n%s", want, printable(screen))
		}
	}
	if !regexp.MustCompile(`committed [0-9a-f]{12}`).MatchString(screen) {
		t.Errorf("the screen does not name the commit:\n%s", printable(screen))
	}
	// One prompt per hunk, and one more for the first piece of the split.
	if n := strings.Count(screen, "Approve this hunk ("); n != 8 {
		t.Errorf("%d prompts for hunks, want 8 (6 hunks, 1 of them split)", n)
	}
}

// TestInteractiveEditRefused edits a hunk in a way that cannot be applied
// (a context line changed): the edit is refused and explained, the hunk
// is offered again unchanged, and the second edit is taken.
func TestInteractiveEditRefused(t *testing.T) {
	t.Parallel()
	r := newInteractiveRepo(t, brokenOnceEditor)
	s := r.start(t, nil, "apply", "fix.diff")
	s.answer("[1/6]", "y")
	s.answer("[2/6]", "n")
	s.answer("[3/6]", "n")
	s.answer("[4/6]", "e")
	s.expect(`edit refused, the hunk is unchanged: line 4 of the edit: the file has "func Bye(name string) string {" here, the edit has "func Farewell(name string) string {"; ' ' and '-' lines must stay the file's own lines`)
	s.answer("[4/6]", "p") // the same hunk, as it was
	s.expect("[4/6]\x1b[m \x1b[1mgreet.go lines 12-15")
	s.expect("\x1b[32m+\treturn \"goodbye, \" + name\x1b[m")
	s.answer("[4/6]", "e")
	s.expect("edited and approved")
	s.answer("[5/6]", "n")
	s.answer("[6/6]", "n")
	s.expect("Write and commit 2 hunks in 2 files [y,n,K,g,v,?]?")
	s.send("y")
	screen := s.wait(0)

	if n := strings.Count(screen, "edit refused"); n != 1 {
		t.Errorf("%d refused edits on the screen, want 1", n)
	}
	if strings.Contains(screen, "currently") {
		t.Errorf("the refused edit decided the hunk:\n%s", printable(screen))
	}
	if b, err := os.ReadFile(filepath.Join(r.root, "count")); err != nil || string(b) != "2\n" {
		t.Errorf("the editor ran %q times, want 2 (%v)", b, err)
	}
	r.wantFile(t, "calc.go", strings.Replace(calcGo, "\treturn a + b\n", "\tsum := a + b\n\treturn sum\n", 1))
	r.wantFile(t, "greet.go", strings.Replace(greetGo, `"bye, "`, `"farewell, "`, 1))
	r.wantFile(t, "notes.txt", notesTxt)
	r.wantCommitted(t, "calc.go", "greet.go")
	r.wantStatus(t, "?? fix.diff\n")
	r.wantTrailers(t,
		hunkTrailer("calc.go", 3, hunkAdd, "approved"),
		hunkTrailer("calc.go", 13, hunkMul, "rejected"),
		hunkTrailer("greet.go", 6, hunkHello, "rejected"),
		hunkTrailer("greet.go", 12, hunkByeEdit, "edited"),
		hunkTrailer("notes.txt", 4, hunkBeta, "rejected"),
		hunkTrailer("notes.txt", 11, hunkKappa, "rejected"),
	)
}

// TestInteractiveEditUnchanged runs an editor that saves the hunk as it
// is (as :q does in vi): the hunk is approved as proposed, and nothing
// may claim it was edited.
func TestInteractiveEditUnchanged(t *testing.T) {
	t.Parallel()
	r := newInteractiveRepo(t, unchangedEditor)
	s := r.start(t, nil, "apply", "fix.diff")
	s.answer("[1/6]", "e")
	s.answer("[2/6]", "q")
	s.expect("Write and commit 1 hunk in 1 file [y,n,K,g,v,?]?")
	s.send("y")
	screen := s.wait(0)

	if strings.Contains(screen, "edited") {
		t.Errorf("an unchanged hunk is called edited:\n%s", printable(screen))
	}
	r.wantFile(t, "calc.go", strings.Replace(calcGo, "\treturn a + b\n", "\tsum := a + b\n\treturn sum\n", 1))
	r.wantTrailers(t,
		hunkTrailer("calc.go", 3, hunkAdd, "approved"),
		hunkTrailer("calc.go", 13, hunkMul, "rejected"),
		hunkTrailer("greet.go", 6, hunkHello, "rejected"),
		hunkTrailer("greet.go", 12, hunkBye, "rejected"),
		hunkTrailer("notes.txt", 4, hunkBeta, "rejected"),
		hunkTrailer("notes.txt", 11, hunkKappa, "rejected"),
	)
}

// TestInteractiveCtrlC stops the review half-way: nothing is written or
// committed, and pair exits with 130.
func TestInteractiveCtrlC(t *testing.T) {
	t.Parallel()
	r := newInteractiveRepo(t, goodEditor)
	s := r.start(t, nil, "apply", "fix.diff")
	s.answer("[1/6]", "y")
	s.answer("[2/6]", "y")
	s.answer("[3/6]", "\x03")
	s.expect("pair: apply: review interrupted; nothing was written")
	screen := s.wait(130)

	if strings.Contains(screen, "Review summary:") || strings.Contains(screen, "committed") {
		t.Errorf("the review went on after Ctrl-C:\n%s", printable(screen))
	}
	r.wantUnchanged(t)
}

// TestInteractiveQuit quits half-way with q: the rest is rejected, the
// summary shows, and y writes and commits only what was approved.
func TestInteractiveQuit(t *testing.T) {
	t.Parallel()
	r := newInteractiveRepo(t, goodEditor)
	s := r.start(t, nil, "apply", "fix.diff")
	s.answer("[1/6]", "y")
	s.answer("[2/6]", "y")
	s.answer("[3/6]", "q")
	s.expect("Review summary:")
	s.expect("calc.go                                  2 approved")
	s.expect("greet.go                                 2 rejected")
	s.expect("notes.txt                                2 rejected")
	s.expect("Write and commit 2 hunks in 1 file [y,n,K,g,v,?]?")
	s.send("y")
	screen := s.wait(0)

	if strings.Contains(screen, "[4/6]") {
		t.Errorf("hunk 4 was offered after q:\n%s", printable(screen))
	}
	r.wantFile(t, "calc.go", strings.NewReplacer(
		"\treturn a + b\n", "\tsum := a + b\n\treturn sum\n",
		"\treturn a * b\n", "\treturn a * b // product\n",
	).Replace(calcGo))
	r.wantFile(t, "greet.go", greetGo)
	r.wantFile(t, "notes.txt", notesTxt)
	r.wantCommitted(t, "calc.go")
	r.wantStatus(t, "?? fix.diff\n")
	r.wantTrailers(t,
		hunkTrailer("calc.go", 3, hunkAdd, "approved"),
		hunkTrailer("calc.go", 13, hunkMul, "approved"),
		hunkTrailer("greet.go", 6, hunkHello, "rejected"),
		hunkTrailer("greet.go", 12, hunkBye, "rejected"),
		hunkTrailer("notes.txt", 4, hunkBeta, "rejected"),
		hunkTrailer("notes.txt", 11, hunkKappa, "rejected"),
	)
}

// TestInteractiveBack goes back to change decisions: K from a hunk to the
// one before, and K from the summary to the last hunk.
func TestInteractiveBack(t *testing.T) {
	t.Parallel()
	r := newInteractiveRepo(t, goodEditor)
	s := r.start(t, nil, "apply", "fix.diff")
	s.answer("[1/6]", "y")
	s.answer("[2/6]", "K")
	s.expect("[1/6]\x1b[m \x1b[1mcalc.go lines 3-6")
	s.expect("currently approved")
	s.answer("[1/6]", "n")
	s.answer("[2/6]", "y") // on to the first undecided hunk
	s.answer("[3/6]", "n")
	s.answer("[4/6]", "n")
	s.answer("[5/6]", "n")
	s.answer("[6/6]", "y")
	s.expect("Write and commit 2 hunks in 2 files [y,n,K,g,v,?]?")
	s.send("K")
	s.expect("[6/6]\x1b[m \x1b[1mnotes.txt lines 11-13")
	s.expect("currently approved")
	s.answer("[6/6]", "n")
	s.expect("calc.go                                  1 approved, 1 rejected")
	s.expect("notes.txt                                2 rejected")
	s.expect("Write and commit 1 hunk in 1 file [y,n,K,g,v,?]?")
	s.send("y")
	s.wait(0)

	r.wantFile(t, "calc.go", strings.Replace(calcGo, "\treturn a * b\n", "\treturn a * b // product\n", 1))
	r.wantFile(t, "greet.go", greetGo)
	r.wantFile(t, "notes.txt", notesTxt)
	r.wantCommitted(t, "calc.go")
	r.wantStatus(t, "?? fix.diff\n")
	r.wantTrailers(t,
		hunkTrailer("calc.go", 3, hunkAdd, "rejected"),
		hunkTrailer("calc.go", 13, hunkMul, "approved"),
		hunkTrailer("greet.go", 6, hunkHello, "rejected"),
		hunkTrailer("greet.go", 12, hunkBye, "rejected"),
		hunkTrailer("notes.txt", 4, hunkBeta, "rejected"),
		hunkTrailer("notes.txt", 11, hunkKappa, "rejected"),
	)
}

// TestInteractiveNoAtSummary approves everything, then answers n at the
// summary: nothing is written and pair exits with 0.
func TestInteractiveNoAtSummary(t *testing.T) {
	t.Parallel()
	r := newInteractiveRepo(t, goodEditor)
	s := r.start(t, nil, "apply", "fix.diff")
	for i := 1; i <= 6; i++ {
		s.answer(fmt.Sprintf("[%d/6]", i), "y")
	}
	s.expect("Write and commit 6 hunks in 3 files [y,n,K,g,v,?]?")
	s.send("n")
	s.expect("nothing was written")
	screen := s.wait(0)

	if strings.Contains(screen, "committed") || strings.Contains(screen, "applied") {
		t.Errorf("n at the summary wrote something:\n%s", printable(screen))
	}
	r.wantUnchanged(t)
}

// TestInteractiveNoColor: with NO_COLOR set, the same review shows no
// escape sequence at all.
func TestInteractiveNoColor(t *testing.T) {
	t.Parallel()
	r := newInteractiveRepo(t, goodEditor)
	s := r.start(t, []string{"NO_COLOR=1"}, "apply", "fix.diff")
	s.answer("[1/6]", "y")
	s.answer("[2/6]", "n")
	s.answer("[3/6]", "s")
	s.answer("[3/7]", "y")
	s.answer("[4/7]", "y")
	s.answer("[5/7]", "e")
	s.answer("[6/7]", "?")
	s.answer("[6/7]", "x")
	s.answer("[6/7]", "n")
	s.answer("[7/7]", "y")
	s.expect("Write and commit 5 hunks in 3 files [y,n,K,g,v,?]? ")
	s.send("y")
	screen := s.wait(0)

	if i := strings.Index(screen, "\x1b["); i >= 0 {
		t.Errorf("with NO_COLOR an escape sequence at byte %d:\n%s", i, printable(screen))
	}
	for _, want := range []string{
		"\r\n[1/6] calc.go lines 3-6\r\nplaced: exact\r\n@@ -3,4 +3,5 @@\r\n // Add returns a plus b.\r\n func Add(a, b int) int {\r\n-\treturn a + b\r\n+\tsum := a + b\r\n+\treturn sum\r\n }\r\n[1/6] Approve this hunk (calc.go lines 3-6) [",
		"split into 2 hunks",
		"edited and approved",
		"unknown key x; press ? for help",
		"applied 5 hunks to 3 files (2 rejected)",
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen never showed %q; it showed:\n%s", want, printable(screen))
		}
	}
	r.wantFile(t, "greet.go", strings.NewReplacer(
		`greeting := "hello"`, `greeting := "Hello"`,
		`%s, %s%s", greeting`, `%s, %s%s!", greeting`,
		`"bye, "`, `"farewell, "`,
	).Replace(greetGo))
	r.wantFile(t, "calc.go", strings.Replace(calcGo, "\treturn a + b\n", "\tsum := a + b\n\treturn sum\n", 1))
	r.wantFile(t, "notes.txt", strings.Replace(notesTxt, "tenth: kappa\n", "tenth: KAPPA\n", 1))
	r.wantCommitted(t, "calc.go", "greet.go", "notes.txt")
}

// TestInteractiveUnplaceable reviews a patch with a hunk that cannot be
// placed: it is listed as failed and not offered; the others are reviewed
// and the approved ones applied.
func TestInteractiveUnplaceable(t *testing.T) {
	t.Parallel()
	r := newInteractiveRepo(t, goodEditor)
	patch := strings.Replace(sixHunks, "-\treturn \"bye, \" + name\n", "-\treturn \"ciao, \" + name\n", 1)
	r.writeFile(t, "fix.diff", patch)
	s := r.start(t, nil, "apply", "fix.diff")
	s.expect("greet.go: hunk 2: FAILED: hunk does not match the file")
	s.expect("nearest lines of greet.go:")
	s.expect("1 of 6 hunks could not be placed and will not be offered.")
	s.answer("[1/5]", "y")
	s.answer("[2/5]", "n")
	s.answer("[3/5]", "y")
	s.answer("[4/5]", "y")
	s.answer("[5/5]", "n")
	s.expect("greet.go                                 1 approved, 1 not placed")
	s.expect("Write and commit 3 hunks in 3 files [y,n,K,g,v,?]?")
	s.send("y")
	screen := s.wait(0)

	if strings.Contains(screen, "[6/") || strings.Contains(screen, "lines 12-15") {
		t.Errorf("the hunk that could not be placed was offered:\n%s", printable(screen))
	}
	r.wantFile(t, "calc.go", strings.Replace(calcGo, "\treturn a + b\n", "\tsum := a + b\n\treturn sum\n", 1))
	r.wantFile(t, "greet.go", strings.NewReplacer(
		`greeting := "hello"`, `greeting := "Hello"`,
		`%s, %s%s", greeting`, `%s, %s%s!", greeting`,
	).Replace(greetGo))
	r.wantFile(t, "notes.txt", strings.Replace(notesTxt, "second: beta\n", "second: BETA\n", 1))
	r.wantCommitted(t, "calc.go", "greet.go", "notes.txt")
	r.wantTrailers(t,
		hunkTrailer("calc.go", 3, hunkAdd, "approved"),
		hunkTrailer("calc.go", 13, hunkMul, "rejected"),
		hunkTrailer("greet.go", 6, hunkHello, "approved"),
		hunkTrailer("notes.txt", 4, hunkBeta, "approved"),
		hunkTrailer("notes.txt", 11, hunkKappa, "rejected"),
	)
	if body := r.git(t, "log", "-1", "--format=%b"); !strings.Contains(body, "1 hunk could not be placed and was not offered.") {
		t.Errorf("the commit does not say a hunk was not offered:\n%s", body)
	}
}

// TestInteractiveHelpAndUnknownKey: ? shows the keys and an unknown key
// says so, on a hunk and at the summary; neither decides anything.
func TestInteractiveHelpAndUnknownKey(t *testing.T) {
	t.Parallel()
	r := newInteractiveRepo(t, goodEditor)
	s := r.start(t, nil, "apply", "fix.diff")
	s.answer("[1/6]", "?")
	s.expect("y - approve this hunk")
	s.expect("e - edit this hunk in your editor") // s is not on offer here
	s.expect("Ctrl-C stops the review and writes nothing.")
	s.answer("[1/6]", "x")
	s.expect("unknown key x; press ? for help")
	s.answer("[1/6]", "y")
	s.answer("[2/6]", "Z")
	s.expect("unknown key Z; press ? for help")
	for i := 2; i <= 6; i++ {
		s.answer(fmt.Sprintf("[%d/6]", i), "n")
	}
	s.expect("Write and commit 1 hunk in 1 file [y,n,K,g,v,?]?")
	s.send("?")
	s.expect("y - go ahead")
	s.expect("Write and commit 1 hunk in 1 file [y,n,K,g,v,?]?")
	s.send("y")
	screen := s.wait(0)

	if n := strings.Count(screen, "Review summary:"); n != 1 {
		t.Errorf("%d summaries, want 1:\n%s", n, printable(screen))
	}
	if strings.Contains(screen, "currently") {
		t.Errorf("a hunk was shown as decided before its answer:\n%s", printable(screen))
	}
	r.wantFile(t, "calc.go", strings.Replace(calcGo, "\treturn a + b\n", "\tsum := a + b\n\treturn sum\n", 1))
	r.wantFile(t, "greet.go", greetGo)
	r.wantFile(t, "notes.txt", notesTxt)
	r.wantCommitted(t, "calc.go")
	r.wantTrailers(t,
		hunkTrailer("calc.go", 3, hunkAdd, "approved"),
		hunkTrailer("calc.go", 13, hunkMul, "rejected"),
		hunkTrailer("greet.go", 6, hunkHello, "rejected"),
		hunkTrailer("greet.go", 12, hunkBye, "rejected"),
		hunkTrailer("notes.txt", 4, hunkBeta, "rejected"),
		hunkTrailer("notes.txt", 11, hunkKappa, "rejected"),
	)
}

// interactiveRepo is a git repository with the three files committed and
// the patch next to them, untracked, as a user would have it.
type interactiveRepo struct {
	root string // holds home, repo, tmp and the editor
	dir  string // the repository
	tmp  string // TMPDIR, where pair writes the hunk to edit
	env  []string
	head string // the first commit
}

func newInteractiveRepo(t *testing.T, editor string) *interactiveRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("the interactive tests need git on PATH: %v", err)
	}
	root := t.TempDir()
	r := &interactiveRepo{root: root, dir: filepath.Join(root, "repo"), tmp: filepath.Join(root, "tmp")}
	home := filepath.Join(root, "home")
	for _, d := range []string{r.dir, r.tmp, home} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[init]\n\tdefaultBranch = main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	editorPath := filepath.Join(root, "editor.sh")
	if err := os.WriteFile(editorPath, []byte(editor), 0o755); err != nil {
		t.Fatal(err)
	}
	r.env = []string{
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Pty Author",
		"GIT_AUTHOR_EMAIL=author@example.com",
		"GIT_COMMITTER_NAME=Pty Committer",
		"GIT_COMMITTER_EMAIL=committer@example.com",
		"GIT_AUTHOR_DATE=2025-01-02T03:04:05Z",
		"GIT_COMMITTER_DATE=2025-01-02T03:04:05Z",
		"TERM=xterm",
		"TMPDIR=" + r.tmp,
		"EDITOR=" + editorPath,
		"PATH=" + os.Getenv("PATH"),
		// Under -race, each pair process would otherwise sleep a second
		// at exit.
		"GORACE=" + strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"),
	}
	if d := os.Getenv("GOCOVERDIR"); d != "" {
		r.env = append(r.env, "GOCOVERDIR="+d)
	}
	r.writeFile(t, "calc.go", calcGo)
	r.writeFile(t, "greet.go", greetGo)
	r.writeFile(t, "notes.txt", notesTxt)
	r.git(t, "init", "-q")
	r.git(t, "add", "-A")
	r.git(t, "commit", "-q", "-m", "initial")
	r.head = strings.TrimSpace(r.git(t, "rev-parse", "HEAD"))
	r.writeFile(t, "fix.diff", sixHunks)
	return r
}

func (r *interactiveRepo) writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(r.dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// git runs the real git in the repository and returns its output.
func (r *interactiveRepo) git(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = r.dir, r.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return string(out)
}

func (r *interactiveRepo) wantFile(t *testing.T, name, want string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(r.dir, name))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); got != want {
		t.Errorf("%s is\n%s\nwant\n%s", name, got, want)
	}
}

func (r *interactiveRepo) wantStatus(t *testing.T, want string) {
	t.Helper()
	if got := r.git(t, "status", "--porcelain"); got != want {
		t.Errorf("git status --porcelain = %q, want %q", got, want)
	}
}

// wantUnchanged checks that nothing was written or committed.
func (r *interactiveRepo) wantUnchanged(t *testing.T) {
	t.Helper()
	r.wantFile(t, "calc.go", calcGo)
	r.wantFile(t, "greet.go", greetGo)
	r.wantFile(t, "notes.txt", notesTxt)
	r.wantStatus(t, "?? fix.diff\n")
	if got := strings.TrimSpace(r.git(t, "rev-parse", "HEAD")); got != r.head {
		t.Errorf("HEAD moved from %s to %s", r.head, got)
	}
}

// wantCommitted checks that HEAD is one sound commit on top of the first
// one, changing exactly the given files.
func (r *interactiveRepo) wantCommitted(t *testing.T, files ...string) {
	t.Helper()
	if got := strings.TrimSpace(r.git(t, "rev-parse", "HEAD~1")); got != r.head {
		t.Errorf("HEAD~1 is %s, want the first commit %s", got, r.head)
	}
	stat := r.git(t, "show", "--stat", "--format=", "HEAD")
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(stat), "\n") {
		if name, _, ok := strings.Cut(l, "|"); ok {
			got = append(got, strings.TrimSpace(name))
		}
	}
	if !slices.Equal(got, files) {
		t.Errorf("the commit changes %q, want %q:\n%s", got, files, stat)
	}
	r.git(t, "fsck", "--strict", "--no-progress")
}

// wantTrailers checks the Pair-Hunk trailers of HEAD, as written in the
// message and as git's own trailer parser reads them.
func (r *interactiveRepo) wantTrailers(t *testing.T, want ...string) {
	t.Helper()
	var got []string
	for _, l := range strings.Split(r.git(t, "log", "-1", "--format=%B"), "\n") {
		if v, ok := strings.CutPrefix(l, "Pair-Hunk: "); ok {
			if !trailerHunks.MatchString(l) {
				t.Errorf("malformed trailer %q", l)
			}
			got = append(got, v)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("Pair-Hunk trailers:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	parsed := strings.TrimSpace(r.git(t, "log", "-1", "--format=%(trailers:key=Pair-Hunk,valueonly)"))
	if parsed != strings.Join(want, "\n") {
		t.Errorf("git reads the Pair-Hunk trailers as:\n%s\nwant:\n%s", parsed, strings.Join(want, "\n"))
	}
}

// hunkTrailer is the value of the Pair-Hunk trailer of a hunk: its path, its
// first line, the SHA-256 of its lines (12 hex digits) and the decision.
func hunkTrailer(path string, line int, hunk []string, decision string) string {
	h := sha256.New()
	for _, l := range hunk {
		h.Write([]byte(l + "\n"))
	}
	return fmt.Sprintf("%s:%d %s %s", path, line, hex.EncodeToString(h.Sum(nil))[:12], decision)
}

// ptySession is pair running on a pseudo-terminal. A goroutine copies
// everything it shows into screen.
type ptySession struct {
	t        *testing.T
	cmd      *exec.Cmd
	pty, tty *os.File
	before   *term.State // the terminal's mode before pair started
	stty     string      // the same, as stty -g prints it ("" without stty)
	tmp      string
	copied   chan struct{}

	mu     sync.Mutex
	screen []byte
	seen   int // where the last expect matched
}

// start runs pair with args in the repository, on a new pseudo-terminal
// that is its controlling terminal, with the repository's environment and
// extra variables.
func (r *interactiveRepo) start(t *testing.T, extraEnv []string, args ...string) *ptySession {
	t.Helper()
	return r.startStdin(t, nil, extraEnv, args...)
}

// startStdin is start with stdin as standard input (nil: the terminal);
// the terminal stays pair's controlling terminal (/dev/tty).
func (r *interactiveRepo) startStdin(t *testing.T, stdin *os.File, extraEnv []string, args ...string) *ptySession {
	t.Helper()
	bin, err := exec.LookPath("pair")
	if err != nil {
		t.Fatalf("pair is not on PATH (TestMain puts it there): %v", err)
	}
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("open a pseudo-terminal: %v", err)
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 50, Cols: 160}); err != nil {
		t.Fatal(err)
	}
	before, err := term.GetState(int(tty.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	mode := sttyMode(t, tty)
	cmd := exec.Command(bin, args...)
	cmd.Dir = r.dir
	cmd.Env = append(slices.Clone(r.env), extraEnv...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if stdin != nil {
		cmd.Stdin = stdin
		cmd.SysProcAttr.Ctty = 1 // standard output: the terminal
	}
	if err := cmd.Start(); err != nil {
		ptmx.Close()
		tty.Close()
		t.Fatalf("start pair: %v", err)
	}
	s := &ptySession{t: t, cmd: cmd, pty: ptmx, tty: tty, before: before, stty: mode, tmp: r.tmp, copied: make(chan struct{})}
	go func() {
		defer close(s.copied)
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			s.mu.Lock()
			s.screen = append(s.screen, buf[:n]...)
			s.mu.Unlock()
			if err != nil { // EIO once pair and the test closed the terminal
				return
			}
		}
	}()
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil { // the test failed before pair exited
			_ = s.cmd.Process.Kill()
			_ = s.cmd.Wait()
		}
		s.tty.Close()
		s.pty.Close()
	})
	return s
}

// ptyTimeout only guards against a hang: expect polls until then.
const ptyTimeout = 30 * time.Second

// expect waits until the screen shows want after the last match, and
// fails with the whole screen if it never does.
func (s *ptySession) expect(want string) {
	s.t.Helper()
	stop := time.Now().Add(ptyTimeout)
	for {
		s.mu.Lock()
		i := bytes.Index(s.screen[s.seen:], []byte(want))
		if i >= 0 {
			s.seen += i + len(want)
		}
		screen := string(s.screen)
		s.mu.Unlock()
		if i >= 0 {
			return
		}
		if time.Now().After(stop) {
			s.t.Fatalf("the screen never showed %q; the whole screen:\n%s", want, printable(screen))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// send types keys.
func (s *ptySession) send(keys string) {
	s.t.Helper()
	if _, err := s.pty.Write([]byte(keys)); err != nil {
		s.t.Fatalf("type %q: %v", keys, err)
	}
}

// answer waits for the prompt of the hunk at progress pos ("[3/6]") and
// types key.
func (s *ptySession) answer(pos, key string) {
	s.t.Helper()
	s.expect(pos + " Approve this ")
	s.expect("]?")
	s.send(key)
}

// wait waits for pair to exit with code and returns the whole screen. The
// terminal must be back in the mode it was in, and pair's temporary files
// gone.
func (s *ptySession) wait(code int) string {
	s.t.Helper()
	err := s.cmd.Wait()
	var ee *exec.ExitError
	got := 0
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		s.t.Fatalf("wait for pair: %v", err)
	}
	after, stateErr := term.GetState(int(s.tty.Fd()))
	s.tty.Close() // the reader sees the end once the screen is read
	select {
	case <-s.copied:
	case <-time.After(ptyTimeout):
		s.t.Fatalf("the pseudo-terminal did not end after pair exited")
	}
	s.mu.Lock()
	screen := string(s.screen)
	s.mu.Unlock()
	if got != code {
		s.t.Fatalf("pair exited with %d, want %d; the whole screen:\n%s", got, code, printable(screen))
	}
	if stateErr != nil {
		s.t.Errorf("read the terminal's mode: %v", stateErr)
	} else if !reflect.DeepEqual(after, s.before) {
		s.t.Errorf("pair left the terminal in another mode than it found it (raw mode not restored)")
	}
	if left, _ := os.ReadDir(s.tmp); len(left) > 0 {
		s.t.Errorf("pair left %d temporary files, the first %s", len(left), left[0].Name())
	}
	return screen
}

// sttyMode returns the mode of the terminal f as stty -g prints it, or ""
// when there is no stty to ask.
func sttyMode(t *testing.T, f *os.File) string {
	t.Helper()
	if _, err := exec.LookPath("stty"); err != nil {
		return ""
	}
	cmd := exec.Command("stty", "-g")
	cmd.Stdin = f
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("stty -g: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// raw reports whether the terminal is in another mode than pair found it
// in (pair puts it in raw mode to read single keys).
func (s *ptySession) raw() bool {
	s.t.Helper()
	now, err := term.GetState(int(s.tty.Fd()))
	if err != nil {
		s.t.Fatal(err)
	}
	return !reflect.DeepEqual(now, s.before)
}

// printable makes a screen readable in a test log: escapes shown as \e,
// lines ending in "\r\n" as plain lines.
func printable(screen string) string {
	return strings.NewReplacer("\x1b", `\e`, "\r\n", "\n", "\r", `\r`).Replace(screen)
}

// TestInteractiveHostileHunk: a hunk line with escape sequences that would
// erase the line above it is shown escaped and marked, both lines on the
// screen; only pair's own colours reach the terminal; what is committed
// is the patch's bytes.
func TestInteractiveHostileHunk(t *testing.T) {
	t.Parallel()
	r := newInteractiveRepo(t, goodEditor)
	hostile := "# ok\x1b[1A\x1b[2K\x1b[32m+harmless change"
	r.writeFile(t, "fix.diff", "--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1,4 @@\n first: alpha\n+rm -rf ~ # evil\n+"+hostile+"\n second: beta\n")
	s := r.start(t, nil, "apply", "fix.diff")
	s.answer("[1/1]", "y")
	s.expect("Write and commit 1 hunk in 1 file [y,n,K,g,v,?]?")
	s.send("y")
	screen := s.wait(0)

	plain := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(screen, "") // colours
	for _, want := range []string{
		"+rm -rf ~ # evil\r\n+# ok^[[1A^[[2K^[[32m+harmless change ⚠ control characters\r\n",
	} {
		if !strings.Contains(plain, want) {
			t.Errorf("the screen never showed %q; it showed:\n%s", want, printable(screen))
		}
	}
	if strings.Contains(plain, "\x1b") {
		t.Errorf("an escape sequence other than a colour reached the terminal:\n%s", printable(screen))
	}
	if !strings.Contains(screen, "\x1b[32m") {
		t.Errorf("pair's own colours are gone:\n%s", printable(screen))
	}
	r.wantFile(t, "notes.txt", strings.Replace(notesTxt, "first: alpha\n", "first: alpha\nrm -rf ~ # evil\n"+hostile+"\n", 1))
	r.wantCommitted(t, "notes.txt")
}

// TestInteractiveNoPatch: pair apply with no patch file and a terminal as
// standard input is a usage error (exit 2) that says so, with the usage,
// without waiting for input, with or without decisions.
func TestInteractiveNoPatch(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"apply"}, {"apply", "--yes"}} {
		r := newInteractiveRepo(t, goodEditor)
		s := r.start(t, nil, args...)
		screen := s.wait(2)
		for _, want := range []string{"pair: apply: no patch given: give the patch as a file, or pipe it to standard input", "usage: pair apply [options] [PATCH|-]"} {
			if !strings.Contains(screen, want) {
				t.Errorf("%v: the screen lacks %q:\n%s", args, want, printable(screen))
			}
		}
		r.wantUnchanged(t)
	}
}

// TestInteractivePatchOnStdin: with the patch on standard input, the
// review keys come from the terminal (/dev/tty), as git add -p's do.
func TestInteractivePatchOnStdin(t *testing.T) {
	t.Parallel()
	r := newInteractiveRepo(t, goodEditor)
	patch, err := os.Open(filepath.Join(r.dir, "fix.diff"))
	if err != nil {
		t.Fatal(err)
	}
	defer patch.Close()
	s := r.startStdin(t, patch, nil, "apply")
	s.expect("[1/6] Approve this hunk (calc.go lines 3-6) [")
	s.send("y")
	s.answer("[2/6]", "q")
	s.expect("Review summary:")
	s.expect("?")
	s.send("y")
	s.wait(0)
	r.wantFile(t, "calc.go", strings.Replace(calcGo, "\treturn a + b\n", "\tsum := a + b\n\treturn sum\n", 1))
	r.wantCommitted(t, "calc.go")
}

// TestInteractiveGitColors: the review follows the person's git colours.
// color.ui=never turns them off as NO_COLOR does; color.diff.old and
// color.diff.new are the colours of the lines, as git diff shows them.
func TestInteractiveGitColors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		config [][]string
		want   []string // sequences the screen must show; nil: none at all
	}{
		{"never", [][]string{{"color.ui", "never"}}, nil},
		{"slots", [][]string{{"color.diff.old", "blue bold"}, {"color.diff.new", "magenta"}},
			[]string{"\x1b[1;34m-\treturn a + b", "\x1b[35m+\tsum := a + b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newInteractiveRepo(t, goodEditor)
			for _, kv := range tc.config {
				r.git(t, "config", kv[0], kv[1])
			}
			s := r.start(t, nil, "apply", "fix.diff")
			s.answer("[1/6]", "y")
			s.answer("[2/6]", "q")
			s.expect("Write and commit 1 hunk in 1 file [")
			s.expect("]?")
			s.send("y")
			screen := s.wait(0)
			if tc.want == nil {
				if i := strings.Index(screen, "\x1b["); i >= 0 {
					t.Errorf("with color.ui=never an escape sequence at byte %d:\n%s", i, printable(screen))
				}
			}
			for _, w := range tc.want {
				if !strings.Contains(screen, w) {
					t.Errorf("the screen never showed %q:\n%s", w, printable(screen))
				}
			}
		})
	}
}

// TestPagerForLog: on a terminal, pair log goes through the pager git
// would use (here GIT_PAGER), with LESS=FRX set for it as git sets it;
// --no-pager prints it as it is.
func TestPagerForLog(t *testing.T) {
	t.Parallel()
	r := newInteractiveRepo(t, goodEditor)
	pager := []string{`GIT_PAGER=echo "less: $LESS"; sed 's/^/paged: /'`}
	s := r.start(t, pager, "log")
	s.expect("less: FRX")
	s.expect("paged: no pair commits")
	s.wait(0)

	s = r.start(t, pager, "--no-pager", "log")
	screen := s.wait(0)
	if strings.Contains(screen, "paged:") || !strings.Contains(screen, "no pair commits") {
		t.Errorf("--no-pager: the screen shows:\n%s", printable(screen))
	}
}

// TestLongHunkInPager: a hunk longer than the screen (50 rows here) is
// shown through the pager git would use, then the prompt names its file
// and lines; a short one is printed as it is.
func TestLongHunkInPager(t *testing.T) {
	t.Parallel()
	r := newInteractiveRepo(t, goodEditor)
	var before, after strings.Builder
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&before, "line %d\n", i)
		if i >= 10 && i < 70 {
			fmt.Fprintf(&after, "LINE %d\n", i)
		} else {
			fmt.Fprintf(&after, "line %d\n", i)
		}
	}
	r.writeFile(t, "big.txt", before.String())
	r.git(t, "add", "big.txt")
	r.git(t, "commit", "-q", "-m", "big")
	r.writeFile(t, "big.txt", after.String())
	r.writeFile(t, "long.diff", r.git(t, "diff", "big.txt"))
	r.git(t, "checkout", "big.txt")

	s := r.start(t, []string{`GIT_PAGER=sed 's/^/paged: /'`}, "apply", "long.diff")
	s.expect("paged: ") // in colour: the pager gets what the terminal would
	s.expect("@@ -7,66 +7,66 @@")
	s.expect("+LINE 69")
	s.expect("[1/1] Approve this hunk (big.txt lines 7-72) [")
	s.expect("]?")
	s.send("y")
	s.expect("]?")
	s.send("y")
	s.wait(0)
	r.wantFile(t, "big.txt", after.String())

	s = r.start(t, []string{`GIT_PAGER=sed 's/^/paged: /'`}, "apply", "fix.diff")
	s.answer("[1/6]", "y")
	s.answer("[2/6]", "q")
	s.expect("Write and commit 1 hunk in 1 file [")
	s.expect("]?")
	s.send("y")
	screen := s.wait(0)
	if strings.Contains(screen, "paged:") {
		t.Errorf("a short hunk went through the pager:\n%s", printable(screen))
	}
}

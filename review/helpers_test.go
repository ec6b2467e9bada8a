package review_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/review"
)

// The fixture: three files changed by one patch. calc.go has three hunks,
// the second with two runs of changes (it can be split); util/strings.go
// has two and README.md one, so the review has six items:
//
//	1 calc.go          ErrDivide message
//	2 calc.go          Div doc comment, and Div's error (two runs)
//	3 calc.go          Show's error handling
//	4 util/strings.go  Title's test for ""
//	5 util/strings.go  Join's doc comment
//	6 README.md        usage
const calcOld = `package calc

import (
	"errors"
	"fmt"
)

// ErrDivide is returned when dividing by zero.
var ErrDivide = errors.New("divide by zero")

// Add returns the sum of a and b.
func Add(a, b int) int {
	return a + b
}

// Sub returns a minus b.
func Sub(a, b int) int {
	return a - b
}

// Mul returns the product of a and b.
func Mul(a, b int) int {
	return a * b
}

// Div returns a divided by b.
func Div(a, b int) (int, error) {
	if b == 0 {
		return 0, ErrDivide
	}
	return a / b, nil
}

// Show prints the four results.
func Show(a, b int) {
	fmt.Println("add", Add(a, b))
	fmt.Println("sub", Sub(a, b))
	fmt.Println("mul", Mul(a, b))
	q, err := Div(a, b)
	fmt.Println("div", q, err)
}
`

// calcNew is calcOld with every hunk of calcPatch applied.
const calcNew = `package calc

import (
	"errors"
	"fmt"
)

// ErrDivide is returned when dividing by zero.
var ErrDivide = errors.New("calc: divide by zero")

// Add returns the sum of a and b.
func Add(a, b int) int {
	return a + b
}

// Sub returns a minus b.
func Sub(a, b int) int {
	return a - b
}

// Mul returns the product of a and b.
func Mul(a, b int) int {
	return a * b
}

// Div returns a divided by b, or ErrDivide when b is zero.
func Div(a, b int) (int, error) {
	if b == 0 {
		return 0, fmt.Errorf("div %d: %w", a, ErrDivide)
	}
	return a / b, nil
}

// Show prints the four results.
func Show(a, b int) {
	fmt.Println("add", Add(a, b))
	fmt.Println("sub", Sub(a, b))
	fmt.Println("mul", Mul(a, b))
	q, err := Div(a, b)
	if err != nil {
		fmt.Println("div", err)
		return
	}
	fmt.Println("div", q)
}
`

const calcPatch = `diff --git a/calc.go b/calc.go
--- a/calc.go
+++ b/calc.go
@@ -6,7 +6,7 @@
 )
 
 // ErrDivide is returned when dividing by zero.
-var ErrDivide = errors.New("divide by zero")
+var ErrDivide = errors.New("calc: divide by zero")
 
 // Add returns the sum of a and b.
 func Add(a, b int) int {
@@ -23,10 +23,10 @@ func Mul(a, b int) int {
 	return a * b
 }
 
-// Div returns a divided by b.
+// Div returns a divided by b, or ErrDivide when b is zero.
 func Div(a, b int) (int, error) {
 	if b == 0 {
-		return 0, ErrDivide
+		return 0, fmt.Errorf("div %d: %w", a, ErrDivide)
 	}
 	return a / b, nil
 }
@@ -37,5 +37,9 @@ func Show(a, b int) {
 	fmt.Println("sub", Sub(a, b))
 	fmt.Println("mul", Mul(a, b))
 	q, err := Div(a, b)
-	fmt.Println("div", q, err)
+	if err != nil {
+		fmt.Println("div", err)
+		return
+	}
+	fmt.Println("div", q)
 }
`

const stringsOld = `package util

import "strings"

// Title upper-cases the first letter of s.
func Title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Words splits s at spaces.
func Words(s string) []string {
	return strings.Split(s, " ")
}

// Join joins words with a space.
func Join(words []string) string {
	return strings.Join(words, " ")
}
`

const stringsNew = `package util

import "strings"

// Title upper-cases the first letter of s.
func Title(s string) string {
	if len(s) == 0 {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Words splits s at spaces.
func Words(s string) []string {
	return strings.Split(s, " ")
}

// Join joins words with a single space.
func Join(words []string) string {
	return strings.Join(words, " ")
}
`

const stringsPatch = `diff --git a/util/strings.go b/util/strings.go
--- a/util/strings.go
+++ b/util/strings.go
@@ -4,7 +4,7 @@ import "strings"
 
 // Title upper-cases the first letter of s.
 func Title(s string) string {
-	if s == "" {
+	if len(s) == 0 {
 		return s
 	}
 	return strings.ToUpper(s[:1]) + s[1:]
@@ -15,7 +15,7 @@ func Words(s string) []string {
 	return strings.Split(s, " ")
 }
 
-// Join joins words with a space.
+// Join joins words with a single space.
 func Join(words []string) string {
 	return strings.Join(words, " ")
 }
`

const readmeOld = `# calc

A tiny calculator.

## Usage

Call calc.Show(a, b) to print the results.

## License

MIT
`

const readmeNew = `# calc

A tiny calculator.

## Usage

Call calc.Show(a, b) to print the four results.
Division by zero prints an error.

## License

MIT
`

const readmePatch = `diff --git a/README.md b/README.md
--- a/README.md
+++ b/README.md
@@ -4,7 +4,8 @@
 
 ## Usage
 
-Call calc.Show(a, b) to print the results.
+Call calc.Show(a, b) to print the four results.
+Division by zero prints an error.
 
 ## License
 
`

// olds is the working tree the fixture patches are placed against.
var olds = map[string]string{
	"calc.go":         calcOld,
	"util/strings.go": stringsOld,
	"README.md":       readmeOld,
	"notes.txt":       notesOld,
	"gone.txt":        goneOld,
	"tail.txt":        "alpha\nbeta\ngamma\n",
}

const notesOld = `one
two
three
`

const goneOld = `first
second
third
fourth
fifth
sixth
seventh
eighth
ninth
tenth
`

// place parses patch and places each of its files against olds, as the
// agent does, keeping the hunks that cannot be placed as failures.
func place(t testing.TB, patch string) review.Proposal {
	t.Helper()
	p, err := edit.Parse(patch)
	if err != nil {
		t.Fatalf("Parse: got error %v, want none\npatch:\n%s", err, patch)
	}
	in := make([]edit.PlanInput, 0, len(p.Files))
	for _, fd := range p.Files {
		in = append(in, edit.PlanInput{OldPath: fd.OldPath, NewPath: fd.NewPath, Old: olds[fd.OldPath], Diff: fd})
	}
	return review.FromPlans(edit.PlanFiles(in))
}

// mustPlace is place for a patch whose every hunk must be placed.
func mustPlace(t testing.TB, patch string) review.Proposal {
	t.Helper()
	p := place(t, patch)
	for _, f := range p.Files {
		for _, e := range f.Failed {
			t.Fatalf("%s: hunk %d: got failure %q, want it placed", f.Path(), e.Hunk+1, e.Reason)
		}
	}
	return p
}

// fixture starts a review of the three-file patch with no grants.
func fixture(t testing.TB) *review.Review {
	t.Helper()
	r := review.New(mustPlace(t, calcPatch+stringsPatch+readmePatch), nil)
	if got := state(r); got != "[1=.] 2=. 3=. 4=. 5=. 6=." {
		t.Fatalf("fixture: got state %q, want six undecided items", got)
	}
	return r
}

// state shows the items of a review, one "id=decision" each with the
// current one in brackets: '.' undecided, 'y' approved, 'g' approved by a
// grant, 'n' rejected, 'e' edited.
func state(r *review.Review) string {
	parts := make([]string, len(r.Items))
	for i, it := range r.Items {
		c := "."
		switch it.Decision {
		case audit.Approved:
			c = "y"
			if it.Granted {
				c = "g"
			}
		case audit.Rejected:
			c = "n"
		case audit.Edited:
			c = "e"
		}
		parts[i] = it.ID + "=" + c
		if i == r.Cursor {
			parts[i] = "[" + parts[i] + "]"
		}
	}
	return strings.Join(parts, " ")
}

// notes shows the notes of the review's items, "id:note" for each item
// that has one.
func notes(r *review.Review) string {
	var parts []string
	for _, it := range r.Items {
		if it.Note != "" {
			parts = append(parts, it.ID+":"+it.Note)
		}
	}
	return strings.Join(parts, " ")
}

// snapshot is the review as JSON, to check that a refused key changed
// nothing.
func snapshot(t testing.TB, r *review.Review) string {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatalf("json.Marshal: got error %v, want none", err)
	}
	return string(b)
}

// mustDo presses keys in order, failing on the first error (see do).
func mustDo(t testing.TB, r *review.Review, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if err := do(r, k); err != nil {
			t.Fatalf("key %q: got error %v, want none (state %s)", k, err, state(r))
		}
	}
}

// do presses one key of the review: y n a d A q s j k J K as themselves,
// "n:note" and "d:note" for a rejection with a note, "g3" to go to item 3
// and "/re" to search.
func do(r *review.Review, key string) error {
	switch {
	case strings.HasPrefix(key, "n:"):
		return r.Reject(key[2:])
	case strings.HasPrefix(key, "d:"):
		return r.RejectFile(key[2:])
	case strings.HasPrefix(key, "/"):
		return r.Search(key[1:])
	case strings.HasPrefix(key, "g") && len(key) > 1:
		n, err := strconv.Atoi(key[1:])
		if err != nil {
			return err
		}
		return r.Goto(n)
	}
	switch key {
	case "y":
		return r.Approve()
	case "n":
		return r.Reject("")
	case "a":
		return r.ApproveFile()
	case "d":
		return r.RejectFile("")
	case "A":
		return r.AlwaysApprove()
	case "q":
		r.QuitReview()
		return nil
	case "s":
		return r.Split()
	case "j":
		return r.NextUndecided()
	case "k":
		return r.PrevUndecided()
	case "J":
		return r.Next()
	case "K":
		return r.Prev()
	}
	return fmt.Errorf("test: unknown key %q", key)
}

// results applies the review's plans and returns each written file's
// content by path ("" and no entry for a file not written; a deleted
// file maps to "<deleted>").
func results(t testing.TB, r *review.Review) map[string]string {
	t.Helper()
	plans, err := r.Plans()
	if err != nil {
		t.Fatalf("Plans: got error %v, want none", err)
	}
	out := map[string]string{}
	for _, p := range plans {
		got, err := p.Result(nil)
		if err != nil {
			t.Fatalf("%s: Result: got error %v, want none", p.Path(), err)
		}
		if p.NewPath == "" {
			got = "<deleted>"
		}
		if _, dup := out[p.Path()]; dup {
			t.Fatalf("Plans: got two plans for %s, want one", p.Path())
		}
		out[p.Path()] = got
	}
	return out
}

// change is one edit of an old file: the first text replaced by the
// second.
type change [2]string

// The changes of the fixture's hunks, to build expected contents.
var (
	change1  = change{`errors.New("divide by zero")`, `errors.New("calc: divide by zero")`}
	change2a = change{"// Div returns a divided by b.\n", "// Div returns a divided by b, or ErrDivide when b is zero.\n"}
	change2b = change{"\t\treturn 0, ErrDivide\n", "\t\treturn 0, fmt.Errorf(\"div %d: %w\", a, ErrDivide)\n"}
	change3  = change{"\tfmt.Println(\"div\", q, err)\n", "\tif err != nil {\n\t\tfmt.Println(\"div\", err)\n\t\treturn\n\t}\n\tfmt.Println(\"div\", q)\n"}
	change4  = change{"\tif s == \"\" {\n", "\tif len(s) == 0 {\n"}
	change5  = change{"// Join joins words with a space.\n", "// Join joins words with a single space.\n"}
)

// with returns old with the changes made, each of which must find its
// text exactly once.
func with(t testing.TB, old string, changes ...change) string {
	t.Helper()
	for _, c := range changes {
		if n := strings.Count(old, c[0]); n != 1 {
			t.Fatalf("with: %q occurs %d times, want once", c[0], n)
		}
		old = strings.Replace(old, c[0], c[1], 1)
	}
	return old
}

// item returns the item with the given id.
func item(t testing.TB, r *review.Review, id string) *review.Item {
	t.Helper()
	for i := range r.Items {
		if r.Items[i].ID == id {
			return &r.Items[i]
		}
	}
	t.Fatalf("no item %q in %s", id, state(r))
	return nil
}

// TestFixture checks the fixture itself: every patch places exactly, and
// the changes that build expected contents are those of the patches.
func TestFixture(t *testing.T) {
	r := fixture(t)
	for _, it := range r.Items {
		if got := it.Hunk.Label(); got != "exact" {
			t.Errorf("item %s: got placement %q, want exact", it.ID, got)
		}
	}
	if got := with(t, calcOld, change1, change2a, change2b, change3); got != calcNew {
		t.Errorf("calc changes: got\n%s\nwant\n%s", got, calcNew)
	}
	if got := with(t, stringsOld, change4, change5); got != stringsNew {
		t.Errorf("strings changes: got\n%s\nwant\n%s", got, stringsNew)
	}
}

// gonePatch deletes gone.txt in two hunks: a deletion is all or nothing.
const gonePatch = `diff --git a/gone.txt b/gone.txt
deleted file mode 100644
--- a/gone.txt
+++ /dev/null
@@ -1,5 +0,0 @@
-first
-second
-third
-fourth
-fifth
@@ -6,5 +0,0 @@
-sixth
-seventh
-eighth
-ninth
-tenth
`

// createPatch creates hello.txt.
const createPatch = `diff --git a/hello.txt b/hello.txt
new file mode 100644
--- /dev/null
+++ b/hello.txt
@@ -0,0 +1,3 @@
+line one
+line two
+line three
`

// notesFailPatch changes notes.txt in two hunks, the second of which
// matches nothing in the file.
const notesFailPatch = `diff --git a/notes.txt b/notes.txt
--- a/notes.txt
+++ b/notes.txt
@@ -1,3 +1,3 @@
 one
-two
+2
 three
@@ -20,3 +20,3 @@
 nothing
-like
+this
 here
`

// readmeFailPatch changes README.md in one hunk that matches nothing.
const readmeFailPatch = `diff --git a/README.md b/README.md
--- a/README.md
+++ b/README.md
@@ -1,3 +1,3 @@
 # Changelog
-## v1.0.0
+## v1.1.0
 Initial release.
`

// tailPatch changes the last lines of tail.txt and drops its final
// newline.
const tailPatch = `diff --git a/tail.txt b/tail.txt
--- a/tail.txt
+++ b/tail.txt
@@ -1,3 +1,3 @@
 alpha
-beta
-gamma
+beta2
+gamma
\\ No newline at end of file
`

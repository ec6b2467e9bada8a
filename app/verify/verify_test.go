package verify_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pair-cli/pair/app/verify"
	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
	"github.com/pair-cli/pair/review"
)

// goFiles is a small Go module with a test per function.
var goFiles = map[string]string{
	"go.mod":     "module example.com/calc\n\ngo 1.21\n",
	".gitignore": "build/\n",
	"calc.go": `package calc

// Add adds.
func Add(a, b int) int {
	return a + b
}

// Sub subtracts.
func Sub(a, b int) int {
	return a - b
}

// Mul multiplies.
func Mul(a, b int) int {
	return a * b
}
`,
	"calc_test.go": `package calc

import "testing"

func TestAdd(t *testing.T) {
	if Add(2, 3) != 5 {
		t.Fatal("Add")
	}
}

func TestSub(t *testing.T) {
	if Sub(5, 3) != 2 {
		t.Fatal("Sub")
	}
}

func TestMul(t *testing.T) {
	if Mul(2, 3) != 6 {
		t.Fatal("Mul")
	}
}
`,
}

// goPatch has three hunks; the second breaks TestSub.
const goPatch = `--- a/calc.go
+++ b/calc.go
@@ -2,5 +2,5 @@
 
-// Add adds.
+// Add adds two numbers.
 func Add(a, b int) int {
 	return a + b
 }
@@ -8,5 +8,5 @@
 // Sub subtracts.
 func Sub(a, b int) int {
-	return a - b
+	return a + b
 }
 
@@ -13,5 +13,5 @@
 
-// Mul multiplies.
+// Mul multiplies two numbers.
 func Mul(a, b int) int {
 	return a * b
 }
`

// pyFiles is a Python project with a test script.
var pyFiles = map[string]string{
	".gitignore": "__pycache__/\n*.log\n",
	"shapes.py": `def area(w, h):
    return w * h


def perimeter(w, h):
    return 2 * (w + h)


def square(n):
    return n * n
`,
	"test_shapes.py": `import unittest

import shapes


class T(unittest.TestCase):
    def test_area(self):
        self.assertEqual(shapes.area(2, 3), 6)

    def test_perimeter(self):
        self.assertEqual(shapes.perimeter(2, 3), 10)

    def test_square(self):
        self.assertEqual(shapes.square(4), 16)


if __name__ == "__main__":
    unittest.main()
`,
}

// pyPatch has three hunks; the third breaks test_square.
const pyPatch = `--- a/shapes.py
+++ b/shapes.py
@@ -1,3 +1,4 @@
 def area(w, h):
+    """The area of a w by h rectangle."""
     return w * h
 
@@ -5,3 +6,4 @@
 def perimeter(w, h):
+    """The perimeter of a w by h rectangle."""
     return 2 * (w + h)
 
@@ -9,2 +11,2 @@
 def square(n):
-    return n * n
+    return n + n
`

// setup makes the repository of files with the person's own work in it
// (an uncommitted edit, an untracked file, an ignored file), and a
// review of patch with every hunk approved.
func setup(t *testing.T, files map[string]string, patch string, extra map[string]string) (*repo.Tree, *review.Review) {
	t.Helper()
	dir := repotest.Init(t, files)
	repotest.WriteFiles(t, dir, extra)
	tree, rev := reviewOf(t, dir, patch)
	if len(rev.Items) != 3 {
		t.Fatalf("got %d items, want 3", len(rev.Items))
	}
	for i := range rev.Items {
		rev.Items[i].Decision = audit.Approved
	}
	return tree, rev
}

// reviewOf opens the tree of dir and starts the review of patch.
func reviewOf(t *testing.T, dir, patch string) (*repo.Tree, *review.Review) {
	t.Helper()
	tree, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tree.Close() })
	p, err := edit.Parse(patch)
	if err != nil {
		t.Fatal(err)
	}
	plans, err := tree.PlaceWith(p, repo.Access{})
	if err != nil {
		t.Fatal(err)
	}
	return tree, review.New(review.FromPlans(plans), nil)
}

// snapshot is every file under dir (the git directory's pair folder
// aside) with its mode and content, and git's index.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == filepath.Join(".git", "pair") {
			return filepath.SkipDir
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			out[rel] = fi.Mode().String()
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[rel] = fi.Mode().String() + " " + fi.ModTime().String() + "\n" + string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func checkSame(t *testing.T, before, after map[string]string) {
	t.Helper()
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s changed:\n%q\nwant\n%q", k, after[k], v)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			t.Errorf("%s appeared", k)
		}
	}
}

func TestVerifyNamesTheHunkThatBreaksIt(t *testing.T) {
	for _, c := range []struct {
		name, patch, cmd string
		files            map[string]string
		culprit          int
		first, where     string
	}{
		{"go", goPatch, "go test ./...", goFiles, 1, "FAIL TestSub", "hunk 2 (calc.go:8-12)"},
		{"python", pyPatch, "python3 -m unittest -q", pyFiles, 2, "FAIL test_square", "hunk 3 (shapes.py:9-10)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			extra := map[string]string{"notes.txt": "mine, untracked\n", "build/out.bin": "ignored\n", "run.log": "ignored\n"}
			tree, rev := setup(t, c.files, c.patch, extra)
			before := snapshot(t, tree.Dir)
			v := &verify.Verifier{Tree: tree, Command: c.cmd, Timeout: 2 * time.Minute}
			var steps []string
			res, err := v.Verify(context.Background(), rev, func(s string) { steps = append(steps, s) })
			if err != nil {
				t.Fatal(err)
			}
			if res.Pass || res.BaseFails {
				t.Fatalf("got pass %v, base fails %v, want a failure of the hunks:\n%s", res.Pass, res.BaseFails, res.Output)
			}
			if !slices.Equal(res.Culprits, []int{c.culprit}) {
				t.Fatalf("got culprits %v, want [%d]\n%s", res.Culprits, c.culprit, res.Output)
			}
			want := c.where + " breaks it: " + c.first
			if got := res.Blame(rev); got != want {
				t.Errorf("got %q, want %q", got, want)
			}
			if len(steps) == 0 {
				t.Error("no progress was shown")
			}
			checkSame(t, before, snapshot(t, tree.Dir))

			// Rejecting the culprit makes it pass.
			rev.Items[c.culprit].Decision = audit.Rejected
			res, err = v.Verify(context.Background(), rev, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Pass || res.Runs != 1 {
				t.Fatalf("after rejecting the culprit: got pass %v in %d runs, want a pass in 1:\n%s", res.Pass, res.Runs, res.Output)
			}
			checkSame(t, before, snapshot(t, tree.Dir))
		})
	}
}

// The candidate holds the person's uncommitted and untracked work, but
// not their ignored files.
func TestVerifyCandidateIsThePersonsWork(t *testing.T) {
	files := map[string]string{"a.txt": "one\ntwo\nthree\n", ".gitignore": "*.secret\n"}
	patch := "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n"
	dir := repotest.Init(t, files)
	repotest.WriteFiles(t, dir, map[string]string{"a.txt": "zero\none\ntwo\nthree\n", "new.txt": "untracked\n", "k.secret": "ignored\n"})
	tree, rev := reviewOf(t, dir, patch)
	rev.Items[0].Decision = audit.Approved
	v := &verify.Verifier{Tree: tree, Command: `test "$(cat a.txt)" = "$(printf 'zero\none\nTWO\nthree')" && test -f new.txt && test ! -e k.secret`}
	res, err := v.Verify(context.Background(), rev, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Pass {
		t.Fatalf("the candidate is not HEAD + the person's work + the hunk:\n%s", res.Output)
	}
	// A second run with the hunk rejected: only a.txt is written again,
	// and the file the test made stays.
	rev.Items[0].Decision = audit.Rejected
	v.Command = `test "$(cat a.txt)" = "$(printf 'zero\none\ntwo\nthree')" && touch made-by-test`
	if res, err = v.Verify(context.Background(), rev, nil); err != nil || !res.Pass {
		t.Fatalf("got %v, %v:\n%s", res.Pass, err, res.Output)
	}
	v.Command = `test -f made-by-test`
	if res, err = v.Verify(context.Background(), rev, nil); err != nil || !res.Pass {
		t.Fatalf("a file the tests made was removed: %v, %v", res.Pass, err)
	}
	// A file the person deletes leaves the candidate.
	if err := os.Remove(filepath.Join(dir, "new.txt")); err != nil {
		t.Fatal(err)
	}
	v.Command = `test ! -e new.txt`
	if res, err = v.Verify(context.Background(), rev, nil); err != nil || !res.Pass {
		t.Fatalf("a file gone from the tree stayed in the candidate: %v, %v", res.Pass, err)
	}
}

// Ctrl-C (a cancelled context) stops the command and what it started,
// and leaves no lock and no git worktree: the next verify runs.
func TestVerifyInterrupted(t *testing.T) {
	tree, rev := setup(t, pyFiles, pyPatch, nil)
	before := snapshot(t, tree.Dir)
	pidFile := filepath.Join(t.TempDir(), "pid")
	v := &verify.Verifier{Tree: tree, Command: "sleep 60 & echo $! > " + pidFile + "; wait"}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := v.Verify(ctx, rev, nil)
		done <- err
	}()
	for {
		if b, err := os.ReadFile(pidFile); err == nil && strings.TrimSpace(string(b)) != "" {
			break
		}
		if time.Since(start) > 30*time.Second {
			t.Fatal("the command did not start")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v, want context.Canceled", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Verify did not stop when cancelled")
	}
	if time.Since(start) > 40*time.Second {
		t.Fatal("the command ran to its end")
	}
	checkSame(t, before, snapshot(t, tree.Dir))
	if wt := repotest.Git(t, tree.Dir, "worktree", "list", "--porcelain"); strings.Count(wt, "worktree ") != 1 {
		t.Errorf("git knows other worktrees:\n%s", wt)
	}
	if _, err := os.Stat(filepath.Join(tree.Dir, ".git", "index.lock")); err == nil {
		t.Error("index.lock left behind")
	}
	v.Command = "true"
	if res, err := v.Verify(context.Background(), rev, nil); err != nil || !res.Pass {
		t.Fatalf("the next verify: %v, %v", res.Pass, err)
	}
}

// Two processes do not share the scratch tree at once.
func TestVerifyBusy(t *testing.T) {
	tree, rev := setup(t, pyFiles, pyPatch, nil)
	other, err := repo.Open(tree.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	s, err := other.OpenScratch()
	if err != nil {
		t.Fatal(err)
	}
	v := &verify.Verifier{Tree: tree, Command: "true"}
	if _, err := v.Verify(context.Background(), rev, nil); !errors.Is(err, repo.ErrScratchBusy) {
		t.Fatalf("got %v, want ErrScratchBusy", err)
	}
	s.Close()
	if res, err := v.Verify(context.Background(), rev, nil); err != nil || !res.Pass {
		t.Fatalf("after the other closed: %v, %v", res.Pass, err)
	}
}

// When HEAD with the person's changes fails too, no hunk is blamed.
func TestVerifyBaseFails(t *testing.T) {
	tree, rev := setup(t, pyFiles, pyPatch, nil)
	v := &verify.Verifier{Tree: tree, Command: "exit 1"}
	res, err := v.Verify(context.Background(), rev, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Pass || !res.BaseFails || len(res.Culprits) != 0 || res.Runs != 2 {
		t.Fatalf("got %+v", res)
	}
}

func TestVerifyTimeout(t *testing.T) {
	tree, rev := setup(t, pyFiles, pyPatch, nil)
	rev = rev.Only(nil)
	v := &verify.Verifier{Tree: tree, Command: "sleep 30", Timeout: 2 * time.Second}
	res, err := v.Verify(context.Background(), rev, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Pass || res.ExitCode != -1 || !strings.Contains(res.Output, "ran longer than 2s") {
		t.Fatalf("got %+v", res)
	}
}

// Two hunks that break the tests only together are both named.
func TestVerifyTwoTogether(t *testing.T) {
	lines := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n"
	patch := "--- a/x.txt\n+++ b/x.txt\n@@ -1,2 +1,2 @@\n-a\n+A\n b\n@@ -5,3 +5,3 @@\n e\n-f\n+F\n g\n@@ -10,3 +10,3 @@\n j\n-k\n+K\n l\n"
	dir := repotest.Init(t, map[string]string{"x.txt": lines})
	tree, rev := reviewOf(t, dir, patch)
	for i := range rev.Items {
		rev.Items[i].Decision = audit.Approved
	}
	v := &verify.Verifier{Tree: tree, Command: `if grep -q A x.txt && grep -q K x.txt; then echo 'ERROR: A with K'; exit 1; fi`}
	res, err := v.Verify(context.Background(), rev, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Culprits, []int{0, 2}) {
		t.Fatalf("got culprits %v, want [0 2]\n%s", res.Culprits, res.Output)
	}
	if got, want := res.Blame(rev), "hunk 1 (x.txt:1-2) and hunk 3 (x.txt:10-12) together break it: ERROR A"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// With a bound of three runs, the search stops before it is sure.
	v.MaxRuns = 3
	if res, err = v.Verify(context.Background(), rev, nil); err != nil || !res.Bounded || res.Runs != 3 {
		t.Fatalf("bounded: got %+v, %v", res, err)
	}
}

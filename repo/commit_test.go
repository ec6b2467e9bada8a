package repo_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/repo"
)

// The tests of this file and hooks_test.go use t.Setenv: they cannot be
// parallel.

// cmEnv gives the test a git environment of its own: an empty HOME, no
// system configuration, and none of the caller's identity or repository
// variables.
func cmEnv(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("these tests need git: %v", err)
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, k := range []string{
		"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL",
		"GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE", "EMAIL", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL",
		"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_CONFIG_SYSTEM",
	} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
}

// cmGit runs git in dir in the test's environment (see cmEnv) and
// returns its standard output.
func cmGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := cmGitErr(dir, args...)
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return out
}

func cmGitErr(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("%v\n%s", err, stderr.String())
	}
	return string(out), nil
}

// cmRepo makes a repository with an identity in its configuration and, if
// files is not empty, a first commit holding them.
func cmRepo(t *testing.T, files map[string]string) (string, *repo.Tree) {
	t.Helper()
	cmEnv(t)
	dir := t.TempDir()
	cmGit(t, dir, "init", "-q", "-b", "main", ".")
	cmGit(t, dir, "config", "user.name", "Pair Tester")
	cmGit(t, dir, "config", "user.email", "tester@example.com")
	if len(files) > 0 {
		writeFiles(t, dir, texts(files))
		cmGit(t, dir, "add", "-A")
		cmGit(t, dir, "commit", "-q", "-m", "initial")
	}
	return dir, openTree(t, dir)
}

// cmApply does what pair apply does with a diff whose hunks are all
// approved: places it against the working tree, writes the result, and
// returns the files to commit and their hunk records.
func cmApply(t *testing.T, tr *repo.Tree, diff string) ([]repo.FileCommit, []audit.HunkRecord) {
	t.Helper()
	p, err := edit.Parse(diff)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	plans, err := tr.Place(p)
	if err != nil {
		t.Fatalf("Place: %v", err)
	}
	var fcs []repo.FileCommit
	var recs []audit.HunkRecord
	var changes []repo.Change
	for _, pl := range plans {
		if len(pl.Errors) > 0 {
			t.Fatalf("Place %s: %v", pl.Path(), pl.Errors)
		}
		after, err := pl.Result(nil)
		if err != nil {
			t.Fatal(err)
		}
		fc := repo.FileCommit{Path: pl.Path(), Before: pl.Old, After: after, Hunks: pl.Hunks}
		switch {
		case pl.OldPath == "":
			fc.Create = true
		case pl.NewPath == "":
			fc.Delete = true
		case pl.OldPath != pl.NewPath:
			fc.OldPath = pl.OldPath
		}
		fcs = append(fcs, fc)
		for _, h := range pl.Hunks {
			recs = append(recs, audit.HunkRecord{Path: pl.Path(), Start: h.Start + 1, Hash: h.Hash(), Decision: audit.Approved})
		}
		if fc.OldPath != "" {
			changes = append(changes, repo.Change{Path: fc.OldPath, Delete: true})
		}
		changes = append(changes, repo.Change{Path: fc.Path, Content: []byte(after), Delete: fc.Delete})
	}
	if err := tr.Write(changes); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return fcs, recs
}

// cmNumbered returns n lines prefix1, prefix2, ...
func cmNumbered(prefix string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s%d\n", prefix, i)
	}
	return b.String()
}

var cmClock = func() time.Time { return time.Date(2025, 3, 4, 5, 6, 7, 0, time.FixedZone("", 2*3600)) }

func cmOptions(recs []audit.HunkRecord) repo.CommitOptions {
	return repo.CommitOptions{
		Record: audit.Record{Subject: "Change things", Body: "Because.", Session: "s-1", Model: "none", Hunks: recs},
		Now:    cmClock,
	}
}

// cmFsck checks the repository with git fsck --strict and git status.
func cmFsck(t *testing.T, dir string) {
	t.Helper()
	if out, err := cmGitErr(dir, "fsck", "--strict", "--no-progress"); err != nil || strings.TrimSpace(out) != "" {
		t.Errorf("git fsck --strict: %v\n%s", err, out)
	}
	cmGit(t, dir, "status", "--porcelain")
}

var cmSection = regexp.MustCompile(`(?m)^(@@ [^@]* @@).*$`)

// cmShow is git diff between two revisions without index lines and hunk
// section headings, comparable with a diff edit.Render writes.
func cmShow(t *testing.T, dir, from, to string) string {
	t.Helper()
	out := cmGit(t, dir, "diff", "--no-color", "--no-ext-diff", "-M", from, to)
	var keep []string
	for _, l := range strings.SplitAfter(out, "\n") {
		if strings.HasPrefix(l, "index ") {
			continue
		}
		keep = append(keep, l)
	}
	return cmSection.ReplaceAllString(strings.Join(keep, ""), "$1")
}

func cmRead(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func cmWrite(t *testing.T, dir, name, content string) {
	t.Helper()
	writeFiles(t, dir, texts(map[string]string{name: content}))
}

// cmCommit commits and fails the test on an error.
func cmCommit(t *testing.T, tr *repo.Tree, fcs []repo.FileCommit, opts repo.CommitOptions) *repo.CommitResult {
	t.Helper()
	res, err := tr.Commit(fcs, opts)
	if err != nil {
		t.Fatalf("Commit: %v", err)
	}
	return res
}

func cmHead(t *testing.T, dir string) string {
	t.Helper()
	out, err := cmGitErr(dir, "rev-parse", "-q", "--verify", "HEAD")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(out)
}

const cmDiffLine5 = `--- a/a.txt
+++ b/a.txt
@@ -4,3 +4,3 @@
 l4
-l5
+L5
 l6
`

func TestCommitCleanFile(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10), "b.txt": "b\n"})
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	res := cmCommit(t, tr, fcs, cmOptions(recs))
	if res.Hash == "" || res.Hash != cmHead(t, dir) {
		t.Fatalf("Hash = %q, HEAD is %q", res.Hash, cmHead(t, dir))
	}
	if fmt.Sprint(res.Committed) != "[a.txt]" || len(res.Uncommitted) != 0 {
		t.Errorf("Committed %q, Uncommitted %q; want [a.txt] and none", res.Committed, res.Uncommitted)
	}
	want := `diff --git a/a.txt b/a.txt
--- a/a.txt
+++ b/a.txt
@@ -2,7 +2,7 @@
 l2
 l3
 l4
-l5
+L5
 l6
 l7
 l8
`
	if got := cmShow(t, dir, "HEAD~1", "HEAD"); got != want {
		t.Errorf("git diff HEAD~1 HEAD:\n%s\nwant:\n%s", got, want)
	}
	if got := cmGit(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("git status --porcelain = %q, want clean", got)
	}
	cmFsck(t, dir)

	// The message, its trailers and the people.
	if got, want := cmGit(t, dir, "log", "-1", "--format=%an <%ae>|%cn <%ce>|%at %ai"), "Pair Tester <tester@example.com>|Pair Tester <tester@example.com>|1741057567 2025-03-04 05:06:07 +0200\n"; got != want {
		t.Errorf("author, committer, date = %q, want %q", got, want)
	}
	if got, want := cmGit(t, dir, "log", "-1", "--format=%(trailers:key=Pair-Hunk,valueonly)"), recs[0].String()+"\n\n"; got != want {
		t.Errorf("Pair-Hunk trailers = %q, want %q", got, want)
	}
	msg := cmGit(t, dir, "log", "-1", "--format=%B")
	cmd := exec.Command("git", "interpret-trailers", "--parse")
	cmd.Stdin = strings.NewReader(msg)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	wantTrailers := "Pair-Session: s-1\nPair-Model: none\nPair-Reviewed-By: Pair Tester <tester@example.com>\nPair-Hunk: " + recs[0].String() + "\n" +
		"Pair-Change: a.txt 100644 " + strings.TrimSpace(cmGit(t, dir, "rev-parse", "HEAD:a.txt"))[:12] + "\n"
	if string(out) != wantTrailers {
		t.Errorf("git interpret-trailers --parse = %q, want %q", out, wantTrailers)
	}
	rec, ok, err := audit.ParseMessage(msg)
	if !ok || err != nil || rec.Subject != "Change things" || rec.Body != "Because." || len(rec.Hunks) != 1 {
		t.Errorf("ParseMessage = %+v, %v, %v", rec, ok, err)
	}
}

func TestCommitDirtyFileElsewhere(t *testing.T) {
	orig := cmNumbered("l", 30)
	dir, tr := cmRepo(t, map[string]string{"a.txt": orig})
	// The person's own edit, far from the hunk.
	dirty := strings.Replace(orig, "l25\n", "mine 25\n", 1)
	cmWrite(t, dir, "a.txt", dirty)
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	res := cmCommit(t, tr, fcs, cmOptions(recs))
	if res.Hash == "" || len(res.Uncommitted) != 0 {
		t.Fatalf("result %+v, want a commit of a.txt", res)
	}
	want := `diff --git a/a.txt b/a.txt
--- a/a.txt
+++ b/a.txt
@@ -2,7 +2,7 @@
 l2
 l3
 l4
-l5
+L5
 l6
 l7
 l8
`
	if got := cmShow(t, dir, "HEAD~1", "HEAD"); got != want {
		t.Errorf("git diff HEAD~1 HEAD:\n%s\nwant:\n%s", got, want)
	}
	if got := cmGit(t, dir, "status", "--porcelain"); got != " M a.txt\n" {
		t.Errorf("git status --porcelain = %q, want %q", got, " M a.txt\n")
	}
	if got, want := cmRead(t, dir, "a.txt"), strings.Replace(dirty, "l5\n", "L5\n", 1); got != want {
		t.Errorf("working tree:\n%s\nwant both changes:\n%s", got, want)
	}
	if got := cmGit(t, dir, "diff", "--cached"); got != "" {
		t.Errorf("staged after the commit: %q, want nothing", got)
	}
	if got := cmGit(t, dir, "diff", "-U0", "--no-color"); !strings.Contains(got, "-l25\n+mine 25\n") || strings.Contains(got, "L5") {
		t.Errorf("git diff (unstaged) = %q, want only the person's edit", got)
	}
	cmFsck(t, dir)
}

func TestCommitDirtyFileOverlap(t *testing.T) {
	orig := cmNumbered("l", 10)
	dir, tr := cmRepo(t, map[string]string{"a.txt": orig})
	head := cmHead(t, dir)
	index := cmRead(t, dir, ".git/index")
	// The person edited l4, a context line of the hunk.
	dirty := strings.Replace(orig, "l4\n", "mine 4\n", 1)
	cmWrite(t, dir, "a.txt", dirty)
	fcs, recs := cmApply(t, tr, `--- a/a.txt
+++ b/a.txt
@@ -4,3 +4,3 @@
 mine 4
-l5
+L5
 l6
`)
	res := cmCommit(t, tr, fcs, cmOptions(recs))
	if res.Hash != "" || len(res.Committed) != 0 {
		t.Errorf("result %+v, want no commit", res)
	}
	if len(res.Uncommitted) != 1 || res.Uncommitted[0].Path != "a.txt" || !strings.Contains(res.Uncommitted[0].Reason, "overlap") {
		t.Errorf("Uncommitted = %+v, want a.txt for overlapping edits", res.Uncommitted)
	}
	if got := cmHead(t, dir); got != head {
		t.Errorf("HEAD moved to %s", got)
	}
	if cmRead(t, dir, ".git/index") != index {
		t.Errorf("the index changed")
	}
	if got, want := cmRead(t, dir, "a.txt"), strings.Replace(dirty, "l5\n", "L5\n", 1); got != want {
		t.Errorf("working tree = %q, want %q", got, want)
	}
}

func TestCommitOverlapAmongOthers(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10), "b.txt": cmNumbered("b", 10)})
	cmWrite(t, dir, "a.txt", strings.Replace(cmNumbered("l", 10), "l4\n", "mine 4\n", 1))
	fcs, recs := cmApply(t, tr, `--- a/a.txt
+++ b/a.txt
@@ -4,3 +4,3 @@
 mine 4
-l5
+L5
 l6
--- a/b.txt
+++ b/b.txt
@@ -1,2 +1,2 @@
-b1
+B1
 b2
`)
	res := cmCommit(t, tr, fcs, cmOptions(recs))
	if res.Hash == "" || fmt.Sprint(res.Committed) != "[b.txt]" || len(res.Uncommitted) != 1 || res.Uncommitted[0].Path != "a.txt" {
		t.Fatalf("result %+v, want b.txt committed and a.txt not", res)
	}
	if got := cmGit(t, dir, "show", "--format=", "--name-only", "HEAD"); got != "b.txt\n" {
		t.Errorf("files of the commit = %q, want b.txt", got)
	}
	if got := cmGit(t, dir, "status", "--porcelain"); got != " M a.txt\n" {
		t.Errorf("git status --porcelain = %q", got)
	}
	// Every hunk of the proposal is recorded, the uncommitted file's too.
	if got := strings.Count(cmGit(t, dir, "log", "-1", "--format=%(trailers:key=Pair-Hunk,valueonly)"), "approved"); got != 2 {
		t.Errorf("%d Pair-Hunk trailers, want 2", got)
	}
	cmFsck(t, dir)
}

func TestCommitKeepsStagedWork(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10), "b.txt": "b\n", "z/c.txt": "c\n"})
	cmWrite(t, dir, "b.txt", "b staged\n")
	cmWrite(t, dir, "new.txt", "new staged\n")
	cmGit(t, dir, "add", "b.txt", "new.txt")
	cmWrite(t, dir, "z/c.txt", "c unstaged\n")
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	res := cmCommit(t, tr, fcs, cmOptions(recs))
	if res.Hash == "" {
		t.Fatal("nothing committed")
	}
	if got := cmGit(t, dir, "show", "--format=", "--name-only", "HEAD"); got != "a.txt\n" {
		t.Errorf("files of the commit = %q, want a.txt", got)
	}
	want := "M  b.txt\nA  new.txt\n M z/c.txt\n"
	if got := cmGit(t, dir, "status", "--porcelain"); got != want {
		t.Errorf("git status --porcelain = %q, want %q", got, want)
	}
	if got := cmGit(t, dir, "diff", "--cached", "--no-color", "b.txt"); !strings.Contains(got, "+b staged") {
		t.Errorf("staged change of b.txt lost: %q", got)
	}
	cmFsck(t, dir)
}

func TestCommitCreateDeleteRename(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{
		"old.txt":    "gone 1\ngone 2\n",
		"d/r1.txt":   cmNumbered("r", 8),
		"keep/x.txt": "x\n",
	})
	fcs, recs := cmApply(t, tr, `diff --git a/new/dir/n.txt b/new/dir/n.txt
new file mode 100644
--- /dev/null
+++ b/new/dir/n.txt
@@ -0,0 +1,2 @@
+hello
+world
diff --git a/old.txt b/old.txt
deleted file mode 100644
--- a/old.txt
+++ /dev/null
@@ -1,2 +0,0 @@
-gone 1
-gone 2
diff --git a/d/r1.txt b/e/r2.txt
similarity index 90%
rename from d/r1.txt
rename to e/r2.txt
--- a/d/r1.txt
+++ b/e/r2.txt
@@ -2,3 +2,3 @@
 r2
-r3
+R3
 r4
`)
	res := cmCommit(t, tr, fcs, cmOptions(recs))
	if res.Hash == "" || len(res.Uncommitted) != 0 {
		t.Fatalf("result %+v", res)
	}
	if got, want := fmt.Sprint(res.Committed), "[new/dir/n.txt old.txt e/r2.txt]"; got != want {
		t.Errorf("Committed = %s, want %s", got, want)
	}
	got := cmGit(t, dir, "show", "--format=", "--name-status", "-M", "HEAD")
	want := "R087\td/r1.txt\te/r2.txt\nA\tnew/dir/n.txt\nD\told.txt\n"
	if got != want {
		t.Errorf("git show --name-status = %q, want %q", got, want)
	}
	if got := cmGit(t, dir, "ls-tree", "-r", "--name-only", "HEAD"); got != "e/r2.txt\nkeep/x.txt\nnew/dir/n.txt\n" {
		t.Errorf("tree of HEAD = %q", got)
	}
	if got := cmGit(t, dir, "show", "HEAD:e/r2.txt"); got != strings.Replace(cmNumbered("r", 8), "r3\n", "R3\n", 1) {
		t.Errorf("e/r2.txt = %q", got)
	}
	if got := cmGit(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("git status --porcelain = %q, want clean", got)
	}
	cmFsck(t, dir)
}

func TestCommitDirtyDeleteNotCommitted(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"old.txt": "one\ntwo\n", "b.txt": "b\n"})
	cmWrite(t, dir, "old.txt", "one\ntwo mine\n")
	fcs, recs := cmApply(t, tr, `diff --git a/old.txt b/old.txt
deleted file mode 100644
--- a/old.txt
+++ /dev/null
@@ -1,2 +0,0 @@
-one
-two mine
`)
	res := cmCommit(t, tr, fcs, cmOptions(recs))
	if res.Hash != "" || len(res.Uncommitted) != 1 || res.Uncommitted[0].Path != "old.txt" {
		t.Errorf("result %+v, want old.txt uncommitted", res)
	}
}

func TestCommitModes(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"run.sh": "#!/bin/sh\necho one\n", "plain.txt": "p\n"})
	cmGit(t, dir, "update-index", "--chmod=+x", "run.sh")
	os.Chmod(filepath.Join(dir, "run.sh"), 0o755)
	cmGit(t, dir, "commit", "-q", "-m", "exec")
	fcs, recs := cmApply(t, tr, `--- a/run.sh
+++ b/run.sh
@@ -1,2 +1,2 @@
 #!/bin/sh
-echo one
+echo two
--- /dev/null
+++ b/tool.sh
@@ -0,0 +1,2 @@
+#!/bin/sh
+echo tool
--- a/plain.txt
+++ b/plain.txt
@@ -1 +1 @@
-p
+P
`)
	for i := range fcs {
		switch fcs[i].Path {
		case "tool.sh", "plain.txt":
			fcs[i].Mode = 0o755
			os.Chmod(filepath.Join(dir, fcs[i].Path), 0o755)
		}
	}
	cmCommit(t, tr, fcs, cmOptions(recs))
	got := cmGit(t, dir, "ls-tree", "HEAD")
	for _, want := range []string{"100755 blob [0-9a-f]+\tplain.txt", "100755 blob [0-9a-f]+\trun.sh", "100755 blob [0-9a-f]+\ttool.sh"} {
		if !regexp.MustCompile(want).MatchString(got) {
			t.Errorf("git ls-tree HEAD = %q, want a line %q", got, want)
		}
	}
	if got := cmGit(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("git status --porcelain = %q, want clean", got)
	}
	cmFsck(t, dir)
}

func TestCommitUnbornHead(t *testing.T) {
	dir, tr := cmRepo(t, nil)
	fcs, recs := cmApply(t, tr, `--- /dev/null
+++ b/src/main.go
@@ -0,0 +1 @@
+package main
`)
	res := cmCommit(t, tr, fcs, cmOptions(recs))
	if res.Hash == "" {
		t.Fatal("nothing committed")
	}
	if got := cmGit(t, dir, "rev-list", "--count", "HEAD"); got != "1\n" {
		t.Errorf("%s commits, want 1", strings.TrimSpace(got))
	}
	if got := cmGit(t, dir, "rev-parse", "--abbrev-ref", "HEAD"); got != "main\n" {
		t.Errorf("branch = %q, want main", got)
	}
	if got := cmGit(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("git status --porcelain = %q, want clean", got)
	}
	if got := cmGit(t, dir, "reflog", "--format=%gs"); !strings.Contains(got, "commit (initial): Change things") {
		t.Errorf("reflog = %q", got)
	}
	cmFsck(t, dir)
}

func TestCommitDetachedHead(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
	cmGit(t, dir, "checkout", "-q", "--detach")
	main := strings.TrimSpace(cmGit(t, dir, "rev-parse", "main"))
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	res := cmCommit(t, tr, fcs, cmOptions(recs))
	if got := cmHead(t, dir); got != res.Hash {
		t.Errorf("HEAD = %s, want the commit %s", got, res.Hash)
	}
	if got := strings.TrimSpace(cmGit(t, dir, "rev-parse", "main")); got != main {
		t.Errorf("main moved")
	}
	cmFsck(t, dir)
}

func TestCommitNothingToCommit(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": "a\n"})
	head := cmHead(t, dir)
	res := cmCommit(t, tr, []repo.FileCommit{{Path: "a.txt", Before: "a\n", After: "a\n"}}, cmOptions(nil))
	if res.Hash != "" || cmHead(t, dir) != head {
		t.Errorf("result %+v, want no commit", res)
	}
}

func TestCommitNoIdentity(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
	cmGit(t, dir, "config", "--unset", "user.name")
	cmGit(t, dir, "config", "--unset", "user.email")
	head := cmHead(t, dir)
	index := cmRead(t, dir, ".git/index")
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	_, err := tr.Commit(fcs, cmOptions(recs))
	if !errors.Is(err, repo.ErrNoIdentity) {
		t.Fatalf("Commit error = %v, want ErrNoIdentity", err)
	}
	if !strings.Contains(err.Error(), "git config user.name") || !strings.Contains(err.Error(), "git config user.email") {
		t.Errorf("error %q does not say how to set the identity", err)
	}
	if cmHead(t, dir) != head || cmRead(t, dir, ".git/index") != index {
		t.Errorf("HEAD or the index changed")
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "index.lock")); err == nil {
		t.Errorf("index.lock left behind")
	}
}

func TestCommitNotGit(t *testing.T) {
	cmEnv(t)
	tr := openTree(t, t.TempDir())
	if _, err := tr.Commit(nil, cmOptions(nil)); !errors.Is(err, repo.ErrNotGit) {
		t.Errorf("Commit error = %v, want ErrNotGit", err)
	}
}

func TestIdentity(t *testing.T) {
	tests := []struct {
		name        string
		env         map[string]string
		global, xdg string            // configuration files' content ($REPO: the repository)
		files       map[string]string // more files in HOME
		local       [2]string
		want        string // "" for ErrNoIdentity
	}{
		{name: "local", local: [2]string{"Loc", "loc@x"}, want: "Loc <loc@x>"},
		{name: "global", global: "[user]\n\tname = Glob\n\temail = glob@x\n", want: "Glob <glob@x>"},
		{name: "xdg", xdg: "[user]\n\tname = Xdg\n\temail = xdg@x\n", want: "Xdg <xdg@x>"},
		{name: "global over xdg", global: "[user]\n\tname = Glob\n", xdg: "[user]\n\tname = Xdg\n\temail = xdg@x\n", want: "Glob <xdg@x>"},
		{name: "local over global", global: "[user]\n\tname = Glob\n\temail = glob@x\n", local: [2]string{"Loc", ""}, want: "Loc <glob@x>"},
		{name: "env first", env: map[string]string{"GIT_AUTHOR_NAME": "Env", "GIT_AUTHOR_EMAIL": "env@x"}, local: [2]string{"Loc", "loc@x"}, want: "Env <env@x>"},
		{name: "EMAIL last", env: map[string]string{"EMAIL": "mail@x"}, local: [2]string{"Loc", ""}, want: "Loc <mail@x>"},
		{name: "include", global: "[user]\n\tname = Before\n[include]\n\tpath = id.inc\n", files: map[string]string{"id.inc": "[user]\n\tname = Inc\n\temail = inc@x\n"}, want: "Inc <inc@x>"},
		{name: "include then override", global: "[include]\n\tpath = ~/id.inc\n[user]\n\temail = after@x\n", files: map[string]string{"id.inc": "[user]\n\tname = Inc\n\temail = inc@x\n"}, want: "Inc <after@x>"},
		{name: "includeIf gitdir", global: "[user]\n\tname = Glob\n\temail = glob@x\n[includeIf \"gitdir:$REPO/\"]\n\tpath = work.inc\n[includeIf \"gitdir:/elsewhere/\"]\n\tpath = other.inc\n", files: map[string]string{"work.inc": "[user]\n\temail = work@x\n", "other.inc": "[user]\n\tname = Other\n"}, want: "Glob <work@x>"},
		{name: "sanitized", local: [2]string{"  <Odd> Name ", "<odd@x>"}, want: "Odd Name <odd@x>"},
		{name: "none", want: ""},
		{name: "name only", local: [2]string{"Loc", ""}, want: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, tr := cmRepo(t, nil)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			home := os.Getenv("HOME")
			if tc.global != "" {
				cmWrite(t, home, ".gitconfig", strings.ReplaceAll(tc.global, "$REPO", dir))
			}
			for name, content := range tc.files {
				cmWrite(t, home, name, content)
			}
			if tc.xdg != "" {
				cmWrite(t, home, ".config/git/config", tc.xdg)
			}
			cmGit(t, dir, "config", "--unset", "user.name")
			cmGit(t, dir, "config", "--unset", "user.email")
			if tc.local[0] != "" {
				cmGit(t, dir, "config", "user.name", tc.local[0])
			}
			if tc.local[1] != "" {
				cmGit(t, dir, "config", "user.email", tc.local[1])
			}
			name, email, err := tr.Identity()
			if tc.want == "" {
				if !errors.Is(err, repo.ErrNoIdentity) {
					t.Errorf("Identity() = %q, %q, %v; want ErrNoIdentity", name, email, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Identity: %v", err)
			}
			if got := name + " <" + email + ">"; got != tc.want {
				t.Errorf("Identity() = %s, want %s", got, tc.want)
			}
			// git agrees.
			if got := strings.TrimSpace(cmGit(t, dir, "var", "GIT_AUTHOR_IDENT")); !strings.HasPrefix(got, tc.want+" ") {
				t.Errorf("git var GIT_AUTHOR_IDENT = %q, want %s", got, tc.want)
			}
		})
	}
}

func TestCommitLinkedWorktree(t *testing.T) {
	dir, _ := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
	wt := filepath.Join(t.TempDir(), "wt")
	cmGit(t, dir, "worktree", "add", "-q", "-b", "feature", wt)
	out := filepath.Join(t.TempDir(), "out")
	t.Setenv("CM_OUT", out)
	cmHook(t, filepath.Join(dir, ".git", "hooks"), "pre-commit", "git diff --cached --name-only >\"$CM_OUT\"\n")
	tr := openTree(t, wt)
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	res := cmCommit(t, tr, fcs, cmOptions(recs))
	if got := strings.TrimSpace(cmGit(t, dir, "rev-parse", "feature")); got != res.Hash {
		t.Errorf("feature = %s, want the commit %s", got, res.Hash)
	}
	if got := cmGit(t, dir, "rev-list", "--count", "main"); got != "1\n" {
		t.Errorf("main has %s commits, want 1", strings.TrimSpace(got))
	}
	if got := cmRead(t, out, ""); got != "a.txt\n" {
		t.Errorf("pre-commit saw %q", got)
	}
	if got := cmGit(t, wt, "status", "--porcelain"); got != "" {
		t.Errorf("git status --porcelain in the worktree = %q", got)
	}
	if got := cmGit(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("git status --porcelain in the main tree = %q", got)
	}
	cmFsck(t, dir)
}

func TestCommitPackedRefs(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
	cmGit(t, dir, "pack-refs", "--all")
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	res := cmCommit(t, tr, fcs, cmOptions(recs))
	if got := strings.TrimSpace(cmGit(t, dir, "rev-parse", "main")); got != res.Hash {
		t.Errorf("main = %s, want %s", got, res.Hash)
	}
	if got := cmGit(t, dir, "rev-list", "--count", "main"); got != "2\n" {
		t.Errorf("main has %s commits, want 2", strings.TrimSpace(got))
	}
	cmFsck(t, dir)
}

func TestCommitIndexLocked(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	lock := filepath.Join(dir, ".git", "index.lock")
	if err := os.WriteFile(lock, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	head := cmHead(t, dir)
	if _, err := tr.Commit(fcs, cmOptions(recs)); err == nil || !strings.Contains(err.Error(), "locked") {
		t.Errorf("Commit error = %v, want the index is locked", err)
	}
	if _, err := os.Stat(lock); err != nil {
		t.Errorf("someone else's index.lock was removed")
	}
	if cmHead(t, dir) != head {
		t.Errorf("HEAD moved")
	}
}

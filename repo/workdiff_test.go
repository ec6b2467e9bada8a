package repo_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

// diffRepo makes a repository with committed files and then every kind of
// change to them in the working tree and the index.
func diffRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	gitInit(t, dir)
	writeFiles(t, dir, map[string]file{
		"modified.go":   {content: "package a\n\n" + numbered("// line", 30)},
		"deleted.txt":   {content: "gone\nfor good\n"},
		"crlf.txt":      {content: "one\r\ntwo\r\nthree\r\n"},
		"noeol.txt":     {content: "first\nlast"},
		"run.sh":        {content: "#!/bin/sh\necho hi\n"},
		"modeonly.sh":   {content: "#!/bin/sh\n"},
		".env":          {content: "TOKEN=old\n"},
		"image.png":     {content: "\x89PNG\x00old"},
		"staged.txt":    {content: "old\n"},
		"reverted.txt":  {content: "same\n"},
		"empty-del.txt": {content: ""},
		"dir/sub.txt":   {content: "sub\n"},
	})
	repotest.Git(t, dir, "add", ".")
	repotest.Git(t, dir, "commit", "-q", "-m", "initial")
	writeFiles(t, dir, map[string]file{
		"modified.go":   {content: "package a\n\n" + strings.Replace(strings.Replace(numbered("// line", 30), "// line 3\n", "// LINE 3\n", 1), "// line 28\n", "", 1) + "// added\n"},
		"crlf.txt":      {content: "one\r\n2\r\nthree\r\n"},
		"noeol.txt":     {content: "first\nlast\n"},
		"run.sh":        {content: "#!/bin/sh\necho hello\n", mode: 0o755},
		"modeonly.sh":   {content: "#!/bin/sh\n", mode: 0o755},
		".env":          {content: "TOKEN=new\n"},
		"image.png":     {content: "\x89PNG\x00new"},
		"staged.txt":    {content: "new\n"},
		"reverted.txt":  {content: "changed\n"},
		"added.txt":     {content: "added\nfile\n"},
		"added-empty":   {content: ""},
		"untracked.txt": {content: "not shown\n"},
		"dir/sub.txt":   {content: "sub\nmore\n"},
	})
	repotest.Git(t, dir, "add", "staged.txt", "reverted.txt", "added.txt", "added-empty")
	writeFiles(t, dir, texts(map[string]string{"reverted.txt": "same\n"}))
	for _, p := range []string{"deleted.txt", "empty-del.txt"} {
		if err := os.Remove(filepath.Join(dir, p)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var diffHeader = regexp.MustCompile(`(?m)^diff --git a/(\S+) b/`)
var skippedLine = regexp.MustCompile(`(?m)^# (?:skipped (\S+):|Binary files a/(\S+) and)`)

func TestWorkDiffMatchesGit(t *testing.T) {
	t.Parallel()
	dir := diffRepo(t)
	tr := openTree(t, dir)
	got, err := tr.WorkDiff(repo.Access{})
	if err != nil {
		t.Fatal(err)
	}
	// Every file git diff HEAD names is in the diff or said skipped.
	named := diffNames(got)
	want := strings.Fields(repotest.Git(t, dir, "diff", "HEAD", "--no-renames", "--name-only"))
	sort.Strings(want)
	if !slices.Equal(named, want) {
		t.Errorf("WorkDiff names %q, want %q (git diff HEAD --name-only)\n%s", named, want, got)
	}
	for _, w := range []string{"# skipped .env: secret\n", "# Binary files a/image.png and b/image.png differ\n",
		"old mode 100644\nnew mode 100755\n", "new file mode 100644\n", "deleted file mode 100644\n"} {
		if !strings.Contains(got, w) {
			t.Errorf("WorkDiff: no %q in\n%s", w, got)
		}
	}
	for _, p := range []string{"untracked.txt", "reverted.txt"} {
		if strings.Contains(got, p) {
			t.Errorf("WorkDiff shows %s, want it absent:\n%s", p, got)
		}
	}

	// pair's own parser reads the same files back, comments aside.
	pd, err := edit.Parse(got)
	if err != nil {
		t.Fatalf("edit.Parse(WorkDiff): %v", err)
	}
	var parsed []string
	for _, f := range pd.Files {
		parsed = append(parsed, f.Path())
	}
	if headers := diffHeader.FindAllStringSubmatch(got, -1); len(parsed) != len(headers) {
		t.Errorf("edit.Parse(WorkDiff) read %q, want the %d files of the diff", parsed, len(headers))
	}

	// git applies it backwards to the working tree, which then differs
	// from HEAD only by what the diff skipped.
	patch := filepath.Join(t.TempDir(), "work.diff")
	if err := os.WriteFile(patch, []byte(got), 0o644); err != nil {
		t.Fatal(err)
	}
	repotest.Git(t, dir, "apply", "--check", "-R", patch)
	repotest.Git(t, dir, "apply", "-R", patch)
	left := strings.Fields(repotest.Git(t, dir, "diff", "HEAD", "--no-renames", "--name-only"))
	sort.Strings(left)
	if wantLeft := []string{".env", "image.png"}; !slices.Equal(left, wantLeft) {
		t.Errorf("after git apply -R of WorkDiff, git diff HEAD names %q, want %q", left, wantLeft)
	}
}

func TestWorkDiffSecretsAllowed(t *testing.T) {
	t.Parallel()
	dir := diffRepo(t)
	tr := openTree(t, dir)
	got, err := tr.WorkDiff(repo.Access{Secrets: true})
	if err != nil {
		t.Fatal(err)
	}
	want := "diff --git a/.env b/.env\n--- a/.env\n+++ b/.env\n@@ -1 +1 @@\n-TOKEN=old\n+TOKEN=new\n"
	if !strings.Contains(got, want) || strings.Contains(got, "# skipped .env") {
		t.Errorf("WorkDiff with secrets allowed: want the diff of .env\n%s\nin\n%s", want, got)
	}
}

func TestWorkDiffContent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gitInit(t, dir)
	writeFiles(t, dir, texts(map[string]string{"a.txt": "one\ntwo\nthree\n", "b.txt": "b\n"}))
	repotest.Git(t, dir, "add", ".")
	repotest.Git(t, dir, "commit", "-q", "-m", "one")
	writeFiles(t, dir, texts(map[string]string{"a.txt": "one\n2\nthree\n"}))
	if err := os.Remove(filepath.Join(dir, "b.txt")); err != nil {
		t.Fatal(err)
	}
	tr := openTree(t, dir)
	got, err := tr.WorkDiff(repo.Access{})
	if err != nil {
		t.Fatal(err)
	}
	want := "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n" +
		"diff --git a/b.txt b/b.txt\ndeleted file mode 100644\n--- a/b.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-b\n"
	if got != want {
		t.Errorf("WorkDiff:\ngot\n%s\nwant\n%s", got, want)
	}
	// git's own diff says the same, header lines aside.
	gitDiff := repotest.Git(t, dir, "diff", "HEAD")
	gitDiff = regexp.MustCompile(`(?m)^index .*\n`).ReplaceAllString(gitDiff, "")
	if gitDiff != got {
		t.Errorf("WorkDiff:\ngot\n%s\ngit diff HEAD (without index lines)\n%s", got, gitDiff)
	}
}

// A hunk does not carry line endings: WorkDiff says where they changed.
func TestWorkDiffLineEndings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gitInit(t, dir)
	writeFiles(t, dir, texts(map[string]string{"only.txt": "a\nb\n", "also.txt": "a\nb\nc\n"}))
	repotest.Git(t, dir, "add", ".")
	repotest.Git(t, dir, "commit", "-q", "-m", "one")
	writeFiles(t, dir, texts(map[string]string{"only.txt": "a\r\nb\r\n", "also.txt": "a\r\nb\nC\n"}))
	tr := openTree(t, dir)
	got, err := tr.WorkDiff(repo.Access{})
	if err != nil {
		t.Fatal(err)
	}
	want := "diff --git a/also.txt b/also.txt\n--- a/also.txt\n+++ b/also.txt\n@@ -1,3 +1,3 @@\n a\n b\n-c\n+C\n" +
		"# also.txt: line endings also differ (not shown)\n" +
		"# only.txt: only line endings differ (not shown)\n"
	if got != want {
		t.Errorf("WorkDiff:\ngot\n%s\nwant\n%s", got, want)
	}
}

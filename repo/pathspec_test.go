package repo_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

func TestWorkDiffOf(t *testing.T) {
	t.Parallel()
	dir := diffRepo(t)
	tr := openTree(t, dir)
	for _, spec := range []string{"modified.go", "dir", "dir/", "./dir/sub.txt", "added.txt", "deleted.txt", "", "."} {
		got, err := tr.WorkDiffOf(spec, repo.Access{})
		if err != nil {
			t.Errorf("WorkDiffOf(%q): %v", spec, err)
			continue
		}
		named := diffNames(got)
		args := []string{"diff", "HEAD", "--no-renames", "--name-only"}
		if spec != "" {
			args = append(args, "--", spec)
		}
		want := strings.Fields(repotest.Git(t, dir, args...))
		sort.Strings(want)
		if !slices.Equal(named, want) {
			t.Errorf("WorkDiffOf(%q) names %q, want %q (git diff HEAD --name-only -- %s)", spec, named, want, spec)
		}
	}
	if got, err := tr.WorkDiffOf("reverted.txt", repo.Access{}); err != nil || got != "" {
		t.Errorf("WorkDiffOf of an unchanged file: got %q, %v, want no diff", got, err)
	}
}

func TestPathspecRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gitInit(t, dir)
	writeFiles(t, dir, texts(map[string]string{
		".gitignore": "build/\n*.log\n", "src/a.go": "package a\n", ".env": "TOKEN=x\n", "app.log": "log\n",
	}))
	repotest.Git(t, dir, "add", "src", ".gitignore", ".env")
	repotest.Git(t, dir, "commit", "-q", "-m", "one")
	if err := os.Symlink("src", filepath.Join(dir, "lib")); err != nil {
		t.Fatal(err)
	}
	tr := openTree(t, dir)
	for _, c := range []struct {
		spec string
		want error
		text string
	}{
		{"../x", repo.ErrOutsideRepo, ""},
		{"/etc", repo.ErrOutsideRepo, ""},
		{".git/config", repo.ErrGitInternal, ""},
		{".env", repo.ErrSecret, ""},
		{"app.log", repo.ErrIgnored, ""},
		{"lib/a.go", repo.ErrBeyondLink, "pathspec 'lib/a.go' is beyond a symbolic link"},
		{"nothing.go", repo.ErrNoMatch, "pathspec 'nothing.go' did not match any file(s) known to git"},
	} {
		_, err := tr.WorkDiffOf(c.spec, repo.Access{})
		if !errors.Is(err, c.want) || !strings.Contains(fmtErr(err), c.text) {
			t.Errorf("WorkDiffOf(%q): got %v, want %v", c.spec, err, c.want)
		}
		if c.want == repo.ErrNoMatch {
			continue // git log names no commit for it, without an error
		}
		if _, err := tr.HistoryOf(c.spec, repo.Access{}, 0); !errors.Is(err, c.want) {
			t.Errorf("HistoryOf(%q): got %v, want %v", c.spec, err, c.want)
		}
	}
	if _, err := tr.WorkDiffOf(".env", repo.Access{Secrets: true}); err != nil {
		t.Errorf("WorkDiffOf(.env) with secrets allowed: %v", err)
	}
}

// diffNames returns the paths a WorkDiff names, in a diff or said
// skipped, sorted.
func diffNames(d string) []string {
	var named []string
	for _, m := range diffHeader.FindAllStringSubmatch(d, -1) {
		named = append(named, m[1])
	}
	for _, m := range skippedLine.FindAllStringSubmatch(d, -1) {
		named = append(named, m[1]+m[2])
	}
	sort.Strings(named)
	return named
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestHistoryOf(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gitInit(t, dir)
	tr := openTree(t, dir)
	commit := func(msg string, files map[string]string) {
		t.Helper()
		writeFiles(t, dir, texts(files))
		repotest.Git(t, dir, "add", "-A")
		repotest.Git(t, dir, "commit", "-q", "--allow-empty", "-m", msg)
	}
	commit("a", map[string]string{"a.txt": "1\n", "dir/b.txt": "1\n"})
	commit("b", map[string]string{"dir/b.txt": "2\n"})
	commit("c", map[string]string{"c.txt": "1\n"})
	repotest.Git(t, dir, "checkout", "-q", "-b", "side")
	commit("side a", map[string]string{"a.txt": "side\n"})
	repotest.Git(t, dir, "checkout", "-q", "-")
	commit("main b", map[string]string{"dir/b.txt": "3\n"})
	repotest.Git(t, dir, "merge", "-q", "--no-edit", "side")
	if err := os.Remove(filepath.Join(dir, "c.txt")); err != nil {
		t.Fatal(err)
	}
	commit("drop c", nil)
	for _, spec := range []string{"a.txt", "dir", "dir/b.txt", "c.txt", "", "gone.txt"} {
		got, err := tr.HistoryOf(spec, repo.Access{}, 0)
		if err != nil {
			t.Errorf("HistoryOf(%q): %v", spec, err)
			continue
		}
		var hashes []string
		for _, c := range got {
			hashes = append(hashes, c.Hash)
		}
		args := []string{"log", "--format=%H"}
		if spec != "" {
			args = append(args, "--", spec)
		}
		want := strings.Fields(repotest.Git(t, dir, args...))
		if !slices.Equal(hashes, want) {
			t.Errorf("HistoryOf(%q): got %q, want %q (git log -- %s)", spec, hashes, want, spec)
		}
	}
	if got, _ := tr.HistoryOf("dir", repo.Access{}, 1); len(got) != 1 || got[0].Subject != "main b" {
		t.Errorf("HistoryOf(dir, 1): got %+v, want main b", got)
	}
}

package repo_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

// statusRepo makes a repository whose working tree and index hold every
// kind of change.
func statusRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	gitInit(t, dir)
	writeFiles(t, dir, map[string]file{
		".gitignore":        {content: "*.log\n"},
		"modified.txt":      {content: "one\n"},
		"staged.txt":        {content: "one\n"},
		"both.txt":          {content: "one\n"},
		"deleted.txt":       {content: "gone\n"},
		"removed.txt":       {content: "removed\n"},
		"run.sh":            {content: "echo\n"},
		"reverted.txt":      {content: "same\n"},
		"dir/nested.txt":    {content: "nested\n"},
		"untouched.txt":     {content: "untouched\n"},
		"samesize.txt":      {content: "abc\n"},
		"moved/from.txt":    {content: numbered("moved", 20)},
		"typechange.txt":    {content: "file\n"},
		"cached-rm.txt":     {content: "kept on disk\n"},
		"secret/.env.local": {content: "A=1\n"},
	})
	repotest.Git(t, dir, "add", ".")
	repotest.Git(t, dir, "commit", "-q", "-m", "initial")

	writeFiles(t, dir, map[string]file{
		"modified.txt":      {content: "two\n"},
		"staged.txt":        {content: "two\n"},
		"both.txt":          {content: "two\n"},
		"added.txt":         {content: "new\n"},
		"added-mod.txt":     {content: "new\n"},
		"reverted.txt":      {content: "changed\n"},
		"untracked.txt":     {content: "?\n"},
		"newdir/a/b.txt":    {content: "?\n"},
		"debug.log":         {content: "ignored\n"},
		"samesize.txt":      {content: "xyz\n"},
		"secret/.env.local": {content: "A=2\n"},
	})
	repotest.Git(t, dir, "add", "staged.txt", "both.txt", "added.txt", "added-mod.txt", "reverted.txt")
	writeFiles(t, dir, texts(map[string]string{
		"both.txt":      "three\n",
		"added-mod.txt": "newer\n",
		"reverted.txt":  "same\n",
	}))
	if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "deleted.txt")); err != nil {
		t.Fatal(err)
	}
	repotest.Git(t, dir, "rm", "-q", "removed.txt")
	repotest.Git(t, dir, "rm", "-q", "--cached", "cached-rm.txt")
	repotest.Git(t, dir, "mv", "moved/from.txt", "moved/to.txt")
	if runtime.GOOS != "windows" {
		if err := os.Remove(filepath.Join(dir, "typechange.txt")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("untouched.txt", filepath.Join(dir, "typechange.txt")); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// gitStatus returns git's own status of dir, as StatusEntry values.
func gitStatus(t *testing.T, dir string) []repo.StatusEntry {
	t.Helper()
	out := repotest.Git(t, dir, "-c", "status.renames=false", "-c", "core.quotePath=false", "status", "--porcelain", "--untracked-files=all")
	var es []repo.StatusEntry
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if l == "" {
			continue
		}
		es = append(es, repo.StatusEntry{Path: l[3:], Staged: l[0], Worktree: l[1]})
	}
	return es
}

func showStatus(es []repo.StatusEntry) string {
	var b strings.Builder
	for _, e := range es {
		b.WriteString(string([]byte{e.Staged, e.Worktree}) + " " + e.Path + "\n")
	}
	return b.String()
}

func TestStatusMatchesGit(t *testing.T) {
	t.Parallel()
	dir := statusRepo(t)
	tr := openTree(t, dir)
	// Before git status refreshes the index's file times, then after.
	for _, when := range []string{"before git status", "after git status"} {
		got, err := tr.Status()
		if err != nil {
			t.Fatalf("Status %s: %v", when, err)
		}
		want := gitStatus(t, dir)
		if showStatus(got) != showStatus(want) {
			t.Errorf("Status %s:\ngot\n%swant (git status --porcelain)\n%s", when, showStatus(got), showStatus(want))
		}
	}
	// A few letters, spelled out.
	got, _ := tr.Status()
	for _, w := range []string{" M modified.txt", "M  staged.txt", "MM both.txt", " D deleted.txt", "D  removed.txt",
		"A  added.txt", "AM added-mod.txt", "?? untracked.txt", "?? newdir/a/b.txt", " M run.sh", " M samesize.txt",
		"D  cached-rm.txt", "?? cached-rm.txt", "D  moved/from.txt", "A  moved/to.txt", " M secret/.env.local"} {
		if !strings.Contains(showStatus(got), w+"\n") {
			t.Errorf("Status: no %q line in\n%s", w, showStatus(got))
		}
	}
}

func TestStatusNoCommits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gitInit(t, dir)
	writeFiles(t, dir, texts(map[string]string{"a.txt": "a\n", "b.txt": "b\n"}))
	repotest.Git(t, dir, "add", "a.txt")
	tr := openTree(t, dir)
	got, err := tr.Status()
	if err != nil {
		t.Fatal(err)
	}
	want := []repo.StatusEntry{{"a.txt", 'A', ' '}, {"b.txt", '?', '?'}}
	if showStatus(got) != showStatus(want) || showStatus(want) != showStatus(gitStatus(t, dir)) {
		t.Errorf("Status without commits:\ngot\n%swant\n%sgit\n%s", showStatus(got), showStatus(want), showStatus(gitStatus(t, dir)))
	}
}

func TestStatusClean(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gitInit(t, dir)
	writeFiles(t, dir, texts(map[string]string{"a.txt": "a\n"}))
	repotest.Git(t, dir, "add", ".")
	repotest.Git(t, dir, "commit", "-q", "-m", "one")
	tr := openTree(t, dir)
	if got, err := tr.Status(); err != nil || len(got) != 0 {
		t.Errorf("Status of a clean tree: got %q, %v, want none", showStatus(got), err)
	}
	if got, err := tr.WorkDiff(repo.Access{}); err != nil || got != "" {
		t.Errorf("WorkDiff of a clean tree: got %q, %v, want none", got, err)
	}
}

func TestNotGit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, texts(map[string]string{"a.txt": "a\n"}))
	tr := openTree(t, dir)
	if _, err := tr.Status(); !errors.Is(err, repo.ErrNotGit) {
		t.Errorf("Status outside git: got %v, want ErrNotGit", err)
	}
	if _, err := tr.WorkDiff(repo.Access{}); !errors.Is(err, repo.ErrNotGit) {
		t.Errorf("WorkDiff outside git: got %v, want ErrNotGit", err)
	}
	if _, err := tr.History(5); !errors.Is(err, repo.ErrNotGit) {
		t.Errorf("History outside git: got %v, want ErrNotGit", err)
	}
}

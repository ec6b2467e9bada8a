package repo_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

// numbered returns n lines "prefix 1" … "prefix n".
func numbered(prefix string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s %d\n", prefix, i)
	}
	return b.String()
}

// changesOf turns placed plans into the write set a caller would make:
// the result of every hunk, deletions, renames (the source removed, its
// mode kept) and git mode changes.
func changesOf(t *testing.T, tr *repo.Tree, plans []*edit.FilePlan) []repo.Change {
	t.Helper()
	var out []repo.Change
	for _, pl := range plans {
		if pl.NewPath == "" {
			out = append(out, repo.Change{Path: pl.OldPath, Delete: true})
			continue
		}
		content, err := pl.Result(nil)
		if err != nil {
			t.Fatalf("%s: Result: %v", pl.Path(), err)
		}
		var mode fs.FileMode
		if m := pl.Diff.NewMode; m != "" {
			n, err := strconv.ParseUint(m, 8, 32)
			if err != nil {
				t.Fatalf("%s: bad mode %q", pl.Path(), m)
			}
			mode = fs.FileMode(n).Perm()
		}
		if pl.OldPath != "" && pl.OldPath != pl.NewPath {
			if mode == 0 {
				fi, err := tr.Stat(pl.OldPath)
				if err != nil {
					t.Fatal(err)
				}
				mode = fi.Mode().Perm()
			}
			out = append(out, repo.Change{Path: pl.OldPath, Delete: true})
		}
		out = append(out, repo.Change{Path: pl.NewPath, Content: []byte(content), Mode: mode})
	}
	return out
}

// TestPlaceWriteMatchesGitApply cross-checks Place and Write against the
// real thing: a patch made by git diff, applied by pair to one copy of a
// tree and by git apply to another, gives the same files.
func TestPlaceWriteMatchesGitApply(t *testing.T) {
	t.Parallel()
	start := map[string]file{
		"a.go":           {content: numbered("line", 40)},
		"run.sh":         {content: "#!/bin/sh\necho one\necho two\n", mode: 0o755},
		"gone.txt":       {content: numbered("gone", 3)},
		"old/name.txt":   {content: numbered("name", 12)},
		"old/stays.txt":  {content: "stays\n"},
		"mode.txt":       {content: "mode\n"},
		"noeol.txt":      {content: "first\nlast"},
		"dir/f.txt":      {content: numbered("f", 5)},
		"untouched.txt":  {content: "untouched\n"},
		"tool/build.sh":  {content: numbered("echo", 10), mode: 0o755},
		"space name.txt": {content: "a\nb\n"},
	}

	gitDir := filepath.Join(t.TempDir(), "git")
	writeFiles(t, gitDir, start)
	gitInit(t, gitDir)
	repotest.Git(t, gitDir, "add", "-A")
	repotest.Git(t, gitDir, "commit", "-q", "-m", "start")

	// The change, made on disk and diffed by git.
	edits := map[string]string{
		"a.go":           strings.Replace(strings.Replace(numbered("line", 40), "line 3\n", "line three\n", 1), "line 35\n", "line 35\nline 35.5\n", 1),
		"run.sh":         "#!/bin/sh\necho one\necho 2\n",
		"old/name.txt":   strings.Replace(numbered("name", 12), "name 6\n", "name six\n", 1),
		"noeol.txt":      "first\nLAST",
		"dir/f.txt":      strings.Replace(numbered("f", 5), "f 1\n", "", 1),
		"added/new.txt":  "brand\nnew\n",
		"space name.txt": "a\nB\n",
	}
	for name, content := range edits {
		p := filepath.Join(gitDir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Remove(filepath.Join(gitDir, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(gitDir, "renamed"), 0o755); err != nil {
		t.Fatal(err)
	}
	repotest.Git(t, gitDir, "mv", "old/name.txt", "renamed/name.txt")
	repotest.Git(t, gitDir, "mv", "tool/build.sh", "tool/make.sh")
	if err := os.Chmod(filepath.Join(gitDir, "mode.txt"), 0o755); err != nil {
		t.Fatal(err)
	}
	repotest.Git(t, gitDir, "add", "-A")
	patch := repotest.Git(t, gitDir, "diff", "--cached", "-M", "HEAD")
	repotest.Git(t, gitDir, "reset", "-q", "--hard", "HEAD")
	repotest.Git(t, gitDir, "clean", "-q", "-fd")

	patchFile := filepath.Join(t.TempDir(), "change.patch")
	if err := os.WriteFile(patchFile, []byte(patch), 0o644); err != nil {
		t.Fatal(err)
	}
	repotest.Git(t, gitDir, "apply", "--check", patchFile)
	repotest.Git(t, gitDir, "apply", patchFile)
	want := snapshot(t, gitDir)

	pairDir := t.TempDir()
	writeFiles(t, pairDir, start)
	tr := openTree(t, pairDir)
	p, err := edit.Parse(patch)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	plans, err := tr.Place(p)
	if err != nil {
		t.Fatalf("Place: %v\n%s", err, patch)
	}
	for _, pl := range plans {
		if len(pl.Errors) > 0 {
			t.Errorf("%s: placement errors %v", pl.Path(), pl.Errors)
		}
	}
	if err := tr.Write(changesOf(t, tr, plans)); err != nil {
		t.Fatalf("Write: %v", err)
	}
	got := snapshot(t, pairDir)
	// git apply removes the directories it empties; Write leaves them.
	for name, e := range got {
		if _, ok := want[name]; !ok && e.kind == "dir" {
			delete(got, name)
		}
	}
	sameSnapshot(t, "pair's tree against git apply's", got, want)
	noTempFiles(t, pairDir)
	if t.Failed() {
		t.Logf("patch:\n%s", patch)
	}
}

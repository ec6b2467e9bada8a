package repo_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPreCommitHookChangesAreCommitted: what a pre-commit hook does to the
// committed files (a formatter, lint-staged) goes into the commit, as with
// git commit, and the result says so.
func TestPreCommitHookChangesAreCommitted(t *testing.T) {
	cases := []struct{ name, hook string }{
		{"staged", "sed -i 's/^L5$/L5 formatted/' a.txt && git add a.txt\n"},
		{"work-tree", "sed -i 's/^L5$/L5 formatted/' a.txt\n"},
		{"staged-only", "git show :a.txt | sed 's/^L5$/L5 formatted/' > /tmp/pair-hook-$$ && git update-index --cacheinfo 100644,$(git hash-object -w /tmp/pair-hook-$$),a.txt && rm /tmp/pair-hook-$$ && sed -i 's/^L5$/L5 formatted/' a.txt\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10), "b.txt": "b\n"})
			cmHook(t, filepath.Join(dir, ".git", "hooks"), "pre-commit", c.hook+"echo touched >> b.txt\ngit add b.txt\n")
			fcs, recs := cmApply(t, tr, cmDiffLine5)
			res := cmCommit(t, tr, fcs, cmOptions(recs))
			if res.Hash == "" {
				t.Fatal("nothing committed")
			}
			if !slices.Equal(res.HookChanged, []string{"a.txt"}) {
				t.Errorf("HookChanged = %q, want [a.txt]", res.HookChanged)
			}
			if got := cmGit(t, dir, "show", "HEAD:a.txt"); got != "l1\nl2\nl3\nl4\nL5 formatted\nl6\nl7\nl8\nl9\nl10\n" {
				t.Errorf("HEAD:a.txt =\n%s\nwant the hook's version", got)
			}
			// b.txt is not pair's: what the hook did to it stays out.
			if got := cmGit(t, dir, "show", "HEAD:b.txt"); got != "b\n" {
				t.Errorf("HEAD:b.txt = %q, want it untouched", got)
			}
			if got := cmGit(t, dir, "status", "--porcelain", "a.txt"); got != "" {
				t.Errorf("git status a.txt = %q, want clean", got)
			}
			// The tree and blob made before the hook ran are left dangling,
			// as with git commit.
			cmFsckNoDangling(t, dir)
		})
	}
}

// TestPreCommitHookNoChange: a hook that changes nothing reports nothing.
func TestPreCommitHookNoChange(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
	cmHook(t, filepath.Join(dir, ".git", "hooks"), "pre-commit", "git diff --cached --quiet HEAD -- || true\n")
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	res := cmCommit(t, tr, fcs, cmOptions(recs))
	if len(res.HookChanged) != 0 {
		t.Errorf("HookChanged = %q, want none", res.HookChanged)
	}
	if got := cmGit(t, dir, "show", "HEAD:a.txt"); got != cmRead(t, dir, "a.txt") {
		t.Errorf("HEAD:a.txt differs from the working tree")
	}
}

// TestPreCommitHookTakesAllBack: a hook that stages HEAD's version back
// leaves nothing to commit, and the result says why.
func TestPreCommitHookTakesAllBack(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
	cmHook(t, filepath.Join(dir, ".git", "hooks"), "pre-commit", "git read-tree HEAD\n")
	head := cmHead(t, dir)
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	res := cmCommit(t, tr, fcs, cmOptions(recs))
	if res.Hash != "" || cmHead(t, dir) != head {
		t.Fatalf("committed %s, want nothing", res.Hash)
	}
	if len(res.Uncommitted) != 1 || res.Uncommitted[0].Path != "a.txt" || !strings.Contains(res.Uncommitted[0].Reason, "pre-commit hook took the change back") {
		t.Errorf("Uncommitted = %+v", res.Uncommitted)
	}
	if len(res.HookChanged) != 0 || len(res.Committed) != 0 {
		t.Errorf("HookChanged %q, Committed %q, want none", res.HookChanged, res.Committed)
	}
}

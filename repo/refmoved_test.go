package repo_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// movingHook is a pre-commit hook that points main at a commit of its
// own, as another git process could while pair commits.
const movingHook = `c=$(echo other | git commit-tree $(git mktree </dev/null)) && git update-ref refs/heads/main "$c" && echo "$c" >"$CM_OUT"
`

// A branch that another process moves while pair commits is not
// overwritten: the commit is refused and the branch keeps the other
// commit, on a branch that existed (loose or packed) and on an unborn
// one, where git's rule is that the branch must still not exist.
func TestCommitRefMovedMeanwhile(t *testing.T) {
	for _, tt := range []struct {
		name  string
		files map[string]string
		pack  bool
	}{
		{"loose", map[string]string{"a.txt": "a\n"}, false},
		{"packed", map[string]string{"a.txt": "a\n"}, true},
		{"unborn", nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir, tr := cmRepo(t, tt.files)
			if tt.pack {
				cmGit(t, dir, "pack-refs", "--all", "--prune")
			}
			out := filepath.Join(t.TempDir(), "out")
			t.Setenv("CM_OUT", out)
			cmHook(t, filepath.Join(dir, ".git", "hooks"), "pre-commit", movingHook)
			fcs, recs := cmApply(t, tr, "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+new\n")
			res, err := tr.Commit(fcs, cmOptions(recs))
			if err == nil || !strings.Contains(err.Error(), "refs/heads/main") {
				t.Fatalf("Commit = %+v, %v; want the ref update refused", res, err)
			}
			if got, want := strings.TrimSpace(cmGit(t, dir, "rev-parse", "main")), strings.TrimSpace(cmRead(t, out, "")); got != want {
				t.Errorf("main is %s, want the other process's %s", got, want)
			}
			cmFsckNoDangling(t, dir) // pair's commit is left dangling
		})
	}
}

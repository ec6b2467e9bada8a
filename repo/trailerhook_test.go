package repo_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCommitMsgHookDropsTrailers: a commit-msg hook that removes pair's
// trailers does not get to: they are added back, after the hook's own
// message, and the result warns.
func TestCommitMsgHookDropsTrailers(t *testing.T) {
	tests := []struct{ name, hook string }{
		{"all", "grep -v '^Pair-' \"$1\" > \"$1.new\"; echo 'Hook-Note: kept' >> \"$1.new\"; mv \"$1.new\" \"$1\"\n"},
		{"hunks only", "grep -v '^Pair-Hunk' \"$1\" > \"$1.new\"; mv \"$1.new\" \"$1\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
			cmHook(t, filepath.Join(dir, ".git", "hooks"), "commit-msg", tt.hook)
			fcs, recs := cmApply(t, tr, cmDiffLine5)
			res := cmCommit(t, tr, fcs, cmOptions(recs))
			if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "commit-msg hook removed") {
				t.Errorf("Warnings = %q, want one about the commit-msg hook", res.Warnings)
			}
			if got := cmGit(t, dir, "log", "-1", "--format=%(trailers:key=Pair-Hunk,valueonly)"); got != recs[0].String()+"\n\n" {
				t.Errorf("Pair-Hunk trailers = %q, want %q", got, recs[0].String())
			}
			if got := cmGit(t, dir, "log", "-1", "--format=%(trailers:key=Pair-Session,valueonly)"); got != "s-1\n\n" {
				t.Errorf("Pair-Session = %q", got)
			}
			entries, err := tr.Log(1)
			if err != nil || len(entries) != 1 || entries[0].Hash != res.Hash {
				t.Errorf("pair log does not see the commit: %v %+v", err, entries)
			}
			cmFsck(t, dir)
		})
	}
	t.Run("kept", func(t *testing.T) {
		dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
		cmHook(t, filepath.Join(dir, ".git", "hooks"), "commit-msg", "echo 'Signed-off-by: P <p@example.com>' >> \"$1\"\n")
		fcs, recs := cmApply(t, tr, cmDiffLine5)
		res := cmCommit(t, tr, fcs, cmOptions(recs))
		if len(res.Warnings) != 0 {
			t.Errorf("Warnings = %q, want none", res.Warnings)
		}
		msg := cmGit(t, dir, "log", "-1", "--format=%B")
		if strings.Count(msg, "Pair-Session") != 1 || !strings.Contains(msg, "Signed-off-by") {
			t.Errorf("message = %q", msg)
		}
	})
}

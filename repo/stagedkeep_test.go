package repo_test

import (
	"strings"
	"testing"
)

// TestCommitKeepsPartlyStagedFile: the person staged a change to a.txt;
// pair commits another hunk of it; the index keeps the staged change on
// top of the commit.
func TestCommitKeepsPartlyStagedFile(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 20)})
	staged := strings.Replace(cmNumbered("l", 20), "l15\n", "l15 staged\n", 1)
	cmWrite(t, dir, "a.txt", staged)
	cmGit(t, dir, "add", "a.txt")
	cmWrite(t, dir, "a.txt", strings.Replace(staged, "l19\n", "l19 unstaged\n", 1))
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	res := cmCommit(t, tr, fcs, cmOptions(recs))
	if len(res.StagedLost) != 0 {
		t.Errorf("StagedLost = %+v, want none", res.StagedLost)
	}
	if got := cmGit(t, dir, "show", "HEAD:a.txt"); got != strings.Replace(cmNumbered("l", 20), "l5\n", "L5\n", 1) {
		t.Errorf("HEAD:a.txt = %q, want pair's hunk only", got)
	}
	want := strings.Replace(staged, "l5\n", "L5\n", 1)
	if got := cmGit(t, dir, "show", ":a.txt"); got != want {
		t.Errorf("the index holds %q, want the staged change on top of the commit %q", got, want)
	}
	if got := cmGit(t, dir, "diff", "--cached", "--no-color", "-U0", "--", "a.txt"); !strings.Contains(got, "+l15 staged") || strings.Contains(got, "L5") {
		t.Errorf("git diff --cached = %q, want the staged change alone", got)
	}
	if got := cmGit(t, dir, "diff", "--no-color", "-U0", "--", "a.txt"); !strings.Contains(got, "+l19 unstaged") || strings.Contains(got, "staged\n") && !strings.Contains(got, "unstaged") {
		t.Errorf("git diff = %q, want the unstaged change alone", got)
	}
	cmFsckNoDangling(t, dir)
}

// TestCommitStagedOverlapSaysSo: staged changes that overlap pair's hunk
// cannot be kept: the index takes the committed version and the result
// says so.
func TestCommitStagedOverlapSaysSo(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 20)})
	cmWrite(t, dir, "a.txt", strings.Replace(cmNumbered("l", 20), "l4\n", "l4 staged\n", 1))
	cmGit(t, dir, "add", "a.txt")
	cmWrite(t, dir, "a.txt", cmNumbered("l", 20)) // taken back in the working tree only
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	res := cmCommit(t, tr, fcs, cmOptions(recs))
	if res.Hash == "" {
		t.Fatal("nothing committed")
	}
	if len(res.StagedLost) != 1 || res.StagedLost[0].Path != "a.txt" || !strings.Contains(res.StagedLost[0].Reason, "staged changes") {
		t.Errorf("StagedLost = %+v, want a.txt with the reason", res.StagedLost)
	}
	if got, want := cmGit(t, dir, "show", ":a.txt"), cmGit(t, dir, "show", "HEAD:a.txt"); got != want {
		t.Errorf("the index holds %q, want the committed version", got)
	}
	cmFsckNoDangling(t, dir)
}

// cmFsckNoDangling is git fsck --strict, where blobs the index no longer
// names may be left dangling, as git add leaves them.
func cmFsckNoDangling(t *testing.T, dir string) {
	t.Helper()
	if out, err := cmGitErr(dir, "fsck", "--strict", "--no-dangling", "--no-progress"); err != nil || strings.TrimSpace(out) != "" {
		t.Errorf("git fsck --strict: %v\n%s", err, out)
	}
}

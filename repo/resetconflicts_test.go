package repo_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// resetSh runs a shell script in dir with git's configuration isolated.
func resetSh(t *testing.T, dir, script string) string {
	t.Helper()
	cmd := exec.Command("sh", "-ec", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sh -c %q: %v\n%s", script, err, out)
	}
	return string(out)
}

// ResetConflicts puts the conflicted paths back as git reset --merge puts
// them: a filtered file's HEAD content through its smudge filter, a file
// HEAD lacks removed from the index and the tree; another file keeps its
// edit.
func TestResetConflictsAsGit(t *testing.T) {
	root := t.TempDir()
	byGit, byPair := filepath.Join(root, "git"), filepath.Join(root, "pair")
	if err := os.Mkdir(byGit, 0o755); err != nil {
		t.Fatal(err)
	}
	resetSh(t, byGit, "git init -q -b main .; git config user.name t; git config user.email t@example.com\n"+
		"git config filter.up.smudge 'tr a-z A-Z'; git config filter.up.clean 'tr A-Z a-z'\n"+
		"echo 'up filter=up' > .gitattributes; echo abc > up; echo x > plain; git add -A; git commit -qm base; rm up; git checkout -- up\n")
	resetSh(t, root, "cp -a git pair\n")
	const conflict = "printf '<<<<<<< ours\\nX\\n=======\\nY\\n>>>>>>> theirs\\n' > up; echo new > made; echo edit >> plain\n" +
		"a=$(echo x | git hash-object -w --stdin); b=$(echo y | git hash-object -w --stdin); z=0000000000000000000000000000000000000000\n" +
		"printf '0 %s 0\\tup\\n100644 %s 1\\tup\\n100644 %s 2\\tup\\n100644 %s 3\\tup\\n100644 %s 2\\tmade\\n100644 %s 3\\tmade\\n' $z $a $a $b $a $b | git update-index --index-info\n"
	for _, dir := range []string{byGit, byPair} {
		resetSh(t, dir, conflict)
	}
	resetSh(t, byGit, "git reset -q --merge\n")
	tr := openTree(t, byPair)
	paths := []string{"made", "up"}
	w, err := tr.WorkHashes(paths)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.ResetConflicts(context.Background(), paths, w); err != nil {
		t.Fatalf("ResetConflicts: %v", err)
	}
	const look = "git ls-files -s; git status --porcelain; cat up plain; ls\n"
	if g, p := resetSh(t, byGit, look), resetSh(t, byPair, look); g != p {
		t.Errorf("ResetConflicts left\n%s\ngit reset --merge left\n%s", p, g)
	}
}

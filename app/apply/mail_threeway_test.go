package apply

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A mail whose three-way merge conflicts stops the series as git am -3
// stops it: the conflict approved, the index holds the preimage, ours and
// theirs as git am -3 leaves them, nothing is committed, and the way on
// is to commit the resolution and skip the mail (applying it again would
// not see the resolution).
func TestAmThreeWayConflictAsGit(t *testing.T) {
	setup := "printf '%s\\n' 1 2 3 4 5 6 7 > one\n"
	root, made, byGit, byPair := caseRepos(t, func(dir string) { sh(t, dir, setup) })
	mbox := sh(t, made, "printf '%s\\n' 1 2 3 4 five 6 7 > one; git commit -qam 'one: five in words'; git format-patch -1 --stdout\n")
	for _, dir := range []string{byGit, byPair} {
		sh(t, dir, "printf '%s\\n' 1 2 3 4 FIVE 6 7 > one; git commit -qam ours\n")
	}
	file := filepath.Join(root, "side.mbox")
	if err := os.WriteFile(file, []byte(mbox), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "am", "-3", file)
	cmd.Dir = byGit
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Fatalf("git am -3 leaves no conflict:\n%s", out)
	}
	head := sh(t, byPair, "git rev-parse HEAD")
	o, out, errw := options(byPair, "")
	o.Patch, o.Mail, o.ThreeWay, o.Decisions = file, true, true, "y"
	err := Run(context.Background(), o)
	if err == nil || !strings.Contains(err.Error(), "stopped at mail 1 of 1: conflicts in one") ||
		!strings.Contains(err.Error(), "pair am --skip goes on") || strings.Contains(err.Error(), "--continue") {
		t.Fatalf("pair am -3: %v; want it stopped at the conflict, to resolve and skip\n%s%s", err, out, errw)
	}
	if g, p := sh(t, byGit, "git ls-files -s"), sh(t, byPair, "git ls-files -s"); g != p {
		t.Errorf("pair am -3 left the index\n%s\ngit am -3 left\n%s", p, g)
	}
	if h := sh(t, byPair, "git rev-parse HEAD"); h != head {
		t.Errorf("a conflict was committed: HEAD moved from %s to %s", head, h)
	}
	if got := sh(t, byPair, "cat one"); !strings.Contains(got, "<<<<<<< ours\nFIVE\n=======\nfive\n>>>>>>> theirs\n") {
		t.Errorf("one holds\n%s\nwant the conflict markers", got)
	}
}

package apply

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// A file whose attributes name a content filter matches the index when
// the filter makes of it what the index holds: git apply --index takes
// it, and so does pair, staging the blob the filter makes. (git writes
// the file back as the filter left it, where pair keeps the person's
// bytes: only the index is compared.)
func TestIndexThroughFilterAsGit(t *testing.T) {
	setup := "git config filter.strip.clean \"sed 's/ *$//'\"; git config filter.strip.smudge cat\n" +
		"echo 'f filter=strip' > .gitattributes; printf 'a  \\nb\\nc\\n' > f\n"
	root, made, byGit, byPair := caseRepos(t, func(dir string) { sh(t, dir, setup) })
	patch := sh(t, made, "printf 'a\\nb\\nC\\n' > f; git diff\n")
	for _, dir := range []string{byGit, byPair} {
		sh(t, dir, refresh)
	}
	file := filepath.Join(root, "case.patch")
	if err := os.WriteFile(file, []byte(patch), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "apply", "--index", file)
	cmd.Dir = byGit
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git apply --index: %v\n%s", err, out)
	}
	o, out, errw := options(byPair, "")
	o.Patch, o.Yes, o.Index = file, true, true
	if err := Run(context.Background(), o); err != nil {
		t.Fatalf("pair apply --index: %v\n%s%s", err, out, errw)
	}
	if g, p := sh(t, byGit, "git ls-files -s"), sh(t, byPair, "git ls-files -s"); g != p {
		t.Errorf("pair staged\n%s\ngit apply --index staged\n%s", p, g)
	}
	if st := sh(t, byPair, "git diff --name-only"); st != "" {
		t.Errorf("git diff after pair apply --index names %s: the staged blob is not the file's", st)
	}
}

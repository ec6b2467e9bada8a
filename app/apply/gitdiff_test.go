package apply

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo/repotest"
)

// gitCase is a change for the differential tests: setup makes the first
// commit's files in dir, change changes them in the working tree.
type gitCase struct {
	name          string
	setup, change func(t *testing.T, dir string)
}

// sameAsGit makes the case's change into a patch with git diff --binary,
// then applies it with pair apply --yes in the repository and with git
// apply --index (then git commit) in a clone, and checks that the two
// commits have the same tree (contents and modes), the same index, and
// a working tree that matches it. It returns the repository pair applied
// the patch in.
func sameAsGit(t *testing.T, c gitCase) string {
	t.Helper()
	dir := gitRepo(t)
	c.setup(t, dir)
	repotest.Git(t, dir, "add", "-A")
	repotest.Git(t, dir, "commit", "-q", "-m", "initial")
	c.change(t, dir)
	repotest.Git(t, dir, "add", "-A")
	patch := repotest.Git(t, dir, "diff", "--cached", "--binary")
	repotest.Git(t, dir, "reset", "-q", "--hard")
	repotest.Git(t, dir, "clean", "-q", "-fdx")
	file := filepath.Join(t.TempDir(), "change.diff")
	if err := os.WriteFile(file, []byte(patch), 0o644); err != nil {
		t.Fatal(err)
	}
	theirs := filepath.Join(t.TempDir(), "theirs")
	repotest.Git(t, dir, "clone", "-q", "--no-recurse-submodules", dir, theirs)
	repotest.Git(t, theirs, "apply", "--index", file)
	repotest.Git(t, theirs, "-c", "user.name=Git", "-c", "user.email=git@example.com", "commit", "-q", "-m", "git apply")

	o, out, errw := options(dir, "")
	o.Patch, o.Yes = file, true
	if err := Run(context.Background(), o); err != nil {
		t.Fatalf("%s: pair apply: %v\n%s%s\npatch:\n%s", c.name, err, out, errw, patch)
	}
	for _, args := range [][]string{{"rev-parse", "HEAD^{tree}"}, {"ls-files", "-s"}, {"ls-tree", "-r", "HEAD"}} {
		if got, want := repotest.Git(t, dir, args...), repotest.Git(t, theirs, args...); got != want {
			t.Errorf("%s: git %s: pair gives\n%s\ngit apply gives\n%s\npatch:\n%s", c.name, strings.Join(args, " "), got, want, patch)
		}
	}
	if st := repotest.Git(t, dir, "status", "--porcelain", "--ignore-submodules=none"); st != "" {
		t.Errorf("%s: after pair apply, git status says\n%s", c.name, st)
	}
	repotest.Git(t, dir, "fsck", "--no-progress")
	return dir
}

// gitRepo makes an empty git repository with an identity.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	repotest.Git(t, dir, "init", "-q", "-b", "main")
	repotest.Git(t, dir, "config", "user.name", "Pair Tester")
	repotest.Git(t, dir, "config", "user.email", "tester@example.com")
	return dir
}

// writeFiles writes files of dir by their slash-separated names.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// applyPatch runs pair apply in dir on patch (written to a file) with the
// options set sets, and returns its standard output and error.
func applyPatch(t *testing.T, dir, patch string, set func(*Options)) (string, error) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "p.diff")
	if err := os.WriteFile(file, []byte(patch), 0o644); err != nil {
		t.Fatal(err)
	}
	o, out, _ := options(dir, "")
	o.Patch = file
	set(&o)
	err := Run(context.Background(), o)
	return out.String(), err
}

// yes sets --yes.
func yes(o *Options) { o.Yes = true }

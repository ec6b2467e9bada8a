package apply

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

// setGitlink points the index's submodule at p to the commit id (or
// removes it when id is ""), without a submodule's working tree.
func setGitlink(t *testing.T, dir, p, id string) {
	t.Helper()
	if id == "" {
		repotest.Git(t, dir, "update-index", "--force-remove", p)
		return
	}
	repotest.Git(t, dir, "update-index", "--add", "--cacheinfo", "160000,"+id+","+p)
}

func TestApplySubmoduleSameAsGit(t *testing.T) {
	id := func(c byte) string { return strings.Repeat(string(c), 40) }
	sameAsGit(t, gitCase{name: "pointers in the index", setup: func(t *testing.T, dir string) {
		writeFiles(t, dir, map[string]string{"a.txt": "a\n"})
		repotest.Git(t, dir, "add", "a.txt")
		setGitlink(t, dir, "lib/dep", id('1'))
		setGitlink(t, dir, "lib/gone", id('3'))
	}, change: func(t *testing.T, dir string) {
		setGitlink(t, dir, "lib/dep", id('2'))
		setGitlink(t, dir, "lib/gone", "")
		setGitlink(t, dir, "newsub", id('4'))
		writeFiles(t, dir, map[string]string{"a.txt": "b\n"})
	}})
}

// A real submodule, checked out: its pointer moves to another commit, and
// its working tree is left as it is, as git apply --index leaves it.
func TestApplySubmoduleCheckedOut(t *testing.T) {
	lib := gitRepo(t)
	writeFiles(t, lib, map[string]string{"lib.go": "package lib\n"})
	repotest.Git(t, lib, "add", "-A")
	repotest.Git(t, lib, "commit", "-q", "-m", "one")
	first := strings.TrimSpace(repotest.Git(t, lib, "rev-parse", "HEAD"))
	writeFiles(t, lib, map[string]string{"lib.go": "package lib // two\n"})
	repotest.Git(t, lib, "commit", "-q", "-am", "two")
	second := strings.TrimSpace(repotest.Git(t, lib, "rev-parse", "HEAD"))

	dir := gitRepo(t)
	repotest.Git(t, dir, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "dep")
	repotest.Git(t, filepath.Join(dir, "dep"), "checkout", "-q", first)
	repotest.Git(t, dir, "add", "dep")
	repotest.Git(t, dir, "commit", "-q", "-m", "with dep at one")

	patch := "diff --git a/dep b/dep\nindex " + first[:7] + ".." + second[:7] + " 160000\n--- a/dep\n+++ b/dep\n@@ -1 +1 @@\n-Subproject commit " + first + "\n+Subproject commit " + second + "\n"
	out, err := applyPatch(t, dir, patch, yes)
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out)
	}
	if !strings.Contains(out, "submodule dep: "+first[:7]+" → "+second[:7]+"\n") {
		t.Errorf("got output\n%s\nwant the pointer's change described", out)
	}
	if got := repotest.Git(t, dir, "ls-tree", "HEAD", "dep"); !strings.Contains(got, "160000 commit "+second) {
		t.Errorf("HEAD has %q, want dep at %s", got, second)
	}
	if got := repotest.Git(t, dir, "ls-files", "-s", "dep"); !strings.Contains(got, "160000 "+second) {
		t.Errorf("the index has %q, want dep at %s", got, second)
	}
	// The submodule's own checkout is not touched.
	if got := strings.TrimSpace(repotest.Git(t, filepath.Join(dir, "dep"), "rev-parse", "HEAD")); got != first {
		t.Errorf("the submodule is checked out at %s, want it left at %s", got, first)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "dep", "lib.go")); string(b) != "package lib\n" {
		t.Errorf("the submodule's file holds %q, want it untouched", b)
	}
	msg := repotest.Git(t, dir, "log", "-1", "--format=%(trailers)")
	if !strings.Contains(msg, "Pair-Hunk: dep:0 ") || !strings.Contains(msg, "Pair-Change: dep 160000 "+second[:12]) {
		t.Errorf("got trailers\n%s\nwant the submodule's decision and change", msg)
	}
}

func TestApplySubmoduleRefusals(t *testing.T) {
	dir := gitRepo(t)
	writeFiles(t, dir, map[string]string{"a.txt": "a\n"})
	repotest.Git(t, dir, "add", "a.txt")
	setGitlink(t, dir, "dep", strings.Repeat("1", 40))
	repotest.Git(t, dir, "commit", "-q", "-m", "initial")
	head := repotest.Git(t, dir, "rev-parse", "HEAD")
	move := func(from, to string) string {
		return "diff --git a/dep b/dep\nindex 1111111..2222222 160000\n--- a/dep\n+++ b/dep\n@@ -1 +1 @@\n-Subproject commit " + from + "\n+Subproject commit " + to + "\n"
	}
	for _, tt := range []struct {
		name, patch string
		noCommit    bool
		is          error  // the refusal, when it has a type
		want        string // what the error says beyond its type
	}{
		{"not the index's commit", move(strings.Repeat("5", 40), strings.Repeat("2", 40)), false, ErrUnplaced, ""},
		{"no submodule there", strings.ReplaceAll(move(strings.Repeat("1", 40), strings.Repeat("2", 40)), "dep", "nodep"), false, repo.ErrGitlink, "nodep: "},
		{"without a commit", move(strings.Repeat("1", 40), strings.Repeat("2", 40)), true, repo.ErrGitlink, "dep: "},
		{"not a commit id", move(strings.Repeat("1", 40), "main"), false, repo.ErrGitlink, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := applyPatch(t, dir, tt.patch, func(o *Options) { o.Yes, o.NoCommit = true, tt.noCommit })
			if err == nil || tt.is != nil && !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Run: got %v (%s), want %v saying %q", err, out, tt.is, tt.want)
			}
			if got := repotest.Git(t, dir, "rev-parse", "HEAD"); got != head {
				t.Errorf("HEAD moved")
			}
			if got := repotest.Git(t, dir, "ls-files", "-s", "dep"); !strings.Contains(got, strings.Repeat("1", 40)) {
				t.Errorf("the index has %q, want dep unchanged", got)
			}
		})
	}
}

package apply

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
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

// A submodule turned into a file or a folder, and a file into a
// submodule, committed as git apply --index and git commit make them: two
// sections of one path, each reviewed and recorded on its own.
func TestApplySubmoduleTypechangeSameAsGit(t *testing.T) {
	id := strings.Repeat("1", 40)
	gitlink := func(t *testing.T, dir string) {
		if err := os.MkdirAll(filepath.Join(dir, "dep"), 0o755); err != nil {
			t.Fatal(err)
		}
		setGitlink(t, dir, "dep", id)
	}
	unlink := func(t *testing.T, dir string) {
		setGitlink(t, dir, "dep", "")
		if err := os.Remove(filepath.Join(dir, "dep")); err != nil {
			t.Fatal(err)
		}
	}
	keep := func(t *testing.T, dir string) { writeFiles(t, dir, map[string]string{"a.txt": "a\n"}) }
	for _, c := range []gitCase{
		{name: "a file replaced by a submodule", setup: func(t *testing.T, dir string) {
			keep(t, dir)
			writeFiles(t, dir, map[string]string{"dep": "content\n"})
		}, change: func(t *testing.T, dir string) {
			repotest.Git(t, dir, "rm", "-q", "dep")
			gitlink(t, dir)
		}},
		{name: "a submodule replaced by a file", setup: func(t *testing.T, dir string) {
			keep(t, dir)
			gitlink(t, dir)
		}, change: func(t *testing.T, dir string) {
			unlink(t, dir)
			writeFiles(t, dir, map[string]string{"dep": "content\n"})
		}},
		{name: "a submodule replaced by a folder", setup: func(t *testing.T, dir string) {
			keep(t, dir)
			gitlink(t, dir)
		}, change: func(t *testing.T, dir string) {
			unlink(t, dir)
			writeFiles(t, dir, map[string]string{"dep/a": "a\n", "dep/b/c": "c\n"})
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := sameAsGit(t, c)
			msg := repotest.Git(t, dir, "log", "-1", "--format=%(trailers)")
			if strings.Count(msg, "Pair-Hunk: dep") < 2 || !strings.Contains(msg, " approved") {
				t.Errorf("trailers\n%s\nwant a Pair-Hunk for the submodule and one for the file", msg)
			}
			subject := strings.TrimSpace(repotest.Git(t, dir, "log", "-1", "--format=%s"))
			names := strings.Split(strings.TrimPrefix(subject, "pair apply: "), ", ")
			if len(slices.Compact(slices.Sorted(slices.Values(names)))) != len(names) || names[0] != "dep" {
				t.Errorf("subject %q, want each path named once", subject)
			}
		})
	}
}

// A submodule whose folder holds files (its checkout) is not turned into
// a file or a folder: they would be deleted, or mixed with the patch's.
// git apply writes into the folder, or stops half-way; pair refuses
// before it writes anything.
func TestApplySubmoduleTypechangeKeepsCheckout(t *testing.T) {
	id := strings.Repeat("1", 40)
	toFile := "diff --git a/dep b/dep\ndeleted file mode 160000\nindex 1111111..0000000\n--- a/dep\n+++ /dev/null\n@@ -1 +0,0 @@\n-Subproject commit " + id + "\n" +
		"diff --git a/dep b/dep\nnew file mode 100644\nindex 0000000..d95f3ad\n--- /dev/null\n+++ b/dep\n@@ -0,0 +1 @@\n+content\n"
	toFolder := strings.Replace(toFile, "a/dep b/dep\nnew", "a/dep/a b/dep/a\nnew", 1)
	toFolder = strings.Replace(toFolder, "+++ b/dep\n", "+++ b/dep/a\n", 1)
	for _, tt := range []struct {
		name, patch string
		set         func(*Options)
	}{
		{"to a file, committed", toFile, yes},
		{"to a file, --index", toFile, func(o *Options) { o.Yes, o.Index = true, true }},
		{"to a folder, committed", toFolder, yes},
		{"to a folder, --3way", toFolder, func(o *Options) { o.Yes, o.ThreeWay, o.NoCommit = true, true, true }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := gitRepo(t)
			writeFiles(t, dir, map[string]string{"a.txt": "a\n", "dep/lib.go": "package lib\n"})
			repotest.Git(t, dir, "add", "a.txt")
			setGitlink(t, dir, "dep", id)
			repotest.Git(t, dir, "commit", "-q", "-m", "initial")
			head := repotest.Git(t, dir, "rev-parse", "HEAD")
			out, err := applyPatch(t, dir, tt.patch, tt.set)
			if !errors.Is(err, repo.ErrCheckout) || !strings.Contains(err.Error(), "git submodule deinit -f dep") {
				t.Fatalf("Run: got %v (%s), want %v naming what to do", err, out, repo.ErrCheckout)
			}
			if b, err := os.ReadFile(filepath.Join(dir, "dep", "lib.go")); err != nil || string(b) != "package lib\n" {
				t.Errorf("the checkout's file holds %q (%v), want it untouched", b, err)
			}
			if got := repotest.Git(t, dir, "rev-parse", "HEAD"); got != head {
				t.Errorf("HEAD moved")
			}
			if got := repotest.Git(t, dir, "ls-files", "-s"); !strings.Contains(got, "160000 "+id+" 0\tdep\n") || strings.Contains(got, "dep/") {
				t.Errorf("the index has\n%s\nwant dep unchanged", got)
			}
		})
	}
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

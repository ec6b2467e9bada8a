package apply

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo/repotest"
)

// Several sections for one symbolic link or binary file, applied in
// order, as git apply applies two patches given together (git apply p1
// p2), and a format-patch series of them through pair am. A case's patch,
// when set, is its only maker.

// twoDiffs writes the first commit's change and the second's, one after
// the other: one patch with two sections for each path both change.
const twoDiffs = "git diff --binary base HEAD~1; git diff --binary HEAD~1 HEAD"

var sequenceCases = []sectionCase{
	{
		name:   "link created, then retargeted",
		setup:  "echo t > t; echo u > u",
		change: "ln -s t l; git add l; git commit -qm one; rm l; ln -s u l; git add l; git commit -qm two",
	},
	{
		name:   "link retargeted twice",
		setup:  "echo t > t; echo u > u; echo v > v; ln -s t l",
		change: "rm l; ln -s u l; git add l; git commit -qm one; rm l; ln -s v l; git add l; git commit -qm two",
	},
	{
		name:   "link retargeted, then deleted",
		setup:  "echo t > t; echo u > u; ln -s t l",
		change: "rm l; ln -s u l; git add l; git commit -qm one; git rm -q l; git commit -qm two",
		// Not as two diffs: git 2.39 apply leaves the changed file of
		// a change then a deletion (it deletes first, then writes).
		patch: formatPatch,
	},
	{
		name:   "file becomes a link, then the link is retargeted",
		setup:  "echo t > t; echo u > u; echo file > f",
		change: "rm f; ln -s t f; git add f; git commit -qm one; rm f; ln -s u f; git add f; git commit -qm two",
	},
	{
		name:   "link becomes a file, then the file is edited",
		setup:  "echo t > t; ln -s t l",
		change: "rm l; printf 'a\\nb\\nc\\n' > l; git add l; git commit -qm one; printf 'a\\nB\\nc\\n' > l; git commit -qam two",
	},
	{
		name:   "text file edited, then becomes a link",
		setup:  "echo t > t; printf 'a\\nb\\nc\\n' > f",
		change: "printf 'a\\nB\\nc\\n' > f; git commit -qam one; rm f; ln -s t f; git add f; git commit -qm two",
	},
	{
		name:   "binary created, then changed",
		setup:  "echo keep > k",
		change: "printf 'one\\000two\\000three' > b; git add b; git commit -qm one; printf 'one\\000TWO\\000three\\000four' > b; git commit -qam two",
	},
	{
		name:   "binary changed twice",
		setup:  "head -c 3000 /dev/zero | tr '\\000' 'x' > b; printf '\\000' >> b",
		change: "printf 'y\\000' >> b; git commit -qam one; printf 'z\\000' >> b; git commit -qam two",
	},
	{
		name:   "binary changed, then deleted",
		setup:  "printf 'one\\000two' > b",
		change: "printf 'one\\000three' > b; git commit -qam one; git rm -q b; git commit -qm two",
		// Not as two diffs: git 2.39 apply leaves the changed file of
		// a change then a deletion (it deletes first, then writes).
		patch: formatPatch,
	},
	{
		name:   "binary renamed, then changed",
		setup:  "head -c 3000 /dev/zero | tr '\\000' 'x' > b; printf '\\000' >> b",
		change: "git mv b c; git commit -qm one; printf 'z\\000' >> c; git commit -qam two",
	},
	{
		name:   "text becomes binary, then binary changes",
		setup:  "printf 'a\\nb\\n' > f",
		change: "printf 'a\\000b' > f; git commit -qam one; printf 'a\\000c' > f; git commit -qam two",
	},
}

func TestSequenceLikeGit(t *testing.T) {
	t.Parallel()
	for _, c := range sequenceCases {
		patches := []string{twoDiffs, formatPatch}
		if c.patch != "" {
			patches = []string{c.patch}
		}
		for _, patch := range patches {
			t.Run(c.name+"/"+patch[:13], func(t *testing.T) {
				t.Parallel()
				runGitCase(t, func(dir string) { sh(t, dir, c.setup) }, func(dir string) { sh(t, dir, c.change) }, patch)
			})
		}
	}
}

// Two sections for one submodule pointer (git apply --index p1 p2): the
// pointer moves twice, as git apply moves it.
func TestSequenceGitlinkLikeGit(t *testing.T) {
	id := func(c byte) string { return strings.Repeat(string(c), 40) }
	dir := gitRepo(t)
	writeFiles(t, dir, map[string]string{"a.txt": "a\n"})
	repotest.Git(t, dir, "add", "a.txt")
	setGitlink(t, dir, "lib/dep", id('1'))
	repotest.Git(t, dir, "commit", "-q", "-m", "base")
	setGitlink(t, dir, "lib/dep", id('2'))
	repotest.Git(t, dir, "commit", "-q", "-m", "one")
	setGitlink(t, dir, "lib/dep", id('3'))
	repotest.Git(t, dir, "commit", "-q", "-m", "two")
	patch := repotest.Git(t, dir, "diff", "HEAD~2", "HEAD~1") + repotest.Git(t, dir, "diff", "HEAD~1", "HEAD")
	repotest.Git(t, dir, "reset", "-q", "--hard", "HEAD~2")
	file := filepath.Join(t.TempDir(), "p.diff")
	if err := os.WriteFile(file, []byte(patch), 0o644); err != nil {
		t.Fatal(err)
	}
	theirs := filepath.Join(t.TempDir(), "theirs")
	repotest.Git(t, dir, "clone", "-q", "--no-recurse-submodules", dir, theirs)
	repotest.Git(t, theirs, "apply", "--index", file)

	o, out, errw := options(dir, "")
	o.Patch, o.Yes = file, true
	if err := Run(context.Background(), o); err != nil {
		t.Fatalf("pair apply: %v\n%s%s\npatch:\n%s", err, out, errw, patch)
	}
	if got, want := repotest.Git(t, dir, "ls-files", "-s"), repotest.Git(t, theirs, "ls-files", "-s"); got != want {
		t.Errorf("pair's index\n%s\ngit apply's\n%s", got, want)
	}
}

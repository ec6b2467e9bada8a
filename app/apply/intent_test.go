package apply

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/internal/output"
)

// indexState is what -N leaves to compare: the files, the index's entries,
// which of them are intents to add (git ls-files --debug's flags, without
// the stat data), and what git status and git diff make of them.
func indexState(t *testing.T, dir string) string {
	t.Helper()
	return snapshot(t, dir) + "--- flags\n" + sh(t, dir, "git ls-files --debug | grep -v -E '^  (ctime|mtime|dev|uid):'") +
		"--- status\n" + sh(t, dir, "git status --porcelain --untracked-files=all") + "--- diff\n" + sh(t, dir, "git diff")
}

// TestIntentToAddSameAsGit applies each patch with pair apply --yes
// --no-commit -N and with git: git apply, then git add -N of the new
// files, which is what newer git's -N makes; and git apply -N itself
// where git 2.39 does what git documents: a patch that only creates
// files, in a repository whose index is empty. (git 2.39's -N writes an
// index of the patch's files alone, every other entry lost, and turns
// the entries of the files it changes into intents to add; fixed since.)
func TestIntentToAddSameAsGit(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, setup, change, created string
		only                         bool // the patch only creates files
	}{
		{name: "new files, a folder, an executable, a link", only: true, setup: ":",
			change:  "echo new > new; mkdir -p dir/sub; echo n > dir/sub/n; echo run > run; chmod +x run; ln -s new link",
			created: "new dir/sub/n run link"},
		{name: "a traditional creation", only: true, setup: ":", created: "fresh"},
		{name: "a traditional creation beside other files", setup: "echo keep > keep", created: "fresh"},
		{name: "new files with changes, a deletion and a rename", setup: "echo a > mod; echo d > del; " + lettersTo("ren", 'z'),
			change:  "echo b > mod; chmod +x mod; rm del; git mv ren ren2; echo new > new; mkdir d; echo n > d/n",
			created: "new d/n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			root, made, byGit, byPair := caseRepos(t, func(dir string) { sh(t, dir, c.setup) })
			patch := "--- /dev/null\n+++ fresh\n@@ -0,0 +1 @@\n+fresh\n"
			if c.change != "" {
				patch = sh(t, made, c.change+"; git add -A; git diff --cached -M")
			}
			file := filepath.Join(root, "case.patch")
			if err := os.WriteFile(file, []byte(patch), 0o644); err != nil {
				t.Fatal(err)
			}
			o, out, errw := options(byPair, "")
			o.Patch, o.Yes, o.NoCommit, o.IntentToAdd = file, true, true, true
			if err := Run(context.Background(), o); err != nil {
				t.Fatalf("pair apply -N: %v\n%s%s", err, out, errw)
			}
			if want := "marked intent-to-add in the index: "; !strings.Contains(out.String(), want) {
				t.Errorf("pair says\n%s\nwant %q", out, want)
			}
			got := indexState(t, byPair)
			sh(t, byGit, "git apply ../case.patch; git add -N "+c.created)
			if want := indexState(t, byGit); got != want {
				t.Errorf("pair apply -N made\n%s\ngit apply, then git add -N, made\n%s\npatch:\n%s", got, want, patch)
			}
			if !c.only {
				return
			}
			sh(t, byGit, "git reset -q --hard; git clean -fdxq; git apply -N ../case.patch")
			if want := indexState(t, byGit); got != want {
				t.Errorf("pair apply -N made\n%s\ngit apply -N made\n%s\npatch:\n%s", got, want, patch)
			}
		})
	}
}

// -N where it does nothing: refused where pair would commit the new
// files, and named where --index, --cached or --3way stage them.
func TestIntentToAddWhereItDoesNothing(t *testing.T) {
	t.Parallel()
	patch := "diff --git a/new b/new\nnew file mode 100644\nindex 0000000..3e75765\n--- /dev/null\n+++ b/new\n@@ -0,0 +1 @@\n+new\n"
	dir := gitRepo(t)
	writeFiles(t, dir, map[string]string{"keep": "keep\n"})
	sh(t, dir, "git add -A; git commit -q -m base")
	_, err := applyPatch(t, dir, patch, func(o *Options) { o.Yes, o.IntentToAdd = true, true })
	var ue *output.UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "add --no-commit") {
		t.Errorf("-N with a commit: got %v, want a usage error naming --no-commit", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "new")); err == nil {
		t.Errorf("-N with a commit wrote the file")
	}
	for _, tt := range []struct {
		flag, status string
		set          func(*Options)
	}{
		{"--index", "A  new\n", func(o *Options) { o.Index = true }},
		{"--cached", "AD new\n", func(o *Options) { o.Cached = true }},
		{"--3way", "A  new\n", func(o *Options) { o.ThreeWay, o.NoCommit = true, true }},
	} {
		sh(t, dir, "git reset -q --hard; git clean -fdxq")
		file := filepath.Join(t.TempDir(), "p.diff")
		if err := os.WriteFile(file, []byte(patch), 0o644); err != nil {
			t.Fatal(err)
		}
		o, out, errw := options(dir, "")
		o.Patch, o.Yes, o.IntentToAdd = file, true, true
		tt.set(&o)
		if err := Run(context.Background(), o); err != nil {
			t.Fatalf("%s -N: %v\n%s%s", tt.flag, err, out, errw)
		}
		if want := "-N (--intent-to-add) does nothing with " + tt.flag; !strings.Contains(errw.String(), want) {
			t.Errorf("%s -N says\n%s\nwant %q", tt.flag, errw, want)
		}
		if got := sh(t, dir, "git status --porcelain"); got != tt.status {
			t.Errorf("%s -N: git status\n%s\nwant %q: the new file staged, no intent to add", tt.flag, got, tt.status)
		}
	}
}

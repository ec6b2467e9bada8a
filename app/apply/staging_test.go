package apply

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/repo/repotest"
)

// stagingCase is a differential case for --3way, --index and --cached:
// build makes the repository and returns the patch; git and pair are the
// options each is given.
type stagingCase struct {
	name  string
	build func(t *testing.T, dir string) string
	git   []string
	pair  func(*Options)
	// fails says both must fail; kept that the repository must stay as
	// it was (a refusal, not a conflict left to resolve).
	fails, kept bool
	// said is what pair must say on standard error.
	said string
}

// lines writes the lines as a file's content.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// t4108 builds git's t4108 repository: one and two hold 1..7; master
// changes two and six (one) and two (two), side changes five in both.
// The patch is side's change; the repository is left on master, or with
// ours as one's content when ours is given.
func t4108(ours string) func(t *testing.T, dir string) string {
	return func(t *testing.T, dir string) string {
		seven := lines("1", "2", "3", "4", "5", "6", "7")
		writeFiles(t, dir, map[string]string{"one": seven, "two": seven})
		repotest.Git(t, dir, "add", "-A")
		repotest.Git(t, dir, "commit", "-q", "-m", "initial")
		writeFiles(t, dir, map[string]string{"one": lines("1", "2", "3", "4", "five", "6", "7"), "two": lines("1", "2", "3", "4", "five", "6", "7")})
		patch := repotest.Git(t, dir, "diff")
		one, two := lines("1", "two", "3", "4", "5", "six", "7"), lines("1", "two", "3", "4", "5", "6", "7")
		if ours != "" {
			one = ours
		}
		if ours == seven {
			two = seven
		}
		writeFiles(t, dir, map[string]string{"one": one, "two": two})
		repotest.Git(t, dir, "commit", "-q", "--allow-empty", "-a", "-m", "master")
		return patch
	}
}

// threeway builds a repository whose first commit holds base, makes the
// patch from base to theirs, and commits ours on top.
func threeway(base, theirs, ours map[string]string) func(t *testing.T, dir string) string {
	return func(t *testing.T, dir string) string {
		writeFiles(t, dir, base)
		repotest.Git(t, dir, "add", "-A")
		repotest.Git(t, dir, "commit", "-q", "-m", "initial")
		writeFiles(t, dir, theirs)
		patch := repotest.Git(t, dir, "diff")
		repotest.Git(t, dir, "checkout", "-q", "--", ".")
		writeFiles(t, dir, ours)
		repotest.Git(t, dir, "commit", "-q", "--allow-empty", "-a", "-m", "ours")
		return patch
	}
}

// tree builds a repository whose commit holds base, and returns git diff
// -M of the change to theirs, where an empty content deletes the file;
// the change is then undone.
func tree(base, theirs map[string]string) func(t *testing.T, dir string) string {
	return func(t *testing.T, dir string) string {
		writeFiles(t, dir, base)
		repotest.Git(t, dir, "add", "-A")
		repotest.Git(t, dir, "commit", "-q", "-m", "initial")
		written := map[string]string{}
		for name, content := range theirs {
			if content == "" {
				os.Remove(filepath.Join(dir, name))
			} else {
				written[name] = content
			}
		}
		writeFiles(t, dir, written)
		repotest.Git(t, dir, "add", "-A")
		patch := repotest.Git(t, dir, "diff", "--cached", "-M")
		repotest.Git(t, dir, "reset", "-q", "--hard")
		repotest.Git(t, dir, "clean", "-q", "-fd")
		return patch
	}
}

// untouched is t4108's repository where master changed nothing.
var untouched = t4108(lines("1", "2", "3", "4", "5", "6", "7"))

// withBlobsLost rewrites the patch's index lines to name blobs no
// repository holds.
func withBlobsLost(build func(t *testing.T, dir string) string) func(t *testing.T, dir string) string {
	return func(t *testing.T, dir string) string {
		var out []string
		for _, l := range strings.Split(build(t, dir), "\n") {
			if strings.HasPrefix(l, "index ") {
				l = "index 1234567..89abcde 100644"
			}
			out = append(out, l)
		}
		return strings.Join(out, "\n")
	}
}

func TestStagingSameAsGit(t *testing.T) {
	conflicting := lines("1", "two", "3", "4", "FIVE", "six", "7")
	cases := []stagingCase{
		{name: "3way merges cleanly", build: t4108(lines("1", "TWO", "THREE", "4", "5", "6", "7")), git: []string{"--3way"},
			pair: func(o *Options) { o.ThreeWay, o.Index, o.Yes = true, true, true }, said: "merged three-way with its preimage 06e567b: 1 hunk placed cleanly"},
		{name: "3way conflict of changes next to each other (t4108)", build: t4108(""), git: []string{"--3way"},
			pair: func(o *Options) { o.ThreeWay, o.Index, o.Decisions = true, true, "yy" }, fails: true, said: "conflicts in one:"},
		{name: "3way leaves a conflict", build: t4108(conflicting), git: []string{"--3way"},
			pair: func(o *Options) { o.ThreeWay, o.Index, o.Decisions = true, true, "yy" }, fails: true, said: "conflicts in one:"},
		{name: "3way conflict in the index only", build: t4108(conflicting), git: []string{"--3way", "--cached"},
			pair: func(o *Options) { o.ThreeWay, o.Cached, o.Decisions = true, true, "yy" }, fails: true, said: "conflicts in one: the index holds"},
		{name: "3way conflict at the end of a file without a final newline", build: threeway(
			map[string]string{"f": "1\n2\n3\n4\n5"}, map[string]string{"f": "1\n2\n3\n4\nfive"}, map[string]string{"f": "1\n2\n3\n4\nFIVE"}),
			git: []string{"--3way"}, pair: func(o *Options) { o.ThreeWay, o.Index, o.Decisions = true, true, "y" }, fails: true, said: "conflicts in f:"},
		{name: "3way two conflicts and a clean change in one hunk", build: threeway(
			map[string]string{"f": lines("a", "b", "c", "d", "e", "f", "g", "h", "i")},
			map[string]string{"f": lines("a", "B", "c", "d", "E", "f", "g", "H", "i")},
			map[string]string{"f": lines("a", "b2", "c", "d", "e", "f", "g", "h2", "i")}),
			git: []string{"--3way"}, pair: func(o *Options) { o.ThreeWay, o.Index, o.Decisions = true, true, "y" }, fails: true, said: "conflicts in f:"},
		{name: "3way with the person's lines added inside the hunk", build: threeway(
			map[string]string{"f": lines("a", "b", "c", "d", "e", "f", "g")},
			map[string]string{"f": lines("a", "b", "c", "D", "e", "f", "g")},
			map[string]string{"f": lines("a", "new1", "new2", "b", "c", "d", "e", "f", "new3", "g")}),
			git: []string{"--3way"}, pair: func(o *Options) { o.ThreeWay, o.Index, o.Yes = true, true, true }},
		{name: "3way without the preimage blob, applying directly", build: withBlobsLost(untouched), git: []string{"--3way"},
			pair: func(o *Options) { o.ThreeWay, o.Index, o.Yes = true, true, true }},
		{name: "3way without the preimage blob, not applying", build: withBlobsLost(t4108("")), git: []string{"--3way"},
			pair: func(o *Options) { o.ThreeWay, o.Index, o.Yes = true, true, true }, fails: true, kept: true, said: "lacks the necessary blob"},
		{name: "index", build: untouched, git: []string{"--index"},
			pair: func(o *Options) { o.Index, o.Yes = true, true }},
		{name: "index refuses a file that does not match it", build: func(t *testing.T, dir string) string {
			patch := untouched(t, dir)
			writeFiles(t, dir, map[string]string{"one": lines("1", "2", "3", "4", "5", "6", "7", "8")})
			return patch
		}, git: []string{"--index"}, pair: func(o *Options) { o.Index, o.Yes = true, true }, fails: true, kept: true, said: "one: does not match index"},
		{name: "cached applies to the index, not the file", build: func(t *testing.T, dir string) string {
			patch := untouched(t, dir)
			writeFiles(t, dir, map[string]string{"one": lines("1", "2", "3", "4", "5", "6", "7", "worktree only")})
			return patch
		}, git: []string{"--cached"}, pair: func(o *Options) { o.Cached, o.Yes = true, true }},
		{name: "cached creates, deletes and renames", build: tree(
			map[string]string{"gone": "gone\n", "old": lines("a", "b", "c", "d", "e", "f")},
			map[string]string{"gone": "", "old": "", "new": lines("a", "b", "c", "d", "e", "F"), "created": "created\n"}),
			git: []string{"--cached"}, pair: func(o *Options) { o.Cached, o.Yes = true, true }},
		{name: "index creates, deletes and renames", build: tree(
			map[string]string{"gone": "gone\n", "old": lines("a", "b", "c", "d", "e", "f")},
			map[string]string{"gone": "", "old": "", "new": lines("a", "b", "c", "d", "e", "F"), "created": "created\n"}),
			git: []string{"--index"}, pair: func(o *Options) { o.Index, o.Yes = true, true }},
		{name: "cached refuses a file not in the index", build: func(t *testing.T, dir string) string {
			patch := untouched(t, dir)
			repotest.Git(t, dir, "rm", "-q", "--cached", "two")
			return patch
		}, git: []string{"--cached"}, pair: func(o *Options) { o.Cached, o.Yes = true, true }, fails: true, kept: true, said: "two: does not exist in index"},
		{name: "index refuses to create a file the index has", build: func(t *testing.T, dir string) string {
			writeFiles(t, dir, map[string]string{"a": "a\n"})
			repotest.Git(t, dir, "add", "-A")
			repotest.Git(t, dir, "commit", "-q", "-m", "initial")
			writeFiles(t, dir, map[string]string{"new": "new\n"})
			repotest.Git(t, dir, "add", "-N", "new")
			patch := repotest.Git(t, dir, "diff")
			repotest.Git(t, dir, "rm", "-q", "--cached", "new")
			os.Remove(filepath.Join(dir, "new"))
			writeFiles(t, dir, map[string]string{"new": "other\n"})
			repotest.Git(t, dir, "add", "new")
			os.Remove(filepath.Join(dir, "new"))
			return patch
		}, git: []string{"--index"}, pair: func(o *Options) { o.Index, o.Yes = true, true }, fails: true, kept: true, said: "new: already exists in index"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mine, theirs := gitRepo(t), gitRepo(t)
			patch := c.build(t, mine)
			if c.build(t, theirs) != patch {
				t.Fatal("the two repositories give different patches")
			}
			file := filepath.Join(t.TempDir(), "p.diff")
			if err := os.WriteFile(file, []byte(patch), 0o644); err != nil {
				t.Fatal(err)
			}
			before := state(t, mine)
			cmd := repotest.Cmd(t, theirs, append(append([]string{"apply"}, c.git...), file)...)
			gitOut, gitErr := cmd.CombinedOutput()
			var ee *exec.ExitError
			if gitErr != nil && !errors.As(gitErr, &ee) {
				t.Fatal(gitErr)
			}
			o, out, errw := options(mine, "")
			o.Patch = file
			c.pair(&o)
			err := Run(context.Background(), o)
			if (err != nil) != (gitErr != nil) || (err != nil) != c.fails {
				t.Fatalf("pair apply: %v; git apply %s: %v (want failure: %v)\npair:\n%s%s\ngit:\n%s", err, strings.Join(c.git, " "), gitErr, c.fails, out, errw, gitOut)
			}
			if got, want := state(t, mine), state(t, theirs); got != want {
				t.Errorf("pair gives\n%s\ngit apply %s gives\n%s\npair said:\n%s%s", got, strings.Join(c.git, " "), want, out, errw)
			}
			if err == nil && !slices.Contains(c.git, "--cached") {
				// Staged with its stat data, as git add stages it: git sees
				// the file clean without a refresh.
				if d, err := repotest.Cmd(t, mine, "diff-files", "--exit-code").CombinedOutput(); err != nil {
					t.Errorf("git diff-files after pair apply: %v\n%s", err, d)
				}
			}
			if said := errw.String() + out.String() + fmt.Sprint(err); !strings.Contains(said, c.said) {
				t.Errorf("pair said\n%s%s\nwant it to say %q", out, errw, c.said)
			}
			if c.kept && state(t, mine) != before {
				t.Errorf("a refused patch changed the repository:\n%s\nwas\n%s", state(t, mine), before)
			}
		})
	}
}

// state is what a differential case compares: the working files, the
// index (see snapshot) and HEAD's tree, which staging leaves alone.
func state(t *testing.T, dir string) string {
	t.Helper()
	return snapshot(t, dir) + "HEAD " + repotest.Git(t, dir, "rev-parse", "HEAD^{tree}")
}

// conflictRepo is t4108's repository where master changed line 5 of one
// as the patch does, differently: the patch and the file conflict.
func conflictRepo(t *testing.T) (dir, patch string) {
	t.Helper()
	dir = gitRepo(t)
	patch = t4108(lines("1", "2", "3", "4", "FIVE", "6", "7"))(t, dir)
	return dir, patch
}

// markers is one after the patch merged with the conflict of conflictRepo.
var markers = lines("1", "2", "3", "4", "<<<<<<< ours", "FIVE", "=======", "five", ">>>>>>> theirs", "6", "7")

func TestThreeWayConflictNeverCommitted(t *testing.T) {
	tests := []struct {
		name string
		set  func(*Options)
		// written says the markers are written; index what git ls-files -s
		// must show for one (a prefix of each line's stage), nil for as
		// it was.
		written bool
		stages  []string
		err     string
	}{
		{"--yes refuses it", func(o *Options) { o.ThreeWay, o.Yes = true, true }, false, nil,
			"--yes does not approve it"},
		{"--yes with --index refuses it", func(o *Options) { o.ThreeWay, o.Index, o.Yes = true, true, true }, false, nil,
			"--yes does not approve it"},
		// A conflict is left unmerged in the index, as git apply --3way
		// (which implies --index) leaves it.
		{"approved, not committed", func(o *Options) { o.ThreeWay, o.Decisions = true, "yy" }, true, []string{" 1\tone", " 2\tone", " 3\tone"},
			"conflicts in one: the files hold conflict markers, and the index the preimage, yours and the patch's version of each; resolve them, then git add and commit; nothing was committed"},
		{"approved with --no-commit", func(o *Options) { o.ThreeWay, o.NoCommit, o.Decisions = true, true, "yy" }, true, []string{" 1\tone", " 2\tone", " 3\tone"},
			"conflicts in one: the files hold conflict markers, and the index"},
		{"approved, the file not as the index has it", func(o *Options) { o.ThreeWay, o.Decisions = true, "yy" }, true, nil,
			"conflicts in one: the files hold conflict markers; resolve them"},
		{"approved with --index, unmerged", func(o *Options) { o.ThreeWay, o.Index, o.Decisions = true, true, "yy" }, true, []string{" 1\tone", " 2\tone", " 3\tone"},
			"conflicts in one: the files hold conflict markers, and the index the preimage, yours and the patch's version of each;"},
		{"rejected", func(o *Options) { o.ThreeWay, o.Decisions = true, "ny" }, false, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, patch := conflictRepo(t)
			if strings.Contains(tt.name, "not as the index") {
				// two staged otherwise than its file: the index is left alone.
				two := repotest.ReadFile(t, dir, "two")
				writeFiles(t, dir, map[string]string{"two": two + "staged\n"})
				repotest.Git(t, dir, "add", "two")
				writeFiles(t, dir, map[string]string{"two": two})
			}
			head, index, two := repotest.Head(t, dir), repotest.Git(t, dir, "ls-files", "-s", "one"), repotest.ReadFile(t, dir, "two")
			_, err := applyPatch(t, dir, patch, tt.set)
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("pair apply: %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("pair apply: %v; want an error saying %q", err, tt.err)
			}
			if got := repotest.ReadFile(t, dir, "one"); (got == markers) != tt.written {
				t.Errorf("one holds\n%s\nwant the markers written: %v", got, tt.written)
			}
			if strings.Contains(tt.name, "refuses") && repotest.ReadFile(t, dir, "two") != two {
				t.Errorf("a refused patch wrote two")
			}
			if h := repotest.Head(t, dir); h != head && tt.err != "" {
				t.Errorf("HEAD moved from %s to %s: a conflict was committed", head, h)
			}
			got := repotest.Git(t, dir, "ls-files", "-s", "one")
			if tt.stages == nil && got != index {
				t.Errorf("the index holds\n%s\nwant it as it was:\n%s", got, index)
			}
			for _, s := range tt.stages {
				if !strings.Contains(got, s) {
					t.Errorf("the index holds\n%s\nwant a line with %q", got, s)
				}
			}
		})
	}
}

func TestThreeWayCleanIsCommitted(t *testing.T) {
	dir := gitRepo(t)
	patch := t4108(lines("1", "TWO", "THREE", "4", "5", "6", "7"))(t, dir)
	head := repotest.Head(t, dir)
	out, err := applyPatch(t, dir, patch, func(o *Options) { o.ThreeWay, o.Yes, o.JSON = true, true, true })
	if err != nil {
		t.Fatalf("pair apply --3way --yes: %v\n%s", err, out)
	}
	if repotest.Head(t, dir) == head {
		t.Fatal("a clean three-way merge was not committed")
	}
	if got, want := repotest.Git(t, dir, "show", "HEAD:one"), lines("1", "TWO", "THREE", "4", "five", "6", "7"); got != want {
		t.Errorf("committed one:\n%s\nwant\n%s", got, want)
	}
	var r Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	// two's hunk is git's diff of another version of two, whose context
	// line 2 ("2") the file changed ("two"): it fits only loosely, so it
	// is merged too, as git apply --3way merges it (see edit's
	// contextAsGit).
	base := "06e567b11dfdafeaf7d3edcc89864149383aeab6"
	if want := []Merged{{Path: "one", Base: base, Merged: 1}, {Path: "two", Base: base, Merged: 1}}; !slices.Equal(r.Merged, want) || len(r.Conflicted) > 0 {
		t.Errorf("the report lists merges %+v, conflicts %v; want %+v and none", r.Merged, r.Conflicted, want)
	}
	if st := repotest.Status(t, dir); st != "" {
		t.Errorf("git status after the commit:\n%s", st)
	}
}

func TestStagingRefusals(t *testing.T) {
	tests := []struct {
		name  string
		git   bool
		set   func(*Options)
		usage bool
		err   string
	}{
		{"--3way outside a repository", false, func(o *Options) { o.ThreeWay, o.Yes = true, true }, false, "--3way outside a repository"},
		{"--index outside a repository", false, func(o *Options) { o.Index, o.Yes = true, true }, false, "--index outside a repository"},
		{"--cached outside a repository", false, func(o *Options) { o.Cached, o.Yes = true, true }, false, "--cached outside a repository"},
		{"--index with a message", true, func(o *Options) { o.Index, o.Yes, o.Message = true, true, "x" }, true, "-m has no commit to name"},
		{"--cached with mail", true, func(o *Options) { o.Cached, o.Yes, o.Mail = true, true, true }, true, "apply a diff, not mail"},
		{"--index with mail", true, func(o *Options) { o.Index, o.Yes, o.Mail = true, true, true }, true, "apply a diff, not mail"},
		{"--3way and --no-3way with mail", true, func(o *Options) { o.ThreeWay, o.NoThreeWay, o.Yes, o.Mail = true, true, true, true }, true, "cannot be used together"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.git {
				dir = gitRepo(t)
			}
			writeFiles(t, dir, map[string]string{"one": "1\n"})
			_, err := applyPatch(t, dir, "--- a/one\n+++ b/one\n@@ -1 +1 @@\n-1\n+one\n", tt.set)
			var ue *output.UsageError
			if err == nil || !strings.Contains(err.Error(), tt.err) || errors.As(err, &ue) != tt.usage {
				t.Fatalf("pair apply: %v; want an error saying %q (a usage error: %v)", err, tt.err, tt.usage)
			}
			if got := repotest.ReadFile(t, dir, "one"); got != "1\n" {
				t.Errorf("a refused patch wrote one: %q", got)
			}
		})
	}
}

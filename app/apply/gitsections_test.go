package apply

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// A differential test against git: each case makes a change with real
// git in a repository, writes it as a patch with git's own tools, and
// applies the patch with pair apply --yes and with git apply --index, each
// to a copy of the repository before the change. The trees (files,
// executable bits, git ls-files -s) and pair's commit must be what git
// makes.

// sh runs a shell script in dir, with git's configuration kept out.
func sh(t *testing.T, dir, script string) string {
	t.Helper()
	cmd := exec.Command("sh", "-ec", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=Pair Tester", "GIT_AUTHOR_EMAIL=tester@example.com",
		"GIT_COMMITTER_NAME=Pair Tester", "GIT_COMMITTER_EMAIL=tester@example.com",
		"GIT_AUTHOR_DATE=2026-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2026-01-02T03:04:05Z")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sh -c %q: %v\n%s", script, err, out)
	}
	return string(out)
}

// lines40 writes a shell command that fills file name with 40 distinct
// lines tagged tag, long enough for git's rename and break detection.
func lines40(name, tag string) string {
	return fmt.Sprintf("for i in $(seq 1 40); do echo \"line $i of the file %s\"; done > %s\n", tag, name)
}

// walkFiles calls fn on each file and symbolic link below dir (the git
// directory's too, with git), by its slash-separated path: a link with
// its target, a file with its content.
func walkFiles(t *testing.T, dir string, git bool, fn func(rel string, mode fs.FileMode, link string, content []byte) error) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			if err == nil && d.Name() == ".git" && !git {
				return filepath.SkipDir
			}
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return fn(filepath.ToSlash(rel), fi.Mode(), target, nil)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return fn(filepath.ToSlash(rel), fi.Mode(), "", b)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// snapshot describes a work tree: each file with its executable bit and
// content, each symbolic link with its target, and git ls-files -s.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var out []string
	walkFiles(t, dir, false, func(rel string, mode fs.FileMode, link string, content []byte) error {
		if mode&fs.ModeSymlink != 0 {
			out = append(out, fmt.Sprintf("%s -> %s", rel, link))
		} else {
			out = append(out, fmt.Sprintf("%s %v %q", rel, mode.Perm()&0o100 != 0, content))
		}
		return nil
	})
	sort.Strings(out)
	return strings.Join(out, "\n") + "\n--- index\n" + sh(t, dir, "git ls-files -s")
}

// copyDir copies the directory from (a repository) to to, modes and
// symbolic links as they are.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	walkFiles(t, from, true, func(rel string, mode fs.FileMode, link string, content []byte) error {
		dst := filepath.Join(to, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if mode&fs.ModeSymlink != 0 {
			return os.Symlink(link, dst)
		}
		return os.WriteFile(dst, content, mode.Perm())
	})
}

type sectionCase struct {
	name string
	// setup makes the files of the first commit; change makes the change,
	// committed (once or more); patch writes the patch to standard
	// output, with HEAD at the change and base at the first commit.
	setup, change, patch string
}

var sectionCases = []sectionCase{
	{
		name:   "format-patch series of one file",
		setup:  lines40("f", "f"),
		change: "sed -i 's/line 3 of/LINE 3 of/' f; git commit -qam one; sed -i 's/LINE 3 of/Line three of/; s/line 30 of/LINE 30 of/' f; git commit -qam two",
		patch:  "git format-patch --stdout base",
	},
	{
		name:   "format-patch --attach series",
		setup:  lines40("f", "f"),
		change: "sed -i 's/line 3 of/LINE 3 of/' f; git commit -qam one -m 'Why.' -m 'Signed-off-by: A U Thor <author@example.com>'; echo new > g; git add g; git commit -qm two",
		patch:  "git format-patch --stdout --attach base",
	},
	{
		name:   "create then modify in one patch",
		setup:  "echo keep > k",
		change: lines40("f", "f") + "git add f; git commit -qm create; sed -i 's/line 7 of/LINE 7 of/' f; git commit -qam modify",
		patch:  "git format-patch --stdout base",
	},
	{
		name:   "rename keeps the executable bit",
		setup:  lines40("run.sh", "x") + "chmod +x run.sh",
		change: "git mv run.sh go.sh; git commit -qm mv",
		patch:  "git diff -M base HEAD",
	},
	{
		name:   "rename with an edit keeps the executable bit",
		setup:  lines40("run.sh", "x") + "chmod +x run.sh",
		change: "git mv run.sh go.sh; sed -i 's/line 5 of/LINE 5 of/' go.sh; git commit -qam mv",
		patch:  "git diff -M base HEAD",
	},
	{
		name:   "copy keeps the executable bit",
		setup:  lines40("run.sh", "x") + "chmod +x run.sh",
		change: "cp -p run.sh go.sh; sed -i 's/line 5 of/LINE 5 of/' go.sh; git add go.sh; git commit -qm cp",
		patch:  "git diff -C -C base HEAD",
	},
	{
		name:   "mode change only",
		setup:  lines40("run.sh", "x"),
		change: "chmod +x run.sh; git commit -qam x",
		patch:  "git diff base HEAD",
	},
	{
		name:   "mode taken away, with an edit",
		setup:  lines40("run.sh", "x") + "chmod +x run.sh",
		change: "chmod -x run.sh; sed -i 's/line 5 of/LINE 5 of/' run.sh; git commit -qam x",
		patch:  "git diff base HEAD",
	},
	{
		name:   "swap",
		setup:  lines40("A", "a") + lines40("B", "b"),
		change: "mv A t; mv B A; mv t B; git commit -qam swap",
		patch:  "git diff -B -M base HEAD",
	},
	{
		name:   "swap with edits and modes",
		setup:  lines40("A", "a") + lines40("B", "b") + "chmod +x A",
		change: "mv A t; mv B A; mv t B; sed -i 's/line 9 of/LINE 9 of/' A B; git add -A; git commit -qm swap",
		patch:  "git diff -B -M base HEAD",
	},
	{
		name:   "chain",
		setup:  lines40("A", "a") + lines40("C", "c"),
		change: "git mv A B; git mv C A; git commit -qm chain",
		patch:  "git diff -B -M base HEAD",
	},
	{
		name:   "rotation of three",
		setup:  lines40("A", "a") + lines40("B", "b") + lines40("C", "c"),
		change: "mv A t; mv B A; mv C B; mv t C; git commit -qam rotate",
		patch:  "git diff -B -M base HEAD",
	},
	{
		name:   "rename and copy from one source",
		setup:  lines40("A", "a") + "chmod +x A",
		change: "cp -p A C; git mv A B; sed -i 's/line 2 of/LINE 2 of/' C; git add -A; git commit -qm rc",
		patch:  "git diff -M -C base HEAD",
	},
	{
		name:   "two copies and an edit of the source",
		setup:  lines40("A", "a"),
		change: "cp A B; cp A C; sed -i 's/line 2 of/LINE 2 of/' A; sed -i 's/line 20 of/LINE 20 of/' C; git add -A; git commit -qm cc",
		patch:  "git diff -M -C -C base HEAD",
	},
	{
		name:   "rewrite as git diff -B writes it",
		setup:  lines40("A", "a"),
		change: lines40("A", "z") + "git commit -qam rw",
		patch:  "git diff -B base HEAD",
	},
	{
		name:   "file becomes a folder",
		setup:  lines40("a", "a") + "echo other > o",
		change: "git rm -q a; mkdir a; echo in > a/b; git add a; git commit -qm dir",
		patch:  "git diff -M base HEAD",
	},
	{
		name:   "folder becomes a file",
		setup:  "mkdir a; echo in > a/b; echo other > o",
		change: "git rm -q -r a; echo file > a; git add a; git commit -qm file",
		patch:  "git diff -M base HEAD",
	},
	{
		name:   "rename into a folder that was a file",
		setup:  lines40("a", "a") + lines40("x", "x"),
		change: "git rm -q a; mkdir a; git mv x a/x; git commit -qm dir",
		patch:  "git diff -M base HEAD",
	},
}

func TestApplyLikeGit(t *testing.T) {
	t.Parallel()
	for _, c := range sectionCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			runGitCase(t, func(dir string) { sh(t, dir, c.setup) }, func(dir string) { sh(t, dir, c.change) }, c.patch)
		})
	}
}

// The patch makers: a sectionCase's patch command that starts with
// "git format-patch" is applied by git am (not git apply), whose commits
// pair's must match; diffRuN and diffU0 are traditional diffs of the two
// trees, applied by patch -p1 and git apply, whose results pair's must
// match. A patch made with -U0 is applied by git apply --unidiff-zero.
const (
	formatPatch = "git format-patch --stdout -M -C --binary base"
	gitDiffU0   = "git diff -U0 -M -C --binary base HEAD"
	// gitDiffPrefixes names the files under old/ and new/, which git apply
	// strips as it strips a/ and b/; gitDiffNoPrefix names them from the
	// top, applied with -p0.
	gitDiffPrefixes = "git diff -M -C --binary --src-prefix=old/ --dst-prefix=new/ base HEAD"
	gitDiffNoPrefix = "git diff -M -C --binary --no-prefix base HEAD"
	// diffRuN writes diff -ruN of the first commit's tree (ta/) and the
	// change's (tb/), beside the repository; diffU0 the same with no
	// context.
	diffRuN = bothTrees + "diff -ruN ta tb || test $? = 1"
	diffU0  = bothTrees + "diff -rNU0 ta tb || test $? = 1"

	bothTrees = "rm -rf ../ta ../tb; mkdir ../ta ../tb; git archive base | tar -x -C ../ta; git archive HEAD | tar -x -C ../tb; cd ..; "
)

// caseRepos makes a repository, its first commit (tagged base) of the
// files setup makes, and two copies of it, for git and for pair, all in
// root.
func caseRepos(t *testing.T, setup func(dir string)) (root, made, byGit, byPair string) {
	t.Helper()
	root = t.TempDir()
	made = filepath.Join(root, "made")
	if err := os.Mkdir(made, 0o755); err != nil {
		t.Fatal(err)
	}
	sh(t, made, "git init -q -b main; git config core.autocrlf false; git config user.name 'Pair Tester'; git config user.email tester@example.com")
	setup(made)
	sh(t, made, "git add -A; git commit -q --allow-empty -m base; git tag base")
	byGit, byPair = filepath.Join(root, "git"), filepath.Join(root, "pair")
	copyDir(t, made, byGit)
	copyDir(t, made, byPair)
	return root, made, byGit, byPair
}

// runGitCase checks one change (see sectionCase), made by setup and change in
// the repository's directory, and returns the patch.
func runGitCase(t *testing.T, setup, change func(dir string), patchCmd string) string {
	t.Helper()
	root, made, byGit, byPair := caseRepos(t, setup)
	am := strings.HasPrefix(patchCmd, "git format-patch")
	traditional := patchCmd == diffRuN || patchCmd == diffU0
	gitApply := "git apply"
	if patchCmd == gitDiffU0 || patchCmd == diffU0 {
		gitApply += " --unidiff-zero"
	}
	var strip *int
	if patchCmd == gitDiffNoPrefix {
		gitApply += " -p0"
		strip = new(int)
	}
	byPatch := filepath.Join(root, "patch")
	if traditional {
		copyDir(t, made, byPatch)
	}
	change(made)
	patch := sh(t, made, patchCmd)
	if strings.TrimSpace(patch) == "" {
		t.Log("no change: nothing to apply")
		return patch
	}
	patchFile := filepath.Join(root, "change.patch")
	if err := os.WriteFile(patchFile, []byte(patch), 0o644); err != nil {
		t.Fatal(err)
	}

	if am {
		// --keep-cr: a CR that is a file's content stays, as pair keeps it.
		sh(t, byGit, "git am -q --keep-cr ../change.patch")
	} else {
		sh(t, byGit, gitApply+" ../change.patch; git add -A")
	}
	want := snapshot(t, made)
	if traditional {
		// diff writes no modes: the result is what patch -p1 and git apply
		// make, the same.
		want = snapshot(t, byGit)
		sh(t, byPatch, "patch -s -p1 < ../change.patch; git add -A")
		if got := snapshot(t, byPatch); got != want {
			t.Fatalf("patch -p1 made\n%s\ngit apply made\n%s\npatch:\n%s", got, want, patch)
		}
	} else if got := snapshot(t, byGit); got != want {
		t.Fatalf("git apply or am does not make the change itself (the case is wrong):\n%s\nwant\n%s\npatch:\n%s", got, want, patch)
	}
	wantTree := strings.TrimSpace(sh(t, byGit, "git write-tree"))

	o, out, errw := options(byPair, "")
	o.Patch, o.Yes, o.Mail, o.Paths.Strip = patchFile, true, am, strip
	if err := Run(context.Background(), o); err != nil {
		t.Fatalf("pair apply --yes: %v\n%s%s\npatch:\n%s", err, out, errw, patch)
	}
	if got := snapshot(t, byPair); got != want {
		t.Errorf("pair apply made\n%s\ngit apply made\n%s\npatch:\n%s", got, want, patch)
	}
	if got := strings.TrimSpace(sh(t, byPair, "git rev-parse HEAD^{tree}")); got != wantTree {
		t.Errorf("pair's commit has tree %s, git's change %s:\n%s", got, wantTree, sh(t, byPair, "git diff --stat HEAD "+wantTree))
	}
	if got := sh(t, byPair, "git status --porcelain"); got != "" {
		t.Errorf("after pair's commit, git status says\n%s", got)
	}
	if am {
		// As many commits as git am's, each with the same tree, author,
		// date and subject.
		format := "git log --date=raw '--format=%T %an <%ae> %ad %s' base..HEAD"
		if got, want := sh(t, byPair, format), sh(t, byGit, format); got != want {
			t.Errorf("pair am's commits\n%s\ngit am's\n%s\npatch:\n%s", got, want, patch)
		}
	}
	return patch
}

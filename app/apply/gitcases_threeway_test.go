package apply

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// t4108's repository: one and two hold 1 to 7 in the first commit; the
// patch is side's change of line 5 of both (five); main then changes
// lines 2 and 6 of one and line 2 of two, which the after script
// commits.
const (
	t4108Setup = "printf '%s\\n' 1 2 3 4 5 6 7 > one; cp one two\n"
	t4108Side  = "printf '%s\\n' 1 2 3 4 five 6 7 > one; cp one two; git diff\n"
	t4108Main  = "printf '%s\\n' 1 two 3 4 5 six 7 > one; printf '%s\\n' 1 two 3 4 5 6 7 > two; git commit -qam main\n"
	// t4108Adder is t4108's add/add repository: the patch creates three
	// and four from nothing, while the after script commits both with
	// other content in four.
	t4108Another = "printf '%s\\n' 1 2 3 4 5 6 7 > three; printf '%s\\n' 1 2 3 four 5 6 7 > four; git add three four; git diff --cached\n"
	t4108Adder   = "printf '%s\\n' 1 2 3 4 5 6 7 > three; cp three four; git add three four; git commit -qm adder\n"
	// binaryPNG writes bin.png, a file with NUL bytes, old or new.
	binaryOld = "printf 'PNG\\000\\001\\002 old picture\\n' > bin.png\n"
	binaryNew = "printf 'PNG\\000\\003\\004 new picture, longer\\n' > bin.png\n"
	// refresh updates the stat data of the index, which the copies of
	// the repository change: git apply --index compares them first.
	refresh = "git update-index -q --refresh\n"
)

// applyCasesThreeWay are the git apply --3way calls of git's t4108 that
// pair can express, and the same patches without --index and with
// --cached, since git's --3way implies --index. Where git leaves a
// conflict, --yes refuses it, so both fail here: TestThreeWayConflictsAsGit
// approves the conflicts of these cases and compares what is left.
func applyCasesThreeWay() []applyCase {
	return append(append(applyCasesConverted(), applyCasesStagedKinds()...), []applyCase{
		{name: "t4108 without --3way: refused", setup: t4108Setup, makePatch: t4108Side, after: t4108Main, args: []string{"--index"}},
		{name: "t4108 --3way --index, a conflict", setup: t4108Setup, makePatch: t4108Side, after: t4108Main, args: []string{"--index", "--3way"}},
		{name: "t4108 -3, a conflict", setup: t4108Setup, makePatch: t4108Side, after: t4108Main, args: []string{"-3"}},
		{name: "t4108 --3way --index, merge.conflictStyle diff3", setup: t4108Setup, makePatch: t4108Side,
			after: t4108Main + "git config merge.conflictStyle diff3\n", args: []string{"--index", "--3way"}},
		{name: "t4108 --3way --index, add/add", makePatch: t4108Another, after: t4108Adder, args: []string{"--index", "--3way"}},
		{name: "t4108 -3, add/add", makePatch: t4108Another, after: t4108Adder, args: []string{"-3"}},
		{name: "t4108 --3way --cached, add/add", makePatch: t4108Another, after: t4108Adder, args: []string{"--cached", "--3way"}},
		{name: "t4108 --3way --index, add/add with a dirty working tree: refused", makePatch: t4108Another,
			after: t4108Adder + "echo >> four\n", args: []string{"--index", "--3way"}},
		{name: "t4108 -3, add/add, not in the index: refused", makePatch: t4108Another,
			after: t4108Adder + "git rm -q --cached four\n", args: []string{"-3"}},
		{name: "t4108 -3, add/add of the same content", makePatch: "printf '%s\\n' 1 2 3 4 5 6 7 > three; git add three; git diff --cached\n",
			after: "printf '%s\\n' 1 2 3 4 5 6 7 > three; git add three; git commit -qm adder\n", args: []string{"-3"}},
		{name: "t4108 --3way --index, ambiguous repeating file", setup: "printf '%s\\n' 1 2 1 2 1 2 1 2 1 2 1 > one_two_repeat\n",
			makePatch: "printf '%s\\n' 1 2 1 2 1 2 1 2 one 2 1 > one_two_repeat; git diff\n",
			after:     "printf '%s\\n' 1 2 1 2 1 2 one 2 1 2 one > one_two_repeat; git commit -qam around\n", args: []string{"--index", "--3way"}},
		{name: "t4108 --3way --cached, clean", setup: t4108Setup, makePatch: t4108Side, after: refresh, args: []string{"--cached", "--3way"}},
		{name: "t4108 --3way --cached, a conflict", setup: t4108Setup, makePatch: t4108Side, after: t4108Main, args: []string{"--cached", "--3way"}},
		{name: "t4108 --3way --cached, clean over main's change", setup: t4108Setup, makePatch: t4108Side,
			after: "printf '%s\\n' 1 TWO 3 4 5 6 7 > one; git commit -qam main\n", args: []string{"--cached", "--3way"}},
		// Beyond t4108: the conflict styles on add/add, and conflicts
		// whose two versions have lines in common, which git's merge
		// leaves out of the markers.
		{name: "add/add -3, merge.conflictStyle diff3", makePatch: t4108Another, after: t4108Adder + "git config merge.conflictStyle diff3\n", args: []string{"-3"}},
		{name: "add/add -3, merge.conflictStyle zdiff3", makePatch: t4108Another, after: t4108Adder + "git config merge.conflictStyle zdiff3\n", args: []string{"-3"}},
		{name: "add/add -3, two differences apart", makePatch: "printf '%s\\n' a B c d e f G h > f; git add f; git diff --cached\n",
			after: "printf '%s\\n' a b c d e f g h > f; git add f; git commit -qm ours\n", args: []string{"-3"}},
		{name: "add/add -3, the patch adds lines at the end", makePatch: "printf '%s\\n' a b c d e > f; git add f; git diff --cached\n",
			after: "printf '%s\\n' a b c > f; git add f; git commit -qm ours\n", args: []string{"-3"}},
		{name: "-3, both change lines with common lines between", setup: "printf '%s\\n' 1 2 3 4 5 6 7 8 9 > f\n",
			makePatch: "printf '%s\\n' 1 2 3 A 5 B 7 8 9 > f; git diff\n",
			after:     "printf '%s\\n' 1 2 3 a 5 b 7 8 9 > f; git commit -qam ours\n", args: []string{"-3"}},
		{name: "-3, merge.conflictStyle zdiff3", setup: "printf '%s\\n' 1 2 3 4 5 6 7 8 9 > f\n",
			makePatch: "printf '%s\\n' 1 2 3 A x B 7 8 9 > f; git diff\n",
			after:     "printf '%s\\n' 1 2 3 a x b 7 8 9 > f; git commit -qam ours; git config merge.conflictStyle zdiff3\n", args: []string{"-3"}},
		{name: "t4108 binary patch with --3way --index", setup: binaryOld, makePatch: binaryNew + "git diff --binary\n", after: refresh, args: []string{"--3way", "--index"}},
		{name: "t4108 full-index binary patch with --3way --index", setup: binaryOld, makePatch: binaryNew + "git diff --full-index\n",
			after: binaryNew + "git hash-object -w bin.png >/dev/null; git checkout -q bin.png\n", args: []string{"--3way", "--index"}},
		{name: "t4108 delete then create with --3way", setup: "echo 1 > delnew\n",
			makePatch: "git rm -q delnew; git diff --cached; printf 'diff --git a/delnew b/delnew\\nnew file mode 100644\\nindex 0000000..0cfbf08\\n--- /dev/null\\n+++ b/delnew\\n@@ -0,0 +1 @@\\n+2\\n'\n",
			after:     refresh, args: []string{"--3way"}},
	}...)
}

// applyCasesConverted are --index and --cached on files git converts
// when it reads them (core.autocrlf, the text and eol attributes): the
// working file matches the index when git add would store it as the
// index has it.
func applyCasesConverted() []applyCase {
	crlf := "printf 'a\\r\\nb\\r\\nc\\r\\nd\\r\\ne\\r\\n' > f\n"
	change := "printf 'a\\r\\nb\\r\\nC\\r\\nd\\r\\ne\\r\\n' > f; git diff\n"
	autocrlf := "git config core.autocrlf true\n"
	attrs := "echo 'f text eol=crlf' > .gitattributes\n"
	var cs []applyCase
	for _, conv := range []struct{ name, setup string }{{"core.autocrlf", autocrlf}, {".gitattributes text eol=crlf", attrs}} {
		for _, args := range [][]string{{"--index"}, {"--cached"}, {"-3"}, {"--check", "--index"}} {
			cs = append(cs, applyCase{name: conv.name + ", " + strings.Join(args, " "), setup: conv.setup + crlf, makePatch: change, after: refresh, args: args})
		}
		cs = append(cs,
			applyCase{name: conv.name + ", --index, a file that differs: refused", setup: conv.setup + crlf, makePatch: change,
				after: refresh + "printf 'a\\r\\nb\\r\\nc\\r\\nd\\r\\nE\\r\\n' > f\n", args: []string{"--index"}},
			applyCase{name: conv.name + ", --index, LF where git writes CRLF", setup: conv.setup + crlf, makePatch: change,
				after: refresh + "printf 'a\\nb\\nc\\nd\\ne\\n' > f; git update-index -q --refresh || true\n", args: []string{"--index"}})
	}
	return cs
}

// applyCasesStagedKinds are --index and --cached on links, binary files
// and submodule pointers: the blob in the index, a link's target as its
// blob, a submodule as its gitlink entry.
func applyCasesStagedKinds() []applyCase {
	gitlink := func(p string, c byte) string {
		return fmt.Sprintf("git update-index --add --cacheinfo 160000,%s,%s\n", strings.Repeat(string(c), 40), p)
	}
	kinds := []struct{ name, setup, change string }{
		{"link retargeted", "ln -s one link\n", "rm link; ln -s two link; git add -A; git diff --cached\n"},
		{"link created", "echo keep > keep\n", "ln -s there link; git add -A; git diff --cached\n"},
		{"link deleted", "ln -s one link\n", "git rm -q link; git diff --cached\n"},
		{"file becomes a link", "echo hello > f\n", "rm f; ln -s target f; git add -A; git diff --cached\n"},
		{"link becomes a file", "ln -s target f\n", "rm f; echo hello > f; git add -A; git diff --cached\n"},
		{"binary changed", binaryOld, binaryNew + "git add -A; git diff --cached --binary\n"},
		{"binary created", "echo keep > keep\n", binaryNew + "git add -A; git diff --cached --binary\n"},
		{"binary deleted", binaryOld, "git rm -q bin.png; git diff --cached --binary\n"},
		{"submodule moved", "echo keep > keep; " + gitlink("sub", '1'), gitlink("sub", '2') + "git diff --cached\n"},
		{"submodule added", "echo keep > keep\n", gitlink("sub", '2') + "git diff --cached\n"},
		{"submodule removed", "echo keep > keep; " + gitlink("sub", '1'), "git update-index --force-remove sub; git diff --cached\n"},
	}
	var cs []applyCase
	for _, k := range kinds {
		for _, args := range [][]string{{"--cached"}, {"--index"}} {
			cs = append(cs, applyCase{name: k.name + ", " + args[0], setup: k.setup, makePatch: k.change, after: refresh, args: args})
		}
	}
	// The index differs from the working tree: --cached reads the index.
	cs = append(cs,
		applyCase{name: "link retargeted, --cached, the working tree's link elsewhere", setup: "ln -s one link\n",
			makePatch: "rm link; ln -s two link; git add -A; git diff --cached\n", after: "rm link; ln -s other link\n", args: []string{"--cached"}},
		applyCase{name: "binary changed, --cached, the working file otherwise", setup: binaryOld,
			makePatch: binaryNew + "git add -A; git diff --cached --binary\n", after: "echo text > bin.png\n", args: []string{"--cached"}},
		applyCase{name: "link retargeted, --index, the working tree's link elsewhere: refused", setup: "ln -s one link\n",
			makePatch: "rm link; ln -s two link; git add -A; git diff --cached\n", after: "rm link; ln -s other link\n", args: []string{"--index"}},
		// --cached looks for the patch's paths in the index only.
		applyCase{name: "--cached, a file gone from the working tree", setup: "echo a > f\n",
			makePatch: "echo b > f; git diff\n", after: "rm f\n", args: []string{"--cached"}},
		applyCase{name: "--cached, a file created over an untracked one", setup: "echo keep > keep\n",
			makePatch: "echo new > new; git add -N new; git diff\n", after: "echo untracked > new\n", args: []string{"--cached"}},
		applyCase{name: "--cached, a file created where the working tree has a folder", setup: "echo keep > keep\n",
			makePatch: "echo new > new; git add -N new; git diff\n", after: "mkdir new; echo untracked > new/x\n", args: []string{"--cached"}},
		applyCase{name: "--index, a file created over an untracked one: refused", setup: "echo keep > keep\n",
			makePatch: "echo new > new; git add -N new; git diff\n", after: "echo untracked > new\n", args: []string{"--index"}},
		applyCase{name: "--cached, a file the index lacks: refused", setup: "echo keep > keep\n",
			patch: "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n", after: "echo a > f\n", args: []string{"--cached"}},
	)
	return cs
}

// conflictCases names the cases of applyCasesThreeWay where git leaves
// a conflict, with the decisions that approve every hunk.
var conflictCases = map[string]string{
	"t4108 --3way --index, a conflict":                "yy",
	"t4108 -3, a conflict":                            "yy",
	"t4108 --3way --index, merge.conflictStyle diff3": "yy",
	"t4108 --3way --index, add/add":                   "yy",
	"t4108 -3, add/add":                               "yy",
	"t4108 --3way --cached, add/add":                  "yy",
	"t4108 --3way --cached, a conflict":               "yy",
	"add/add -3, merge.conflictStyle diff3":           "yy",
	"add/add -3, merge.conflictStyle zdiff3":          "yy",
	"add/add -3, two differences apart":               "y",
	"add/add -3, the patch adds lines at the end":     "y",
	"-3, both change lines with common lines between": "y",
	"-3, merge.conflictStyle zdiff3":                  "y",
}

// TestThreeWayConflictsAsGit applies the cases where git apply --3way
// leaves conflicts, with pair's conflict hunks approved: both fail, and
// leave the same files, conflict markers and unmerged index entries.
func TestThreeWayConflictsAsGit(t *testing.T) {
	t.Parallel()
	cs := applyCasesThreeWay()
	found := 0
	for _, c := range cs {
		decisions, ok := conflictCases[c.name]
		if !ok {
			continue
		}
		found++
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			root, made, byGit, byPair := caseRepos(t, func(dir string) { sh(t, dir, c.setup) })
			patch := sh(t, made, c.makePatch)
			sh(t, byGit, c.after)
			sh(t, byPair, c.after)
			file := filepath.Join(root, "case.patch")
			if err := os.WriteFile(file, []byte(patch), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("git", append(append([]string{"apply"}, c.args...), file)...)
			cmd.Dir = byGit
			cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
			gitOut, gitErr := cmd.CombinedOutput()
			if gitErr == nil || !strings.Contains(string(gitOut), "with conflicts") {
				t.Fatalf("git apply %s leaves no conflict: %v\n%s", strings.Join(c.args, " "), gitErr, gitOut)
			}
			o, out, errw := options(byPair, "")
			o.Patch, o.Decisions, o.NoCommit = file, decisions, true
			applyArgs(t, c.args, &o)
			err := Run(context.Background(), o)
			if err == nil || !strings.Contains(err.Error(), "conflicts in") {
				t.Fatalf("pair apply: %v; want the conflicts left\n%s%s", err, out, errw)
			}
			if g, p := snapshot(t, byGit), snapshot(t, byPair); g != p {
				t.Errorf("pair made\n%s\ngit apply made\n%s\npatch:\n%s\npair said:\n%s%s", p, g, patch, out, errw)
			}
		})
	}
	if found != len(conflictCases) {
		t.Errorf("%d of the %d conflict cases are in applyCasesThreeWay", found, len(conflictCases))
	}
}

package apply

import (
	"fmt"
	"testing"
)

// Everyday patches: the shapes people bring to pair apply, each made by
// the real tool (GNU diff, git diff, git format-patch; Subversion's and
// Mercurial's headers written as those tools write them) in a scratch
// copy of a small project, and applied with git apply and pair apply
// --yes --no-commit, each to its own copy (see runApplyCase). A
// traditional diff is applied with GNU patch as well (patchArgs), which
// must do what git apply does, so that the case says what both take for
// right.

// project is the everyday cases' first commit: a C file in src, a text
// file in docs, a README, a file with spaces in its name, a binary file
// and an executable script.
const project = "mkdir -p src docs; for i in $(seq 1 14); do echo \"line $i of main\"; done > src/main.c; " +
	"for i in $(seq 1 9); do echo \"guide $i\"; done > docs/guide.txt; printf 'Read me\\nfirst\\n' > README; " +
	"for i in $(seq 1 5); do echo \"spaced $i\"; done > 'docs/my notes.txt'; printf 'bin\\000ary\\001\\n' > logo.bin; " +
	"printf '#!/bin/sh\\necho hi\\n' > run.sh; chmod +x run.sh\n"

// edits are the changes most cases make: a line of src/main.c changed,
// one of docs/guide.txt removed, one added after it.
const edits = "sed -i 's/^line 5 of main$/LINE FIVE of main/' src/main.c; sed -i '/^guide 3$/d; s/^guide 7$/guide 7\\nguide 7b/' docs/guide.txt; "

// trees copies HEAD's files to ../old and ../new, makes change in ../new,
// and leaves the shell in the folder that holds both, for diff.
func trees(change string) string {
	return "rm -rf ../old ../new; mkdir ../old; git archive HEAD | tar -x -C ../old; cp -a ../old ../new; (cd ../new; " + change + "); cd ..; "
}

// differ runs a diff command that exits 1 when the files differ.
func differ(cmd string) string { return cmd + " || test $? = 1" }

// outside is why pair applies a git diff's sections outside the current
// directory (see apply_git_options.txtar).
const outside = "pair applies a git diff's files outside the current directory, named from the top; git apply run in a subdirectory skips them and succeeds"

// crlfPatch is why pair reads a patch saved with CRLF line ends as GNU
// patch does.
const crlfPatch = "pair reads a patch whose every line ends in CRLF as written with LF, as GNU patch does; git apply finds no file it fits"

// crlf turns every line end of the patch into CRLF, as some editors save
// a patch.
const crlf = " | sed 's/$/\\r/'"

func everydayCases() []applyCase {
	gitChange := edits + "printf 'new\\nfile\\n' > docs/new.txt; git rm -q README; git add -A; "
	return []applyCase{
		// diff -ruN of two copies of the project.
		{name: "diff -ruN, two files changed", makePatch: trees(edits) + differ("diff -ruN old new"), patchArgs: "-p1"},
		{name: "diff -ruN, a file created (epoch date)", makePatch: trees("printf 'a\\nb\\n' > docs/new.txt") + differ("diff -ruN old new"), patchArgs: "-p1"},
		{name: "diff -ruN, a file deleted (epoch date)", makePatch: trees("rm docs/guide.txt") + differ("diff -ruN old new"), patchArgs: "-p1"},
		{name: "diff -ruN, created, changed and deleted, east of Greenwich", makePatch: trees(edits+"rm README; mkdir -p lib; echo util > lib/util.c") + differ("TZ=Asia/Tokyo diff -ruN old new"), patchArgs: "-p1"},
		{name: "diff -ruN, created and deleted, west of Greenwich", makePatch: trees("rm README; echo hello > docs/hello.txt") + differ("TZ=America/New_York diff -ruN old new"), patchArgs: "-p1"},
		{name: "diff -ruN, a binary file differs between sections", makePatch: trees(edits+"printf 'bin\\000ARY\\n' > logo.bin") + differ("diff -ruN old new"), patchArgs: "-p1"},
		{name: "diff -ru, Only in lines between sections", makePatch: trees(edits+"rm README; echo x > docs/extra.txt") + differ("diff -ru old new"), patchArgs: "-p1"},
		{name: "diff -ruN, a name with spaces", makePatch: trees("sed -i 's/spaced 3/SPACED 3/' 'docs/my notes.txt'") + differ("diff -ruN old new"), patchArgs: "-p1"},
		{name: "diff -ruN, a new file whose name has spaces", makePatch: trees("echo hi > 'docs/new notes.txt'") + differ("diff -ruN old new"), patchArgs: "-p1"},
		{name: "diff -ruN, a deleted file whose name has spaces", makePatch: trees("rm 'docs/my notes.txt'") + differ("diff -ruN old new"), patchArgs: "-p1"},
		{name: "diff -Naur, project.orig and project", makePatch: "rm -rf ../project.orig ../project; mkdir ../project.orig; git archive HEAD | tar -x -C ../project.orig; cp -a ../project.orig ../project; (cd ../project; " + edits + "); cd ..; " + differ("diff -Naur project.orig project"), patchArgs: "-p1"},
		{name: "diff -ruNp, function names after @@", makePatch: trees(edits) + differ("diff -ruNp old new"), patchArgs: "-p1"},
		{name: "diff -ruN -U1", makePatch: trees(edits) + differ("diff -ruN -U1 old new"), patchArgs: "-p1"},
		{name: "diff -ruN, applied with -p1 given", args: []string{"-p1"}, makePatch: trees(edits) + differ("diff -ruN old new"), patchArgs: "-p1"},
		{name: "diff -ruN of a/proj and b/proj, -p2", args: []string{"-p2"}, makePatch: "rm -rf ../a ../b; mkdir -p ../a/proj; git archive HEAD | tar -x -C ../a/proj; cp -a ../a ../b; (cd ../b/proj; " + edits + "); cd ..; " + differ("diff -ruN a/proj b/proj"), patchArgs: "-p2"},

		// diff -u of one file beside its copy.
		{name: "diff -u f.orig f at the top", makePatch: "cp README README.orig; echo more >> README; " + differ("diff -u README.orig README"), patchArgs: "-p0"},
		{name: "diff -u f.orig f, -p0 given", args: []string{"-p0"}, makePatch: "cp README README.orig; echo more >> README; " + differ("diff -u README.orig README"), patchArgs: "-p0"},
		{name: "diff -u f.orig f in a subdirectory, applied there", dir: "src", makePatch: "cd src; cp main.c main.c.orig; sed -i 's/line 9 /LINE 9 /' main.c; " + differ("diff -u main.c.orig main.c"), patchArgs: "-p0"},
		{name: "diff -u src/f.orig src/f from the top, -p0", args: []string{"-p0"}, makePatch: "cp src/main.c src/main.c.orig; sed -i 's/line 9 /LINE 9 /' src/main.c; " + differ("diff -u src/main.c.orig src/main.c"), patchArgs: "-p0"},
		{name: "diff -u f.orig f made in a subdirectory, -p0 --directory", args: []string{"-p0", "--directory=src"}, makePatch: "cd src; cp main.c main.c.orig; sed -i 's/line 9 /LINE 9 /' main.c; " + differ("diff -u main.c.orig main.c"), patchArgs: "-p0 -d src"},
		{name: "diff -u with --label a/ and b/", makePatch: "cp src/main.c /tmp/$$.orig; sed -i 's/line 2 /LINE 2 /' src/main.c; " + differ("diff -u --label a/src/main.c --label b/src/main.c /tmp/$$.orig src/main.c") + "; rm -f /tmp/$$.orig", patchArgs: "-p1"},
		{name: "diff -u with --label, names alone", makePatch: "cp README ../R; echo more >> README; " + differ("diff -u --label README --label README ../R README"), patchArgs: "-p0"},
		{name: "diff -u of a name with spaces", makePatch: "cd docs; cp 'my notes.txt' 'my notes.txt.orig'; sed -i 's/spaced 2/SPACED 2/' 'my notes.txt'; " + differ("diff -u 'my notes.txt.orig' 'my notes.txt'"), dir: "docs", patchArgs: "-p0"},
		{name: "diff -u, no final newline either side", setup: "printf 'a\\nb\\nc' > f", makePatch: "cp f f.orig; printf 'a\\nB\\nc' > f; " + differ("diff -u f.orig f"), patchArgs: "-p0"},
		{name: "diff -u, the final newline added", setup: "printf 'a\\nb\\nc' > f", makePatch: "cp f f.orig; printf 'a\\nb\\nc\\n' > f; " + differ("diff -u f.orig f"), patchArgs: "-p0"},
		{name: "diff -u, the final newline taken away", setup: "printf 'a\\nb\\nc\\n' > f", makePatch: "cp f f.orig; printf 'a\\nb\\nc' > f; " + differ("diff -u f.orig f"), patchArgs: "-p0"},
		{name: "diff -u of a CRLF file", setup: "printf 'one\\r\\ntwo\\r\\nthree\\r\\n' > w.txt", makePatch: "cp w.txt w.txt.orig; printf 'one\\r\\n2\\r\\nthree\\r\\nfour\\r\\n' > w.txt; " + differ("diff -u w.txt.orig w.txt"), patchArgs: "-p0"},
		{name: "diff -u /dev/null, a new file", makePatch: "echo fresh > fresh.txt; " + differ("diff -u /dev/null fresh.txt"), patchArgs: "-p0"},
		{name: "diff -uN of a missing file, created (epoch date)", makePatch: "echo fresh > fresh.txt; " + differ("diff -uN nothing.txt fresh.txt"), patchArgs: "-p0"},
		{name: "diff -uN, a new file named on both sides (epoch date)", makePatch: "echo fresh > fresh.txt; { " + differ("diff -uN nothing.txt fresh.txt") + "; } | sed 's/^--- nothing.txt/--- fresh.txt/'", patchArgs: "-p0"},

		// git's own patches.
		{name: "git diff", makePatch: gitChange + "git diff --cached", patchArgs: "-p1"},
		{name: "git diff --no-prefix, -p0", args: []string{"-p0"}, makePatch: gitChange + "git diff --cached --no-prefix", patchArgs: "-p0"},
		{name: "git diff --src-prefix/--dst-prefix", makePatch: gitChange + "git diff --cached --src-prefix=old/ --dst-prefix=new/", patchArgs: "-p1"},
		{name: "git diff --src-prefix/--dst-prefix --binary, a mode and a binary file", makePatch: "chmod -x run.sh; printf 'bin\\000ARY\\002\\n' > logo.bin; printf '\\000new' > new.bin; git add -A; git diff --cached --binary --src-prefix=old/ --dst-prefix=new/"},
		{name: "git diff --binary of a binary file", makePatch: "printf 'bin\\000ARY\\002\\n' > logo.bin; git diff --binary"},
		{name: "git diff of a binary file without --binary: refused", makePatch: "printf 'bin\\000ARY\\002\\n' > logo.bin; git diff"},
		{name: "git diff -M, a rename with an edit and the mode kept", makePatch: "git mv run.sh go.sh; echo 'echo bye' >> go.sh; git add -A; git diff --cached -M"},
		{name: "git diff, a name with spaces", makePatch: "sed -i 's/spaced 4/SPACED 4/' 'docs/my notes.txt'; git diff"},
		{name: "git diff, a quoted non-ASCII name", setup: project + "echo caf > 'café.txt'", makePatch: "echo cafe >> 'café.txt'; git diff"},
		{name: "git diff made in a subdirectory, applied there", dir: "src", makePatch: "cd src; sed -i 's/line 3 /LINE 3 /' main.c; git diff"},
		{name: "git diff of two folders, applied in one", dir: "src", makePatch: edits + "git diff", differs: outside},
		{name: "git diff of a folder, applied in another", dir: "docs", makePatch: "sed -i 's/line 3 /LINE 3 /' src/main.c; git diff", differs: outside},
		{name: "diff -ruN of copies of a subdirectory, applied there", dir: "src", makePatch: "rm -rf ../old ../new; mkdir ../old; git archive HEAD:src | tar -x -C ../old; cp -a ../old ../new; (cd ../new; sed -i 's/line 3 /LINE 3 /' main.c); cd ..; " + differ("diff -ruN old new"), patchArgs: "-p1"},
		{name: "git diff --relative made in a subdirectory, applied there", dir: "src", makePatch: "cd src; sed -i 's/line 3 /LINE 3 /' main.c; git diff --relative", differs: outside},
		{name: "git diff, a new executable file", makePatch: "printf '#!/bin/sh\\n' > new.sh; chmod +x new.sh; git add new.sh; git diff --cached"},
		{name: "git diff, a new empty file", makePatch: ": > empty.txt; git add empty.txt; git diff --cached"},
		{name: "git show, the commit message before the diff", makePatch: gitChange + "git commit -q -m 'Change things' -m 'A body.'; git show"},
		{name: "git format-patch, one mail", makePatch: gitChange + "git commit -q -m 'Change things' -m 'A body.'; git format-patch --stdout -1"},
		{name: "git format-patch, two mails of one file", makePatch: "sed -i 's/line 2 /LINE 2 /' src/main.c; git commit -qam one; sed -i 's/LINE 2 /Line two /; s/line 12 /LINE 12 /' src/main.c; git commit -qam two; git format-patch --stdout -2"},
		{name: "a mail's text before the diff", makePatch: "printf 'Hi,\\n\\nthis fixes the guide. Please apply.\\n\\nThanks\\n\\n'; " + gitChange + "git diff --cached"},
		{name: "a signature after the last hunk", makePatch: gitChange + "git diff --cached; printf -- '-- \\n2.39.5\\n\\n'"},
		{name: "git diff with CRLF line ends throughout", makePatch: gitChange + "git diff --cached" + crlf, patchArgs: "-p1", differs: crlfPatch},
		{name: "diff -ruN with CRLF line ends throughout", makePatch: trees(edits) + "{ " + differ("diff -ruN old new") + "; }" + crlf, patchArgs: "-p1", differs: crlfPatch},

		{name: "git diff of a CRLF file", setup: project + "printf 'one\\r\\ntwo\\r\\nthree\\r\\n' > w.txt", makePatch: "printf 'one\\r\\n2\\r\\nthree\\r\\nfour\\r\\n' > w.txt; git diff"},
		{name: "diff -u of a CRLF file, saved with CRLF throughout", setup: "printf 'one\\r\\ntwo\\r\\nthree\\r\\n' > w.txt",
			makePatch: "cp w.txt w.txt.orig; printf 'one\\r\\n2\\r\\nthree\\r\\n' > w.txt; { " + differ("diff -u w.txt.orig w.txt") + "; } | sed 's/\\([^\\r]\\)$/\\1\\r/'"},
		{name: "diff -ruN, a file emptied but kept", makePatch: trees(": > README") + differ("diff -ruN old new"), patchArgs: "-p1"},
		{name: "git diff --stat --patch", makePatch: gitChange + "git diff --cached --stat --patch"},
		{name: "git log -p, two commits", makePatch: "sed -i 's/line 2 /LINE 2 /' src/main.c; git commit -qam one; sed -i 's/line 12 /LINE 12 /' src/main.c; git commit -qam two; git log -p --reverse -2"},
		{name: "git format-patch --attach", makePatch: gitChange + "git commit -q -m 'Change things'; git format-patch --attach --stdout -1"},
		{name: "git diff --full-index", makePatch: gitChange + "git diff --cached --full-index"},
		{name: "git diff, a symbolic link created", makePatch: "ln -s src/main.c main-link; git add main-link; git diff --cached"},
		{name: "git diff, the last line without a newline", makePatch: "printf 'Read me\\nsecond' > README; git diff"},
		{name: "git diff --color=always: refused", makePatch: edits + "git diff --color=always"},
		{name: "quilt, Index: lines and proj.orig/ names", makePatch: "rm -rf ../proj.orig ../proj; mkdir ../proj.orig; git archive HEAD | tar -x -C ../proj.orig; cp -a ../proj.orig ../proj; (cd ../proj; " + edits + "); cd ..; " +
			"for f in src/main.c docs/guide.txt; do printf 'Index: proj/%s\\n===================================================================\\n' $f; " + differ("diff -u proj.orig/$f proj/$f") + "; done", patchArgs: "-p1"},
		{name: "cvs diff, RCS lines", args: []string{"-p0"}, makePatch: "cp src/main.c ../cvs.orig; sed -i 's/line 7 /LINE 7 /' src/main.c; printf 'Index: src/main.c\\n===================================================================\\nRCS file: /cvs/proj/src/main.c,v\\nretrieving revision 1.4\\ndiff -u -r1.4 main.c\\n'; " +
			differ("diff -u --label 'src/main.c\t3 Dec 2026 10:00:00 -0000\t1.4' --label 'src/main.c\t3 Dec 2026 11:00:00 -0000' ../cvs.orig src/main.c"), patchArgs: "-p0"},
		{name: "svn diff, a property change after the hunks", args: []string{"-p0"}, makePatch: svnDiff("sed -i 's/line 7 /LINE 7 /' src/main.c", "src/main.c", "(revision 12)", "(working copy)") +
			"; printf '\\nProperty changes on: src/main.c\\n___________________________________________________________________\\nAdded: svn:eol-style\\n## -0,0 +1 ##\\n+native\\n\\\\ No newline at end of property\\n'", patchArgs: "-p0"},

		{name: "diff -u f f.new", makePatch: "cp README README.new; echo more >> README.new; " + differ("diff -u README README.new"), patchArgs: "-p0"},
		{name: "diff -u f~ f, an editor's backup", makePatch: "cp src/main.c src/main.c~; sed -i 's/line 4 /LINE 4 /' src/main.c; " + differ("diff -u src/main.c~ src/main.c"), args: []string{"-p0"}, patchArgs: "-p0"},
		{name: "hg diff --git, a rename of an executable without index lines", makePatch: "git mv run.sh go.sh; git diff --cached -M | sed '/^index /d'"},
		{name: "hg diff --git, a new executable without index lines", makePatch: "printf '#!/bin/sh\\n' > new.sh; chmod +x new.sh; git add new.sh; git diff --cached | sed '/^index /d'"},
		{name: "hg diff --git, a copy with an edit without index lines", makePatch: "cp src/main.c src/copy.c; sed -i 's/line 4 /LINE 4 /' src/copy.c; git add -A; git diff --cached -C -C | sed '/^index /d'"},

		{name: "diff -ruN, a non-ASCII name", setup: project + "echo caf > 'docs/café.txt'", makePatch: trees("echo cafe >> 'docs/café.txt'") + differ("diff -ruN old new"), patchArgs: "-p1"},
		{name: "git diff, a non-ASCII name unquoted (core.quotepath=false)", setup: project + "echo caf > 'café.txt'", makePatch: "echo cafe >> 'café.txt'; git -c core.quotepath=false diff"},
		{name: "git diff --no-index of two folders, -p2", args: []string{"-p2"}, makePatch: trees(edits+"rm README; echo x > docs/extra.txt") + "git diff --no-index old new || test $? = 1"},
		{name: "git diff --no-index of two folders", makePatch: trees(edits) + "git diff --no-index old new || test $? = 1"},
		{name: "git diff, the patch's last newline lost", makePatch: edits + "git diff | head -c -1",
			differs: "pair reads a patch whose last line lost its newline (a model's reply, a copy and paste); git apply calls it corrupt"},

		{name: "diff -u, timestamps after spaces", makePatch: "cp README ../R; echo more >> README; { " + differ("diff -u ../R README") + "; } | sed -e '1s|^--- [^\t]*\t|--- a/README   |' -e '2s|^+++ [^\t]*\t|+++ b/README   |'", patchArgs: "-p1"},

		// Subversion and Mercurial headers.
		{name: "svn diff, Index: lines", args: []string{"-p0"}, makePatch: svnDiff("sed -i 's/line 7 /LINE 7 /' src/main.c", "src/main.c", "(revision 12)", "(working copy)"), patchArgs: "-p0"},
		{name: "svn diff, a new file", args: []string{"-p0"}, makePatch: "echo added > added.txt; printf 'Index: added.txt\\n===================================================================\\n'; " +
			differ("diff -u --label 'added.txt\t(nonexistent)' --label 'added.txt\t(working copy)' /dev/null added.txt"), patchArgs: "-p0"},
		{name: "svn diff, a deleted file", args: []string{"-p0"}, makePatch: "printf 'Index: README\\n===================================================================\\n'; cp README ../R; rm README; " +
			differ("diff -u --label 'README\t(revision 12)' --label 'README\t(nonexistent)' ../R /dev/null"), patchArgs: "-p0"},
		{name: "hg diff", makePatch: hgDiff("sed -i 's/line 7 /LINE 7 /' src/main.c", "src/main.c"), patchArgs: "-p1"},
		{name: "hg diff, a new file", makePatch: "echo added > added.txt; echo 'diff -r 4f1c2ab9e07d added.txt'; " +
			differ("diff -u --label '/dev/null\tThu Jan 01 00:00:00 1970 +0000' --label 'b/added.txt\tWed Dec 02 10:00:00 2026 +0000' /dev/null added.txt"), patchArgs: "-p1"},
		{name: "hg export, its header before the diff", makePatch: "printf '# HG changeset patch\\n# User A U Thor <author@example.com>\\n# Date 1764669600 0\\n#      Wed Dec 02 10:00:00 2026 +0000\\n# Node ID 9d2a1c5e3b7f4a6d8c0e2f1b3a5d7c9e1f3b5a7d\\n# Parent  4f1c2ab9e07d5c3b1a9f7e5d3c1b9a7f5e3d1c9b\\nChange main\\n\\n'; " +
			hgDiff("sed -i 's/line 7 /LINE 7 /' src/main.c", "src/main.c"), patchArgs: "-p1"},
	}
}

// svnDiff makes change and writes the file's diff as svn diff does: an
// Index: line, a rule, and names with the revision after a tab.
func svnDiff(change, name, oldRev, newRev string) string {
	return fmt.Sprintf("cp %[2]s ../svn.orig; %[1]s; printf 'Index: %[2]s\\n===================================================================\\n'; ", change, name) +
		differ(fmt.Sprintf("diff -u --label '%[1]s\t%[2]s' --label '%[1]s\t%[3]s' ../svn.orig %[1]s", name, oldRev, newRev))
}

// hgDiff makes change and writes the file's diff as hg diff does: a
// "diff -r <node> name" line, and a/ and b/ names with dates after a tab.
func hgDiff(change, name string) string {
	return fmt.Sprintf("cp %[2]s ../hg.orig; %[1]s; echo 'diff -r 4f1c2ab9e07d %[2]s'; ", change, name) +
		differ(fmt.Sprintf("diff -u --label 'a/%[1]s\tMon Nov 30 09:00:00 2026 +0000' --label 'b/%[1]s\tWed Dec 02 10:00:00 2026 +0000' ../hg.orig %[1]s", name))
}

func TestApplyEverydayPatches(t *testing.T) {
	t.Parallel()
	cs := everydayCases()
	for i := range cs {
		if cs[i].setup == "" {
			cs[i].setup = project
		}
	}
	runApplyCases(t, cs)
}

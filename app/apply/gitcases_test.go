package apply

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// The cases of git's own apply tests (t41xx) that pair can express,
// written again in our words: starting files, a patch, git apply's
// options. Each is applied with git apply in one copy of the repository
// and with pair apply --yes --no-commit in another: both must succeed or
// both fail, and when they succeed, leave the same files, modes, links
// and index.

type applyCase struct {
	name string
	// setup makes the files of the first commit (a shell script).
	setup string
	// patch is the patch; makePatch, when set, is instead a shell script
	// run in a scratch copy of the repository that writes it.
	patch, makePatch string
	// args are git apply's options, given to pair too (see applyArgs).
	args []string
	// after, when set, is a shell script run in both copies after the
	// first commit: a working tree or index that differs from HEAD.
	after string
	// dir, when set, is the subdirectory both run in.
	dir string
	// differs, when set, says why pair does not do what git does here:
	// the test then checks that they still differ, so that the list
	// stays true.
	differs string
	// patchArgs, when set, are GNU patch's options: patch applies the
	// patch too, in a third copy, and must do what git apply does, or
	// differs says why pair does what patch does instead.
	patchArgs string
}

// hunkDZ changes line d of lettersTo's a to m into z; hunkEY then
// changes line e into y.
const (
	hunkDZ = "@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+z\n e\n f\n g\n"
	hunkEY = "@@ -2,7 +2,7 @@\n b\n c\n z\n-e\n+y\n f\n g\n h\n"
)

// lettersTo writes a shell command that fills name with the letters a
// to last, one a line.
func lettersTo(name string, last byte) string {
	var b strings.Builder
	for c := byte('a'); c <= last; c++ {
		b.WriteByte(c)
		b.WriteByte(' ')
	}
	return fmt.Sprintf("printf '%%s\\n' %s> %s\n", b.String(), name)
}

// applyCases follow git's t4101-t4140, case by case where pair has the
// option (t4113, where a patch pins the edge, in applyCasesEnding). Left
// to other work: t4108 (--3way), -U0 and --unidiff-zero,
// --ignore-whitespace and the whitespace rules (t4107, t4124, t4125,
// t4138), --index and --cached.
func applyCases() []applyCase {
	cs := []applyCase{
		// t4127: several sections for one file, in order.
		{name: "t4127 one file twice, apart", setup: lettersTo("f", 'm'), patch: `diff --git a/f b/f
--- a/f
+++ b/f
` + hunkDZ + `diff --git a/f b/f
--- a/f
+++ b/f
@@ -6,7 +6,7 @@
 f
 g
 h
-i
+y
 j
 k
 l
`},
		{name: "t4127 one file twice, the second on the first's line", setup: lettersTo("f", 'm'), patch: `diff --git a/f b/f
--- a/f
+++ b/f
` + hunkDZ + `diff --git a/f b/f
--- a/f
+++ b/f
` + hunkEY},
		{name: "t4127 renamed, then the new name changed", setup: lettersTo("f", 'm'), patch: `diff --git a/f b/n
similarity index 92%
rename from f
rename to n
--- a/f
+++ b/n
` + hunkDZ + `diff --git a/n b/n
--- a/n
+++ b/n
` + hunkEY},
		{name: "t4127 renamed, then the old name changed: refused", setup: lettersTo("f", 'm'), patch: `diff --git a/f b/n
similarity index 92%
rename from f
rename to n
--- a/f
+++ b/n
` + hunkDZ + `diff --git a/f b/f
--- a/f
+++ b/f
@@ -2,7 +2,7 @@
 b
 c
 d
-e
+y
 f
 g
 h
`},
		{name: "t4127 A to B, C to A, then A changed", setup: lettersTo("f", 'm') + lettersTo("o", 'm'), patch: `diff --git a/f b/n
similarity index 92%
rename from f
rename to n
--- a/f
+++ b/n
` + hunkDZ + `diff --git a/o b/f
similarity index 92%
rename from o
rename to f
--- a/o
+++ b/f
@@ -2,7 +2,7 @@
 b
 c
 d
-e
+y
 f
 g
 h
diff --git a/f b/f
--- a/f
+++ b/f
@@ -4,7 +4,7 @@
 d
 y
 f
-g
+x
 h
 i
 j
`},
		// t4123: a patch whose preimage is not in the file fails whole.
		{name: "t4123 preimage larger than the file", setup: "printf '%s\\n' 1 2 3 4 5 6 7 8 9 A B C D E F G H I J > F\n", patch: `diff --git a/F b/F
--- a/F
+++ b/F
@@ -1,4 +1,4 @@
-1
+11
 2
 3
 4
@@ -6,7 +6,7 @@
 6
 7
 8
-999999
+9
 A
 B
 C
@@ -15,6 +15,6 @@
 E
 F
 G
-H
+HH
 I
 J
 
`},
		// t4129: modes.
		{name: "t4129 a change without modes keeps the executable bit", setup: "echo original > file; chmod +x file", patch: `diff --git a/file b/file
--- a/file
+++ b/file
@@ -1 +1 @@
-original
+modified
`},
		{name: "t4129 mode and content change", setup: "echo original > file", patch: `diff --git a/file b/file
old mode 100644
new mode 100755
--- a/file
+++ b/file
@@ -1 +1 @@
-original
+modified
`},
		{name: "t4129 empty new mode: refused", setup: "echo original > file", patch: "diff --git a/file b/file\nold mode 100644\nnew mode \n--- a/file\n+++ b/file\n@@ -1 +1 @@\n-original\n+modified\n"},
		{name: "t4129 garbage new mode: refused", setup: "echo original > file", patch: "diff --git a/file b/file\nold mode 100644\nnew mode garbage\n--- a/file\n+++ b/file\n@@ -1 +1 @@\n-original\n+modified\n"},
		// t4128: --directory.
		{name: "t4128 --directory with -p3, traditional names", setup: "mkdir -p some/sub/dir; echo Hello > some/sub/dir/file", args: []string{"--directory=some/sub", "-p3"},
			patch: "diff a/bla/blub/dir/file b/bla/blub/dir/file\n--- a/bla/blub/dir/file\n+++ b/bla/blub/dir/file\n@@ -1,1 +1,1 @@\n-Hello\n+Bello\n"},
		{name: "t4128 --directory with a final slash", setup: "mkdir -p some/sub/dir; echo Hello > some/sub/dir/file", args: []string{"--directory=some/sub/", "-p3"},
			patch: "diff a/bla/blub/dir/file b/bla/blub/dir/file\n--- a/bla/blub/dir/file\n+++ b/bla/blub/dir/file\n@@ -1,1 +1,1 @@\n-Hello\n+Bello\n"},
		{name: "t4128 --directory starting ./", differs: "git 2.39 refuses a --directory that starts ./ (newer git takes it, as pair does)", setup: "mkdir -p some/sub/dir; echo Hello > some/sub/dir/file", args: []string{"--directory=./some/sub", "-p3"},
			patch: "diff a/bla/blub/dir/file b/bla/blub/dir/file\n--- a/bla/blub/dir/file\n+++ b/bla/blub/dir/file\n@@ -1,1 +1,1 @@\n-Hello\n+Bello\n"},
		{name: "t4128 --directory, a new file", setup: "mkdir -p some/sub/dir; echo Hello > some/sub/dir/file", args: []string{"--directory=some/sub/dir/"},
			patch: "diff --git a/newfile b/newfile\nnew file mode 100644\nindex 0000000..d95f3ad\n--- /dev/null\n+++ b/newfile\n@@ -0,0 +1 @@\n+content\n"},
		{name: "t4128 --directory and -p2, a new file", setup: "mkdir -p some/sub/dir; echo Hello > some/sub/dir/file", args: []string{"-p2", "--directory=some/sub/dir/"},
			patch: "diff --git a/c/newfile2 b/c/newfile2\nnew file mode 100644\nindex 0000000..d95f3ad\n--- /dev/null\n+++ b/c/newfile2\n@@ -0,0 +1 @@\n+content\n"},
		{name: "t4128 --directory, a deleted file", setup: "mkdir -p some/sub/dir; echo Hello > some/sub/dir/file; echo content > some/sub/dir/delfile", args: []string{"--directory=some/sub/dir/"},
			patch: "diff --git a/delfile b/delfile\ndeleted file mode 100644\nindex d95f3ad..0000000\n--- a/delfile\n+++ /dev/null\n@@ -1 +0,0 @@\n-content\n"},
		{name: "t4128 --directory, a quoted name", setup: "mkdir -p some/sub/dir; echo Hello > some/sub/dir/file", args: []string{"--directory=some/sub/dir/"},
			patch: "diff --git \"a/qu\\157tefile\" \"b/qu\\157tefile\"\nnew file mode 100644\nindex 0000000..d95f3ad\n--- /dev/null\n+++ \"b/qu\\157tefile\"\n@@ -0,0 +1 @@\n+content\n"},
		// t4120: -p.
		{name: "t4120 git diff with -p2", setup: "echo A > file1", args: []string{"-p2"},
			patch: "diff --git a/sub/file1 b/sub/file1\nindex f70f10e..223b783 100644\n--- a/sub/file1\n+++ b/sub/file1\n@@ -1 +1 @@\n-A\n+B\n"},
		{name: "t4120 -p larger than the names: refused", setup: "echo A > file1", args: []string{"-p3"},
			patch: "diff --git a/sub/file1 b/sub/file1\nindex f70f10e..223b783 100644\n--- a/sub/file1\n+++ b/sub/file1\n@@ -1 +1 @@\n-A\n+B\n"},
		{name: "t4120 traditional diff with quoted names, -p2", setup: "echo A > file1", args: []string{"-p2"},
			patch: "diff -u \"a/\"sub/file1 \"b/\"sub/file1\n--- \"a/\"sub/file1\n+++ \"b/\"sub/file1\n@@ -1 +1 @@\n-A\n+B\n"},
		{name: "t4120 -p2, a mode change only", setup: "echo A > file1", args: []string{"-p2"},
			patch: "diff --git a/sub/file1 b/sub/file1\nold mode 100644\nnew mode 100755\n"},
		{name: "t4120 -p2, a rename only", setup: "echo A > file1", args: []string{"-p2"},
			patch: "diff --git a/sub/file1 b/sub/file2\nsimilarity index 100%\nrename from sub/file1\nrename to sub/file2\n"},
		// t4118: blank context lines that lost their space.
		{name: "t4118 empty context lines without their space", setup: "printf '\\n\\nA\\nB\\nC\\n\\n' > file1; printf '\\n\\nA\\nB\\nC\\n\\nQ' > file2",
			patch: "diff --git a/file1 b/file1\n--- a/file1\n+++ b/file1\n@@ -1,6 +1,5 @@\n\n\n A\n-B\n C\n\ndiff --git a/file2 b/file2\n--- a/file2\n+++ b/file2\n@@ -2,6 +2,5 @@\n\n A\n-B\n C\n\n Q\n\\ No newline at end of file\n"},
		// t4126: empty files and empty patches.
		{name: "t4126 a traditional patch fills an empty file", setup: ": > empty",
			patch: "--- empty.orig\n+++ empty\n@@ -0,0 +1,5 @@\n+a\n+b\n+c\n+d\n+e\n"},
		{name: "t4126 a traditional patch creates a missing file", setup: "echo keep > keep",
			patch: "--- missing.orig\n+++ missing\n@@ -0,0 +1,5 @@\n+a\n+b\n+c\n+d\n+e\n"},
		{name: "t4126 the mail of an empty commit: refused", setup: "echo keep > keep",
			patch: "From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\nFrom: A U Thor <author@example.com>\nDate: Thu, 7 Apr 2005 15:14:13 -0700\nSubject: [PATCH] empty commit\n\n---\n2.39.5\n\n"},
		// t4133: names that disagree.
		{name: "t4133 new name disagrees with the git header: refused", setup: "echo keep > keep",
			patch: "diff --git a/f b/f\nnew file mode 100644\nindex 0000000..d00491f\n--- /dev/null\n+++ b/f-blah\n@@ -0,0 +1 @@\n+1\n"},
		{name: "t4133 old name disagrees with the git header: refused", setup: "echo 1 > f",
			patch: "diff --git a/f b/f\ndeleted file mode 100644\nindex d00491f..0000000\n--- b/f-blah\n+++ /dev/null\n@@ -1 +0,0 @@\n-1\n"},
		// t4135: unusual names.
		{name: "t4135 a git creation, a name with a space", setup: "echo keep > keep",
			patch: "diff --git a/post image.txt b/post image.txt\nnew file mode 100644\nindex 0000000..eaba391\n--- /dev/null\n+++ b/post image.txt\n@@ -0,0 +1 @@\n+postimage\n"},
		{name: "t4135 a git creation, a quoted name with a tab", differs: "pair never writes a name with a control character (the trust rules); git does", setup: "echo keep > keep",
			patch: "diff --git \"a/post\\timage.txt\" \"b/post\\timage.txt\"\nnew file mode 100644\nindex 0000000..eaba391\n--- /dev/null\n+++ \"b/post\\timage.txt\"\n@@ -0,0 +1 @@\n+postimage\n"},
		{name: "t4135 a traditional patch, a name with a space and dates", setup: "echo preimage > 'post image.txt'",
			patch: "diff -pruN a/post image.txt b/post image.txt\n--- a/post image.txt\t1970-01-01 00:00:00.000000000 +0000\n+++ b/post image.txt\t2010-08-18 20:13:08.000000000 -0500\n@@ -1 +1 @@\n-preimage\n+postimage\n"},
		{name: "t4135 a traditional creation, a name with a space, dates with a colon in the zone", setup: "echo keep > keep",
			patch: "diff -urN -x .git orig/post image.txt patched/post image.txt\n--- orig/post image.txt\t1969-12-31 18:00:00.000000000 -06:00\n+++ patched/post image.txt\t2010-08-18 20:13:08.000000000 -05:00\n@@ -0,0 +1 @@\n+postimage\n"},
		{name: "t4135 Subversion's deletion, -p2", setup: ": > Makefile; echo keep > keep", args: []string{"-p2"},
			patch: "Index: Makefile\n===================================================================\ndiff --git a/branches/Makefile\ndeleted file mode 100644\n--- a/branches/Makefile\t(revision 13)\n+++ /dev/null\t(nonexistent)\n@@ +1 0,0 @@\n-\n"},
		// t4104: changes at the edges of a file, with context.
		{name: "t4104 added at the head", setup: lettersTo("victim", 'y') + "sed -i 1d victim",
			patch: "diff --git a/victim b/victim\n--- a/victim\n+++ b/victim\n@@ -1,3 +1,4 @@\n+a\n b\n c\n d\n"},
		{name: "t4104 changed at the head", setup: lettersTo("victim", 'y') + "sed -i 1d victim",
			patch: "diff --git a/victim b/victim\n--- a/victim\n+++ b/victim\n@@ -1,4 +1,4 @@\n-b\n+a\n c\n d\n e\n"},
		{name: "t4104 removed at the head", setup: lettersTo("victim", 'y') + "sed -i 1d victim",
			patch: "diff --git a/victim b/victim\n--- a/victim\n+++ b/victim\n@@ -1,4 +1,3 @@\n-b\n c\n d\n e\n"},
		{name: "t4104 added at the tail", setup: lettersTo("victim", 'y') + "sed -i 1d victim",
			patch: "diff --git a/victim b/victim\n--- a/victim\n+++ b/victim\n@@ -22,3 +22,4 @@\n w\n x\n y\n+z\n"},
		{name: "t4104 changed at the tail", setup: lettersTo("victim", 'y') + "sed -i 1d victim",
			patch: "diff --git a/victim b/victim\n--- a/victim\n+++ b/victim\n@@ -21,4 +21,4 @@\n v\n w\n x\n-y\n+z\n"},
		{name: "t4104 removed at the tail", setup: lettersTo("victim", 'y') + "sed -i 1d victim",
			patch: "diff --git a/victim b/victim\n--- a/victim\n+++ b/victim\n@@ -21,4 +21,3 @@\n v\n w\n x\n-y\n"},
		{name: "t4104 a creation's line over another line: refused", setup: "echo bbb > file",
			patch: "diff --git a/file b/file\nindex e69de29..72943a1 100644\n--- a/file\n+++ b/file\n@@ -0,0 +1 @@\n+aaa\n"},
		// t4102, t4116: renames, reverse, binary.
		{name: "t4116 forward, text and binary", setup: lettersTo("file1", 'n') + "tr 'ijk' '\\000\\001\\002' < file1 > file2",
			makePatch: "printf '%s\\n' a b c g h i J K L m o n p q > file1; tr 'mon' '\\000\\001\\002' < file1 > file2; git diff --binary"},
		{name: "t4116 -R, text and binary", setup: "printf '%s\\n' a b c g h i J K L m o n p q > file1; tr 'mon' '\\000\\001\\002' < file1 > file2", args: []string{"-R"},
			makePatch: lettersTo("file1", 'n') + "tr 'ijk' '\\000\\001\\002' < file1 > file2; git diff -R --binary"},
		{name: "t4102 rename with an edit, -R", setup: lettersTo("new", 'z'), args: []string{"-R"},
			makePatch: "git mv new old; sed -i 's/^m$/M/' old; git diff -M --cached -R"},
		{name: "t4102 copy with an edit", setup: lettersTo("orig", 'z'),
			makePatch: "cp orig copy; sed -i 's/^m$/M/' copy; git add copy; git diff -C -C --cached"},
		// --include and --exclude.
		{name: "--include of one file", setup: "mkdir sub; echo a > sub/x; echo a > y", args: []string{"--include=sub/*"},
			makePatch: "echo b > sub/x; echo b > y; git diff"},
		{name: "--exclude of one file", setup: "mkdir sub; echo a > sub/x; echo a > y", args: []string{"--exclude=sub/*"},
			makePatch: "echo b > sub/x; echo b > y; git diff"},
		{name: "--exclude before --include decides", setup: "mkdir sub; echo a > sub/x; echo a > sub/y", args: []string{"--exclude=sub/x", "--include=sub/*"},
			makePatch: "echo b > sub/x; echo b > sub/y; git diff"},
	}
	// t4114: type changes, each way.
	states := map[string]string{
		"file":      "echo 'hello world' > foo",
		"link":      "ln -s bar foo",
		"binary":    "printf '\\000' > foo",
		"directory": "mkdir foo; echo 'if only I knew' > foo/baz",
	}
	clear := "git rm -rq --cached foo; rm -rf foo; "
	for _, tc := range [][2]string{{"file", "link"}, {"link", "file"}, {"binary", "link"}, {"link", "binary"},
		{"file", "directory"}, {"directory", "file"}, {"link", "directory"}, {"directory", "link"}} {
		cs = append(cs, applyCase{name: "t4114 " + tc[0] + " becomes " + tc[1], setup: "echo 'hi planet' > bar; " + states[tc[0]],
			makePatch: clear + states[tc[1]] + "; git add -A; git diff --cached --binary"})
	}
	cs = append(cs,
		applyCase{name: "t4114 foo renamed to foo/baz", setup: "echo 'hello world' > foo; echo 'hi planet' > bar",
			makePatch: "git mv foo tmp; mkdir foo; git mv tmp foo/baz; git diff -M --cached"},
		applyCase{name: "t4114 foo/baz renamed to foo", setup: "mkdir foo; echo 'hello world' > foo/baz; echo 'hi planet' > bar",
			makePatch: "git mv foo/baz tmp; git mv tmp foo; git diff -M --cached"})
	// t4132: GNU diff's creations and deletions, told by the epoch date,
	// in three time zones.
	add, del := t4132Add, t4132Del
	for _, z := range t4132Zones {
		cs = append(cs,
			applyCase{name: "t4132 create, " + z.name, setup: "echo keep > keep", patch: fmt.Sprintf(add, z.epoch, z.at)},
			applyCase{name: "t4132 create over an empty file: refused, " + z.name, setup: ": > file", patch: fmt.Sprintf(add, z.epoch, z.at)},
			applyCase{name: "t4132 add to a missing file, " + z.name, setup: "echo keep > keep", patch: fmt.Sprintf(add, z.at, z.at)},
			applyCase{name: "t4132 add to an empty file, " + z.name, setup: ": > file", patch: fmt.Sprintf(add, z.at, z.at)},
			applyCase{name: "t4132 empty the file, " + z.name, setup: "echo something > file", patch: fmt.Sprintf(del, z.at, z.at)},
			applyCase{name: "t4132 remove the file, " + z.name, setup: "echo something > file", patch: fmt.Sprintf(del, z.at, z.epoch)},
		)
	}
	cs = append(cs, applyCasesEarly()...)
	cs = append(cs, applyCasesThreeWay()...)
	cs = append(cs, applyCasesOptions()...)
	cs = append(cs, applyCasesEnding()...)
	cs = append(cs, applyCasesLate()...)
	cs = append(cs, applyCasesCRLF()...)
	return cs
}

// t4132Zones are t4132's time zones: a time in each, and the epoch there;
// t4132Add and t4132Del are GNU diff's patches that add the file's one
// line and remove it, given the --- and +++ dates.
var (
	t4132Zones = []struct{ name, at, epoch string }{
		{"west", "1982-09-16 07:00:00.000000000 -0800", "1969-12-31 16:00:00.000000000 -0800"},
		{"GMT", "1982-09-16 15:00:00.000000000 +0000", "1970-01-01 00:00:00.000000000 +0000"},
		{"east", "1982-09-17 00:00:00.000000000 +0900", "1970-01-01 09:00:00.000000000 +0900"},
	}
	t4132Add = "diff -ruN a/file b/file\n--- a/file\t%s\n+++ b/file\t%s\n@@ -0,0 +1 @@\n+something\n"
	t4132Del = "diff -ruN a/file b/file\n--- a/file\t%s\n+++ b/file\t%s\n@@ -1 +0,0 @@\n-something\n"
)

// applyArgs gives git apply's options of a case to pair's o.
func applyArgs(t *testing.T, args []string, o *Options) {
	t.Helper()
	for _, a := range args {
		switch {
		case a == "-R" || a == "--reverse":
			o.Paths.Reverse = true
		case strings.HasPrefix(a, "-p"):
			n, err := strconv.Atoi(a[2:])
			if err != nil {
				t.Fatal(err)
			}
			o.Paths.Strip = &n
		case strings.HasPrefix(a, "--directory="):
			o.Paths.Root = strings.TrimPrefix(a, "--directory=")
		case strings.HasPrefix(a, "--include="):
			o.Paths.Filters = append(o.Paths.Filters, Filter{Glob: strings.TrimPrefix(a, "--include="), Include: true})
		case strings.HasPrefix(a, "--exclude="):
			o.Paths.Filters = append(o.Paths.Filters, Filter{Glob: strings.TrimPrefix(a, "--exclude=")})
		case strings.HasPrefix(a, "-C"):
			n, err := strconv.Atoi(a[2:])
			if err != nil {
				t.Fatal(err)
			}
			o.Placing.ContextGiven, o.Placing.Context = true, n
		case a == "--ignore-whitespace" || a == "--ignore-space-change":
			o.Placing.IgnoreWhitespace = true
		case a == "--index":
			o.Index = true
		case a == "--cached":
			o.Cached = true
		case a == "-3" || a == "--3way":
			o.ThreeWay = true
		case a == "--binary" || a == "--allow-binary-replacement":
			// git takes them and does nothing; so does pair.
		case a == "--check":
			o.Check = true
		default:
			if optionArg(a, o) {
				continue
			}
			t.Fatalf("option %s: not one pair has", a)
		}
	}
}

func TestGitApplyCases(t *testing.T) {
	t.Parallel()
	runApplyCases(t, applyCases())
}

// runApplyCases runs each case as a parallel subtest, and logs how many
// agree with git apply.
func runApplyCases(t *testing.T, cases []applyCase) {
	var ran, agreed atomic.Int32
	t.Cleanup(func() { t.Logf("%d cases, %d agree with git apply", ran.Load(), agreed.Load()) })
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ran.Add(1)
			agree, why := runApplyCase(t, c)
			if agree {
				agreed.Add(1)
			}
			switch {
			case c.differs == "" && !agree:
				t.Error(why)
			case c.differs != "" && agree:
				t.Errorf("pair now does as git does; take the case's differs (%s) out", c.differs)
			}
		})
	}
}

// runApplyCase applies the case's patch with git apply and pair apply,
// each in a copy of the repository, and says whether they agree, or how
// they differ.
func runApplyCase(t *testing.T, c applyCase) (bool, string) {
	t.Helper()
	root, made, byGit, byPair := caseRepos(t, func(dir string) { sh(t, dir, c.setup) })
	dirs := []string{byGit, byPair}
	byPatch := filepath.Join(root, "patch")
	if c.patchArgs != "" {
		copyDir(t, made, byPatch)
		dirs = append(dirs, byPatch)
	}
	for _, dir := range dirs {
		if c.after != "" {
			sh(t, dir, c.after)
		}
		// The copy's files have new times: without a refresh, git apply
		// --index takes every file for changed.
		sh(t, dir, "git update-index -q --refresh >/dev/null || true")
	}
	patch := c.patch
	if c.makePatch != "" {
		patch = sh(t, made, c.makePatch)
	}
	file := filepath.Join(root, "case.patch")
	if err := os.WriteFile(file, []byte(patch), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", append(append([]string{"apply"}, c.args...), file)...)
	cmd.Dir = filepath.Join(byGit, c.dir)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	gitOut, gitErr := cmd.CombinedOutput()
	byPatchToo := false
	if c.patchArgs != "" {
		byPatchToo = byPatchOnly(t, c, byGit, byPatch, file, patch, gitErr, gitOut)
	}

	o, out, errw := options(filepath.Join(byPair, c.dir), "")
	o.Patch, o.Yes, o.NoCommit = file, true, true
	applyArgs(t, c.args, &o)
	pairErr := Run(context.Background(), o)
	if byPatchToo {
		if pairErr != nil {
			t.Errorf("patch %s applies, pair fails: %v\n%s%s\npatch:\n%s", c.patchArgs, pairErr, out, errw, patch)
		} else if p, want := snapshot(t, byPair), snapshot(t, byPatch); p != want {
			t.Errorf("pair made\n%s\npatch %s made\n%s\npatch:\n%s", p, c.patchArgs, want, patch)
		}
	}
	switch {
	case gitErr != nil && pairErr != nil && !slices.Contains(c.args, "--reject"):
		return true, ""
	case gitErr != nil && pairErr != nil: // --reject writes what places
	case gitErr != nil:
		return false, fmt.Sprintf("git apply fails (%v: %s), pair applies:\n%s\npatch:\n%s", gitErr, gitOut, out, patch)
	case pairErr != nil:
		return false, fmt.Sprintf("git apply applies, pair fails: %v\n%s%s\npatch:\n%s", pairErr, out, errw, patch)
	}
	if g, p := snapshot(t, byGit), snapshot(t, byPair); g != p {
		return false, fmt.Sprintf("pair made\n%s\ngit apply made\n%s\npatch:\n%s", p, g, patch)
	}
	return true, ""
}

// byPatchOnly applies the case's patch file with GNU patch in byPatch,
// and reports whether patch and git apply differ, where the case says
// why pair does what patch does: a case whose tools differ without
// saying why, or where patch fails and git apply does not, is wrong.
func byPatchOnly(t *testing.T, c applyCase, byGit, byPatch, file, patch string, gitErr error, gitOut []byte) bool {
	t.Helper()
	cmd := exec.Command("sh", "-c", "patch -s -f --no-backup-if-mismatch "+c.patchArgs+" < '"+file+"'")
	cmd.Dir = filepath.Join(byPatch, c.dir)
	patchOut, patchErr := cmd.CombinedOutput()
	same := (patchErr == nil) == (gitErr == nil) && (gitErr != nil || snapshot(t, byGit) == snapshot(t, byPatch))
	switch {
	case !same && c.differs == "":
		t.Fatalf("git apply (%v: %s) and patch %s (%v: %s) disagree, and the case does not say why\npatch:\n%s", gitErr, gitOut, c.patchArgs, patchErr, patchOut, patch)
	case !same && patchErr != nil:
		t.Fatalf("patch %s fails (%v: %s), and git apply does not", c.patchArgs, patchErr, patchOut)
	}
	return !same
}

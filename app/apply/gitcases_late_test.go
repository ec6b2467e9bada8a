package apply

import "fmt"

// The git apply calls of git's t4120-t4140 not already in applyCases,
// written again in our words. Calls that need an option pair lacks
// (--stat, --whitespace, --recount, --allow-empty, --unsafe-paths,
// --build-fake-ancestor) are left out; -v, which only talks, is dropped.

// uncommitted is why pair differs where git deletes what HEAD does not
// hold.
const uncommitted = "pair's --yes never deletes a file or pointer that HEAD does not commit (it would be lost); git does"

// subproject is the commit a submodule pointer names in t4134's patches.
const subproject = "0123456789012345678901234567890123456789"

// t4135Name is one of t4135's unusual names: how a git header, a
// traditional header and the shell spell it.
type t4135Name struct {
	desc, git, trad, shell string
	differs                [3]string // for the git creation, the traditional change, the traditional creation
}

func applyCasesLate() []applyCase {
	var cs []applyCase
	cs = append(cs, lateT4120to4124()...)
	cs = append(cs, lateT4126to4130()...)
	cs = append(cs, lateT4132to4135()...)
	cs = append(cs, lateT4136to4140()...)
	return cs
}

func lateT4120to4124() []applyCase {
	// t4122's tree: a link arch/x86_64/boot to ../i386/boot, later a
	// directory of its own.
	linked := "mkdir -p arch/i386/boot arch/x86_64; printf '%s\\n' 1 2 3 4 5 > arch/i386/boot/Makefile; ln -s ../i386/boot arch/x86_64/boot\n"
	unlinked := "mkdir -p arch/i386/boot arch/x86_64/boot; printf '%s\\n' 1 2 3 4 5 > arch/i386/boot/Makefile; printf '%s\\n' 2 3 4 5 6 > arch/x86_64/boot/Makefile\n"
	fillLink := "diff --git a/arch/x86_64/dir/file b/arch/x86_64/dir/file\nindex e69de29..a29bdeb 100644\n--- a/arch/x86_64/dir/file\n+++ b/arch/x86_64/dir/file\n@@ -0,0 +1 @@\n+line\n"
	// A link arch/x86_64/dir to ../i386/dir, then a file below it:
	// created, or deleted.
	linkThen := func(change string) string {
		return "ln -s ../i386/dir arch/x86_64/dir; git add arch/x86_64/dir; git diff --cached; git reset -q; rm arch/x86_64/dir\n" +
			"mkdir arch/x86_64/dir; : > arch/x86_64/dir/file; git add arch/x86_64/dir/file; git diff --cached " + change + "HEAD\n"
	}
	addUnder, delUnder := linkThen(""), linkThen("-R ")
	cs := []applyCase{
		{name: "t4120 -p larger than a quoted name: refused", setup: "mkdir sub; echo A > sub/file1; echo A > file1", args: []string{"-p3"},
			makePatch: "git mv sub süb; echo B > süb/file1; git diff"},
		// t4121: two diffs of one file, one after the other.
		{name: "t4121 two independent diffs of one file", setup: "printf '%s\\n' 1 2 3 4 5 6 7 8 > file",
			makePatch: "{ echo 0; git show HEAD:file; } > file; git diff; git commit -qam two; echo 9 >> file; git diff"},
		// t4122: a link in the way.
		{name: "t4122 a link becomes a directory, --index", setup: linked, args: []string{"--index"},
			makePatch: "rm arch/x86_64/boot; mkdir arch/x86_64/boot; printf '%s\\n' 2 3 4 5 6 > arch/x86_64/boot/Makefile; git add -A; git commit -qm second; git format-patch --binary -1 --stdout"},
	}
	beyond := "mkdir arch/i386/dir; : > arch/i386/dir/file; ln -s ../i386/dir arch/x86_64/dir"
	for _, mode := range [][]string{nil, {"--cached"}, {"--index"}} {
		suffix := ""
		if mode != nil {
			suffix = ", " + mode[0]
		}
		cs = append(cs,
			applyCase{name: "t4122 a change beyond a link: refused" + suffix, setup: unlinked, after: beyond, patch: fillLink, args: mode},
			applyCase{name: "t4122 a link, then a file below it: refused" + suffix, setup: unlinked, after: "mkdir arch/i386/dir", args: mode, makePatch: addUnder},
			applyCase{name: "t4122 a link, then a deletion below it: refused" + suffix, setup: unlinked,
				after: "mkdir arch/i386/dir; : > arch/i386/dir/file; git add arch/i386/dir/file", args: mode, makePatch: delUnder},
			applyCase{name: "t4122 a file below a link in the index: refused" + suffix, setup: unlinked,
				after: "ln -s ../i386/dir arch/x86_64/dir; git add arch/x86_64/dir", args: mode,
				makePatch: "mkdir arch/x86_64/dir; : > arch/x86_64/dir/file; git add arch/x86_64/dir/file; git diff --cached HEAD"},
		)
	}
	cs = append(cs,
		applyCase{name: "t4122 a deletion below a link in the index: refused", setup: unlinked,
			after:     "ln -s ../i386/dir arch/x86_64/dir; git add arch/x86_64/dir; mkdir arch/i386/dir; : > arch/i386/dir/file",
			makePatch: "mkdir arch/x86_64/dir; : > arch/x86_64/dir/file; git add arch/x86_64/dir/file; git diff --cached -R HEAD"},
		// t4123: the index copy has lost its last, blank line.
		applyCase{name: "t4123 preimage larger than the file, --index", args: []string{"--index"},
			setup:     "printf '%s\\n' 1 2 3 4 5 6 7 8 999999 A B C D E F G H I J '' > F",
			after:     "sed -i '/^$/d' F; git add F",
			makePatch: "sed -i -e s/1/11/ -e s/999999/9/ -e s/H/HH/ F; git diff"},
		// t4124: blank lines at the end that the file lacks; without
		// --whitespace=fix git refuses.
		applyCase{name: "t4124 a blank line missing at the end: refused", setup: "printf 'a\\n\\n' > one", after: "echo a > one",
			makePatch: "echo b >> one; git diff"},
		applyCase{name: "t4124 two blank lines missing at the end: refused", setup: "printf '%s\\n' a '' b c '' '' > one", after: "printf '%s\\n' a '' b c > one",
			makePatch: "printf '%s\\n' d '' >> one; git diff"},
		applyCase{name: "t4124 a blank line missing, a line inserted before: refused", setup: "printf 'a\\n\\n' > one", after: "echo a > one",
			makePatch: "printf 'b\\na\\n\\n' > one; git diff"},
		applyCase{name: "t4124 many blank lines missing, the file shrinks: refused", setup: "printf '%s\\n' a b c > one; for i in $(seq 64); do echo; done >> one",
			after: "printf '%s\\n' a b c > one", makePatch: "echo a > one; git diff"},
		applyCase{name: "t4124 missing lines at the end that are not blank: refused", setup: "printf '%s\\n' a b > one", after: "echo a > one",
			makePatch: "printf '%s\\n' c d >> one; git diff"},
		applyCase{name: "t4124 CRLF, a line added, text=auto", setup: "printf 'a\\r\\n' > one", after: "echo 'one text=auto' > .gitattributes",
			makePatch: "printf 'b\\r\\n' >> one; git diff"},
		applyCase{name: "t4124 CRLF, a line changed, text=auto", setup: "printf 'a\\r\\n' > one", after: "echo 'one text=auto' > .gitattributes",
			makePatch: "printf 'b\\r\\n' > one; git diff"},
		applyCase{name: "t4124 LF committed, CRLF in the tree, core.eol=crlf", setup: "printf 'a\\n' > one; echo 'one text=auto' > .gitattributes",
			after: "printf 'a\\r\\n' > one; git config core.eol crlf",
			patch: "diff --git a/one b/one\nindex 7898192..6178079 100644\n--- a/one\n+++ b/one\n@@ -1 +1 @@\n-a\n+b\n"},
	)
	return cs
}

func lateT4126to4130() []applyCase {
	fill := "--- %[1]s.orig\n+++ %[1]s\n@@ -0,0 +1,5 @@\n+a\n+b\n+c\n+d\n+e\n"
	mode := func(chmod string) string {
		return "echo modified > file; " + chmod + "git diff --stat -p"
	}
	fileMode := "git config core.fileMode false; echo true > script.sh; git add --chmod=+x script.sh"
	fileModePatch := "echo true >> script.sh; git commit -qm more script.sh; git format-patch -1 --stdout"
	rotate := func(n int) string {
		s := ""
		for i := 1; i <= n; i++ {
			s += fmt.Sprintf("for i in $(seq 101); do echo 'the content of file %d'; done > file%d; ", i, i)
		}
		return s
	}
	cs := []applyCase{
		// t4126.
		{name: "t4126 a traditional patch fills an empty file, --index", setup: ": > empty", args: []string{"--index"}, patch: fmt.Sprintf(fill, "empty")},
		{name: "t4126 a traditional patch creates a missing file, --index", setup: ": > empty", args: []string{"--index"}, patch: fmt.Sprintf(fill, "missing")},
		{name: "t4126 an empty patch: refused", setup: ": > empty", patch: ""},
		// t4127, with --index.
		{name: "t4127 renamed, then the new name changed, --index", setup: lettersTo("same_fn", 'm') + lettersTo("other_fn", 'm'), args: []string{"--index"},
			makePatch: "git mv same_fn new_fn; sed -i s/^d/z/ new_fn; git add new_fn; git diff -M --cached; sed -i s/^e/y/ new_fn; git diff"},
		// t4129: modes with --index and --cached.
		{name: "t4129 a change without modes keeps the executable bit, --index", setup: "echo original > file", after: "chmod +x file; git add file",
			args: []string{"--index"}, makePatch: mode("")},
		{name: "t4129 a change without modes keeps the executable bit, --cached", setup: "echo original > file", after: "chmod +x file; git add file",
			args: []string{"--cached"}, makePatch: mode("")},
		{name: "t4129 mode and content change, --index", setup: "echo original > file", args: []string{"--index"}, makePatch: mode("chmod +x file; ")},
		{name: "t4129 mode and content change, --cached", setup: "echo original > file", args: []string{"--cached"}, makePatch: mode("chmod +x file; ")},
		{name: "t4129 new files with core.sharedRepository", setup: "git config core.sharedRepository 0666; echo keep > keep",
			makePatch: "mkdir d; touch f1 d/f2; git add f1 d/f2; git diff --staged"},
		{name: "t4129 core.fileMode false, --index", setup: fileMode, args: []string{"--index"}, makePatch: fileModePatch},
		{name: "t4129 core.fileMode false", setup: fileMode, makePatch: fileModePatch},
		{name: "t4129 core.fileMode false, --cached", setup: fileMode, args: []string{"--cached"}, makePatch: fileModePatch},
		// t4130: files that swap names, as diff -M -B writes it.
		{name: "t4130 two files swap names", setup: rotate(3),
			makePatch: "mv file1 tmp; mv file2 file1; mv tmp file2; git diff -M -B"},
		{name: "t4130 three files rotate names", setup: rotate(3),
			makePatch: "mv file1 tmp; mv file2 file1; mv file3 file2; mv tmp file3; git diff -M -B"},
	}
	return cs
}

func lateT4132to4135() []applyCase {
	var cs []applyCase
	// t4128 with --index, as git's test has it.
	sub := "mkdir -p some/sub/dir; echo Hello > some/sub/dir/file"
	renamed := "diff a/bla/blub/dir/file b/bla/blub/dir/file\n--- a/bla/blub/dir/file\n+++ b/bla/blub/dir/file\n@@ -1,1 +1,1 @@\n-Hello\n+Bello\n"
	for _, c := range []struct{ name, after, patch, differs string }{
		{name: "--directory with -p3, traditional names", patch: renamed},
		{name: "--directory with a final slash", patch: renamed},
		{name: "--directory starting ./", patch: renamed, differs: "git 2.39 refuses a --directory that starts ./ (newer git takes it, as pair does)"},
		{name: "--directory, a new file", patch: "diff --git a/newfile b/newfile\nnew file mode 100644\nindex 0000000..d95f3ad\n--- /dev/null\n+++ b/newfile\n@@ -0,0 +1 @@\n+content\n"},
		{name: "--directory and -p2, a new file", patch: "diff --git a/c/newfile2 b/c/newfile2\nnew file mode 100644\nindex 0000000..d95f3ad\n--- /dev/null\n+++ b/c/newfile2\n@@ -0,0 +1 @@\n+content\n"},
		{name: "--directory, a deleted file", differs: uncommitted, after: "echo content > some/sub/dir/delfile; git add some/sub/dir/delfile",
			patch: "diff --git a/delfile b/delfile\ndeleted file mode 100644\nindex d95f3ad..0000000\n--- a/delfile\n+++ /dev/null\n@@ -1 +0,0 @@\n-content\n"},
		{name: "--directory, a quoted name", patch: "diff --git \"a/qu\\157tefile\" \"b/qu\\157tefile\"\nnew file mode 100644\nindex 0000000..d95f3ad\n--- /dev/null\n+++ \"b/qu\\157tefile\"\n@@ -0,0 +1 @@\n+content\n"},
	} {
		args := map[string][]string{
			"--directory with -p3, traditional names": {"--directory=some/sub", "-p3"},
			"--directory with a final slash":          {"--directory=some/sub/", "-p3"},
			"--directory starting ./":                 {"--directory=./some/sub", "-p3"},
			"--directory and -p2, a new file":         {"-p2", "--directory=some/sub/dir/"},
		}[c.name]
		if args == nil {
			args = []string{"--directory=some/sub/dir/"}
		}
		cs = append(cs, applyCase{name: "t4128 " + c.name + ", --index", setup: sub, after: c.after, patch: c.patch,
			args: append(args, "--index"), differs: c.differs})
	}
	// t4132 with --index: GNU diff's creation, emptying and removal.
	add, del, index := t4132Add, t4132Del, []string{"--index"}
	for _, z := range t4132Zones {
		cs = append(cs,
			applyCase{name: "t4132 create, --index, " + z.name, setup: "echo keep > keep", args: index, patch: fmt.Sprintf(add, z.epoch, z.at)},
			applyCase{name: "t4132 empty the file, --index, " + z.name, setup: "echo something > file", args: index, patch: fmt.Sprintf(del, z.at, z.at)},
			applyCase{name: "t4132 remove the file, --index, " + z.name, setup: "echo something > file", args: index, patch: fmt.Sprintf(del, z.at, z.epoch)},
		)
	}
	// t4134: a submodule pointer created, then removed with the
	// directories above it.
	cs = append(cs,
		applyCase{name: "t4134 a submodule created, --index", setup: "echo keep > keep", args: index,
			patch: "diff --git a/dir/sm b/dir/sm\nnew file mode 160000\nindex 0000000..0123456\n--- /dev/null\n+++ b/dir/sm\n@@ -0,0 +1 @@\n+Subproject commit " + subproject + "\n"},
		applyCase{name: "t4134 a submodule removed, --index", setup: "echo keep > keep", args: index, differs: uncommitted,
			after: "mkdir -p dir/sm; git update-index --add --cacheinfo 160000," + subproject + ",dir/sm",
			patch: "diff --git a/dir/sm b/dir/sm\ndeleted file mode 160000\nindex 0123456..0000000\n--- a/dir/sm\n+++ /dev/null\n@@ -1 +0,0 @@\n-Subproject commit " + subproject + "\n"},
		applyCase{name: "t4134 a committed submodule removed, --index", setup: "mkdir -p dir/sm; git update-index --add --cacheinfo 160000," + subproject + ",dir/sm", args: index,
			patch: "diff --git a/dir/sm b/dir/sm\ndeleted file mode 160000\nindex 0123456..0000000\n--- a/dir/sm\n+++ /dev/null\n@@ -1 +0,0 @@\n-Subproject commit " + subproject + "\n"})
	// t4135: unusual names in git and traditional patches.
	tab := "pair never writes a name with a control character (the trust rules); git does"
	names := []t4135Name{
		{desc: "plain", git: "a/postimage.txt", trad: "postimage.txt", shell: "postimage.txt"},
		{desc: "spaces", git: "a/post image.txt", trad: "post image.txt", shell: "'post image.txt'"},
		{desc: "tab", git: `"a/post\timage.txt"`, trad: "post\timage.txt", shell: `"$(printf 'post\timage.txt')"`, differs: [3]string{tab, tab, tab}},
		{desc: "backslash", git: `"a/post\\image.txt"`, trad: `post\image.txt`, shell: `'post\image.txt'`},
		{desc: "quote", git: `"a/\"postimage\".txt"`, trad: `"postimage".txt`, shell: `'"postimage".txt'`},
	}
	for _, n := range names {
		if n.desc != "tab" && n.desc != "spaces" {
			b := "b" + n.git[1:]
			if n.git[0] == '"' {
				b = `"b` + n.git[2:]
			}
			cs = append(cs, applyCase{name: "t4135 a git creation, " + n.desc, setup: "echo keep > keep", differs: n.differs[0],
				patch: "diff --git " + n.git + " " + b + "\nnew file mode 100644\nindex 0000000..eff0c54\n--- /dev/null\n+++ " + b + "\n@@ -0,0 +1 @@\n+postimage\n"})
		}
		cs = append(cs,
			applyCase{name: "t4135 a traditional change, " + n.desc, setup: "echo preimage > " + n.shell, differs: n.differs[1],
				patch: "--- " + n.trad + ".orig\t2010-08-18 20:13:31.432002255 -0500\n+++ " + n.trad + "\t2010-08-18 20:13:31.432002255 -0500\n@@ -1 +1 @@\n-preimage\n+postimage\n"})
		if n.desc != "spaces" {
			cs = append(cs, applyCase{name: "t4135 a traditional creation, " + n.desc, setup: "echo keep > keep", differs: n.differs[2],
				patch: "diff -pruN a/" + n.trad + " b/" + n.trad + "\n--- a/" + n.trad + "\t1969-12-31 18:00:00.000000000 -0600\n+++ b/" + n.trad + "\t2010-08-18 20:13:31.484002255 -0500\n@@ -0,0 +1 @@\n+postimage\n"})
		}
	}
	cs = append(cs,
		applyCase{name: "t4135 a traditional creation, spaces", setup: "echo keep > keep",
			patch: "diff -pruN a/post image.txt b/post image.txt\n--- a/post image.txt\t1969-12-31 18:00:00.000000000 -0600\n+++ b/post image.txt\t2010-08-18 20:13:31.556002255 -0500\n@@ -0,0 +1 @@\n+postimage\n"},
		applyCase{name: "t4135 Subversion's deletion of a file that is not empty: refused", setup: "echo all: > Makefile", args: []string{"-p2"},
			patch: "Index: Makefile\n===================================================================\ndiff --git a/branches/Makefile\ndeleted file mode 100644\n--- a/branches/Makefile\t(revision 13)\n+++ /dev/null\t(nonexistent)\n@@ +1 0,0 @@\n-\n"},
		applyCase{name: "t4135 a creation whose dates follow spaces", setup: "echo keep > keep",
			patch: "diff -pruN a/postimage.txt b/postimage.txt\n--- a/postimage.txt     1969-12-31 18:00:00.000000000 -0600\n+++ b/postimage.txt     2010-08-18 20:13:31.484002255 -0500\n@@ -0,0 +1 @@\n+postimage\n"},
		applyCase{name: "t4135 a creation, a name with a space, dates after a space with a colon in the zone", setup: "echo keep > keep",
			patch: "diff -urN -X /tmp/exclude old-tree/post image.txt new-tree/post image.txt\n--- old-tree/post image.txt 1969-12-31 16:00:00 -08:00\n+++ new-tree/post image.txt 2005-04-12 02:14:06 -07:00\n@@ -0,0 +1 @@\n+postimage\n"},
	)
	return cs
}

func lateT4136to4140() []applyCase {
	check := []string{"--check"}
	blueprint := "printf '%s\\n' 1 2 3 4 5 > blueprint\n"
	ita := "cp blueprint test-file; git add -N test-file"
	escape := func(link string) string {
		return "ln -s " + link + " tmp; git add tmp; git diff --cached; git reset -q; rm tmp; mkdir tmp; echo evil > tmp/foo; git add tmp/foo; git diff --cached"
	}
	creation := "diff --git a/../foo b/../foo\nnew file mode 100644\nindex 0000000..53c74cd\n--- /dev/null\n+++ b/../foo\n@@ -0,0 +1 @@\n+evil\n"
	deletion := "diff --git a/../foo b/../foo\ndeleted file mode 100644\nindex 53c74cd..0000000\n--- a/../foo\n+++ /dev/null\n@@ -1 +0,0 @@\n-evil\n"
	cs := lateT4137()
	cs = append(cs, []applyCase{
		// t4136: not patches.
		{name: "t4136 --check of text that is no patch: refused", setup: "echo 1 > 1.t", args: check,
			patch: "I am not a patch\nI look nothing like a patch\ngit apply must fail\n"},
		{name: "t4136 --check of a hunk that changes nothing: refused", setup: "echo 1 > 1.t", args: check,
			patch: "diff --get a/1 b/1\nindex 6696ea4..606eddd 100644\n--- a/1\n+++ b/1\n@@ -1,1 +1,1 @@\n 1\n"},
		{name: "t4136 --check of a creation that is a copy: refused", setup: "echo 1 > 1.t", args: check,
			patch: "diff --git a/1 b/2\nnew file mode 100644\ncopy from 1\ncopy to 2\n"},
		{name: "t4136 --check of a creation that is a rename: refused", setup: "echo 1 > 1.t", args: check,
			patch: "diff --git a/1 b/2\nnew file mode 100644\nrename from 1\nrename to 2\n"},
		// t4139: nothing is written outside the working tree.
		{name: "t4139 a creation of ../foo: refused", setup: "echo keep > keep", patch: creation},
		{name: "t4139 a creation of ../foo, --index: refused", setup: "echo keep > keep", patch: creation, args: []string{"--index"}},
		{name: "t4139 a deletion of ../foo: refused", setup: "echo keep > keep", after: "echo evil > ../foo", patch: deletion},
		{name: "t4139 a deletion of ../foo, --index: refused", setup: "echo keep > keep", after: "echo evil > ../foo", patch: deletion, args: []string{"--index"}},
		{name: "t4139 a link to .. and a file through it: refused", setup: "echo keep > keep", makePatch: escape("..")},
		{name: "t4139 a link to .. and a file through it, --index: refused", setup: "echo keep > keep", makePatch: escape(".."), args: []string{"--index"}},
		{name: "t4139 a link to an absolute path and a file through it: refused", setup: "echo keep > keep", makePatch: escape("\"$(pwd)\"")},
		{name: "t4139 a link to an absolute path and a file through it, --index: refused", setup: "echo keep > keep", makePatch: escape("\"$(pwd)\""), args: []string{"--index"}},
		// t4140: a path added with intent to add.
		{name: "t4140 a creation over an intent-to-add path, --cached", setup: blueprint, after: ita, args: []string{"--cached"},

			makePatch: ita + "; git diff"},
		{name: "t4140 a creation over an intent-to-add path, --index: refused", setup: blueprint, after: ita + "; rm test-file", args: []string{"--index"},
			makePatch: ita + "; git diff"},
		{name: "t4140 a deletion of an intent-to-add path, --cached", setup: blueprint, after: ita, args: []string{"--cached"},
			makePatch: ita + "; rm test-file; git diff"},
		{name: "t4140 a deletion of an intent-to-add path, --index: refused", setup: blueprint, after: ita, args: []string{"--index"},
			makePatch: ita + "; rm test-file; git diff"},
	}...)
	return cs
}

// lateT4137 follows t4137's switches between superprojects with and
// without a submodule sub1, applied with --index and --3way; the
// submodule is not checked out (an empty folder), so only the
// superproject's side is compared.
func lateT4137() []applyCase {
	const other = "fedcba9876543210fedcba9876543210fedcba98"
	gitlink := func(id string) string {
		return "mkdir -p sub1; git update-index --add --cacheinfo 160000," + id + ",sub1"
	}
	sub := "echo x > file; printf '[submodule \"sub1\"]\\n\\tpath = sub1\\n\\turl = ./sub1\\n' > .gitmodules; " + gitlink(subproject)
	cs := []applyCase{{name: "t4137 --3way without a merge stages the result, as git's implies --index", setup: "echo a > f", args: []string{"-3"},
		makePatch: "echo b > f; git diff"}}
	for _, c := range []struct{ name, setup, after, change, differs string }{
		{name: "a submodule added", differs: "pair's --yes leaves a change to .gitmodules undecided (it says where code comes from); git applies it", setup: "echo x > file",
			change: "printf '[submodule \"sub1\"]\\n\\tpath = sub1\\n\\turl = ./sub1\\n' > .gitmodules; git add .gitmodules; " + gitlink(subproject)},
		{name: "a submodule added over an empty folder", setup: "echo x > file", after: "mkdir sub1",
			change: gitlink(subproject)},
		{name: "a submodule added over an untracked file: refused", setup: "echo x > file", after: "echo untracked > sub1",
			change: gitlink(subproject)},
		{name: "a file replaced by a submodule", setup: "echo x > file; echo content > sub1",
			change: "git rm -q --cached sub1; rm sub1; " + gitlink(subproject)},
		{name: "a folder replaced by a submodule", setup: "echo x > file; mkdir sub1; echo a > sub1/a",
			change: "git rm -rq --cached sub1; rm -r sub1; " + gitlink(subproject)},
		{name: "a submodule removed", differs: "pair's --yes leaves a change to .gitmodules undecided (it says where code comes from); git applies it", setup: sub, change: "git rm -q --cached sub1 .gitmodules"},
		{name: "a submodule's pointer changed", setup: sub, change: "git update-index --cacheinfo 160000," + other + ",sub1"},
		{name: "a submodule replaced by a file", setup: sub, change: "git rm -q --cached sub1; rmdir sub1; echo content > sub1; git add sub1"},
		{name: "a submodule replaced by a folder", setup: sub, change: "git rm -q --cached sub1; echo a > sub1/a; git add sub1"},
	} {
		for _, mode := range []string{"--index", "-3"} {
			cs = append(cs, applyCase{name: "t4137 " + c.name + ", " + mode, setup: c.setup, after: c.after, args: []string{mode},
				makePatch: c.change + "; git diff --cached", differs: c.differs})
		}
	}
	// Reversed, a typechange's creation comes before its deletion: git
	// deletes first all the same.
	toFile := "git rm -q --cached sub1; rmdir sub1; echo content > sub1; git add sub1; git commit -qm file; "
	for _, mode := range []string{"--index", "-3"} {
		cs = append(cs,
			applyCase{name: "t4137 a submodule replaced by a file, -R " + mode, setup: sub, args: []string{"-R", mode},
				makePatch: toFile + "git rm -q --cached sub1; rm sub1; " + gitlink(subproject) + "; git diff --cached"},
			applyCase{name: "t4137 a file replaced by a submodule, -R " + mode, setup: "echo x > file; echo content > sub1", args: []string{"-R", mode},
				makePatch: "git rm -q --cached sub1; rm sub1; " + gitlink(subproject) + "; git commit -qm sub; " + toFile + "git diff HEAD~1 HEAD"})
	}
	return cs
}

package apply

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// The cases of git's t4100 to t4119 (but t4108, --3way, and t4113, the
// pinned edge, which are elsewhere), in our words. A call with git apply
// options pair lacks is left out; one whose only such option does
// nothing to the files in git (--binary, --allow-binary-replacement,
// --verbose) is kept without it. t4102's calls (--stat --summary
// --apply) and t4119's (--whitespace=strip, or apply.whitespace) are
// kept for their renames and names, without those options. Several patch
// files given to one git apply are one patch here, their sections in
// order, as git reads them.

// asTraditional turns git diff's output into a traditional diff with the
// same a/ and b/ names: no "diff --git" and no index line.
const asTraditional = " | sed -e '/^diff --git /d' -e '/^index /d'"

// frotzStates are the four files of t4101, two of them without a final
// newline.
var frotzStates = []string{`printf 'a\nb\n'`, `printf 'a\nb\nc\n'`, `printf 'a\nb'`, `printf 'a\nc\nb'`}

// mainC is t4107's C file, indented with seven spaces and no tab.
const mainC = `#include <stdio.h>

void print_int(int num);
int func(int num);

int main() {
       int i;

       for (i = 0; i < 10; i++) {
               print_int(func(i)); /* stuff */
       }

       return 0;
}

int func(int num) {
       return num * num;
}

void print_int(int num) {
       printf("%d", num);
}
`

// t4107's patches against mainC, indented with tabs: the first fits only
// with whitespace ignored, the others not even then.
const (
	retabPatch   = "diff --git a/main.c b/main.c\n--- a/main.c\n+++ b/main.c\n@@ -10,6 +10,8 @@\n \t\tprint_int(func(i)); /* stuff */\n \t}\n \n+\tprintf(\"\\n\");\n+\n \treturn 0;\n }\n \n"
	lostTail     = "diff --git a/main.c b/main.c\n--- a/main.c\n+++ b/main.c\n@@ -10,3 +10,4 @@\n \tfor (i = 0; i < 10; i++) {\n \t\tprint_int(func(i)); \n+\t\t/* stuff */\n \t}\n"
	lostEOL      = "diff --git a/main.c b/main.c\n--- a/main.c\n+++ b/main.c\n@@ -21,1 +21,1 @@\n-\t}; \n\\ No newline at end of file\n+\t};\n"
	leadingSpace = "diff --git a/main.c b/main.c\n--- a/main.c\n+++ b/main.c\n@@ -2,2 +2,3 @@\n \tvoid print_int(int num);\n+\t/* a comment */\n \tint func(int num);\n"
)

// writeFile writes a shell command that puts text in name.
func writeFile(name, text string) string {
	return fmt.Sprintf("cat > %s <<'EOF'\n%sEOF\n", name, text)
}

// t4109's C file and the patches that change it in turn.
const (
	multiFrag1 = "diff --git a/main.c b/main.c\nnew file mode 100644\n--- /dev/null\n+++ b/main.c\n@@ -0,0 +1,23 @@\n" +
		"+#include <stdio.h>\n+\n+int func(int num);\n+void print_int(int num);\n+\n+int main() {\n+\tint i;\n+\n" +
		"+\tfor (i = 0; i < 10; i++) {\n+\t\tprint_int(func(i));\n+\t}\n+\n+\treturn 0;\n+}\n+\n" +
		"+int func(int num) {\n+\treturn num * num;\n+}\n+\n+void print_int(int num) {\n+\tprintf(\"%d\", num);\n+}\n+\n"
	multiFrag2 = "diff --git a/main.c b/main.c\n--- a/main.c\n+++ b/main.c\n" +
		"@@ -1,7 +1,9 @@\n+#include <stdlib.h>\n #include <stdio.h>\n \n int func(int num);\n void print_int(int num);\n+void print_ln();\n \n int main() {\n \tint i;\n" +
		"@@ -10,6 +12,8 @@\n \t\tprint_int(func(i));\n \t}\n \n+\tprint_ln();\n+\n \treturn 0;\n }\n \n" +
		"@@ -21,3 +25,7 @@\n \tprintf(\"%d\", num);\n }\n \n+void print_ln() {\n+\tprintf(\"\\n\");\n+}\n+\n"
	multiFrag3 = "diff --git a/main.c b/main.c\n--- a/main.c\n+++ b/main.c\n" +
		"@@ -1,9 +1,7 @@\n-#include <stdlib.h>\n #include <stdio.h>\n \n int func(int num);\n void print_int(int num);\n-void print_ln();\n \n int main() {\n \tint i;\n" +
		"@@ -12,8 +10,6 @@\n \t\tprint_int(func(i));\n \t}\n \n-\tprint_ln();\n-\n \treturn 0;\n }\n \n" +
		"@@ -25,7 +21,3 @@\n \tprintf(\"%d\", num);\n }\n \n-void print_ln() {\n-\tprintf(\"\\n\");\n-}\n-\n"
	multiFrag4 = "diff --git a/main.c b/main.c\n--- a/main.c\n+++ b/main.c\n" +
		"@@ -1,13 +1,14 @@\n #include <stdio.h>\n \n int func(int num);\n-void print_int(int num);\n+int func2(int num);\n \n int main() {\n \tint i;\n \n" +
		" \tfor (i = 0; i < 10; i++) {\n-\t\tprint_int(func(i));\n+\t\tprintf(\"%d\", func(i));\n+\t\tprintf(\"%d\", func3(i));\n \t}\n \n \treturn 0;\n" +
		"@@ -17,7 +18,7 @@\n \treturn num * num;\n }\n \n-void print_int(int num) {\n-\tprintf(\"%d\", num);\n+int func2(int num) {\n+\treturn num * num * num;\n }\n \n"
)

// scanPatches are t4110's: a file made, then changed by hunks whose
// line numbers are wrong by the earlier hunks, one way and the other.
var scanPatches = []string{
	"diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,12 @@\n+a1\n+a11\n+a111\n+a1111\n+b1\n+b11\n+b111\n+b1111\n+c1\n+c11\n+c111\n+c1111\n",
	"diff --git a/new.txt b/new.txt\n--- a/new.txt\n+++ b/new.txt\n@@ -1,7 +1,3 @@\n-a1\n-a11\n-a111\n-a1111\n b1\n b11\n b111\n",
	"diff --git a/new.txt b/new.txt\n--- a/new.txt\n+++ b/new.txt\n@@ -6,6 +6,10 @@\n b11\n b111\n b1111\n+b2\n+b22\n+b222\n+b2222\n c1\n c11\n c111\n",
	"diff --git a/new.txt b/new.txt\n--- a/new.txt\n+++ b/new.txt\n@@ -1,3 +1,7 @@\n+a1\n+a11\n+a111\n+a1111\n b1\n b11\n b111\n",
	"diff --git a/new.txt b/new.txt\n--- a/new.txt\n+++ b/new.txt\n@@ -10,3 +10,7 @@\n c11\n c111\n c1111\n+c2\n+c22\n+c222\n+c2222\n",
}

// subdirFiles writes a shell command that puts text in the four files of
// t4111, at the top, under objects/ and at two depths under sub/.
func subdirFiles(text string) string {
	return "mkdir -p sub/dir/b objects; for f in file objects/file sub/dir/file sub/dir/b/file; do printf '" + text + "' > $f; done\n"
}

// subdirPatch is t4111's traditional patch, its names file.orig and file.
const subdirPatch = "diff file.orig file\n--- a/file.orig\n+++ b/file\n@@ -1 +1,2 @@\n 1\n+2\n"

// copyAndRename copies t4112's regs.h and renames it, each with an edit.
const copyAndRename = `diff --git a/klibc/arch/x86_64/include/regs.h b/include/arch/cris/regs.h
similarity index 80%
copy from klibc/arch/x86_64/include/regs.h
copy to include/arch/cris/regs.h
--- a/klibc/arch/x86_64/include/regs.h
+++ b/include/arch/cris/regs.h
@@ -2,6 +2,6 @@
 #ifndef REGS_H
 #define REGS_H
 struct regs {
-  unsigned long __rbx;
+  unsigned long __r0;
   unsigned long __rsp;
   unsigned long __rip;
diff --git a/klibc/arch/x86_64/include/regs.h b/include/arch/m32r/regs.h
similarity index 80%
rename from klibc/arch/x86_64/include/regs.h
rename to include/arch/m32r/regs.h
--- a/klibc/arch/x86_64/include/regs.h
+++ b/include/arch/m32r/regs.h
@@ -4,6 +4,6 @@
 struct regs {
   unsigned long __rbx;
   unsigned long __rsp;
-  unsigned long __rip;
+  unsigned long __r8;
 };
 #endif
`

// typeState writes a shell command that makes foo one of t4114's states.
func typeState(state string) string {
	return map[string]string{
		"initial":   "echo 'hello world' > foo",
		"link":      "ln -s bar foo",
		"back":      "echo 'how far is the sun?' > foo",
		"binary":    `printf '\000' > foo`,
		"directory": "mkdir foo; echo 'if only I knew' > foo/baz",
		"moved":     "mkdir foo; echo 'hello world' > foo/baz",
	}[state]
}

// t4119's patches, by name: git's, and traditional ones with dates and
// three depths of names, the new name with a + after it.
var configPatches = map[string]string{
	"git":    "diff --git a/sub/file1 b/sub/file1\nindex f70f10e..4e3ac9c 100644\n--- a/sub/file1\n+++ b/sub/file1\n@@ -1 +1 @@\n-A\n+B \n",
	"bare":   "--- file1\t2007-02-21 01:04:24.000000000 -0800\n+++ file1+\t2007-02-21 01:07:44.000000000 -0800\n@@ -1 +1 @@\n-A\n+B \n",
	"sub":    "--- sub/file1\t2007-02-21 01:04:24.000000000 -0800\n+++ sub/file1+\t2007-02-21 01:07:44.000000000 -0800\n@@ -1 +1 @@\n-A\n+B \n",
	"ab-sub": "--- a/sub/file1\t2007-02-21 01:04:24.000000000 -0800\n+++ b/sub/file1+\t2007-02-21 01:07:44.000000000 -0800\n@@ -1 +1 @@\n-A\n+B \n",
}

func applyCasesEarly() []applyCase {
	var cs []applyCase
	// t4101: files with and without a final newline, each into each.
	for i, from := range frotzStates {
		for j, to := range frotzStates {
			if i != j {
				cs = append(cs, applyCase{name: fmt.Sprintf("t4101 frotz %d to %d", i, j), setup: from + " > frotz",
					makePatch: to + " > frotz; git diff" + asTraditional})
			}
		}
	}
	// t4102, without --stat and --summary: a rename keeps the executable
	// bit, then back with -R; a copy.
	rename := "diff --git a/foo b/bar\nsimilarity index 47%\nrename from foo\nrename to bar\n--- a/foo\n+++ b/bar\n@@ -1 +1 @@\n-This is foo\n+This is bar\n"
	cs = append(cs,
		applyCase{name: "t4102 rename of an executable, --index", setup: "echo 'This is foo' > foo; chmod +x foo", args: []string{"--index"}, patch: rename},
		applyCase{name: "t4102 the rename reversed, --index", setup: "echo 'This is bar' > bar; chmod +x bar", args: []string{"-R", "--index"}, patch: rename},
		applyCase{name: "t4102 copy, --index", setup: "echo 'This is foo' > foo; chmod +x foo", args: []string{"--index"},
			patch: strings.ReplaceAll(rename, "rename ", "copy ")})
	// t4103: binary changes, with and without their data, with and
	// without copies found.
	binSetup := "printf 'six boxes of wax\\nnothing here\\nthe fox and the ox\\n' > file1; cp file1 file2; cp file1 file4\n"
	binChange := "tr x '\\000' < file1 > file3; cp file3 file4; tr '\\000' v < file3 > file1; rm file2; git add -A; "
	for _, p := range []struct {
		name, opts string
		full       bool
	}{{"B", "", false}, {"C", " -C", false}, {"BF", " --binary", true}, {"CF", " --binary -C", true}} {
		mk := binChange + "git diff-index -p --cached" + p.opts + " HEAD"
		what := "without the binary data: refused"
		if p.full {
			what = "with the binary data"
		}
		for _, args := range [][]string{{"--check"}, nil, {"--index"}} {
			cs = append(cs, applyCase{name: fmt.Sprintf("t4103 %s %s %v", p.name, what, args), setup: binSetup, makePatch: mk, args: args})
		}
	}
	// t4104: changes at both edges of a file, with --index; a creation
	// over a file, --check.
	edges := map[string]string{
		"added at the head": "{ echo a; cat victim; } > t; mv t victim", "changed at the head": "sed -i 's/^b$/a/' victim",
		"removed at the head": "sed -i 1d victim", "added at the tail": "echo z >> victim",
		"changed at the tail": "sed -i 's/^y$/z/' victim", "removed at the tail": "sed -i '$d' victim",
	}
	for _, what := range slices.Sorted(maps.Keys(edges)) {
		cs = append(cs, applyCase{name: "t4104 " + what + ", --index", setup: lettersTo("victim", 'y') + "sed -i 1d victim",
			args: []string{"--index"}, makePatch: edges[what] + "; git diff"})
	}
	cs = append(cs, applyCase{name: "t4104 a creation's line over another line, --check: refused", setup: "echo bbb > file", args: []string{"--check"},
		patch: "diff --git a/file b/file\nindex e69de29..72943a1 100644\n--- a/file\n+++ b/file\n@@ -0,0 +1 @@\n+aaa\n"})
	// t4105: a hunk moved by its header, with and without a first context
	// line that is not in the file (-C2 leaves it out).
	fuzzed := "printf '%%s\\n' 1 2 3 4 5 6 7 a b c d e 8 9 10 11 12 > file; git diff | sed -e 's/@@ -5,6 +5,11 @@/@@ -%d,6 +%d,11 @@/'"
	for _, at := range []int{5, 2, 7, 19} {
		mk := fmt.Sprintf(fuzzed, at, at)
		cs = append(cs,
			applyCase{name: fmt.Sprintf("t4105 the hunk said at line %d", at), setup: "seq 1 12 > file", makePatch: mk},
			applyCase{name: fmt.Sprintf("t4105 the hunk said at line %d, a context line changed, -C2", at), setup: "seq 1 12 > file",
				args: []string{"-C2"}, makePatch: mk + " -e 's/^ 5/ S/'"})
	}
	// t4107: tabs against spaces.
	final := strings.Replace(mainC, "       }\n\n", "       }\n\n\tprintf(\"\\n\");\n\n", 1)
	ignore := "git config apply.ignorewhitespace change"
	cs = append(cs,
		applyCase{name: "t4107 the C file made", setup: "echo keep > keep", makePatch: writeFile("main.c", mainC) + "git add -N main.c; git diff"},
		applyCase{name: "t4107 tabs for spaces: refused", setup: writeFile("main.c", mainC), patch: retabPatch},
		applyCase{name: "t4107 tabs for spaces, --ignore-whitespace", setup: writeFile("main.c", mainC), args: []string{"--ignore-whitespace"}, patch: retabPatch},
		applyCase{name: "t4107 tabs for spaces, -R --ignore-space-change", setup: writeFile("main.c", final), args: []string{"-R", "--ignore-space-change"}, patch: retabPatch},
		applyCase{name: "t4107 tabs for spaces, apply.ignorewhitespace", setup: writeFile("main.c", mainC), after: ignore, patch: retabPatch},
		applyCase{name: "t4107 a line's end lost, apply.ignorewhitespace: refused", setup: writeFile("main.c", final), after: ignore, patch: lostTail},
		applyCase{name: "t4107 a final newline lost, apply.ignorewhitespace: refused", setup: writeFile("main.c", final), after: ignore, patch: lostEOL},
		applyCase{name: "t4107 leading whitespace, apply.ignorewhitespace: refused", differs: "pair fits a context line indented where the file's is not, as a model's indentation slip; git refuses it, whitespace ignored or not", setup: writeFile("main.c", final), after: ignore, patch: leadingSpace},
		applyCase{name: "t4107 the C file made again where it was removed, apply.ignorewhitespace", setup: writeFile("main.c", final),
			after: ignore + "; rm main.c", makePatch: "git rm -q main.c; git commit -qm gone; " + writeFile("main.c", mainC) + "git add -N main.c; git diff"},
	)
	// t4109, t4110: several patches for one file, in order.
	cs = append(cs,
		applyCase{name: "t4109 made, then three hunks", setup: "echo keep > keep", patch: multiFrag1 + multiFrag2},
		applyCase{name: "t4109 made, three hunks, then taken back", setup: "echo keep > keep", patch: multiFrag1 + multiFrag2 + multiFrag3},
		applyCase{name: "t4109 made, then two hunks", setup: "echo keep > keep", patch: multiFrag1 + multiFrag4},
		applyCase{name: "t4110 hunks found above and below their line", setup: "echo keep > keep", patch: strings.Join(scanPatches, "")},
	)
	// t4111: a traditional patch from a subdirectory and from the git
	// directory; index and working tree as each call had them.
	const one, other = `1\n`, `3\n`
	cs = append(cs,
		applyCase{name: "t4111 from a subdirectory", setup: subdirFiles(other), after: subdirFiles(one), dir: "sub/dir", patch: subdirPatch},
		applyCase{name: "t4111 --cached from a subdirectory", setup: subdirFiles(one), after: subdirFiles(other), dir: "sub/dir", args: []string{"--cached"}, patch: subdirPatch},
		applyCase{name: "t4111 --index from a subdirectory, the file not the index's: refused", setup: subdirFiles(one), after: subdirFiles(other), dir: "sub/dir", args: []string{"--index"}, patch: subdirPatch},
		applyCase{name: "t4111 --index from a subdirectory, the index not the file's: refused", setup: subdirFiles(other), after: subdirFiles(one), dir: "sub/dir", args: []string{"--index"}, patch: subdirPatch},
		applyCase{name: "t4111 --index from a subdirectory", setup: subdirFiles(one), dir: "sub/dir", args: []string{"--index"}, patch: subdirPatch},
		applyCase{name: "t4111 empty hunks from a subdirectory: refused", setup: subdirFiles(one), dir: "sub/dir",
			patch: "--- sub/dir/file\n+++ sub/dir/file\n@@ -1,0 +1,0 @@\n--- file_in_root\n+++ file_in_root\n@@ -1,0 +1,0 @@\n"},
		applyCase{name: "t4111 from the git directory", differs: "pair never writes inside the git directory; git apply there takes it for the tree", setup: subdirFiles(one), after: "printf '1\\n' > .git/file; printf '1\\n' > .git/objects/file", dir: ".git", patch: subdirPatch},
		applyCase{name: "t4111 from below the git directory", differs: "pair never writes inside the git directory; git apply there takes it for the tree", setup: subdirFiles(one), after: "printf '1\\n' > .git/file; printf '1\\n' > .git/objects/file", dir: ".git/objects", patch: subdirPatch},
		applyCase{name: "t4111 --cached from the git directory", setup: subdirFiles(one), after: subdirFiles(other) + "printf '3\\n' > .git/file", dir: ".git", args: []string{"--cached"}, patch: subdirPatch},
		applyCase{name: "t4111 --cached from below the git directory", setup: subdirFiles(one), after: subdirFiles(other) + "printf '3\\n' > .git/file; printf '3\\n' > .git/objects/file",
			dir: ".git/objects", args: []string{"--cached"}, patch: subdirPatch},
	)
	// t4112: a copy and a rename of one source in one patch, the copy
	// first; a twin of the source stays.
	regs := "{ echo '/* regs.h */'; echo '#ifndef REGS_H'; echo '#define REGS_H'; echo 'struct regs {'; " +
		"for r in rbx rsp rip; do echo \"  unsigned long __$r;\"; done; echo '};'; echo '#endif'; } > regs.h; " +
		"mkdir -p klibc/arch/x86_64/include include/arch/x86_64; cp regs.h include/arch/x86_64/; mv regs.h klibc/arch/x86_64/include/"
	for _, args := range [][]string{{"--check"}, {"--index"}} {
		cs = append(cs, applyCase{name: fmt.Sprintf("t4112 a copy and a rename of one file %v", args), setup: regs, args: args, patch: copyAndRename})
	}
	// t4114: type changes, with --index.
	for _, tc := range [][3]string{{"initial", "moved", " -M"}, {"moved", "initial", " -M"}, {"directory", "initial", ""}, {"initial", "directory", ""},
		{"initial", "link", ""}, {"link", "back", ""}, {"binary", "link", " --binary"}, {"link", "binary", " --binary"}, {"link", "directory", ""}, {"directory", "link", ""}} {
		cs = append(cs, applyCase{name: fmt.Sprintf("t4114 %s to %s, --index", tc[0], tc[1]), setup: "echo 'hi planet' > bar; " + typeState(tc[0]), args: []string{"--index"},
			makePatch: "git rm -rq --cached foo; rm -rf foo; " + typeState(tc[1]) + "; git add -A; git diff-index -p --cached" + tc[2] + " HEAD"})
	}
	// t4115: a link's target changed.
	for _, args := range [][]string{nil, {"--index"}} {
		cs = append(cs, applyCase{name: fmt.Sprintf("t4115 a link's target changed %v", args), setup: "ln -s path1/path2/path3/path4/path5 link1", args: args,
			makePatch: "rm link1; ln -s htap6 link1; git diff"})
	}
	// t4116: text and binary, forward and back, with --index; again where
	// the branch has no commit yet, only the index.
	before := "printf '%s\\n' a b c d e f g h i j k l m n > file1; tr 'ijk' '\\000\\001\\002' < file1 > file2"
	after := "printf '%s\\n' a b c g h i J K L m o n p q > file1; tr 'mon' '\\000\\001\\002' < file1 > file2"
	for _, unborn := range []string{"", "git update-ref -d HEAD"} {
		where := ""
		if unborn != "" {
			where = ", no commit"
		}
		cs = append(cs,
			applyCase{name: "t4116 forward, --index" + where, setup: before, after: unborn, args: []string{"--index"}, makePatch: after + "; git diff --binary"},
			applyCase{name: "t4116 -R, --index" + where, setup: after, after: unborn, args: []string{"-R", "--index"}, makePatch: before + "; git diff -R --binary"},
		)
	}
	// t4117: three hunks, two of which the file no longer fits.
	changed := "printf '%s\\n' 1 2 A B 4 5 6 7 8 9 10 11 12 C 13 14 15 16 17 18 19 20 D 21 > file1; git diff"
	cs = append(cs,
		applyCase{name: "t4117 two hunks of three do not fit: refused", setup: "seq 1 21 > file1", after: "printf '%s\\n' 1 E 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 F 21 > file1", makePatch: changed},
		applyCase{name: "t4117 three hunks fit", setup: "seq 1 21 > file1", makePatch: changed},
	)
	// t4118: blank context lines without their space, --index.
	cs = append(cs, applyCase{name: "t4118 empty context lines without their space, --index", setup: "printf '\\n\\nA\\nB\\nC\\n\\n' > file1; printf '\\n\\nA\\nB\\nC\\n\\nQ' > file2",
		args: []string{"--index"}, makePatch: "printf '\\n\\nA\\nC\\n\\n' > file1; printf '\\n\\nA\\nC\\n\\nQ' > file2; git diff | sed 's/^ $//'"})
	// t4119's names, without its --whitespace=strip: from the top and
	// from sub, git's patch and traditional ones of three depths.
	for _, c := range []struct {
		patch, dir string
		args       []string
	}{{"git", "", nil}, {"git", "sub", nil}, {"bare", "sub", nil}, {"sub", "sub", nil}, {"ab-sub", "sub", nil}, {"sub", "", []string{"-p0"}}, {"ab-sub", "", nil}} {
		where := "the top"
		if c.dir != "" {
			where = c.dir
		}
		cs = append(cs, applyCase{name: fmt.Sprintf("t4119 names: the %s patch from %s %v", c.patch, where, c.args), setup: "mkdir sub; echo A > sub/file1",
			dir: c.dir, args: c.args, patch: configPatches[c.patch]})
	}
	// Beyond git's scripts: the fixes they led to, from the other side.
	swap := "diff --git a/foo b/bar\nsimilarity index 100%\nrename from foo\nrename to bar\n" +
		"diff --git a/foo b/foo\nnew file mode 100644\n--- /dev/null\n+++ b/foo\n@@ -0,0 +1 @@\n+new\n"
	cs = append(cs,
		applyCase{name: "--index, renamed away and made again", setup: "echo old > foo", args: []string{"--index"}, patch: swap},
		applyCase{name: "--index, made where the index has a file: refused", setup: "echo old > foo", args: []string{"--index"},
			patch: "diff --git a/foo b/foo\nnew file mode 100644\n--- /dev/null\n+++ b/foo\n@@ -0,0 +1 @@\n+new\n"},
		applyCase{name: "apply.ignorewhitespace false: tabs for spaces refused", setup: writeFile("main.c", mainC), after: "git config apply.ignorewhitespace false", patch: retabPatch},
		applyCase{name: "apply.ignorewhitespace unknown: refused", setup: writeFile("main.c", mainC), after: "git config apply.ignorewhitespace sometimes", patch: retabPatch},
	)
	return cs
}

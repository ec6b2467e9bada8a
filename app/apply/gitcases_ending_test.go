package apply

// applyCasesEnding follow git's t4113 (apply-ending): a hunk with no
// context after its last change is pinned to the end of the file, and
// one from line 1 to its start. git's two cases have no index line; the
// rest are git's own diffs of a file that has changed since, where pair
// reads the pins whole as git does, forwards, with -R and with -C, and
// the diffs git did not make, where pair keeps its tolerance.
func applyCasesEnding() []applyCase {
	abc := "printf '%s\\n' a b c > file"
	appended := "printf '%s\\n' x y z >> file"
	return []applyCase{
		// t4113: the line the patch appends is the file's last already.
		{name: "t4113 apply at the end", setup: abc, args: []string{"--index"}, patch: `diff --git a/file b/file
--- a/file
+++ b/file
@@ -1,2 +1,3 @@
 a
 b
+c
`},
		// t4113: the line the patch puts first is the file's first already.
		{name: "t4113 apply at the beginning", setup: abc, args: []string{"--index"}, patch: `diff a/file b/file
--- a/file
+++ b/file
@@ -1,2 +1,3 @@
+a
 b
 c
`},
		{name: "t4113 git's diff of the file as it is", setup: lettersTo("file", 'h'),
			makePatch: "printf 'i\\n' >> file; git diff"},
		{name: "t4113 git's diff of an older file, a line appended", setup: lettersTo("file", 'h'), after: appended,
			makePatch: "printf 'i\\n' >> file; git diff"},
		{name: "t4113 git's diff of an older file, its last line deleted", setup: lettersTo("file", 'h'), after: appended,
			makePatch: "sed -i '$d' file; git diff"},
		{name: "t4113 git's diff of an older file, a line put first", setup: lettersTo("file", 'h'), after: "sed -i '1i x' file",
			makePatch: "sed -i '1i 0' file; git diff"},
		{name: "t4113 git's diff of an older file, a change after context from line 1", setup: lettersTo("file", 'h'), after: "sed -i '1i x' file",
			makePatch: "sed -i 's/^d$/D/' file; git diff"},
		{name: "t4113 -R on the blob the diff made", setup: lettersTo("file", 'h'), after: "printf 'i\\n' >> file", args: []string{"-R"},
			makePatch: "printf 'i\\n' >> file; git diff"},
		{name: "t4113 -R on a file that goes on", setup: lettersTo("file", 'h'), after: "printf '%s\\n' i j >> file", args: []string{"-R"},
			makePatch: "printf 'i\\n' >> file; git diff"},
		{name: "t4113 -R, the start, on a file with a line before", setup: lettersTo("file", 'h'), after: "sed -i '1i 0' file; sed -i '1i x' file", args: []string{"-R"},
			makePatch: "sed -i '1i 0' file; git diff"},
		// -C1: git tries a hunk with more context on a side than one line
		// again without its pins.
		{name: "t4113 -C1 drops the pins", setup: lettersTo("file", 'h'), after: appended, args: []string{"-C1"},
			makePatch: "sed -i '$d' file; git diff"},
		{name: "t4113 a traditional diff of an older file", setup: lettersTo("file", 'h'), after: appended,
			makePatch: "cp file old; sed -i '$d' file; diff -u old file | sed -e '1s/^--- old/--- a\\/file/' -e '2s/^+++ file/+++ b\\/file/'; true",
			differs:   "a diff git did not make may be a model's, whose hunks often end without context in the middle of a file: pair places the hunk by its context"},
	}
}

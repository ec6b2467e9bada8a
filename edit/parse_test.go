package edit_test

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/edit/edittest"
)

// dumpPatch prints a patch in a stable, readable form for failure messages.
func dumpPatch(p *edit.Patch) string {
	if p == nil {
		return "<nil>"
	}
	var b strings.Builder
	for i, f := range p.Files {
		fmt.Fprintf(&b, "file %d: old=%q new=%q stripped=%v modes=%q/%q new=%v deleted=%v renamed=%v copied=%v indexed=%v binary=%v\n",
			i, f.OldPath, f.NewPath, f.Stripped, f.OldMode, f.NewMode, f.New, f.Deleted, f.Renamed, f.Copied, f.Indexed, f.Binary)
		for _, h := range f.Hunks {
			fmt.Fprintf(&b, "  @@ -%d,%d +%d,%d numbers=%v section=%q noNL=%v/%v\n",
				h.OldStart, h.OldLines, h.NewStart, h.NewLines, h.HasNumbers, h.Section, h.OldNoNewline, h.NewNoNewline)
			for _, l := range h.Lines {
				fmt.Fprintf(&b, "  %q\n", string(l.Kind)+l.Text)
			}
		}
	}
	return b.String()
}

// hk builds a hunk with header numbers.
func hk(oldStart, oldLines, newStart, newLines int, lines ...string) *edit.Hunk {
	return &edit.Hunk{OldStart: oldStart, OldLines: oldLines, NewStart: newStart, NewLines: newLines, HasNumbers: true, Lines: ls(lines...)}
}

// bare builds a hunk whose header had no numbers.
func bare(lines ...string) *edit.Hunk {
	return &edit.Hunk{Lines: ls(lines...)}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name  string
		patch string
		want  []*edit.FileDiff
	}{
		{
			name: "git modification with index mode",
			patch: text(
				"diff --git a/main.go b/main.go",
				"index 83db48f..bf269f4 100644",
				"--- a/main.go",
				"+++ b/main.go",
				"@@ -1,3 +1,3 @@ package main",
				" a",
				"-b",
				"+c",
				" d",
			),
			want: []*edit.FileDiff{{
				OldPath: "main.go", NewPath: "main.go", Stripped: true, OldMode: "100644", NewMode: "100644", Indexed: true,
				Hunks: []*edit.Hunk{{OldStart: 1, OldLines: 3, NewStart: 1, NewLines: 3, HasNumbers: true, Section: "package main",
					Lines: ls(" a", "-b", "+c", " d")}},
			}},
		},
		{
			name: "git new file",
			patch: text(
				"diff --git a/pkg/new.go b/pkg/new.go",
				"new file mode 100644",
				"index 0000000..e69de29",
				"--- /dev/null",
				"+++ b/pkg/new.go",
				"@@ -0,0 +1,3 @@",
				"+package pkg",
				"+",
				"+var x = 1",
			),
			want: []*edit.FileDiff{{
				NewPath: "pkg/new.go", Stripped: true, NewMode: "100644", New: true, Indexed: true,
				Hunks: []*edit.Hunk{hk(0, 0, 1, 3, "+package pkg", "+", "+var x = 1")},
			}},
		},
		{
			name: "git deleted file",
			patch: text(
				"diff --git a/old.sh b/old.sh",
				"deleted file mode 100755",
				"index 1234567..0000000",
				"--- a/old.sh",
				"+++ /dev/null",
				"@@ -1,2 +0,0 @@",
				"-#!/bin/sh",
				"-echo hi",
			),
			want: []*edit.FileDiff{{
				OldPath: "old.sh", Stripped: true, OldMode: "100755", Deleted: true, Indexed: true,
				Hunks: []*edit.Hunk{hk(1, 2, 0, 0, "-#!/bin/sh", "-echo hi")},
			}},
		},
		{
			name: "git rename with spaces and a change",
			patch: text(
				"diff --git a/old name.txt b/new name.txt",
				"similarity index 90%",
				"rename from old name.txt",
				"rename to new name.txt",
				"index abc1234..def5678 100644",
				"--- a/old name.txt",
				"+++ b/new name.txt",
				"@@ -1,3 +1,3 @@",
				" a",
				"-b",
				"+c",
				" d",
			),
			want: []*edit.FileDiff{{
				OldPath: "old name.txt", NewPath: "new name.txt", Stripped: true, OldMode: "100644", NewMode: "100644", Renamed: true, Indexed: true, Score: 90,
				Hunks: []*edit.Hunk{hk(1, 3, 1, 3, " a", "-b", "+c", " d")},
			}},
		},
		{
			name: "pure rename then mode change, no hunks",
			patch: text(
				"diff --git a/x.txt b/y.txt",
				"similarity index 100%",
				"rename from x.txt",
				"rename to y.txt",
				"diff --git a/run.sh b/run.sh",
				"old mode 100644",
				"new mode 100755",
			),
			want: []*edit.FileDiff{
				{OldPath: "x.txt", NewPath: "y.txt", Stripped: true, Renamed: true, Score: 100},
				{OldPath: "run.sh", NewPath: "run.sh", Stripped: true, OldMode: "100644", NewMode: "100755"},
			},
		},
		{
			name: "mode change with a hunk",
			patch: text(
				"diff --git a/run.sh b/run.sh",
				"old mode 100644",
				"new mode 100755",
				"index 1111111..2222222",
				"--- a/run.sh",
				"+++ b/run.sh",
				"@@ -1 +1 @@",
				"-echo a",
				"+echo b",
			),
			want: []*edit.FileDiff{{
				OldPath: "run.sh", NewPath: "run.sh", Stripped: true, OldMode: "100644", NewMode: "100755", Indexed: true,
				Hunks: []*edit.Hunk{hk(1, 1, 1, 1, "-echo a", "+echo b")},
			}},
		},
		{
			name: "copy",
			patch: text(
				"diff --git a/a.txt b/b.txt",
				"similarity index 100%",
				"copy from a.txt",
				"copy to b.txt",
			),
			want: []*edit.FileDiff{{OldPath: "a.txt", NewPath: "b.txt", Stripped: true, Copied: true, Score: 100}},
		},
		{
			name: "---/+++ with prefixes and no diff --git",
			patch: text(
				"--- a/src/x.go",
				"+++ b/src/x.go",
				"@@ -10,2 +10,2 @@",
				"-a",
				"+b",
				" c",
			),
			want: []*edit.FileDiff{{
				OldPath: "src/x.go", NewPath: "src/x.go", Stripped: true,
				Hunks: []*edit.Hunk{hk(10, 2, 10, 2, "-a", "+b", " c")},
			}},
		},
		{
			name: "no prefixes",
			patch: text(
				"--- src/x.go",
				"+++ src/x.go",
				"@@ -1 +1 @@",
				"-a",
				"+b",
			),
			want: []*edit.FileDiff{{
				OldPath: "src/x.go", NewPath: "src/x.go",
				Hunks: []*edit.Hunk{hk(1, 1, 1, 1, "-a", "+b")},
			}},
		},
		{
			name: "mnemonic prefixes",
			patch: text(
				"diff --git i/x.go w/x.go",
				"--- i/x.go",
				"+++ w/x.go",
				"@@ -1 +1 @@",
				"-a",
				"+b",
			),
			want: []*edit.FileDiff{{
				OldPath: "x.go", NewPath: "x.go", Stripped: true,
				Hunks: []*edit.Hunk{hk(1, 1, 1, 1, "-a", "+b")},
			}},
		},
		{
			name: "only the diff --git line names the file",
			patch: text(
				"diff --git a/lib/util.py b/lib/util.py",
				"index 83db48f..bf269f4 100644",
				"@@ -3,3 +3,3 @@ def f():",
				"     x = 1",
				"-    y = 2",
				"+    y = 3",
				"     return x + y",
			),
			want: []*edit.FileDiff{{
				OldPath: "lib/util.py", NewPath: "lib/util.py", Stripped: true, OldMode: "100644", NewMode: "100644", Indexed: true,
				Hunks: []*edit.Hunk{{OldStart: 3, OldLines: 3, NewStart: 3, NewLines: 3, HasNumbers: true, Section: "def f():",
					Lines: ls("     x = 1", "-    y = 2", "+    y = 3", "     return x + y")}},
			}},
		},
		{
			name: "headers without numbers",
			patch: text(
				"--- a/x",
				"+++ b/x",
				"@@ ... @@",
				" a",
				"-b",
				"+c",
				"@@",
				" d",
				"-e",
				"+f",
				"@@ ... @@ func g() {",
				"-h",
				"+i",
			),
			want: []*edit.FileDiff{{
				OldPath: "x", NewPath: "x", Stripped: true,
				Hunks: []*edit.Hunk{
					bare(" a", "-b", "+c"),
					bare(" d", "-e", "+f"),
					{Section: "func g() {", Lines: ls("-h", "+i")},
				},
			}},
		},
		{
			name: "only a new-side number is a hint",
			patch: text(
				"--- a/x",
				"+++ b/x",
				"@@ +7,2 @@",
				" a",
				"+b",
			),
			want: []*edit.FileDiff{{
				OldPath: "x", NewPath: "x", Stripped: true,
				Hunks: []*edit.Hunk{{OldStart: 7, NewStart: 7, NewLines: 2, HasNumbers: true, Lines: ls(" a", "+b")}},
			}},
		},
		{
			name: "wrong counts are not trusted",
			patch: text(
				"--- a/x",
				"+++ b/x",
				"@@ -1,1 +1,1 @@",
				" a",
				"-b",
				"+c",
				" d",
				" e",
				"@@ -20,9 +20,9 @@",
				"-y",
				"+z",
			),
			want: []*edit.FileDiff{{
				OldPath: "x", NewPath: "x", Stripped: true,
				Hunks: []*edit.Hunk{
					hk(1, 1, 1, 1, " a", "-b", "+c", " d", " e"),
					hk(20, 9, 20, 9, "-y", "+z"),
				},
			}},
		},
		{
			name: "CRLF patch",
			patch: strings.ReplaceAll(text(
				"diff --git a/x b/x",
				"--- a/x",
				"+++ b/x",
				"@@ -1,3 +1,3 @@",
				" a",
				"-b",
				"+c",
				"",
				" d",
			), "\n", "\r\n"),
			want: []*edit.FileDiff{{
				OldPath: "x", NewPath: "x", Stripped: true,
				Hunks: []*edit.Hunk{hk(1, 3, 1, 3, " a", "-b", "+c", " ", " d")},
			}},
		},
		{
			name: "blank context line without its space in the middle",
			patch: text(
				"--- a/x",
				"+++ b/x",
				"@@ -1,4 +1,4 @@",
				" a",
				"",
				"-b",
				"+c",
				" d",
			),
			want: []*edit.FileDiff{{
				OldPath: "x", NewPath: "x", Stripped: true,
				Hunks: []*edit.Hunk{hk(1, 4, 1, 4, " a", " ", "-b", "+c", " d")},
			}},
		},
		{
			name: "trailing blank lines dropped when the counts do not ask for them",
			patch: text(
				"--- a/x",
				"+++ b/x",
				"@@ -1,2 +1,2 @@",
				" a",
				"-b",
				"+c",
				"",
				"",
				"That should fix it.",
			),
			want: []*edit.FileDiff{{
				OldPath: "x", NewPath: "x", Stripped: true,
				Hunks: []*edit.Hunk{hk(1, 2, 1, 2, " a", "-b", "+c")},
			}},
		},
		{
			name: "trailing blank lines kept as far as the counts ask",
			patch: text(
				"--- a/x",
				"+++ b/x",
				"@@ -1,3 +1,3 @@",
				" a",
				"-b",
				"+c",
				"",
				"",
				"",
			),
			want: []*edit.FileDiff{{
				OldPath: "x", NewPath: "x", Stripped: true,
				Hunks: []*edit.Hunk{hk(1, 3, 1, 3, " a", "-b", "+c", " ")},
			}},
		},
		{
			name: "trailing blank lines dropped without numbers",
			patch: text(
				"--- a/x",
				"+++ b/x",
				"@@ ... @@",
				" a",
				"-b",
				"+c",
				"",
			),
			want: []*edit.FileDiff{{
				OldPath: "x", NewPath: "x", Stripped: true,
				Hunks: []*edit.Hunk{bare(" a", "-b", "+c")},
			}},
		},
		{
			name: "no newline marker after a deleted line",
			patch: text(
				"--- a/x",
				"+++ b/x",
				"@@ -1,2 +1,2 @@",
				" a",
				"-b",
				`\ No newline at end of file`,
				"+b",
			),
			want: []*edit.FileDiff{{
				OldPath: "x", NewPath: "x", Stripped: true,
				Hunks: []*edit.Hunk{{OldStart: 1, OldLines: 2, NewStart: 1, NewLines: 2, HasNumbers: true,
					Lines: ls(" a", "-b", "+b"), OldNoNewline: true}},
			}},
		},
		{
			name: "no newline marker after an added line",
			patch: text(
				"--- a/x",
				"+++ b/x",
				"@@ -1,2 +1,2 @@",
				" a",
				"-b",
				"+c",
				`\ No newline at end of file`,
			),
			want: []*edit.FileDiff{{
				OldPath: "x", NewPath: "x", Stripped: true,
				Hunks: []*edit.Hunk{{OldStart: 1, OldLines: 2, NewStart: 1, NewLines: 2, HasNumbers: true,
					Lines: ls(" a", "-b", "+c"), NewNoNewline: true}},
			}},
		},
		{
			name: "no newline markers on both sides",
			patch: text(
				"--- a/x",
				"+++ b/x",
				"@@ -1,2 +1,2 @@",
				" a",
				"-b",
				`\ No newline at end of file`,
				"+c",
				`\ No newline at end of file`,
			),
			want: []*edit.FileDiff{{
				OldPath: "x", NewPath: "x", Stripped: true,
				Hunks: []*edit.Hunk{{OldStart: 1, OldLines: 2, NewStart: 1, NewLines: 2, HasNumbers: true,
					Lines: ls(" a", "-b", "+c"), OldNoNewline: true, NewNoNewline: true}},
			}},
		},
		{
			name: "no newline marker after a context line",
			patch: text(
				"--- a/x",
				"+++ b/x",
				"@@ -1,2 +1,2 @@",
				"-a",
				"+A",
				" b",
				`\ No newline at end of file`,
			),
			want: []*edit.FileDiff{{
				OldPath: "x", NewPath: "x", Stripped: true,
				Hunks: []*edit.Hunk{{OldStart: 1, OldLines: 2, NewStart: 1, NewLines: 2, HasNumbers: true,
					Lines: ls("-a", "+A", " b"), OldNoNewline: true, NewNoNewline: true}},
			}},
		},
		{
			name: "fenced diff inside prose",
			patch: text(
				"Here is the fix:",
				"",
				"```diff",
				"--- a/x.py",
				"+++ b/x.py",
				"@@ -1,2 +1,2 @@",
				" import os",
				"-print(1)",
				"+print(2)",
				"```",
				"",
				"- this list item is prose",
				"+ and so is this",
			),
			want: []*edit.FileDiff{{
				OldPath: "x.py", NewPath: "x.py", Stripped: true,
				Hunks: []*edit.Hunk{hk(1, 2, 1, 2, " import os", "-print(1)", "+print(2)")},
			}},
		},
		{
			name: "two fenced blocks and a code block that is not a diff",
			patch: text(
				"First:",
				"```go",
				"func x() {}",
				"```",
				"```diff",
				"--- a/one.txt",
				"+++ b/one.txt",
				"@@ -1 +1 @@",
				"-1",
				"+one",
				"```",
				"Then:",
				"```",
				"--- a/two.txt",
				"+++ b/two.txt",
				"@@ -1 +1 @@",
				"-2",
				"+two",
				"```",
			),
			want: []*edit.FileDiff{
				{OldPath: "one.txt", NewPath: "one.txt", Stripped: true, Hunks: []*edit.Hunk{hk(1, 1, 1, 1, "-1", "+one")}},
				{OldPath: "two.txt", NewPath: "two.txt", Stripped: true, Hunks: []*edit.Hunk{hk(1, 1, 1, 1, "-2", "+two")}},
			},
		},
		{
			name: "several files",
			patch: text(
				"diff --git a/a.txt b/a.txt",
				"--- a/a.txt",
				"+++ b/a.txt",
				"@@ -1 +1 @@",
				"-a",
				"+A",
				"diff --git a/b.txt b/b.txt",
				"--- a/b.txt",
				"+++ b/b.txt",
				"@@ -1 +1 @@",
				"-b",
				"+B",
				"@@ -5 +5 @@",
				"-c",
				"+C",
				"--- c.txt",
				"+++ c.txt",
				"@@ -1 +1 @@",
				"-d",
				"+D",
			),
			want: []*edit.FileDiff{
				{OldPath: "a.txt", NewPath: "a.txt", Stripped: true, Hunks: []*edit.Hunk{hk(1, 1, 1, 1, "-a", "+A")}},
				{OldPath: "b.txt", NewPath: "b.txt", Stripped: true, Hunks: []*edit.Hunk{hk(1, 1, 1, 1, "-b", "+B"), hk(5, 1, 5, 1, "-c", "+C")}},
				{OldPath: "c.txt", NewPath: "c.txt", Hunks: []*edit.Hunk{hk(1, 1, 1, 1, "-d", "+D")}},
			},
		},
		{
			name: "quoted paths with escapes",
			patch: text(
				`diff --git "a/t\303\251st\tx \"q\".txt" "b/t\303\251st\tx \"q\".txt"`,
				`--- "a/t\303\251st\tx \"q\".txt"`,
				`+++ "b/t\303\251st\tx \"q\".txt"`,
				"@@ -1 +1 @@",
				"-a",
				"+b",
			),
			want: []*edit.FileDiff{{
				OldPath: "tést\tx \"q\".txt", NewPath: "tést\tx \"q\".txt", Stripped: true,
				Hunks: []*edit.Hunk{hk(1, 1, 1, 1, "-a", "+b")},
			}},
		},
		{
			name: "quoted rename",
			patch: text(
				`diff --git "a/caf\303\251.txt" b/cafe.txt`,
				"similarity index 100%",
				`rename from "caf\303\251.txt"`,
				"rename to cafe.txt",
			),
			want: []*edit.FileDiff{{OldPath: "café.txt", NewPath: "cafe.txt", Stripped: true, Renamed: true, Score: 100}},
		},
		{
			name: "timestamps after a tab",
			patch: text(
				"--- old/hello world.c\t2024-03-01 10:00:00.000000000 +0100",
				"+++ new/hello world.c\t2024-03-02 11:30:00.000000000 +0100",
				"@@ -1 +1 @@",
				"-a",
				"+b",
			),
			want: []*edit.FileDiff{{
				OldPath: "hello world.c", NewPath: "hello world.c", Stripped: true,
				Hunks: []*edit.Hunk{hk(1, 1, 1, 1, "-a", "+b")},
			}},
		},
		{
			name: "new file in plain diff with timestamps",
			patch: text(
				"--- /dev/null\t1970-01-01 00:00:00.000000000 +0000",
				"+++ b/n.txt\t2024-03-02 11:30:00.000000000 +0100",
				"@@ -0,0 +1 @@",
				"+n",
			),
			want: []*edit.FileDiff{{
				NewPath: "n.txt", Stripped: true, New: true,
				Hunks: []*edit.Hunk{hk(0, 0, 1, 1, "+n")},
			}},
		},
		{
			name: "format-patch mail with signature",
			patch: text(
				"From 1a2b3c4d Mon Sep 17 00:00:00 2001",
				"From: A U Thor <author@example.com>",
				"Date: Mon, 1 Jan 2024 00:00:00 +0000",
				"Subject: [PATCH] fix the thing",
				"",
				"--- here is no file header, just a dash line in the message",
				"",
				"---",
				" x.txt | 2 +-",
				" 1 file changed, 1 insertion(+), 1 deletion(-)",
				"",
				"diff --git a/x.txt b/x.txt",
				"index 83db48f..bf269f4 100644",
				"--- a/x.txt",
				"+++ b/x.txt",
				"@@ -1,3 +1,3 @@",
				" a",
				"-b",
				"+c",
				" d",
				"-- ",
				"2.43.0",
				"",
			),
			want: []*edit.FileDiff{{
				OldPath: "x.txt", NewPath: "x.txt", Stripped: true, OldMode: "100644", NewMode: "100644", Indexed: true,
				Hunks: []*edit.Hunk{hk(1, 3, 1, 3, " a", "-b", "+c", " d")},
			}},
		},
		{
			name: "binary files line",
			patch: text(
				"diff --git a/img.png b/img.png",
				"index 83db48f..bf269f4 100644",
				"Binary files a/img.png and b/img.png differ",
				"diff --git a/x.txt b/x.txt",
				"--- a/x.txt",
				"+++ b/x.txt",
				"@@ -1 +1 @@",
				"-a",
				"+b",
			),
			want: []*edit.FileDiff{
				{OldPath: "img.png", NewPath: "img.png", Stripped: true, OldMode: "100644", NewMode: "100644", Indexed: true, Binary: true},
				{OldPath: "x.txt", NewPath: "x.txt", Stripped: true, Hunks: []*edit.Hunk{hk(1, 1, 1, 1, "-a", "+b")}},
			},
		},
		{
			name: "git binary patch",
			patch: text(
				"diff --git a/logo.bin b/logo.bin",
				"new file mode 100644",
				"index 0000000000000000000000000000000000000000..85025d98693fe77b700bcf818dfd8fcd13c4e961",
				"GIT binary patch",
				"literal 5",
				"McmZQzWMXCk000>P3jhEB",
				"",
				"literal 0",
				"HcmV?d00001",
				"",
			),
			want: []*edit.FileDiff{{NewPath: "logo.bin", Stripped: true, NewMode: "100644", New: true, Indexed: true, Binary: true,
				OldID: "0000000000000000000000000000000000000000", NewID: "85025d98693fe77b700bcf818dfd8fcd13c4e961",
				BinaryPatch: &edit.BinaryPatch{Forward: &edit.BinaryHunk{Data: []byte{0, 1, 2, 3, 4}}, Reverse: &edit.BinaryHunk{Data: []byte{}}}}},
		},
		{
			name: "hunk before any file header",
			patch: text(
				"@@ -1,2 +1,2 @@",
				" a",
				"-b",
				"+c",
			),
			want: []*edit.FileDiff{{Hunks: []*edit.Hunk{hk(1, 2, 1, 2, " a", "-b", "+c")}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustParse(t, tt.patch)
			for _, f := range got.Files {
				f.Names = nil // TestParseNames checks them
				for _, h := range f.Hunks {
					h.Header = "" // TestRejectText checks it
				}
			}
			want := &edit.Patch{Files: tt.want}
			// The index line's blob ids are checked by the cases that
			// name them (and by TestIndexIDs).
			for i, f := range got.Files {
				if i < len(tt.want) && tt.want[i].OldID == "" {
					f.OldID, f.NewID = "", ""
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Parse:\ngot:\n%s\nwant:\n%s", dumpPatch(got), dumpPatch(want))
			}
		})
	}
}

func TestParseNoDiff(t *testing.T) {
	for _, in := range []string{
		"",
		"\n\n",
		"I could not find the bug, sorry.\n",
		"Here is some code:\n```go\nfunc main() {\n\tfmt.Println(1)\n}\n```\nand a list:\n- one\n+ two\n",
	} {
		p, err := edit.Parse(in)
		if !errors.Is(err, edit.ErrNoDiff) {
			t.Errorf("Parse(%q): got %v, %v; want ErrNoDiff", in, dumpPatch(p), err)
		}
	}
}

func TestParseCandidates(t *testing.T) {
	tests := []struct {
		patch string
		want  []string
	}{
		{text("--- a/src/x.go", "+++ b/src/x.go", "@@ -1 +1 @@", "-a", "+b"), []string{"src/x.go"}},
		{text("--- src/x.go", "+++ src/x.go", "@@ -1 +1 @@", "-a", "+b"), []string{"src/x.go", "x.go"}},
		{text("--- x.go", "+++ x.go", "@@ -1 +1 @@", "-a", "+b"), []string{"x.go"}},
		{text("--- project/dir/x.go", "+++ project/dir/x.go", "@@ -1 +1 @@", "-a", "+b"), []string{"project/dir/x.go", "dir/x.go"}},
	}
	for _, tt := range tests {
		fd := onlyFile(t, tt.patch)
		if got := fd.Candidates(fd.Source()); !slices.Equal(got, tt.want) {
			t.Errorf("Candidates(%q): got %q, want %q", fd.Source(), got, tt.want)
		}
	}
}

func TestFileDiffPaths(t *testing.T) {
	tests := []struct {
		name                    string
		patch                   string
		path, source            string
		modeChange, hunkChanges bool
	}{
		{"modify", text("--- a/x", "+++ b/x", "@@ -1 +1 @@", "-a", "+b"), "x", "x", false, true},
		{"create", text("--- /dev/null", "+++ b/x", "@@ -0,0 +1 @@", "+a"), "x", "", false, true},
		{"delete", text("--- a/x", "+++ /dev/null", "@@ -1 +0,0 @@", "-a"), "x", "x", false, true},
		{"rename", text("diff --git a/x b/y", "rename from x", "rename to y"), "y", "x", false, false},
		{"chmod", text("diff --git a/x b/x", "old mode 100644", "new mode 100755"), "x", "x", true, false},
	}
	for _, tt := range tests {
		fd := onlyFile(t, tt.patch)
		if got := fd.Path(); got != tt.path {
			t.Errorf("%s: Path: got %q, want %q", tt.name, got, tt.path)
		}
		if got := fd.Source(); got != tt.source {
			t.Errorf("%s: Source: got %q, want %q", tt.name, got, tt.source)
		}
		if got := fd.ModeChange(); got != tt.modeChange {
			t.Errorf("%s: ModeChange: got %v, want %v", tt.name, got, tt.modeChange)
		}
		changes := len(fd.Hunks) > 0 && fd.Hunks[0].Changes()
		if changes != tt.hunkChanges {
			t.Errorf("%s: Changes: got %v, want %v", tt.name, changes, tt.hunkChanges)
		}
	}
}

func TestHunkPrePost(t *testing.T) {
	h := &edit.Hunk{Lines: ls(" a", "-b", "+c", " d", "+e")}
	if got, want := h.Pre(), []string{"a", "b", "d"}; !slices.Equal(got, want) {
		t.Errorf("Pre: got %q, want %q", got, want)
	}
	if got, want := h.Post(), []string{"a", "c", "d", "e"}; !slices.Equal(got, want) {
		t.Errorf("Post: got %q, want %q", got, want)
	}
	if (&edit.Hunk{Lines: ls(" a", " b")}).Changes() {
		t.Errorf("Changes of a context-only hunk: got true, want false")
	}
}

// A deleted line whose text is "- " is written "-- ", which is also the
// signature separator of git format-patch mail. At the end of a hunk, at
// the end of the patch or before the next file, it is still a deletion
// (a signature is followed by a version line).
func TestParseDeletedDashSpaceLine(t *testing.T) {
	for _, tail := range []string{"", "diff --git a/y b/y\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-y\n+Y\n"} {
		patch := text(
			"diff --git a/list.md b/list.md",
			"--- a/list.md",
			"+++ b/list.md",
			"@@ -1,3 +1,1 @@",
			" a",
			"-b",
			"-- ",
		) + tail
		p := mustParse(t, patch)
		if got, want := edittest.Show(p.Files[0].Hunks[0].Lines), edittest.Show(ls(" a", "-b", "-- ")); got != want {
			t.Errorf("Parse (tail %q): got lines\n%s\nwant\n%s", tail, got, want)
		}
	}
}

// TestParseRefusesContradictoryGitHeaders checks that a git section whose
// ---/+++ names contradict its git header, whose mode is not a number, or
// whose header lines say two of create, delete, rename and copy, is
// refused as git apply refuses it, and that agreeing names pass.
func TestParseRefusesContradictoryGitHeaders(t *testing.T) {
	for _, tc := range []struct {
		name, patch string
		want        error
		msg         string
	}{
		{"created under another name", "diff --git a/f b/f\nnew file mode 100644\n--- /dev/null\n+++ b/f-blah\n@@ -0,0 +1 @@\n+1\n",
			edit.ErrNameMismatch, "file names disagree on line 4: +++ names b/f-blah, the git header f"},
		{"deleted under another name", "diff --git a/f b/f\ndeleted file mode 100644\n--- b/f-blah\n+++ /dev/null\n@@ -1 +0,0 @@\n-1\n",
			edit.ErrNameMismatch, "file names disagree on line 3: --- names b/f-blah, the git header f"},
		{"renamed from another name", "diff --git a/x b/y\nrename from x\nrename to y\n--- a/z\n+++ b/y\n@@ -1 +1 @@\n-1\n+2\n",
			edit.ErrNameMismatch, "file names disagree on line 4: --- names a/z, the git header x"},
		{"empty new mode", "diff --git a/f b/f\nold mode 100644\nnew mode \n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n",
			edit.ErrBadMode, `invalid file mode on line 3: "new mode "`},
		{"garbage new file mode", "diff --git a/f b/f\nnew file mode 10o644\n--- /dev/null\n+++ b/f\n@@ -0,0 +1 @@\n+a\n",
			edit.ErrBadMode, `invalid file mode on line 2: "new file mode 10o644"`},
		{"a creation that is a copy", "diff --git a/1 b/2\nnew file mode 100644\ncopy from 1\ncopy to 2\n",
			edit.ErrMixedHeader, `inconsistent git header: more than one of a creation, a deletion, a rename and a copy on line 3: "copy from 1"`},
		{"a deletion that is a rename", "diff --git a/1 b/2\nrename from 1\nrename to 2\ndeleted file mode 100644\n",
			edit.ErrMixedHeader, `inconsistent git header: more than one of a creation, a deletion, a rename and a copy on line 4: "deleted file mode 100644"`},
		{"agreeing creation", "diff --git a/f b/f\nnew file mode 100644\n--- /dev/null\n+++ b/f\n@@ -0,0 +1 @@\n+1\n", nil, ""},
		{"agreeing rename", "diff --git a/x b/y\nrename from x\nrename to y\n--- a/x\n+++ b/y\n@@ -1 +1 @@\n-1\n+2\n", nil, ""},
		{"creation without prefixes", "diff --git a/f b/f\nnew file mode 100644\n--- /dev/null\n+++ f\n@@ -0,0 +1 @@\n+1\n", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := edit.Parse(tc.patch)
			if !errors.Is(err, tc.want) || tc.want == nil && err != nil {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			if err != nil && err.Error() != tc.msg {
				t.Errorf("got message %q, want %q", err, tc.msg)
			}
		})
	}
}

// TestParseSubversionEmptyDeletion checks that the hunk Subversion writes
// to delete an empty file ("@@ +1 0,0 @@" over a lone "-") is not read as
// a hunk, as git apply does not read it, and that hunks like it that
// differ in any way are kept.
func TestParseSubversionEmptyDeletion(t *testing.T) {
	head := "diff --git a/Makefile b/Makefile\ndeleted file mode 100644\n--- a/Makefile\n+++ /dev/null\n"
	for _, tc := range []struct {
		name, hunk string
		hunks      int
	}{
		{"Subversion's", "@@ +1 0,0 @@\n-\n", 0},
		{"with an old range", "@@ -1 +0,0 @@\n-\n", 1},
		{"without ranges", "@@ @@\n-\n", 1},
		{"deleting a line with text", "@@ +1 0,0 @@\n-all:\n", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustParse(t, head+tc.hunk)
			if got := len(p.Files[0].Hunks); got != tc.hunks || !p.Files[0].Deleted {
				t.Errorf("got %d hunks (deleted: %v), want %d of a deleted file", got, p.Files[0].Deleted, tc.hunks)
			}
		})
	}
}

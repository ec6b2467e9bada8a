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

// optionArg gives one of the options of gitcases_options_test.go to
// pair's o: --reject, --whitespace, --stat and the rest. It reports
// whether a was one of them.
func optionArg(a string, o *Options) bool {
	switch {
	case a == "--reject":
		o.Reject = true
	case strings.HasPrefix(a, "--whitespace="):
		o.Whitespace = strings.TrimPrefix(a, "--whitespace=")
	case a == "--stat":
		o.Reports.Stat = true
	case a == "--numstat":
		o.Reports.Numstat = true
	case a == "--summary":
		o.Reports.Summary = true
	case a == "--apply":
		o.Reports.Apply = true
	case a == "-z":
		o.Reports.Z = true
	case a == "--allow-empty":
		o.AllowEmpty = true
	case a == "--recount":
		o.Recount = true
	case a == "--unidiff-zero":
		// pair always reads hunks without context so.
	case a == "-v" || a == "--verbose":
		o.Verbose = true
	case a == "-q" || a == "--quiet":
		o.Quiet = true
	default:
		return false
	}
	return true
}

// wsTestFile is t4124's test file: each line names, between
// parentheses, the rules it breaks (! trailing-space, @ space-before-tab,
// # indent-with-non-tab, = the same with tabwidth=16, % tab-in-indent).
// Written with _ for a space and > for a tab, as t4124 writes it.
var wsTestFile = []string{
	"An_SP in an ordinary line>and a HT.",
	">A HT (%).",
	"_>A SP and a HT (@%).",
	"_>_A SP, a HT and a SP (@%).",
	"_______Seven SP.",
	"________Eight SP (#).",
	"_______>Seven SP and a HT (@%).",
	"________>Eight SP and a HT (@#%).",
	"_______>_Seven SP, a HT and a SP (@%).",
	"________>_Eight SP, a HT and a SP (@#%).",
	"_______________Fifteen SP (#).",
	"_______________>Fifteen SP and a HT (@#%).",
	"________________Sixteen SP (#=).",
	"________________>Sixteen SP and a HT (@#%=).",
	"_____a__Five SP, a non WS, two SP.",
	"A line with a (!) trailing SP_",
	"A line with a (!) trailing HT>",
}

// wsTestPatch is t4124's patch: wsTestFile added to the empty file
// target.
func wsTestPatch() string {
	var b strings.Builder
	fmt.Fprintf(&b, "diff --git a/target b/target\nindex e69de29..0000000 100644\n--- a/target\n+++ b/target\n@@ -0,0 +1,%d @@\n", len(wsTestFile))
	for _, l := range wsTestFile {
		l = strings.ReplaceAll(l, "_", " ")
		l = strings.Replace(l, ">", "\t", 1)
		b.WriteString("+" + l + "\n")
	}
	return b.String()
}

// applyCasesOptions follow git's tests of the options of
// gitcases_options_test.go: t4117 (--reject), t4124, t4125, t4138 and
// t4119 (--whitespace, core.whitespace, the whitespace attribute,
// apply.whitespace), t4126 (--allow-empty), and -U0 patches with and
// without --unidiff-zero.
func applyCasesOptions() []applyCase {
	// t4117: file1 holds 1 to 21; patch.1 adds A B after 2, C after 12
	// and D after 20; file1 has E after 1 and F after 20 instead.
	seq := func(name string, items ...string) string {
		return "printf '%s\\n' " + strings.Join(items, " ") + " > " + name + "\n"
	}
	one21 := strings.Fields("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21")
	changed := strings.Fields("1 2 A B 4 5 6 7 8 9 10 11 12 C 13 14 15 16 17 18 19 20 D 21")
	theirs := strings.Fields("1 E 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 F 21")
	// t4117's patch is git's own diff of file1 as it was: its hunks
	// that lack a line of the file fit only as git fits them, not as
	// pair fits a model's (edit's contextAsGit), and are rejected.
	// git writes the context lines of a hunk that matched only once its
	// whitespace was fixed as fixed; pair writes the file's lines.
	cs := []applyCase{
		{name: "t4117 without --reject: refused", setup: seq("file1", theirs...),
			makePatch: seq("file1", one21...) + "git add file1; " + seq("file1", changed...) + "git diff"},
		{name: "t4117 --verbose without --reject: refused", setup: seq("file1", theirs...), args: []string{"--verbose"},
			makePatch: seq("file1", one21...) + "git add file1; " + seq("file1", changed...) + "git diff"},
		{name: "t4117 --reject applies what places, writes file1.rej", setup: seq("file1", theirs...), args: []string{"--reject"},
			makePatch: seq("file1", one21...) + "git add file1; " + seq("file1", changed...) + "git diff"},
		{name: "t4117 --reject on a rename: file2 written, file2.rej", setup: seq("file1", theirs...), args: []string{"--reject"},
			makePatch: seq("file1", one21...) + "git commit -qam pre; " + seq("file1", changed...) + "git mv file1 file2; git diff -M HEAD"},
		{name: "t4117 --reject --verbose on a rename", setup: seq("file1", theirs...), args: []string{"--reject", "--verbose"},
			makePatch: seq("file1", one21...) + "git commit -qam pre; " + seq("file1", changed...) + "git mv file1 file2; git diff -M HEAD"},
		{name: "t4117 --verbose, applies cleanly", setup: seq("file1", one21...), args: []string{"--verbose"},
			makePatch: seq("file1", changed...) + "git diff"},
		// Ours: git's own diff of another version of the file, whose
		// context differs from the file's in whitespace only.
		{name: "a diff of another version, a context line's trailing space: refused", setup: seq("file", "a", "'bb '", "c", "d", "eeee", "f", "ggg", "h"),
			makePatch: seq("file", "a", "bb", "c", "d", "eeee", "f", "ggg", "h") + "git add file; sed -i s/d/D/ file; git diff"},
		{name: "a diff of another version, a context line's trailing space, --whitespace=fix", setup: seq("file", "a", "'bb '", "c", "d", "eeee", "f", "ggg", "h"), args: []string{"--whitespace=fix"},
			makePatch: seq("file", "a", "bb", "c", "d", "eeee", "f", "ggg", "h") + "git add file; sed -i s/d/D/ file; git diff"},
		{name: "a diff of another version, a context line indented, --ignore-whitespace: refused", setup: seq("file", "a", "'	bb'", "c", "d", "eeee", "f", "ggg", "h"), args: []string{"--ignore-whitespace"},
			makePatch: seq("file", "a", "bb", "c", "d", "eeee", "f", "ggg", "h") + "git add file; sed -i s/d/D/ file; git diff"},
		{name: "a diff of another version, a context line's space doubled, --ignore-whitespace", setup: seq("file", "a", "'b  b'", "c", "d", "eeee", "f", "ggg", "h"), args: []string{"--ignore-whitespace"},
			makePatch: seq("file", "a", "'b b'", "c", "d", "eeee", "f", "ggg", "h") + "git add file; sed -i s/d/D/ file; git diff"},
		{name: "--reject, every hunk of a file rejected", setup: seq("file1", theirs...) + seq("file2", one21...), args: []string{"--reject"},
			makePatch: seq("file1", "x") + seq("file2", changed...) + "git diff"},
		{name: "--reject, a hunk whose context changed", setup: seq("h", "1 2 3 4 5 6 7 8 9 10 11 12 thirteen 14 15"), args: []string{"--reject"},
			makePatch: seq("h", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15") + "git add h; " + seq("h", "1 2 X 4 5 6 7 8 9 10 11 12 Y 14 15") + "git diff"},
		{name: "--reject, a hunk whose context changed, with a section name and no newline at the end", setup: "printf 'int f()\n{\n1\n2\n3\n4\n5\n6\n7\n8\n9\nten\neleven\ntwelve\n13' > c.c", args: []string{"--reject"},
			makePatch: "printf 'int f()\n{\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13' > c.c; git add c.c; printf 'int f()\n{\n1\n2\nX\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14' > c.c; git diff"},
		{name: "--reject, nothing to reject", setup: seq("file1", one21...), args: []string{"--reject"},
			makePatch: seq("file1", changed...) + "git diff"},

		// t4124: the default rule, warned, refused, switched off.
		{name: "t4124 whitespace=nowarn, default rule", setup: ": > target", patch: wsTestPatch(), args: []string{"--whitespace=nowarn"}},
		{name: "t4124 whitespace=warn, default rule", setup: ": > target", patch: wsTestPatch(), args: []string{"--whitespace=warn"}},
		{name: "t4124 whitespace=error-all, default rule: refused", setup: ": > target", patch: wsTestPatch(), args: []string{"--whitespace=error-all"}},
		{name: "t4124 whitespace=error, default rule: refused", setup: ": > target", patch: wsTestPatch(), args: []string{"--whitespace=error"}},
		{name: "t4124 whitespace=error-all, no rule", setup: ": > target; git config core.whitespace -trailing,-space-before,-indent", patch: wsTestPatch(), args: []string{"--whitespace=error-all"}},
		{name: "t4124 whitespace=error-all, no rule (attribute)", setup: ": > target; echo 'target -whitespace' > .gitattributes", patch: wsTestPatch(), args: []string{"--whitespace=error-all"}},
		{name: "t4124 whitespace=fix, default rule", setup: ": > target", patch: wsTestPatch(), args: []string{"--whitespace=fix"}},
		{name: "t4124 whitespace=fix, whitespace attribute set", setup: ": > target; echo 'target whitespace' > .gitattributes", patch: wsTestPatch(), args: []string{"--whitespace=fix"}},
		{name: "t4124 spaces inserted by tab-in-indent", setup: ": > target; git config core.whitespace -trailing,-space,-indent,tab", patch: wsTestPatch(), args: []string{"--whitespace=fix"}},
		{name: "t4124 trailing whitespace and no newline at the end of file", setup: ": > target", args: []string{"--whitespace=fix"},
			patch: "diff --git a/target b/target\nindex e69de29..8bd6648 100644\n--- a/target\n+++ b/target\n@@ -0,0 +1,3 @@\n+An empty line follows\n+\n+A line with trailing whitespace and no newline \n\\ No newline at end of file\n"},
		{name: "t4124 blank at EOF with --whitespace=fix (1)", setup: seq("one", "a", "b", "c"), args: []string{"--whitespace=fix"},
			makePatch: "echo >> one; git diff -- one"},
		{name: "t4124 blank at EOF with --whitespace=fix (2)", setup: seq("one", "a", "b", "c"), args: []string{"--whitespace=fix"},
			makePatch: seq("one", "a", "b", "''", "''") + "git diff -- one"},
		{name: "t4124 blank at EOF with --whitespace=fix (3)", setup: seq("one", "a", "b", "''"), args: []string{"--whitespace=fix"},
			makePatch: seq("one", "a", "c", "''", "''", "''") + "git diff -- one"},
		{name: "t4124 blank at end of hunk, not at EOF with --whitespace=fix", setup: seq("one", "a", "b", "''", "''", "''", "''", "''", "d"), args: []string{"--whitespace=fix"},
			makePatch: seq("one", "a", "b", "''", "''", "''", "''", "''", "''", "d") + "git diff -- one"},
		{name: "t4124 blank at EOF with --whitespace=warn", setup: seq("one", "a", "b", "c"), args: []string{"--whitespace=warn"},
			makePatch: "echo >> one; git diff -- one"},
		{name: "t4124 blank at EOF with --whitespace=error: refused", setup: seq("one", "a", "b", "c"), args: []string{"--whitespace=error"},
			makePatch: "echo >> one; git diff -- one"},
		{name: "t4124 blank but not empty at EOF", setup: seq("one", "a", "b", "c"), args: []string{"--whitespace=warn"},
			makePatch: "echo '   ' >> one; git diff -- one"},
		{name: "t4124 applying beyond EOF requires one non-blank context line: refused", setup: seq("one", "a", "''"), args: []string{"--whitespace=fix"},
			makePatch: seq("one", "''", "''", "''", "''") + "git add one; echo b >> one; git diff -- one"},
		{name: "t4124 tons of blanks at EOF should not apply", setup: ": > one", args: []string{"--whitespace=fix"},
			makePatch: "for i in $(seq 64); do echo; done > one; git add one; echo a >> one; git diff -- one"},
		{name: "t4124 missing blank line at end with --whitespace=fix", setup: "echo a > one",
			args: []string{"--whitespace=fix"}, makePatch: seq("one", "a", "''") + "git add one; echo b >> one; git diff -- one"},
		{name: "t4124 missing blank line at end with --ignore-space-change --whitespace=fix", setup: "echo a > one",
			args: []string{"--ignore-space-change", "--whitespace=fix"}, makePatch: seq("one", "a", "''") + "git add one; echo b >> one; git diff -- one"},
		// The blank lines a file lacks at its end stand for the patch's
		// only with --whitespace=fix and blank-at-eof.
		{name: "missing blank line at end without --whitespace=fix: refused", setup: "echo a > one",
			makePatch: seq("one", "a", "''") + "git add one; echo b >> one; git diff -- one"},
		{name: "missing blank line at end with --whitespace=warn: refused", setup: "echo a > one", args: []string{"--whitespace=warn"},
			makePatch: seq("one", "a", "''") + "git add one; echo b >> one; git diff -- one"},
		{name: "missing blank line at end, fix without blank-at-eof: refused", setup: "echo a > one; git config core.whitespace -blank-at-eof", args: []string{"--whitespace=fix"},
			makePatch: seq("one", "a", "''") + "git add one; echo b >> one; git diff -- one"},
		{name: "missing blank lines at end, a line deleted before them", setup: seq("one", "x", "y", "z", "a"), args: []string{"--whitespace=fix"},
			makePatch: seq("one", "x", "y", "z", "a", "''", "''") + "git add one; " + seq("one", "x", "y", "Z", "a", "''", "''") + "git diff -- one"},
		{name: "missing blank lines at end, a blank line deleted among them", setup: seq("one", "x", "y", "z", "a"), args: []string{"--whitespace=fix"},
			makePatch: seq("one", "x", "y", "z", "a", "''", "''", "''") + "git add one; " + seq("one", "x", "y", "z", "a", "''", "''") + "echo b >> one; git diff -- one"},
		{name: "missing blank line at end, the hunk's lines also earlier in the file", setup: seq("one", "a", "''", "a"), args: []string{"--whitespace=fix"},
			makePatch: seq("one", "a", "''", "a", "''") + "git add one; echo b >> one; git diff -- one"},
		{name: "missing blank line at end, trailing blank lines added before it", setup: "echo a > one", args: []string{"--whitespace=fix"},
			makePatch: seq("one", "a", "''") + "git add one; " + seq("one", "a", "''", "''", "''") + "git diff -- one"},
		{name: "missing blank line at end, with trailing spaces", setup: "echo 'a  ' > one", args: []string{"--whitespace=fix"},
			makePatch: seq("one", "a", "'  '") + "git add one; echo b >> one; git diff -- one"},
		{name: "t4124 missing blanks at EOF must only match blank lines: refused", setup: "echo a > one", args: []string{"--whitespace=fix"},
			makePatch: seq("one", "a", "b") + "git add one; " + seq("one", "a", "b", "c", "d") + "git diff -- one"},
		{name: "t4124 whitespace=fix to expand", setup: "printf '\\t\\ta\\n\\t\\tb\\n\\t\\tc\\n                d\\n\\t\\te\\n\\t\\tf\\n\\t\\tg\\n' > preimage; git config core.whitespace tab-in-indent",
			args:  []string{"--whitespace=fix"},
			patch: "diff --git a/preimage b/preimage\n--- a/preimage\n+++ b/preimage\n@@ -1,7 +1,6 @@\n \t\ta\n \t\tb\n \t\tc\n-\t\td\n \t\te\n \t\tf\n \t\tg\n"},
		{name: "t4124 whitespace check skipped for excluded paths", setup: ": > used; : > unused; git config core.whitespace blank-at-eol", args: []string{"--include=used", "--stat", "--whitespace=error"},
			makePatch: "echo used > used; echo 'unused ' > unused; git diff"},
		{name: "apply.whitespace=error refuses", setup: ": > target; git config apply.whitespace error", patch: wsTestPatch()},
		{name: "--whitespace=nowarn overrides apply.whitespace=error", setup: ": > target; git config apply.whitespace error", patch: wsTestPatch(), args: []string{"--whitespace=nowarn"}},

		// t4125: context with broken whitespace.
		{name: "t4125 nofix", setup: seq("file", "'a '", "'bb '", "'c '", "'d '", "'eeee '", "'f '", "'ggg '", "'h '"), args: []string{"--whitespace=nowarn"},
			makePatch: "sed -i s/d/D/ file; git diff"},
		{name: "t4125 withfix (forward): the file fixed, the patch's context not", setup: seq("file", "a", "bb", "c", "d", "eeee", "f", "ggg", "h"), args: []string{"--whitespace=fix"},
			makePatch: seq("file", "'a '", "'bb '", "'c '", "'d '", "'eeee '", "'f '", "'ggg '", "'h '") + "git add file; sed -i s/d/D/ file; git diff"},
		{name: "t4125 withfix (backward): the patch fixed, the file not", setup: seq("file", "'a '", "'bb '", "'c '", "'d '", "'eeee '", "'f '", "'ggg '", "'h '"), args: []string{"--whitespace=fix"},
			makePatch: "sed -i 's/d/D/; s/ $//' file; git diff | sed 's/ $//'"},

		// t4119: apply.whitespace=strip, in a subdirectory too.
		{name: "t4119 --whitespace=strip", setup: "mkdir sub; echo A > sub/file1", args: []string{"--whitespace=strip"},
			makePatch: "echo 'B ' > sub/file1; git diff"},
		{name: "t4119 apply.whitespace strip from config", setup: "mkdir sub; echo A > sub/file1; git config apply.whitespace strip",
			makePatch: "echo 'B ' > sub/file1; git diff"},
		{name: "t4119 --whitespace=strip in a subdirectory", setup: "mkdir sub; echo A > sub/file1", args: []string{"--whitespace=strip"}, dir: "sub",
			makePatch: "echo 'B ' > sub/file1; git diff"},
		{name: "t4119 traditional patch in a subdirectory, from config", setup: "mkdir sub; echo A > sub/file1; git config apply.whitespace strip", dir: "sub",
			patch: "--- file1\t2007-02-21 01:04:24.000000000 -0800\n+++ file1+\t2007-02-21 01:07:44.000000000 -0800\n@@ -1 +1 @@\n-A\n+B \n"},
		{name: "t4119 traditional patch of depth 2, from the top", setup: "mkdir sub; echo A > sub/file1; git config apply.whitespace strip",
			patch: "--- a/sub/file1\t2007-02-21 01:04:24.000000000 -0800\n+++ b/sub/file1+\t2007-02-21 01:07:44.000000000 -0800\n@@ -1 +1 @@\n-A\n+B \n"},

		// t4126: empty patches.
		{name: "t4126 the mail of an empty commit with --allow-empty", setup: "echo keep > keep", args: []string{"--allow-empty"},
			patch: "From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\nFrom: A U Thor <author@example.com>\nDate: Thu, 7 Apr 2005 15:14:13 -0700\nSubject: [PATCH] empty commit\n\n---\n2.39.5\n\n"},
		{name: "t4126 an empty patch: refused", setup: "echo keep > keep", patch: "\n"},
		{name: "t4126 an empty patch with --allow-empty", setup: "echo keep > keep", patch: "\n", args: []string{"--allow-empty"}},

		// --recount: counts that do not fit the lines.
		{name: "--recount, header counts wrong", setup: seq("f", "a", "b", "c", "d"), args: []string{"--recount"},
			patch: "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,9 +1,9 @@\n a\n-b\n+B\n c\n d\n"},

		// -U0 patches, with and without --unidiff-zero.
		{name: "-U0 change in the middle with --unidiff-zero", setup: seq("f", one21...), args: []string{"--unidiff-zero"},
			makePatch: "sed -i 's/^10$/ten/' f; git diff -U0"},
		{name: "-U0 change in the middle without --unidiff-zero", setup: seq("f", one21...),
			differs:   "git refuses a hunk without context away from the file's edges unless --unidiff-zero; pair always places it by its line numbers, as --unidiff-zero does",
			makePatch: "sed -i 's/^10$/ten/' f; git diff -U0"},
		{name: "-U0 addition at the end without --unidiff-zero", setup: seq("f", one21...),
			makePatch: "echo 22 >> f; git diff -U0"},
		{name: "-U0 two hunks with --unidiff-zero", setup: seq("f", one21...), args: []string{"--unidiff-zero"},
			makePatch: "sed -i 's/^3$/three/; s/^17$/x\\ny/' f; git diff -U0"},
	}
	// --reject's .rej file on hunks of every shape of header, as the
	// patch wrote them: counts of 1 written or left out, counts of 0, a
	// section name; -R, --recount and --whitespace=fix change the hunks
	// that are applied, not those git writes back. Line 13 of h is not
	// the patch's, so its hunks are rejected; the one at line 2 places.
	place := "@@ -1,3 +1,3 @@\n 1\n-2\n+two\n 3\n"
	for _, r := range []struct{ name, hunk string }{
		{"counts of 1 written", "@@ -13,1 +13,1 @@\n-13\n+Y\n"},
		{"counts of 1 left out", "@@ -13 +13 @@\n-13\n+Y\n"},
		{"a deletion, new count 0", "@@ -13 +12,0 @@\n-13\n"},
		{"a deletion, counts 1 and 0 written", "@@ -13,1 +12,0 @@\n-13\n"},
		{"old count 2, new count 1 written, a section", "@@ -12,2 +12,1 @@ int f()\n-12\n-13\n+Y\n"},
		{"old count 2, new count 1 left out", "@@ -12,2 +12 @@\n-12\n-13\n+Y\n"},
		{"a header without the space before its section", "@@ -12,2 +12,2 @@f()\n 12\n-13\n+Y\n"},
		{"trailing whitespace, with --whitespace=fix", "@@ -12,2 +12,2 @@\n 12 \n-13\n+Y \n"},
		{"counts that are wrong, with --recount", "@@ -12,9 +12,1 @@\n 12\n-13\n+Y\n"},
	} {
		args := []string{"--reject"}
		switch {
		case strings.Contains(r.name, "--whitespace=fix"):
			args = append(args, "--whitespace=fix")
		case strings.Contains(r.name, "--recount"):
			args = append(args, "--recount")
		}
		cs = append(cs, applyCase{name: "--reject writes the hunk as written: " + r.name, args: args,
			setup: seq("h", "1 2 3 4 5 6 7 8 9 10 11 12 thirteen 14 15"),
			patch: "diff --git a/h b/h\n--- a/h\n+++ b/h\n" + place + r.hunk})
	}
	cs = append(cs, applyCase{name: "--reject -R writes the hunk as written", args: []string{"--reject", "-R"},
		setup: seq("h", "1 two 3 4 5 6 7 8 9 10 11 12 thirteen 14 15"),
		patch: "diff --git a/h b/h\n--- a/h\n+++ b/h\n" + place + "@@ -12,3 +12,3 @@\n 12\n-13\n+Y\n 14\n"})
	// t4124's rules, each with the default tab width and 16, from
	// core.whitespace and from the attribute.
	for _, t := range []string{"-", ""} {
		for _, s := range []string{"-", ""} {
			for _, i := range []string{"-", ""} {
				for _, h := range []string{"-", ""} {
					if h+i == "" {
						continue // tab-in-indent and indent-with-non-tab
					}
					rule := t + "trailing," + s + "space," + i + "indent," + h + "tab"
					for _, r := range []string{rule, rule + ",tabwidth=16"} {
						cs = append(cs,
							applyCase{name: "t4124 rule=" + r, setup: ": > target; git config core.whitespace " + r, patch: wsTestPatch(), args: []string{"--whitespace=fix"}},
							applyCase{name: "t4124 rule=" + r + " (attributes)", setup: ": > target; echo 'target whitespace=" + r + "' > .gitattributes", patch: wsTestPatch(), args: []string{"--whitespace=fix"}})
					}
				}
			}
		}
	}
	// t4138: tabs expanded to 63 columns by apply.whitespace=fix, on
	// git diff --no-index's patches of files indented with tabs, applied
	// to the same files indented with 63 spaces.
	ws := "git config core.whitespace tab-in-indent,tabwidth=63; git config apply.whitespace fix; "
	tabbed := func(name string, items ...string) string {
		return "printf '\\t%s\\n' " + strings.Join(items, " ") + " >> " + name + "; "
	}
	padded := func(name string, items ...string) string {
		return "printf '%64s\\n' " + strings.Join(items, " ") + " >> " + name + "; "
	}
	numbered := func(name string, from, to int, format string) string {
		return fmt.Sprintf("for x in $(seq %d %d); do printf '%s' '' $x >> %s; done; ", from, to, format, name)
	}
	noIndex := func(t string) string {
		return "{ git diff --no-index before after || true; } | sed -e 's/before/test-" + t + "/' -e 's/after/test-" + t + "/'"
	}
	cs = append(cs,
		applyCase{name: "t4138 ws expansion 1", setup: ws + padded("test-1", "1 2 3 4 5 6"),
			makePatch: tabbed("before", "1 2 3 4 5 6") + tabbed("after", "1 2 3") + padded("after", "a b c") + tabbed("after", "4 5 6") + noIndex("1")},
		applyCase{name: "t4138 ws expansion 2", setup: ws + padded("test-2", "a b c d e f"),
			makePatch: tabbed("before", "a b c d e f") + tabbed("after", "a b c") + numbered("after", 1, 9, "%63s%d\\n") + tabbed("after", "d e f") + noIndex("2")},
		applyCase{name: "t4138 ws expansion 3", setup: ws + padded("test-3", "a b c d e f"),
			makePatch: tabbed("before", "a b c d e f") + tabbed("after", "a b c") + numbered("after", 0, 99, "%63s%02d\\n") + tabbed("after", "d e f") + noIndex("3")},
		applyCase{name: "t4138 ws expansion 4", setup: ws + numbered("test-4", 0, 99, "%63s%02d\\n"),
			makePatch: numbered("before", 0, 49, "\\t%02d\\n") + "cp before after; " + padded("after", "a b c") + numbered("before", 50, 99, "\\t%02d\\n") +
				numbered("after", 50, 99, "\\t%02d\\n") + noIndex("4")},
		// The same change written by hand, its header's new count three
		// short: git reads the hunk to its counts and passes over the
		// three added lines after them.
		applyCase{name: "t4138 ws expansion 2, miscounted by hand", setup: ws + padded("test-2", "a b c d e f"),
			differs: "git ends a hunk where its header's counts end and passes over the lines after it; pair reads on while the lines are a hunk's (models miscount headers)",
			patch:   "diff --git a/test-2 b/test-2\n--- a/test-2\n+++ b/test-2\n@@ -1,6 +1,12 @@\n \ta\n \tb\n \tc\n-\td\n-\te\n-\tf\n" + ninePadded() + "+\td\n+\te\n+\tf\n"},
	)
	return cs
}

// ninePadded is the added lines 1 to 9 of t4138's second patch, each
// after 63 spaces.
func ninePadded() string {
	var b strings.Builder
	for x := 1; x < 10; x++ {
		fmt.Fprintf(&b, "+%63s%d\n", "", x)
	}
	return b.String()
}

// TestGitApplyReports compares pair apply's --stat, --numstat and
// --summary with git apply's, byte for byte, on patches of every kind
// git writes.
func TestGitApplyReports(t *testing.T) {
	t.Parallel()
	long := "a/very/long/directory/name/that/goes/on/and/on/past/fifty/columns"
	setup := lettersTo("f", 'z') + lettersTo("g", 'z') + lettersTo("h", 'm') + "printf '\\000\\001' > bin; mkdir -p " + long + " sub/dir; " +
		lettersTo(long+"/x", 'e') + lettersTo("sub/dir/r", 'z') + lettersTo("del", 'c') + "echo x > mode; seq 200 > big\n"
	change := "sed -i 's/^m$/M/; s/^q$/Q/; /^t$/d' f; git mv g g2; git mv sub/dir/r sub/dir/renamed; sed -i 's/^z$/Z/' sub/dir/renamed; " +
		"cp h h-copy; echo more >> h-copy; git add h-copy; printf '\\002' > bin; git rm -q del; chmod +x mode; echo n > 'new file'; printf 'q\\n' > \"$(printf 'quo\\tted')\"; " +
		"echo y >> " + long + "/x; seq 3 150 > big; git add -A; git diff --cached -M -C -C --binary"
	root, made, dir, _ := caseRepos(t, func(dir string) { sh(t, dir, setup) })
	patch, noCopies := filepath.Join(root, "all.patch"), filepath.Join(root, "nocopies.patch")
	if err := os.WriteFile(patch, []byte(sh(t, made, change)), 0o644); err != nil {
		t.Fatal(err)
	}
	// -R has no way back from a copy in pair: the copy as a creation.
	if err := os.WriteFile(noCopies, []byte(sh(t, made, "git diff --cached -M --binary")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--stat"}, {"--numstat"}, {"--summary"}, {"--stat", "--numstat", "--summary"},
		{"-R", "--stat", "--summary", "--numstat"}, {"--numstat", "-z"}, {"--stat", "--exclude=big"}, {"--directory=top", "--numstat"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			patch := patch
			if args[0] == "-R" {
				patch = noCopies
			}
			cmd := exec.Command("git", append(append([]string{"apply"}, args...), patch)...)
			cmd.Dir = dir
			want, err := cmd.Output()
			if err != nil {
				t.Fatalf("git apply %v: %v", args, err)
			}
			o, out, errw := options(dir, "")
			o.Patch = patch
			applyArgs(t, args, &o)
			if err := Run(context.Background(), o); err != nil {
				t.Fatalf("pair apply %v: %v\n%s", args, err, errw)
			}
			if got := out.String(); got != string(want) {
				t.Errorf("pair apply %v printed\n%s\ngit apply printed\n%s", args, got, want)
			}
			if st := sh(t, dir, "git status --porcelain"); st != "" {
				t.Errorf("the reports changed the tree:\n%s", st)
			}
		})
	}
}

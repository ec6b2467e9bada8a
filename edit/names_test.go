package edit_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// TestParseTraditionalNames: the names of ---/+++ pairs without git's
// headers, as git apply reads them.
func TestParseTraditionalNames(t *testing.T) {
	tests := []struct {
		name, old, new  string
		oldPath, newPth string
		stripped        bool
		created, gone   bool
		candidates      []string // of the source, when there is one
	}{
		{"timestamp after a tab", "x.go\t2024-03-01 10:00:00.123456789 +0100", "x.go\t2024-03-02 10:00:00.5 +0100", "x.go", "x.go", false, false, false, []string{"x.go"}},
		{"timestamp after spaces", "src/x.go  2024-03-01 10:00:00", "src/x.go   2024-03-02 10:00:00 -0500", "src/x.go", "src/x.go", false, false, false, []string{"src/x.go", "x.go"}},
		{"timestamp with a colon in its zone", "x.go\t2024-03-01 10:00:00 +05:30", "x.go\t2024-03-01 10:00:00 +05:30", "x.go", "x.go", false, false, false, []string{"x.go"}},
		{"spaces in a name before a timestamp", "old/my file.txt 2024-03-01 10:00:00", "new/my file.txt 2024-03-01 10:00:00", "my file.txt", "my file.txt", true, false, false, []string{"my file.txt"}},
		{"a tab in a name before a timestamp", "old/a\tb.txt\t2024-03-01 10:00:00 +0000", "new/a\tb.txt\t2024-03-01 10:00:00 +0000", "a\tb.txt", "a\tb.txt", true, false, false, []string{"a\tb.txt"}},
		{"quoted in part, then a timestamp", `"a/"sub/x.go` + "\t2024-03-01 10:00:00 +0000", `"b/"sub/x.go`, "sub/x.go", "sub/x.go", true, false, false, []string{"sub/x.go"}},
		{"a tab in a quoted name", `"a/x\ty.txt"` + "\t2024-03-01 10:00:00 +0000", `"b/x\ty.txt"`, "x\ty.txt", "x\ty.txt", true, false, false, []string{"x\ty.txt"}},
		{"x.go.orig and x.go: the shorter", "x.go.orig\t2024-03-01 10:00:00 +0000", "x.go\t2024-03-02 10:00:00 +0000", "x.go", "x.go", false, false, false, []string{"x.go", "x.go.orig"}},
		{"x.go and x.go~: the shorter", "x.go", "x.go~", "x.go", "x.go", false, false, false, []string{"x.go", "x.go~"}},
		{"dir/x.orig and dir/x", "dir/x.orig", "dir/x", "dir/x", "dir/x", false, false, false, []string{"dir/x", "x", "dir/x.orig", "x.orig"}},
		{"two directories: diff -r", "old/sub/x", "new/sub/x", "sub/x", "sub/x", true, false, false, []string{"sub/x"}},
		{"the epoch on the old side creates", "old/x\t1970-01-01 00:00:00.000000000 +0000", "new/x\t2024-03-02 10:00:00 +0000", "", "x", true, true, false, nil},
		{"the epoch west of UTC", "old/x\t1969-12-31 16:00:00.000000000 -0800", "new/x\t2024-03-02 10:00:00 -0800", "", "x", true, true, false, nil},
		{"the epoch east of UTC, colon zone", "old/x 1970-01-01 05:30:00 +05:30", "new/x 2024-03-02 10:00:00 +05:30", "", "x", true, true, false, nil},
		{"the epoch on the new side deletes", "old/x\t2024-03-02 10:00:00 +0100", "new/x\t1970-01-01 01:00:00.000000000 +0100", "x", "", true, false, true, []string{"x"}},
		{"an hour after the epoch is a date", "old/x\t1970-01-01 01:00:00 +0000", "new/x\t2024-03-02 10:00:00 +0000", "x", "x", true, false, false, []string{"x"}},
		{"a/ b/ prefixes", "a/x.go.orig", "b/x.go", "x.go", "x.go", true, false, false, []string{"x.go", "x.go.orig"}},
		{"created against /dev/null, a/ b/", "/dev/null", "b/n.txt\t2024-03-02 10:00:00 +0000", "", "n.txt", true, true, false, nil},
		{"created against /dev/null, another prefix", "/dev/null", "new/n.txt", "", "new/n.txt", false, true, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fd := onlyFile(t, text("--- "+tt.old, "+++ "+tt.new, "@@ -1 +1 @@", "-a", "+b"))
			if fd.OldPath != tt.oldPath || fd.NewPath != tt.newPth || fd.Stripped != tt.stripped || fd.New != tt.created || fd.Deleted != tt.gone {
				t.Errorf("got %q -> %q stripped=%v new=%v deleted=%v, want %q -> %q stripped=%v new=%v deleted=%v",
					fd.OldPath, fd.NewPath, fd.Stripped, fd.New, fd.Deleted, tt.oldPath, tt.newPth, tt.stripped, tt.created, tt.gone)
			}
			if fd.Names == nil {
				t.Fatal("no Names")
			}
			var got []string
			if src := fd.Source(); src != "" {
				got = fd.Candidates(src)
			}
			if !slices.Equal(got, tt.candidates) {
				t.Errorf("candidates %q, want %q", got, tt.candidates)
			}
		})
	}
}

// TestStripNames: -p N as git apply reads it, on traditional and git
// diffs, and a creation stripped like the patch's other sections.
// TestParseOtherGitPrefixes: git diff --src-prefix=old/
// --dst-prefix=new/ names its files under prefixes other than a/ and b/;
// git apply removes the first directory of a git diff's names whatever it
// is, a created file's too.
func TestParseOtherGitPrefixes(t *testing.T) {
	tests := []struct {
		name, patch     string
		oldPath, newPth string
		stripped        bool
	}{
		{"changed", text("diff --git old/d/x.txt new/d/x.txt", "index 1..2 100644", "--- old/d/x.txt", "+++ new/d/x.txt", "@@ -1 +1 @@", "-a", "+b"), "d/x.txt", "d/x.txt", true},
		{"created", text("diff --git old/d/n.txt new/d/n.txt", "new file mode 100644", "index 0000000..2", "--- /dev/null", "+++ new/d/n.txt", "@@ -0,0 +1 @@", "+b"), "", "d/n.txt", true},
		{"deleted", text("diff --git src/x new/x", "deleted file mode 100644", "index 1..0000000", "--- src/x", "+++ /dev/null", "@@ -1 +0,0 @@", "-a"), "x", "", true},
		{"a name with spaces", text("diff --git old/my x.txt new/my x.txt", "--- old/my x.txt", "+++ new/my x.txt", "@@ -1 +1 @@", "-a", "+b"), "my x.txt", "my x.txt", true},
		{"a mode change alone", text("diff --git old/run.sh new/run.sh", "old mode 100644", "new mode 100755"), "run.sh", "run.sh", true},
		{"--no-prefix: one directory, kept as written", text("diff --git src/x.go src/x.go", "--- src/x.go", "+++ src/x.go", "@@ -1 +1 @@", "-a", "+b"), "src/x.go", "src/x.go", false},
		{"a rename with an edit: its own lines name it", text("diff --git old/f1.txt new/src/f5 x.txt", "similarity index 55%", "rename from f1.txt", "rename to src/f5 x.txt", "index 1..2 100644",
			"--- old/f1.txt", "+++ new/src/f5 x.txt\t", "@@ -1 +1 @@", "-a", "+b"), "f1.txt", "src/f5 x.txt", false},
		{"--no-prefix: an empty new file, no ---/+++ names", text("diff --git src/f7.txt src/f7.txt", "new file mode 100644", "index 0000000..e69de29"), "", "src/f7.txt", false},
		{"--no-prefix rename: its own lines name it", text("diff --git src/x.go lib/x.go", "similarity index 100%", "rename from src/x.go", "rename to lib/x.go"), "src/x.go", "lib/x.go", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fd := onlyFile(t, tt.patch)
			if fd.OldPath != tt.oldPath || fd.NewPath != tt.newPth || fd.Stripped != tt.stripped {
				t.Errorf("got %q -> %q stripped=%v, want %q -> %q stripped=%v", fd.OldPath, fd.NewPath, fd.Stripped, tt.oldPath, tt.newPth, tt.stripped)
			}
		})
	}
}

func TestStripNames(t *testing.T) {
	fd := onlyFile(t, text("--- orig/src/x.go.orig", "+++ work/src/x.go", "@@ -1 +1 @@", "-a", "+b"))
	for n, want := range map[int]string{1: "src/x.go", 2: "x.go"} {
		if err := fd.StripNames(n); err != nil || fd.OldPath != want || fd.NewPath != want || !fd.Stripped {
			t.Errorf("-p%d: got %q -> %q, %v; want %q", n, fd.OldPath, fd.NewPath, err, want)
		}
	}
	if err := fd.StripNames(0); err != nil || fd.OldPath != "work/src/x.go" {
		t.Errorf("-p0: got %q, %v; want the new side's name", fd.OldPath, err)
	}
	if err := fd.StripNames(3); !errors.Is(err, edit.ErrStrip) {
		t.Errorf("-p3: got %q, %v; want ErrStrip", fd.OldPath, err)
	}

	g := onlyFile(t, text("diff --git a/d/e/x.go b/d/e/x.go", "--- a/d/e/x.go", "+++ b/d/e/x.go", "@@ -1 +1 @@", "-a", "+b"))
	if err := g.StripNames(3); err != nil || g.OldPath != "x.go" || g.NewPath != "x.go" {
		t.Errorf("git -p3: got %q -> %q, %v", g.OldPath, g.NewPath, err)
	}
	if err := g.StripNames(0); !errors.Is(err, edit.ErrStrip) {
		t.Errorf("git -p0: got %v, want ErrStrip", err)
	}

	p := mustParse(t, text(
		"--- old/a.txt\t2024-03-01 10:00:00 +0000", "+++ new/a.txt\t2024-03-01 10:00:00 +0000", "@@ -1 +1 @@", "-a", "+b",
		"--- /dev/null", "+++ new/sub/n.txt", "@@ -0,0 +1 @@", "+n",
	))
	if f := p.Files[1]; f.NewPath != "sub/n.txt" || !f.Stripped {
		t.Errorf("creation: got %q stripped=%v, want sub/n.txt like the section before it", f.NewPath, f.Stripped)
	}

	// A name that leads out keeps its "..", and the root its "/": the
	// caller refuses them rather than writing inside the tree.
	p = mustParse(t, text(
		"--- a/x", "+++ b/x", "@@ -1 +1 @@", "-a", "+b",
		"--- /dev/null", "+++ ../out.txt", "@@ -0,0 +1 @@", "+n",
		"--- /dev/null", "+++ /etc/out.txt", "@@ -0,0 +1 @@", "+n",
	))
	if a, b := p.Files[1].NewPath, p.Files[2].NewPath; a != "../out.txt" || b != "/etc/out.txt" {
		t.Errorf("got %q and %q, want them as written", a, b)
	}
}

// TestParseModesCanonical: modes git would not write are read as git
// reads them: executable by the owner is 100755, else 100644.
func TestParseModesCanonical(t *testing.T) {
	tests := []struct {
		lines          []string
		oldMode, nwMod string
	}{
		{[]string{"old mode 100660", "new mode 100770"}, "100644", "100755"},
		{[]string{"old mode 100600", "new mode 100744"}, "100644", "100755"},
		{[]string{"index 1234567..89abcde 100775"}, "100755", "100755"},
		{[]string{"old mode 100644", "new mode 120000"}, "100644", "120000"},
		{[]string{"new file mode 100664"}, "", "100644"},
	}
	for _, tt := range tests {
		lines := append([]string{"diff --git a/x b/x"}, tt.lines...)
		fd := onlyFile(t, text(lines...))
		if fd.OldMode != tt.oldMode || fd.NewMode != tt.nwMod {
			t.Errorf("%q: got %q/%q, want %q/%q", tt.lines, fd.OldMode, fd.NewMode, tt.oldMode, tt.nwMod)
		}
	}
	// 100660 -> 100644 is no change of mode at all.
	if fd := onlyFile(t, text("diff --git a/x b/x", "old mode 100660", "new mode 100644")); fd.ModeChange() {
		t.Error("100660 -> 100644 read as a mode change")
	}
}

package edit_test

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/render")

// renderCase is a file, hunks placed in it, and how to name it.
type renderCase struct {
	name                   string
	oldPath, newPath, mode string
	old                    string
	patch                  string          // placed against old, when hunks is nil
	hunks                  []edit.Resolved // used as they are, when set
}

func renderCases() []renderCase {
	const hdr = "--- a/f\n+++ b/f\n"
	return []renderCase{
		{
			name:    "modify",
			oldPath: "main.go", newPath: "main.go",
			old: goSrc,
			patch: hdr + text(
				"@@ -6,3 +6,3 @@",
				` 	name := "world"`,
				`-	fmt.Println("hello", name)`,
				`+	fmt.Println("goodbye", name)`,
				" 	count := 3",
			),
		},
		{
			name:    "several_hunks",
			oldPath: "main.go", newPath: "main.go",
			old: goSrc,
			patch: hdr + text(
				"@@ -3,2 +3,4 @@",
				` import "fmt"`,
				`+import "os"`,
				`+import "strings"`,
				" ",
				"@@ -7,3 +9,4 @@",
				` 	fmt.Println("hello", name)`,
				"-	count := 3",
				"+	count := len(os.Args)",
				`+	name = strings.ToUpper(name)`,
				" 	for i := 0; i < count; i++ {",
				"@@ -14,3 +17,2 @@",
				" func helper() string {",
				`-	return "help"`,
				" }",
			),
		},
		{
			name:    "separate_hunks_shift_numbers",
			oldPath: "lines.txt", newPath: "lines.txt",
			old: numbered(40),
			patch: hdr + text(
				"@@ -3,3 +3,5 @@",
				" line 3",
				" line 4",
				"+new A",
				"+new B",
				" line 5",
				"@@ -20,5 +22,4 @@",
				" line 20",
				" line 21",
				"-line 22",
				" line 23",
				" line 24",
				"@@ -36,3 +37,3 @@",
				" line 36",
				"-line 37",
				"+LINE 37",
				" line 38",
			),
		},
		{
			name:    "placed_by_content",
			oldPath: "main.go", newPath: "main.go",
			old: goSrc,
			patch: hdr + text(
				"@@ ... @@",
				"     for i := 0; i < count; i++ {",
				"         fmt.Println(i)",
				"+        fmt.Println(i * 2)",
				"     }",
				"@@ -40,2 +40,2 @@",
				" func main() {",
				"-    name := “world”",
				"+    name := “there”",
				"     fmt.Println(“hello”, name)",
			),
		},
		{
			name:    "create",
			newPath: "bin/run.sh", mode: "100755",
			patch: text("--- /dev/null", "+++ b/bin/run.sh", "@@ -0,0 +1,2 @@", "+#!/bin/sh", "+echo hi"),
		},
		{
			name:    "create_without_final_newline",
			newPath: "VERSION",
			patch:   text("--- /dev/null", "+++ b/VERSION", "@@ -0,0 +1 @@", "+1.2.3", `\ No newline at end of file`),
		},
		{
			name:    "delete",
			oldPath: "old.txt",
			old:     text("one", "two", "three"),
			patch:   text("--- a/old.txt", "+++ /dev/null", "@@ -1,3 +0,0 @@", "-one", "-two", "-three"),
		},
		{
			name:    "delete_without_final_newline",
			oldPath: "old.txt",
			old:     "one\ntwo",
			patch:   text("--- a/old.txt", "+++ /dev/null", "@@ -1,2 +0,0 @@", "-one", "-two", `\ No newline at end of file`),
		},
		{
			name:    "no_final_newline_in_old_and_new",
			oldPath: "f.txt", newPath: "f.txt",
			old:   "a\nb\nc",
			patch: hdr + text("@@ -1,3 +1,3 @@", " a", "-b", "+B", " c", `\ No newline at end of file`),
		},
		{
			name:    "no_final_newline_changed_last_line",
			oldPath: "f.txt", newPath: "f.txt",
			old:   "a\nb\nc",
			patch: hdr + text("@@ -2,2 +2,2 @@", " b", "-c", "+C"),
		},
		{
			name:    "final_newline_added",
			oldPath: "f.txt", newPath: "f.txt",
			old:   "a\nb\nc",
			patch: hdr + text("@@ -2,2 +2,2 @@", " b", "-c", `\ No newline at end of file`, "+C"),
		},
		{
			name:    "final_newline_removed",
			oldPath: "f.txt", newPath: "f.txt",
			old:   text("a", "b", "c"),
			patch: hdr + text("@@ -2,2 +2,2 @@", " b", "-c", "+C", `\ No newline at end of file`),
		},
		{
			name:    "eof_context_line_gains_newline",
			oldPath: "f.txt", newPath: "f.txt",
			old:   "a\nb\nc",
			hunks: []edit.Resolved{{Start: 0, Lines: ls(" a", "-b", "+B", " c"), FinalNewline: edit.NewlineAdd}},
		},
		{
			name:    "eof_context_line_loses_newline",
			oldPath: "f.txt", newPath: "f.txt",
			old:   text("a", "b", "c"),
			hunks: []edit.Resolved{{Start: 0, Lines: ls(" a", "-b", "+B", " c"), FinalNewline: edit.NewlineRemove}},
		},
		{
			name:    "eof_lines_added_after_last_line_without_newline",
			oldPath: "f.txt", newPath: "f.txt",
			old:   "a\nb",
			patch: hdr + text("@@ -1,2 +1,3 @@", " a", " b", "+c"),
		},
		{
			name:    "hunks_sharing_lines_merged",
			oldPath: "f.txt", newPath: "f.txt",
			old: text("a", "b", "c", "d", "e", "f"),
			hunks: []edit.Resolved{
				{Hunk: 1, Start: 2, Lines: ls(" c", "-d", "+D", " e")},
				{Hunk: 0, Start: 0, Lines: ls(" a", "-b", "+B", " c")},
			},
		},
		{
			name:    "rename_with_change",
			oldPath: "old name.txt", newPath: "dir/new name.txt",
			old:   text("a", "b", "c"),
			patch: hdr + text("@@ -1,3 +1,3 @@", " a", "-b", "+B", " c"),
		},
		{
			name:    "quoted_path",
			oldPath: "dir/tést \"q\".txt", newPath: "dir/tést \"q\".txt",
			old:   text("a", "b", "c"),
			patch: hdr + text("@@ -1,3 +1,3 @@", " a", "-b", "+B", " c"),
		},
	}
}

// numbered returns a text of n lines "line 1" to "line n".
func numbered(n int) string {
	var lines []string
	for i := 1; i <= n; i++ {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	return text(lines...)
}

func (rc renderCase) resolve(t *testing.T) []edit.Resolved {
	t.Helper()
	if rc.hunks != nil {
		return rc.hunks
	}
	return mustPlace(t, rc.old, rc.patch)
}

func TestRenderGolden(t *testing.T) {
	for _, rc := range renderCases() {
		t.Run(rc.name, func(t *testing.T) {
			rs := rc.resolve(t)
			got, err := edit.Render(rc.oldPath, rc.newPath, rc.mode, rc.old, rs)
			if err != nil {
				t.Fatalf("Render: got error %v, want none", err)
			}
			golden := filepath.Join("testdata", "render", rc.name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("reading golden file (run go test ./edit -run TestRenderGolden -update): %v", err)
			}
			if got != string(want) {
				t.Errorf("Render:\ngot:\n%s\nwant (%s):\n%s", got, golden, want)
			}

			// The rendered diff, read back, places exactly and applies to
			// the same text.
			wantText := mustApply(t, rc.old, rs)
			fd := onlyFile(t, got)
			again, errs := edit.Place(rc.old, fd)
			if len(errs) > 0 {
				t.Fatalf("Place of the rendered diff: got errors %v, want none", errs)
			}
			for _, r := range again {
				if r.Pass != edit.PassExact || r.Offset != 0 {
					t.Errorf("Place of the rendered diff: got pass %v offset %d, want exact at the numbered line", r.Pass, r.Offset)
				}
			}
			if got := mustApply(t, rc.old, again); got != wantText {
				t.Errorf("Apply of the rendered diff:\ngot  %q\nwant %q", got, wantText)
			}
		})
	}
}

func TestRenderGitApply(t *testing.T) {
	requireGit(t)
	for _, rc := range renderCases() {
		t.Run(rc.name, func(t *testing.T) {
			rs := rc.resolve(t)
			diff, err := edit.Render(rc.oldPath, rc.newPath, rc.mode, rc.old, rs)
			if err != nil {
				t.Fatalf("Render: got error %v, want none", err)
			}
			want := mustApply(t, rc.old, rs)
			got, exists, dir := gitApply(t, rc.oldPath, rc.newPath, rc.old, diff)
			if rc.newPath == "" {
				if exists {
					t.Errorf("git apply left %s, want it deleted", rc.oldPath)
				}
				return
			}
			if got != want {
				t.Errorf("git apply:\ngot  %q\nwant %q (Apply)\ndiff:\n%s", got, want, diff)
			}
			if rc.mode == "100755" {
				fi, err := os.Stat(filepath.Join(dir, rc.newPath))
				if err != nil {
					t.Fatal(err)
				}
				if fi.Mode()&0o111 == 0 {
					t.Errorf("git apply: got mode %v, want executable", fi.Mode())
				}
			}
		})
	}
}

func TestRenderStale(t *testing.T) {
	rs := []edit.Resolved{{Start: 0, Lines: ls(" a", "-b", "+B")}}
	if _, err := edit.Render("f", "f", "", text("a", "x"), rs); !errors.Is(err, edit.ErrStale) {
		t.Errorf("Render against a changed text: got %v, want ErrStale", err)
	}
}

// requireGit fails the test when git is not installed: the cross-checks
// are part of the contract, not optional.
func requireGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("git is required for the cross-checks: %v", err)
	}
}

// git runs git in dir with a clean configuration.
func git(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+filepath.Join(home, ".gitconfig"),
		"HOME="+home,
		"XDG_CONFIG_HOME="+home,
		"LC_ALL=C",
	)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// gitApply writes old to oldPath in a new repository, applies diff with
// git apply and returns the content of newPath, whether oldPath (for a
// deletion) or newPath still exists, and the repository's directory.
func gitApply(t *testing.T, oldPath, newPath, old, diff string) (string, bool, string) {
	t.Helper()
	dir := t.TempDir()
	if out, err := git(t, dir, "init", "-q"); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	if oldPath != "" {
		p := filepath.Join(dir, oldPath)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(old), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	patch := filepath.Join(t.TempDir(), "rendered.diff")
	if err := os.WriteFile(patch, []byte(diff), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := git(t, dir, "apply", "--check", patch); err != nil {
		t.Fatalf("git apply --check: %v\n%s\ndiff:\n%s", err, out, diff)
	}
	if out, err := git(t, dir, "apply", patch); err != nil {
		t.Fatalf("git apply: %v\n%s\ndiff:\n%s", err, out, diff)
	}
	p := newPath
	if p == "" {
		p = oldPath
	}
	b, err := os.ReadFile(filepath.Join(dir, p))
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, dir
	}
	if err != nil {
		t.Fatal(err)
	}
	if newPath != "" && oldPath != "" && oldPath != newPath {
		if _, err := os.Stat(filepath.Join(dir, oldPath)); err == nil {
			t.Errorf("git apply: %s still exists after the rename", oldPath)
		}
	}
	return string(b), true, dir
}

// Guard against a golden file left behind by a removed case.
func TestRenderGoldenFilesHaveCases(t *testing.T) {
	names := map[string]bool{}
	for _, rc := range renderCases() {
		names[rc.name+".golden"] = true
	}
	files, err := filepath.Glob(filepath.Join("testdata", "render", "*.golden"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !names[filepath.Base(f)] {
			t.Errorf("%s: no render case uses it", f)
		}
	}
	if !*update && len(files) != len(names) {
		t.Errorf("got %d golden files, want %d", len(files), len(names))
	}
}

// git apply anchors a hunk without trailing context to the end of the
// file, so a rendered hunk must have context on both sides even when the
// resolved hunks (from a model's diff) have it on one side only.
func TestRenderGitApplyOneSidedContext(t *testing.T) {
	requireGit(t)
	old := goSrc
	patch := "--- a/main.go\n+++ b/main.go\n" + text(
		"@@ -3 +3,3 @@",
		` import "fmt"`,
		`+import "os"`,
		"@@ -5,2 +5,2 @@",
		" func main() {",
		`-	name := "world"`,
		`+	name := "there"`,
	)
	rs := mustPlace(t, old, patch)
	diff, err := edit.Render("main.go", "main.go", "", old, rs)
	if err != nil {
		t.Fatal(err)
	}
	want := mustApply(t, old, rs)
	if got, _, _ := gitApply(t, "main.go", "main.go", old, diff); got != want {
		t.Errorf("git apply: got %q, want %q", got, want)
	}
}

// The diff rendered for a CRLF file must match the file's line endings so
// that git apply accepts it.
func TestRenderGitApplyCRLF(t *testing.T) {
	requireGit(t)
	old := "a\r\nb\r\nc\r\n"
	rs := mustPlace(t, old, "--- a/f\n+++ b/f\n"+text("@@ -1,3 +1,3 @@", " a", "-b", "+B", " c"))
	diff, err := edit.Render("f", "f", "", old, rs)
	if err != nil {
		t.Fatal(err)
	}
	want := mustApply(t, old, rs)
	if got, _, _ := gitApply(t, "f", "f", old, diff); got != want {
		t.Errorf("git apply: got %q, want %q", got, want)
	}
}

// In a file with mixed line endings, a CRLF line that the rendered diff
// shows as deleted and added again must keep its ending when the diff is
// read back (as after an "e" edit in review): what is approved is what is
// written. (Found by FuzzPlace: testdata/fuzz/FuzzPlace/b29cebff3d518662.)
func TestRenderMixedEndingsReadBack(t *testing.T) {
	old := "a\nb\r\nc"
	rs := mustPlace(t, old, "--- a/f\n+++ b/f\n"+text("@@ -2,2 +2,1 @@", " b", "-c", `\ No newline at end of file`))
	want := mustApply(t, old, rs)
	diff, err := edit.Render("f", "f", "", old, rs)
	if err != nil {
		t.Fatal(err)
	}
	if got := mustApply(t, old, mustPlace(t, old, diff)); got != want {
		t.Errorf("Apply(Place(Render)): got %q, want %q (Apply's result)\ndiff:\n%q", got, want, diff)
	}
}

// A carriage return that no line feed follows (a file ending in "\r") is
// the last line's content. git diff writes it before the "\ No newline
// at end of file" marker; pair reads it back as content, places the line
// exactly, and writes the file's bytes as git apply does. Render writes
// such a line the same way, and no CR of its own before a marker. (Found
// by FuzzPlace: testdata/fuzz/FuzzPlace/bare-cr-file.)
func TestLoneCarriageReturnAtEnd(t *testing.T) {
	requireGit(t)
	for _, c := range []struct{ name, old, new string }{
		{"only a CR", "\r", "\r\n\n"},
		{"CRLF file, last line CR", "a\r\nb\r", "a\r\nc\r"},
		{"CRLF file, CR dropped", "a\r\nb\r", "a\r\nb"},
		{"CRLF file, CR added", "a\r\nb", "a\r\nb\r"},
		{"LF file, line ends with CR", "a\nb\r", "a\nB\r"},
		{"CR line gets a newline", "a\nb\r", "a\nb\r\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			patch := gitDiffNoIndex(t, c.old, c.new)
			rs := mustPlace(t, c.old, patch)
			for _, r := range rs {
				if r.Label() != "exact" {
					t.Errorf("Place: got label %q, want exact\npatch: %q", r.Label(), patch)
				}
			}
			if got := mustApply(t, c.old, rs); got != c.new {
				t.Errorf("Apply(git's diff): got %q, want %q\npatch: %q", got, c.new, patch)
			}
			diff, err := edit.Render("f", "f", "", c.old, rs)
			if err != nil {
				t.Fatal(err)
			}
			if got := mustApply(t, c.old, mustPlace(t, c.old, diff)); got != c.new {
				t.Errorf("Apply(Place(Render)): got %q, want %q\ndiff: %q", got, c.new, diff)
			}
			if got, _, _ := gitApply(t, "f", "f", c.old, diff); got != c.new {
				t.Errorf("git apply of Render: got %q, want %q\ndiff: %q", got, c.new, diff)
			}
		})
	}
}

// gitDiffNoIndex returns git's diff from old to new as a change of f.
func gitDiffNoIndex(t *testing.T, old, new string) string {
	t.Helper()
	dir := t.TempDir()
	for name, s := range map[string]string{"a": old, "b": new} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := git(t, dir, "diff", "--no-index", "--no-color", "a", "b")
	if err == nil {
		t.Fatalf("git diff --no-index: no difference between %q and %q", old, new)
	}
	_, hunks, ok := strings.Cut(out, "\n@@")
	if !ok {
		t.Fatalf("git diff --no-index: no hunk in %q", out)
	}
	return "--- a/f\n+++ b/f\n@@" + hunks
}

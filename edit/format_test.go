package edit

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
)

// formShape writes a patch's files and hunks compactly: one line per file
// ("path" flags), then its hunks' lines with their kind prefix.
func formShape(files []*FileDiff) string {
	var b strings.Builder
	for _, f := range files {
		fmt.Fprintf(&b, "file %q -> %q", f.OldPath, f.NewPath)
		for _, flag := range []struct {
			on   bool
			name string
		}{{f.New, "new"}, {f.Deleted, "deleted"}, {f.Renamed, "renamed"}} {
			if flag.on {
				b.WriteString(" " + flag.name)
			}
		}
		b.WriteByte('\n')
		for _, h := range f.Hunks {
			b.WriteString("@@")
			if h.HasNumbers {
				fmt.Fprintf(&b, " %d", h.OldStart)
			}
			if h.Section != "" {
				b.WriteString(" " + h.Section)
			}
			b.WriteByte('\n')
			for _, l := range h.Lines {
				b.WriteString(string(l.Kind) + l.Text + "\n")
			}
		}
	}
	return b.String()
}

func TestParseEditsSearchReplace(t *testing.T) {
	tests := []struct {
		name, text, want string
		ignored          int
	}{{
		name: "path before the fence, two blocks, two files",
		text: "Here is the fix.\n\nmain.go\n```go\n<<<<<<< SEARCH\nfunc f() {\n\treturn 1\n}\n=======\nfunc f() {\n\treturn 2\n}\n>>>>>>> REPLACE\n```\n\nutil/x.go\n```go\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n",
		want: "file \"main.go\" -> \"main.go\"\n@@\n func f() {\n-\treturn 1\n+\treturn 2\n }\n" +
			"file \"util/x.go\" -> \"util/x.go\"\n@@\n-a\n+b\n",
	}, {
		name: "path as the fence's first line, several blocks per file and fence",
		text: "```python\nsrc/app.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n<<<<<<< SEARCH\ny = 1\n=======\n>>>>>>> REPLACE\n```\n",
		want: "file \"src/app.py\" -> \"src/app.py\"\n@@\n-x = 1\n+x = 2\n@@\n-y = 1\n",
	}, {
		name: "CRLF, no final newline, a path with spaces in backticks",
		text: "`my dir/my file.txt`\r\n```\r\n<<<<<<< SEARCH\r\nold\r\n=======\r\nnew\r\n>>>>>>> REPLACE\r\n```",
		want: "file \"my dir/my file.txt\" -> \"my dir/my file.txt\"\n@@\n-old\n+new\n",
	}, {
		name: "a bare path with a space and an extension, and an empty SEARCH",
		text: "docs/new page.md\n```\n<<<<<<< SEARCH\n=======\n# Title\n\nText\n>>>>>>> REPLACE\n```\n",
		want: "file \"docs/new page.md\" -> \"docs/new page.md\"\n@@\n+# Title\n+\n+Text\n",
	}, {
		name:    "example code beside the blocks is ignored",
		text:    "Run it with:\n```sh\ngo test ./...\n```\nmain.go\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n",
		want:    "file \"main.go\" -> \"main.go\"\n@@\n-a\n+b\n",
		ignored: 1,
	}, {
		name: "a block without a path takes the previous block's file",
		text: "a.c\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n\n<<<<<<< SEARCH\nz\n=======\nw\n>>>>>>> REPLACE\n",
		want: "file \"a.c\" -> \"a.c\"\n@@\n-x\n+y\n@@\n-z\n+w\n",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := ParseEdits(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			if e.Form != FormSearchReplace {
				t.Errorf("form %q, want %q", e.Form, FormSearchReplace)
			}
			if got := formShape(e.Files); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			if len(e.Ignored) != tt.ignored {
				t.Errorf("ignored %v, want %d blocks", e.Ignored, tt.ignored)
			}
		})
	}
}

func TestParseEditsMalformed(t *testing.T) {
	tests := []struct {
		name, text string
		form       Form
		line       int
		msg        string
	}{
		{"no divider", "a.go\n<<<<<<< SEARCH\nx\n>>>>>>> REPLACE\n", FormSearchReplace, 4, "no \"=======\""},
		{"no replace marker", "a.go\n<<<<<<< SEARCH\nx\n=======\ny\n", FormSearchReplace, 5, "ends before the block opened at line 2 is closed"},
		{"no divider at the end", "a.go\n<<<<<<< SEARCH\nx", FormSearchReplace, 3, "ends in the SEARCH block opened at line 2"},
		{"two dividers", "a.go\n<<<<<<< SEARCH\nx\n=======\ny\n=======\nz\n>>>>>>> REPLACE\n", FormSearchReplace, 6, "not closed"},
		{"replace without search", "a.go\n>>>>>>> REPLACE\n<<<<<<< SEARCH\n=======\n>>>>>>> REPLACE\n", FormSearchReplace, 2, "without a \"<<<<<<< SEARCH\""},
		{"no path", "Change this:\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n", FormSearchReplace, 2, "without a file path"},
		{"v4a bad line", "*** Begin Patch\n*** Update File: a.go\n@@\n x\nbroken\n*** End Patch\n", FormV4A, 5, "must start with"},
		{"v4a unknown marker", "*** Begin Patch\n*** Rename File: a.go\n*** End Patch\n", FormV4A, 2, "unknown marker"},
		{"v4a add line without plus", "*** Begin Patch\n*** Add File: a.go\n+x\ny\n*** End Patch\n", FormV4A, 4, "must start with +"},
		{"v4a anchor alone", "*** Begin Patch\n*** Update File: a.go\n@@ func f()\n*** End Patch\n", FormV4A, 4, "anchor without"},
		{"v4a move late", "*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n*** Move to: b.go\n*** End Patch\n", FormV4A, 6, "must follow"},
		{"v4a end of file outside", "*** Begin Patch\n*** Add File: a.go\n+x\n*** End of File\n*** End Patch\n", FormV4A, 4, "outside an update hunk"},
		{"v4a no path", "*** Begin Patch\n*** Update File:\n*** End Patch\n", FormV4A, 2, "without a path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseEdits(tt.text)
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("got %v, want a *FormatError", err)
			}
			if fe.Form != tt.form || fe.Line != tt.line || !strings.Contains(fe.Msg, tt.msg) {
				t.Errorf("got %v, want %s line %d with %q", err, tt.form, tt.line, tt.msg)
			}
			if !strings.Contains(err.Error(), fmt.Sprintf("line %d", tt.line)) {
				t.Errorf("message %q does not name line %d", err, tt.line)
			}
		})
	}
}

func TestParseEditsV4A(t *testing.T) {
	text := "I will apply this patch:\n```\n*** Begin Patch\n" +
		"*** Update File: src/a b.py\n" +
		"*** Move to: src/c.py\n" +
		"@@ class A:\n" +
		"@@     def f(self):\n" +
		"         x = 1\n" +
		"-        return x\n" +
		"+        return x + 1\n" +
		"\n" +
		"@@\n" +
		" tail\n" +
		"+more\n" +
		"*** End of File\n" +
		"*** Add File: new.txt\r\n" +
		"+hello\r\n" +
		"+\r\n" +
		"\r\n" +
		"+world\r\n" +
		"\n" +
		"*** Delete File: old.txt\n" +
		"*** Add File: empty.txt\n" +
		"*** End Patch\n```\n\n```sh\npython -m pytest\n```"
	e, err := ParseEdits(text)
	if err != nil {
		t.Fatal(err)
	}
	if e.Form != FormV4A {
		t.Errorf("form %q, want v4a", e.Form)
	}
	want := "file \"src/a b.py\" -> \"src/c.py\" renamed\n@@ def f(self):\n         x = 1\n-        return x\n+        return x + 1\n@@\n tail\n+more\n" +
		"file \"\" -> \"new.txt\" new\n@@\n+hello\n+\n+\n+world\n" +
		"file \"old.txt\" -> \"\" deleted\n" +
		"file \"\" -> \"empty.txt\" new\n"
	if got := formShape(e.Files); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if len(e.Ignored) != 1 || e.Ignored[0].Line != 27 {
		t.Errorf("ignored %v, want the sh block at line 27", e.Ignored)
	}

	files := map[string]string{
		"src/a b.py": "class B:\n    def f(self):\n        x = 1\n        return x\n\nclass A:\n    def f(self):\n        x = 1\n        return x\ntail\n",
		"old.txt":    "gone\nfor good\n",
	}
	p, err := e.Patch(mapReader(files))
	if err != nil {
		t.Fatal(err)
	}
	want = "file \"src/a b.py\" -> \"src/c.py\" renamed\n@@ 8 def f(self):\n         x = 1\n-        return x\n+        return x + 1\n@@ 10\n tail\n+more\n" +
		"file \"\" -> \"new.txt\" new\n@@\n+hello\n+\n+\n+world\n" +
		"file \"old.txt\" -> \"\" deleted\n@@ 1\n-gone\n-for good\n" +
		"file \"\" -> \"empty.txt\" new\n"
	if got := formShape(p.Files); got != want {
		t.Errorf("after Patch got\n%s\nwant\n%s", got, want)
	}
	// The anchor chooses between the two equally good places.
	got := applyAll(t, files["src/a b.py"], p.Files[0])
	if want := "class B:\n    def f(self):\n        x = 1\n        return x\n\nclass A:\n    def f(self):\n        x = 1\n        return x + 1\ntail\nmore\n"; got != want {
		t.Errorf("applied:\n%s\nwant\n%s", got, want)
	}
	if got := applyAll(t, files["old.txt"], p.Files[2]); got != "" {
		t.Errorf("deletion leaves %q", got)
	}
}

// TestV4AAnchorNotFound: an anchor the file lacks gives no hint, and the
// hunk that fits two places is refused rather than guessed.
func TestV4AAnchorNotFound(t *testing.T) {
	e, err := ParseEdits("*** Begin Patch\n*** Update File: a.py\n@@ class C:\n-    return x\n+    return y\n*** End Patch\n")
	if err != nil {
		t.Fatal(err)
	}
	old := "class A:\n    return x\nclass B:\n    return x\n"
	p, err := e.Patch(mapReader(map[string]string{"a.py": old}))
	if err != nil {
		t.Fatal(err)
	}
	if _, errs := Place(old, p.Files[0]); len(errs) != 1 || !errors.Is(errs[0], ErrAmbiguous) {
		t.Errorf("got %v, want the hunk refused as ambiguous", errs)
	}
}

func TestParseEditsWholeFile(t *testing.T) {
	text := "Here is the new file.\n\n`cmd/main.go`\n```go\npackage main\n\nfunc main() {}\n```\n\n" +
		"```go internal/x.go\npackage x\n```\n\n" +
		"For example:\n```go\nx := 1\n```\n\n" +
		"big.go\n```go\n// ... existing code ...\nfunc g() {}\n```\n"
	e, err := ParseEdits(text)
	if err != nil {
		t.Fatal(err)
	}
	if e.Form != FormWholeFile {
		t.Fatalf("form %q", e.Form)
	}
	var paths []string
	for _, w := range e.Whole {
		paths = append(paths, w.Path)
	}
	if got := strings.Join(paths, ","); got != "cmd/main.go,internal/x.go" {
		t.Errorf("whole files %s", got)
	}
	if len(e.Ignored) != 2 || !strings.Contains(e.Ignored[0].Reason, "example code") || !strings.Contains(e.Ignored[1].Reason, "leaves lines out") {
		t.Errorf("ignored %v", e.Ignored)
	}
	files := map[string]string{"internal/x.go": "package y\n"}
	p, err := e.Patch(mapReader(files))
	if err != nil {
		t.Fatal(err)
	}
	want := "file \"\" -> \"cmd/main.go\" new\n@@ 0\n+package main\n+\n+func main() {}\n" +
		"file \"internal/x.go\" -> \"internal/x.go\"\n@@ 1\n-package y\n+package x\n"
	if got := formShape(p.Files); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestWholeFileDiff(t *testing.T) {
	tests := []struct {
		name, old, content, want string
		exists                   bool
	}{
		{"keeps a missing final newline", "a\nb", "a\nc\n", "a\nc", true},
		{"CRLF file", "a\r\nb\r\nc\r\n", "a\nB\nc\n", "a\r\nB\r\nc\r\n", true},
		{"new file", "", "x\n", "x\n", false},
		{"unchanged", "a\n", "a\n", "a\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fd, err := WholeFile{Path: "f.txt", Content: tt.content}.Diff(tt.old, tt.exists)
			if err != nil {
				t.Fatal(err)
			}
			if fd.New == tt.exists {
				t.Errorf("new %v for a file that exists: %v", fd.New, tt.exists)
			}
			if got := applyAll(t, tt.old, fd); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestWholeFileExcerpt(t *testing.T) {
	old := strings.Repeat("line\n", 5) + "a\nb\nc\nd\ne\n"
	e, err := ParseEdits("f.txt\n```\na\nb\n```\n")
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Patch(mapReader(map[string]string{"f.txt": old}))
	if !errors.Is(err, ErrNoEdits) || !strings.Contains(err.Error(), "excerpt") {
		t.Errorf("got %v, want the block refused as an excerpt", err)
	}
}

func TestParseEditsDetect(t *testing.T) {
	tests := []struct {
		text string
		form Form
		err  error
	}{
		{"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", FormUnified, nil},
		{"Fix:\n```diff\n@@\n-a\n+b\n```\n```go\nx\n```\n", FormUnified, nil},
		{"*** Begin Patch\n*** Delete File: x\n*** End Patch\n", FormV4A, nil},
		{"x.go\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n", FormSearchReplace, nil},
		{"x.go\n```go\npackage x\n```\n", FormWholeFile, nil},
		{"Just prose.\n```go\nfmt.Println()\n```\n", "", ErrNoEdits},
		{"The fix is in main.go:\n```go\nfmt.Println()\n```\n", "", ErrNoEdits},
		{"", "", ErrNoEdits},
	}
	for _, tt := range tests {
		e, err := ParseEdits(tt.text)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("%q: got %v, want %v", tt.text, err, tt.err)
			}
			continue
		}
		if err != nil || e.Form != tt.form {
			t.Errorf("%q: got %v %v, want form %s", tt.text, e, err, tt.form)
		}
	}
}

// TestSearchReplacePlaced: SEARCH/REPLACE hunks go through the placement
// engine: whitespace on the search side is tolerated, a SEARCH that fits
// twice is refused, and an empty SEARCH fills an empty file.
func TestSearchReplacePlaced(t *testing.T) {
	tests := []struct {
		name, old, text, want string
		err                   error
	}{
		{"whitespace tolerated", "func f() {\n\treturn 1  \n}\n",
			"a.go\n<<<<<<< SEARCH\nfunc f() {\n    return 1\n}\n=======\nfunc f() {\n    return 2\n}\n>>>>>>> REPLACE\n",
			"func f() {\n\treturn 2\n}\n", nil},
		{"ambiguous refused", "x\ny\nx\n", "a.go\n<<<<<<< SEARCH\nx\n=======\nz\n>>>>>>> REPLACE\n", "", ErrAmbiguous},
		{"empty search into an empty file", "", "a.go\n<<<<<<< SEARCH\n=======\nhello\n>>>>>>> REPLACE\n", "hello\n", nil},
		{"empty search into a full file refused", "x\n", "a.go\n<<<<<<< SEARCH\n=======\nhello\n>>>>>>> REPLACE\n", "", ErrNoContext},
		{"two blocks in order", "a\nb\nc\nd\ne\n",
			"a.go\n<<<<<<< SEARCH\nb\n=======\nB\n>>>>>>> REPLACE\na.go\n<<<<<<< SEARCH\nd\n=======\nD\n>>>>>>> REPLACE\n",
			"a\nB\nc\nD\ne\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := ParseEdits(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			p, err := e.Patch(mapReader(map[string]string{"a.go": tt.old}))
			if err != nil {
				t.Fatal(err)
			}
			rs, errs := Place(tt.old, p.Files[0])
			if tt.err != nil {
				if len(errs) == 0 || !errors.Is(errs[0], tt.err) {
					t.Fatalf("got %v, want %v", errs, tt.err)
				}
				return
			}
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			got, err := Apply(tt.old, rs)
			if err != nil || got != tt.want {
				t.Errorf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func mapReader(files map[string]string) ReadFunc {
	return func(p string) (string, error) {
		s, ok := files[p]
		if !ok {
			return "", fmt.Errorf("%s: %w", p, fs.ErrNotExist)
		}
		return s, nil
	}
}

// applyAll places every hunk of fd on old and applies them, failing the
// test when one does not place.
func applyAll(t *testing.T, old string, fd *FileDiff) string {
	t.Helper()
	rs, errs := Place(old, fd)
	if len(errs) > 0 {
		t.Fatalf("place: %v", errs)
	}
	out, err := Apply(old, rs)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestV4AUnifiedHeader: a unified "@@ -a,b +c,d @@" header in a V4A patch
// gives the hunk its line number and section, not an anchor.
func TestV4AUnifiedHeader(t *testing.T) {
	e, err := ParseEdits("*** Begin Patch\n*** Update File: a.go\n@@ -3,2 +3,2 @@ func f() {\n-\tx := 1\n+\tx := 2\n*** End Patch\n")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := formShape(e.Files), "file \"a.go\" -> \"a.go\"\n@@ 3 func f() {\n-\tx := 1\n+\tx := 2\n"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A Markdown file's own fence, as a context or added line of a bare diff,
// is a diff line, not a fenced block the reply left out; a column-0 fence
// around example code still is.
func TestParseEditsUnifiedMarkdownFence(t *testing.T) {
	diff := "diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -3,3 +3,6 @@\n   }\n }\n ```\n+\n+```go\n+x := 1\n"
	e, err := ParseEdits(diff)
	if err != nil {
		t.Fatal(err)
	}
	if e.Form != FormUnified || len(e.Files) != 1 || len(e.Files[0].Hunks) != 1 {
		t.Fatalf("form %q, files %v", e.Form, e.Files)
	}
	if len(e.Ignored) != 0 {
		t.Errorf("ignored %v, want none: every fence is a line of the diff", e.Ignored)
	}
	e, err = ParseEdits(diff + "\nRun it with:\n```sh\ngo test ./...\n```\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Ignored) != 1 || e.Ignored[0].Line != 13 {
		t.Errorf("ignored %v, want the sh block at line 13", e.Ignored)
	}
}

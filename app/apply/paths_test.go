package apply

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// TestFiltersInOrder: --include and --exclude as git apply reads them:
// the first that matches decides, * matches / too, and a path none
// matches is applied only when no --include was given.
func TestFiltersInOrder(t *testing.T) {
	inc := func(g string) Filter { return Filter{Glob: g, Include: true} }
	exc := func(g string) Filter { return Filter{Glob: g} }
	tests := []struct {
		filters []Filter
		path    string
		want    bool
	}{
		{nil, "a/b.go", true},
		{[]Filter{exc("*.go")}, "a/b.go", false},
		{[]Filter{exc("*.go")}, "a/b.txt", true},
		{[]Filter{inc("*.go")}, "a/b.txt", false},
		{[]Filter{exc("a/b.go"), inc("a/*")}, "a/b.go", false},
		{[]Filter{inc("a/*"), exc("a/b.go")}, "a/b.go", true},
		{[]Filter{exc("x"), inc("a/[bc].go")}, "a/c.go", true},
	}
	for _, tt := range tests {
		if got := (Paths{Filters: tt.filters}).use(tt.path); got != tt.want {
			t.Errorf("%v on %s: got %v, want %v", tt.filters, tt.path, got, tt.want)
		}
	}
}

// TestNameTraditional: the names of a traditional diff from a
// subdirectory, found in the tree, and -R.
func TestNameTraditional(t *testing.T) {
	files := map[string]bool{"sub/x.go": true, "top.txt": true, "sub/dir/y.txt": true}
	exists := func(p string) bool { return files[p] }
	name := func(t *testing.T, ps Paths, prefix, patch string) *edit.Edits {
		t.Helper()
		e, err := edit.ParseEdits(patch)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ps.name(e, prefix, exists); err != nil {
			t.Fatal(err)
		}
		return e
	}
	paths := func(e *edit.Edits) []string {
		var out []string
		for _, fd := range e.Files {
			out = append(out, fd.OldPath+" -> "+fd.NewPath)
		}
		return out
	}
	tests := []struct {
		name   string
		ps     Paths
		prefix string
		patch  string
		want   []string
	}{
		{"shorter name, from the subdirectory", Paths{}, "sub/", "--- x.go.orig\n+++ x.go\n@@ -1 +1 @@\n-a\n+b\n", []string{"sub/x.go -> sub/x.go"}},
		{"a name only at the top", Paths{}, "sub/", "--- top.txt\n+++ top.txt\n@@ -1 +1 @@\n-a\n+b\n", []string{"top.txt -> top.txt"}},
		{"a creation, stripped like the name found without its directory", Paths{}, "sub/",
			"--- w/dir/y.txt\n+++ w/dir/y.txt\n@@ -1 +1 @@\n-a\n+b\n--- /dev/null\n+++ w/dir/n.txt\n@@ -0,0 +1 @@\n+n\n",
			[]string{"sub/dir/y.txt -> sub/dir/y.txt", " -> sub/dir/n.txt"}},
		{"a git diff stays at the top", Paths{}, "sub/", "diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-a\n+b\n", []string{"x.go -> x.go"}},
		{"--directory", Paths{Root: "sub/"}, "", "diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-a\n+b\n", []string{"sub/x.go -> sub/x.go"}},
		{"-R: a creation deletes", Paths{Reverse: true}, "", "--- /dev/null\n+++ b/top.txt\n@@ -0,0 +1 @@\n+a\n", []string{"top.txt -> "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := paths(name(t, tt.ps, tt.prefix, tt.patch)); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}

	e := name(t, Paths{Reverse: true}, "", "--- a/top.txt\n+++ b/top.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n")
	h := e.Files[0].Hunks[0]
	if got := h.Lines; got[1] != (edit.Line{Kind: edit.Add, Text: "b"}) || got[2] != (edit.Line{Kind: edit.Delete, Text: "c"}) || !h.OldNoNewline || h.NewNoNewline {
		t.Errorf("-R: got %v noNL %v/%v", got, h.OldNoNewline, h.NewNoNewline)
	}
	if _, err := (Paths{Reverse: true}).name(&edit.Edits{Form: edit.FormV4A}, "", exists); !errors.Is(err, ErrReverse) {
		t.Errorf("-R on V4A: got %v, want ErrReverse", err)
	}
}

// TestCwdPrefix: where pair runs, relative to the top of the tree.
func TestCwdPrefix(t *testing.T) {
	top := t.TempDir()
	if err := os.MkdirAll(filepath.Join(top, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]string{top: "", filepath.Join(top, "a", "b"): "a/b/", filepath.Dir(top): ""} {
		if got, err := cwdPrefix(top, dir); err != nil || got != want {
			t.Errorf("cwdPrefix(%s): got %q, %v; want %q", dir, got, err, want)
		}
	}
}

package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// roleFolders are the folders whose every non-test Go file says its role
// in its first line. edit/ joins them when its files have their lines.
var roleFolders = []string{"edit", "repo", "review"}

// packageDoc is the first line of a package's doc comment, which says the
// role of the file that holds it (doc.go).
var packageDoc = regexp.MustCompile(`^// Package \w+ \S`)

// TestFilesSayTheirRole: every non-test Go file of roleFolders begins with
// one comment line, "// name.go: its role", then a blank line (so that the
// line is not taken for the package's documentation), or with the
// package's doc comment.
func TestFilesSayTheirRole(t *testing.T) {
	seen := 0
	for _, folder := range roleFolders {
		root := filepath.Join("..", "..", folder)
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			seen++
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(filepath.Join("..", ".."), p)
			if msg := roleLineProblem(d.Name(), string(b)); msg != "" {
				t.Errorf("%s: %s", filepath.ToSlash(rel), msg)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if seen < 50 {
		t.Fatalf("found %d Go files in %v; want them all", seen, roleFolders)
	}
}

// roleLineProblem says what is wrong with the top of the file name whose
// text is src, or "" when it begins with its role line.
func roleLineProblem(name, src string) string {
	lines := strings.SplitN(src, "\n", 3)
	if packageDoc.MatchString(lines[0]) {
		return ""
	}
	prefix := "// " + name + ": "
	if !strings.HasPrefix(lines[0], prefix) || strings.TrimSpace(lines[0]) == strings.TrimSpace(prefix) {
		return fmt.Sprintf("the first line is not its role line, %q", prefix+"…")
	}
	if len(lines) < 2 || lines[1] != "" {
		return "the role line is not followed by a blank line (one line, apart from the package doc)"
	}
	return ""
}

func TestRoleLineProblem(t *testing.T) {
	tests := []struct {
		name, src string
		ok        bool
	}{
		{"plan.go", "// plan.go: PlaceWith, a patch placed.\n\npackage repo\n", true},
		{"doc.go", "// Package repo is pair's access to the tree.\npackage repo\n", true},
		{"x_unix.go", "// x_unix.go: the flags.\n\n//go:build unix\n\npackage repo\n", true},
		{"plan.go", "package repo\n", false},
		{"plan.go", "//go:build unix\n\n// plan.go: late.\n\npackage repo\n", false},
		{"plan.go", "// tree.go: another file's line.\n\npackage repo\n", false},
		{"plan.go", "// plan.go: \n\npackage repo\n", false},
		{"plan.go", "// plan.go: glued to the package doc.\npackage repo\n", false},
		{"plan.go", "// plan.go: two\n// lines.\n\npackage repo\n", false},
	}
	for _, tt := range tests {
		if got := roleLineProblem(tt.name, tt.src); (got == "") != tt.ok {
			t.Errorf("roleLineProblem(%q, %q) = %q, want ok %v", tt.name, tt.src, got, tt.ok)
		}
	}
}

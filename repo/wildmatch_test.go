package repo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo/repotest"
)

// TestIgnorePatternsMatchGit compares each pattern's verdict on each path
// with git check-ignore --no-index: every pattern is the .gitignore of a
// directory of its own, p<i>, and the paths are asked under each.
func TestIgnorePatternsMatchGit(t *testing.T) {
	patterns := []string{
		"*.c", "a*", "*", "?", "a?c", "[abc]x", "[!abc]x", "[^abc]x", "[a-c]x", "[]]x", "[!]]x", "[a-]x",
		`\*x`, `a\?c`, "[[:alpha:]]x", "[[:digit:][:upper:]]x", "[[:space:]]x", "[[:punct:]]x", "[[:bogus:]]x",
		"a/b", "/a", "a/", "a/*", "a/**", "**/b", "a/**/c", "**/a/**", "a**", "a/**b", "**", "a/*/c",
		"*/b", "a/b/", "/a/b/c", "b*/", "a[", `a\`, "[a", "a/[b]/c", "***/c", "a/***", "x*y*z",
		"!a", "#a", "a ", `a\ `, "a/b/**/", "*.[ch]", "*~",
	}
	paths := []string{
		"a", "b", "abc", "a.c", "ax", "bx", "dx", "]x", "-x", "*x", "Ax", "1x", " x", ".x", "a/b", "a/c",
		"a/b/c", "a/x/c", "a/x/y/c", "b/a", "b/a/c", "x/a/b", "ab", "a/bb", "xaybz", "a ", "a[", "a.h", "a~",
		"a/b/d/e",
	}
	dir := t.TempDir()
	repotest.Git(t, dir, "init", "-q")
	var query strings.Builder
	for i, pat := range patterns {
		d := filepath.Join(dir, fmt.Sprintf("p%d", i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, ".gitignore"), []byte(pat+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			fmt.Fprintf(&query, "p%d/%s\x00", i, p)
		}
	}
	cmd := repotest.Cmd(t, dir, "check-ignore", "--no-index", "--stdin", "-z", "-v", "-n")
	cmd.Stdin = strings.NewReader(query.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git check-ignore: %v", err)
	}
	// Four fields a path: source, line, pattern, path.
	f := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(f) != 4*len(patterns)*len(paths) {
		t.Fatalf("git check-ignore gave %d fields, want %d", len(f), 4*len(patterns)*len(paths))
	}
	tr, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	excluded := 0
	for k := 0; k < len(f); k += 4 {
		p := f[k+3]
		want := f[k+2] != "" && !strings.HasPrefix(f[k+2], "!")
		got, err := tr.Ignored(p)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			i := 0
			fmt.Sscanf(p, "p%d/", &i)
			t.Errorf("pattern %q, path %q: Ignored = %v, git says %v", patterns[i], strings.SplitN(p, "/", 2)[1], got, want)
		}
		if want {
			excluded++
		}
	}
	if excluded < 100 {
		t.Errorf("git ignores %d paths only: the setup is wrong", excluded)
	}
}

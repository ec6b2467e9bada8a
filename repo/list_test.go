package repo_test

import (
	"errors"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

func TestListFiles(t *testing.T) {
	t.Parallel()
	dir := contextRepo(t)
	tr := openTree(t, dir)
	all := []string{
		".env", ".github/ci.yml", ".gitignore", "README.md", "a.go", "b.go", "bin.dat",
		"build/tracked.go", "cmd/pair/main.go", "cmd/pair/run.go", "docs/guide.md",
		"keep.log", "long.txt", "sub/.gitignore", "sub/x.txt", "untracked.txt",
	}
	withIgnored := append(slices.Clone(all), "build/out.txt", "debug.log", "sub/local.txt")
	sort.Strings(withIgnored)
	for _, tc := range []struct {
		glob      string
		access    repo.Access
		limit     int
		want      []string
		truncated bool
	}{
		{glob: "", want: all},
		{glob: "**", want: all},
		{glob: "", access: repo.Access{Ignored: true}, want: withIgnored},
		{glob: "*.md", want: []string{"README.md"}},
		{glob: "**/*.md", want: []string{"README.md", "docs/guide.md"}},
		{glob: "**/*.go", want: []string{"a.go", "b.go", "build/tracked.go", "cmd/pair/main.go", "cmd/pair/run.go"}},
		{glob: "*.go", want: []string{"a.go", "b.go"}},
		{glob: "[a]?go", want: []string{"a.go"}},
		{glob: "cmd/**", want: []string{"cmd/pair/main.go", "cmd/pair/run.go"}},
		{glob: "cmd", want: []string{"cmd/pair/main.go", "cmd/pair/run.go"}},
		{glob: "cmd/", want: []string{"cmd/pair/main.go", "cmd/pair/run.go"}},
		{glob: "./cmd/pair", want: []string{"cmd/pair/main.go", "cmd/pair/run.go"}},
		{glob: "cmd/*/r?n.go", want: []string{"cmd/pair/run.go"}},
		{glob: "cmd/*", want: nil},
		{glob: "**/pair/**", want: []string{"cmd/pair/main.go", "cmd/pair/run.go"}},
		{glob: "build/**", want: []string{"build/tracked.go"}},
		{glob: "build/**", access: repo.Access{Ignored: true}, want: []string{"build/out.txt", "build/tracked.go"}},
		{glob: "*.log", want: []string{"keep.log"}},
		{glob: ".*", want: []string{".env", ".gitignore"}},
		{glob: "nested/**", access: repo.Access{Ignored: true}, want: nil},
		{glob: filepath.Join(dir, "*.md"), want: []string{"README.md"}},
		{glob: "", limit: 3, want: all[:3], truncated: true},
		{glob: "**/*.go", limit: 5, want: []string{"a.go", "b.go", "build/tracked.go", "cmd/pair/main.go", "cmd/pair/run.go"}},
	} {
		got, truncated, err := tr.ListFiles(tc.glob, tc.access, tc.limit)
		if err != nil {
			t.Errorf("ListFiles(%q, %+v, %d): got error %v, want none", tc.glob, tc.access, tc.limit, err)
			continue
		}
		if !slices.Equal(got, tc.want) || truncated != tc.truncated {
			t.Errorf("ListFiles(%q, %+v, %d):\ngot  %q, truncated %v\nwant %q, truncated %v", tc.glob, tc.access, tc.limit, got, truncated, tc.want, tc.truncated)
		}
	}
}

// The files ListFiles lists are those git knows of: tracked, and untracked
// but not ignored (nested repositories aside: git lists the directory).
func TestListFilesMatchesGit(t *testing.T) {
	t.Parallel()
	dir := contextRepo(t)
	tr := openTree(t, dir)
	got, _, err := tr.ListFiles("", repo.Access{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := repotest.Git(t, dir, "ls-files", "--cached", "--others", "--exclude-standard")
	var want []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l != "nested/" {
			want = append(want, l)
		}
	}
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("ListFiles:\ngot  %q\nwant %q (git ls-files)", got, want)
	}
}

func TestListFilesRefused(t *testing.T) {
	t.Parallel()
	dir := contextRepo(t)
	tr := openTree(t, dir)
	for _, tc := range []struct {
		glob string
		want error // nil: any error
	}{
		{"../*", repo.ErrOutsideRepo},
		{"a/../../x", repo.ErrOutsideRepo},
		{"/etc/*", repo.ErrOutsideRepo},
		{filepath.Dir(dir) + "/*", repo.ErrOutsideRepo},
		{"[", nil},
		{"cmd/[a-", nil},
	} {
		got, _, err := tr.ListFiles(tc.glob, repo.Access{}, 0)
		if err == nil || (tc.want != nil && !errors.Is(err, tc.want)) {
			t.Errorf("ListFiles(%q): got %q, %v, want an error (wrapping %v)", tc.glob, got, err, tc.want)
		}
	}
}

func TestListFilesNotGit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, texts(map[string]string{
		"a.txt": "a\n", "sub/b.txt": "b\n", ".gitignore": "a.txt\n", ".pair/journal.json": "{}\n",
	}))
	tr := openTree(t, dir)
	got, _, err := tr.ListFiles("", repo.Access{}, 0)
	want := []string{".gitignore", "a.txt", "sub/b.txt"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("ListFiles outside git: got %q, %v, want %q, nil", got, err, want)
	}
}

func TestListFilesSymlinks(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links")
	}
	root, _ := symlinkTree(t)
	tr := openTree(t, root)
	got, _, err := tr.ListFiles("", repo.Access{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Links are listed by name, never followed: nothing from outside.
	want := []string{"abs-dir", "abs-file", "abs-missing", "deep/rel", "in-dir", "in-file", "in/real.txt", "in/up", "rel-dir", "rel-file", "rel-missing"}
	if !slices.Equal(got, want) {
		t.Errorf("ListFiles with links:\ngot  %q\nwant %q", got, want)
	}
	// Nothing is searched through a link, and nothing outside.
	ms, _, err := tr.SearchFiles("secret|real", "", repo.Access{Secrets: true, Ignored: true}, 0)
	if err != nil || len(ms) != 1 || ms[0].Path != "in/real.txt" {
		t.Errorf("SearchFiles with links: got %+v, %v, want only in/real.txt", ms, err)
	}
}

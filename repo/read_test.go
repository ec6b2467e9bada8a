package repo_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

// contextRepo makes a repository with tracked, untracked, ignored,
// secret, binary and nested-repository files, and returns its directory.
func contextRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	gitInit(t, dir)
	writeFiles(t, dir, texts(map[string]string{
		".gitignore":       "build/\n*.log\n!keep.log\n",
		"README.md":        "# Title\nfind me\n",
		"a.go":             "package a\n\nfunc Find() {}\n",
		"b.go":             "package a\n",
		"cmd/pair/main.go": "package main\n\nfunc main() { find() }\n",
		"cmd/pair/run.go":  "package main\n",
		"docs/guide.md":    "Find me here.\r\nAnd not here.\r\n",
		".github/ci.yml":   "on: push\n",
		"sub/.gitignore":   "local.txt\n",
		"sub/x.txt":        "x\n",
		"build/tracked.go": "package build // find me\n",
	}))
	repotest.Git(t, dir, "add", ".")
	repotest.Git(t, dir, "add", "-f", "build/tracked.go")
	repotest.Git(t, dir, "commit", "-q", "-m", "initial")
	writeFiles(t, dir, texts(map[string]string{
		".env":            "TOKEN=find me\n",
		"untracked.txt":   "find me too\n",
		"build/out.txt":   "find me, built\n",
		"debug.log":       "find me in the log\n",
		"keep.log":        "kept log\n",
		"sub/local.txt":   "find me locally\n",
		"nested/file.txt": "find me nested\n",
		"bin.dat":         "find me\x00binary\n",
		"long.txt":        strings.Repeat("find ", 200) + "\n",
	}))
	gitInit(t, filepath.Join(dir, "nested"))
	return dir
}

func TestSearchFiles(t *testing.T) {
	t.Parallel()
	dir := contextRepo(t)
	tr := openTree(t, dir)
	long := strings.Repeat("find ", 200)
	clipped := long[:300] + "…"
	for _, tc := range []struct {
		pattern, glob string
		access        repo.Access
		limit         int
		want          []repo.Match
		truncated     bool
	}{
		{pattern: `(?i)find me`, want: []repo.Match{
			{"README.md", 2, "find me"},
			{"build/tracked.go", 1, "package build // find me"},
			{"docs/guide.md", 1, "Find me here."},
			{"untracked.txt", 1, "find me too"},
		}},
		{pattern: `find me`, access: repo.Access{Secrets: true}, want: []repo.Match{
			{".env", 1, "TOKEN=find me"},
			{"README.md", 2, "find me"},
			{"build/tracked.go", 1, "package build // find me"},
			{"untracked.txt", 1, "find me too"},
		}},
		{pattern: `find me`, access: repo.Access{Ignored: true}, want: []repo.Match{
			{"README.md", 2, "find me"},
			{"build/out.txt", 1, "find me, built"},
			{"build/tracked.go", 1, "package build // find me"},
			{"debug.log", 1, "find me in the log"},
			{"sub/local.txt", 1, "find me locally"},
			{"untracked.txt", 1, "find me too"},
		}},
		{pattern: `^func \w+\(`, glob: "**/*.go", want: []repo.Match{
			{"a.go", 3, "func Find() {}"},
			{"cmd/pair/main.go", 3, "func main() { find() }"},
		}},
		{pattern: `here\.$`, glob: "docs", want: []repo.Match{
			{"docs/guide.md", 1, "Find me here."},
			{"docs/guide.md", 2, "And not here."},
		}},
		{pattern: `find find`, glob: "long.txt", want: []repo.Match{{"long.txt", 1, clipped}}},
		{pattern: `(?i)find me`, limit: 2, want: []repo.Match{
			{"README.md", 2, "find me"},
			{"build/tracked.go", 1, "package build // find me"},
		}, truncated: true},
		{pattern: `(?i)find me`, limit: 4, want: []repo.Match{
			{"README.md", 2, "find me"},
			{"build/tracked.go", 1, "package build // find me"},
			{"docs/guide.md", 1, "Find me here."},
			{"untracked.txt", 1, "find me too"},
		}},
		{pattern: `binary`, want: nil},
		{pattern: `nested`, access: repo.Access{Ignored: true}, want: nil},
	} {
		got, truncated, err := tr.SearchFiles(tc.pattern, tc.glob, tc.access, tc.limit)
		if err != nil {
			t.Errorf("SearchFiles(%q, %q): got error %v, want none", tc.pattern, tc.glob, err)
			continue
		}
		if !slices.Equal(got, tc.want) || truncated != tc.truncated {
			t.Errorf("SearchFiles(%q, %q, %+v, %d):\ngot  %+v, truncated %v\nwant %+v, truncated %v", tc.pattern, tc.glob, tc.access, tc.limit, got, truncated, tc.want, tc.truncated)
		}
	}
}

func TestSearchFilesErrors(t *testing.T) {
	t.Parallel()
	dir := contextRepo(t)
	tr := openTree(t, dir)
	for _, tc := range []struct {
		pattern, glob string
		is            error  // the reason, if it has a type
		want          string // else in the error
	}{
		{`func (`, "", nil, "missing closing )"},
		{`a{2,1}`, "", nil, "invalid repeat count"},
		{``, "", nil, "empty search pattern"},
		{`x`, "../*", repo.ErrOutsideRepo, ""},
	} {
		_, _, err := tr.SearchFiles(tc.pattern, tc.glob, repo.Access{}, 0)
		if tc.is != nil && !errors.Is(err, tc.is) {
			t.Errorf("SearchFiles(%q, %q): got error %v, want %v", tc.pattern, tc.glob, err, tc.is)
		}
		if tc.is == nil && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("SearchFiles(%q, %q): got error %v, want one saying %q", tc.pattern, tc.glob, err, tc.want)
		}
	}
}

func TestReadText(t *testing.T) {
	t.Parallel()
	dir := contextRepo(t)
	writeFiles(t, dir, texts(map[string]string{"utf8.txt": "héllo wörld\n"}))
	tr := openTree(t, dir)
	for _, tc := range []struct {
		path      string
		access    repo.Access
		max       int
		want      string
		truncated bool
	}{
		{path: "README.md", max: 20000, want: "# Title\nfind me\n"},
		{path: "README.md", max: 0, want: "# Title\nfind me\n"},
		{path: "README.md", max: 16, want: "# Title\nfind me\n"},
		{path: "README.md", max: 15, want: "# Title\nfind me", truncated: true},
		{path: "utf8.txt", max: 2, want: "hé", truncated: true},
		{path: "utf8.txt", max: 9, want: "héllo wör", truncated: true},
		{path: "docs/guide.md", max: 100, want: "Find me here.\r\nAnd not here.\r\n"},
		{path: "./cmd/../a.go", max: 100, want: "package a\n\nfunc Find() {}\n"},
		{path: filepath.Join(dir, "b.go"), max: 100, want: "package a\n"},
		{path: ".env", access: repo.Access{Secrets: true}, max: 100, want: "TOKEN=find me\n"},
		{path: "debug.log", access: repo.Access{Ignored: true}, max: 100, want: "find me in the log\n"},
		{path: "build/tracked.go", max: 100, want: "package build // find me\n"},
	} {
		got, truncated, err := tr.ReadText(tc.path, tc.access, tc.max)
		if err != nil || got != tc.want || truncated != tc.truncated {
			t.Errorf("ReadText(%q, %+v, %d) = %q, %v, %v, want %q, %v, nil", tc.path, tc.access, tc.max, got, truncated, err, tc.want, tc.truncated)
		}
	}
}

func TestReadTextRefused(t *testing.T) {
	t.Parallel()
	dir := contextRepo(t)
	tr := openTree(t, dir)
	for _, tc := range []struct {
		path   string
		access repo.Access
		want   error // nil: any error
	}{
		{path: ".env", want: repo.ErrSecret},
		{path: ".env", access: repo.Access{Ignored: true}, want: repo.ErrSecret},
		{path: "debug.log", want: repo.ErrIgnored},
		{path: "build/out.txt", access: repo.Access{Secrets: true}, want: repo.ErrIgnored},
		{path: "../x", want: repo.ErrOutsideRepo},
		{path: "cmd/../../x", want: repo.ErrOutsideRepo},
		{path: "/etc/passwd", want: repo.ErrOutsideRepo},
		{path: ".git/config", want: repo.ErrGitInternal},
		{path: "bin.dat", want: repo.ErrBinary},
		{path: "missing.txt", want: fs.ErrNotExist},
		{path: "cmd", want: nil},
		{path: "", want: repo.ErrOutsideRepo},
	} {
		got, _, err := tr.ReadText(tc.path, tc.access, 100)
		if err == nil || (tc.want != nil && !errors.Is(err, tc.want)) {
			t.Errorf("ReadText(%q, %+v) = %q, %v, want an error wrapping %v", tc.path, tc.access, got, err, tc.want)
		}
	}
}

func TestReadTextSymlinks(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links")
	}
	root, _ := symlinkTree(t)
	gitInit(t, root)
	writeFiles(t, root, texts(map[string]string{".env": "TOKEN=x\n", ".gitignore": "*.log\n", "x.log": "log\n"}))
	for name, target := range map[string]string{"env-link": ".env", "git-link": ".git", "log-link": "x.log"} {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	tr := openTree(t, root)
	for _, tc := range []struct {
		path string
		want error
	}{
		{"abs-file", repo.ErrOutsideRepo},
		{"rel-file", repo.ErrOutsideRepo},
		{"deep/rel", repo.ErrOutsideRepo},
		{"rel-dir/secret.txt", repo.ErrOutsideRepo},
		{"abs-dir/secret.txt", repo.ErrOutsideRepo},
		{"abs-missing", repo.ErrOutsideRepo},
		{"env-link", repo.ErrSecret},
		{"log-link", repo.ErrIgnored},
		{"git-link/config", repo.ErrGitInternal},
		{"git-link/HEAD", repo.ErrGitInternal},
	} {
		got, _, err := tr.ReadText(tc.path, repo.Access{}, 100)
		if !errors.Is(err, tc.want) {
			t.Errorf("ReadText(%q) through a link = %q, %v, want an error wrapping %v", tc.path, got, err, tc.want)
		}
	}
	// A linked folder is not read through, even to a file inside; the
	// error says where the file is.
	_, _, err := tr.ReadText("in-dir/real.txt", repo.Access{}, 100)
	if want := "reading from 'in-dir/real.txt' beyond a symbolic link (in-dir is a symbolic link to in; the file there is in/real.txt)"; !errors.Is(err, repo.ErrBeyondLink) || err.Error() != want {
		t.Errorf("ReadText(in-dir/real.txt) = %v, want %q", err, want)
	}
	for _, p := range []string{"in-file", "in/up"} {
		got, _, err := tr.ReadText(p, repo.Access{}, 100)
		if err != nil || got != "real\n" {
			t.Errorf("ReadText(%q) through a link inside = %q, %v, want %q, nil", p, got, err, "real\n")
		}
	}
	if got, _, err := tr.ReadText("env-link", repo.Access{Secrets: true}, 100); err != nil || got != "TOKEN=x\n" {
		t.Errorf("ReadText(env-link) with secrets allowed = %q, %v, want the secret", got, err)
	}
}

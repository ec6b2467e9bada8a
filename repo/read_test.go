package repo_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/repo"
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
	git(t, dir, "add", ".")
	git(t, dir, "add", "-f", "build/tracked.go")
	git(t, dir, "commit", "-q", "-m", "initial")
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
	out := git(t, dir, "ls-files", "--cached", "--others", "--exclude-standard")
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
		want          string // in the error
	}{
		{`func (`, "", "missing closing )"},
		{`a{2,1}`, "", "invalid repeat count"},
		{``, "", "empty search pattern"},
		{`x`, "../*", "outside repository"},
	} {
		_, _, err := tr.SearchFiles(tc.pattern, tc.glob, repo.Access{}, 0)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
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
	for _, p := range []string{"in-file", "in-dir/real.txt", "in/up"} {
		got, _, err := tr.ReadText(p, repo.Access{}, 100)
		if err != nil || got != "real\n" {
			t.Errorf("ReadText(%q) through a link inside = %q, %v, want %q, nil", p, got, err, "real\n")
		}
	}
	if got, _, err := tr.ReadText("env-link", repo.Access{Secrets: true}, 100); err != nil || got != "TOKEN=x\n" {
		t.Errorf("ReadText(env-link) with secrets allowed = %q, %v, want the secret", got, err)
	}
}

// statusRepo makes a repository whose working tree and index hold every
// kind of change.
func statusRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	gitInit(t, dir)
	writeFiles(t, dir, map[string]file{
		".gitignore":        {content: "*.log\n"},
		"modified.txt":      {content: "one\n"},
		"staged.txt":        {content: "one\n"},
		"both.txt":          {content: "one\n"},
		"deleted.txt":       {content: "gone\n"},
		"removed.txt":       {content: "removed\n"},
		"run.sh":            {content: "echo\n"},
		"reverted.txt":      {content: "same\n"},
		"dir/nested.txt":    {content: "nested\n"},
		"untouched.txt":     {content: "untouched\n"},
		"samesize.txt":      {content: "abc\n"},
		"moved/from.txt":    {content: numbered("moved", 20)},
		"typechange.txt":    {content: "file\n"},
		"cached-rm.txt":     {content: "kept on disk\n"},
		"secret/.env.local": {content: "A=1\n"},
	})
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "initial")

	writeFiles(t, dir, map[string]file{
		"modified.txt":      {content: "two\n"},
		"staged.txt":        {content: "two\n"},
		"both.txt":          {content: "two\n"},
		"added.txt":         {content: "new\n"},
		"added-mod.txt":     {content: "new\n"},
		"reverted.txt":      {content: "changed\n"},
		"untracked.txt":     {content: "?\n"},
		"newdir/a/b.txt":    {content: "?\n"},
		"debug.log":         {content: "ignored\n"},
		"samesize.txt":      {content: "xyz\n"},
		"secret/.env.local": {content: "A=2\n"},
	})
	git(t, dir, "add", "staged.txt", "both.txt", "added.txt", "added-mod.txt", "reverted.txt")
	writeFiles(t, dir, texts(map[string]string{
		"both.txt":      "three\n",
		"added-mod.txt": "newer\n",
		"reverted.txt":  "same\n",
	}))
	if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "deleted.txt")); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "rm", "-q", "removed.txt")
	git(t, dir, "rm", "-q", "--cached", "cached-rm.txt")
	git(t, dir, "mv", "moved/from.txt", "moved/to.txt")
	if runtime.GOOS != "windows" {
		if err := os.Remove(filepath.Join(dir, "typechange.txt")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("untouched.txt", filepath.Join(dir, "typechange.txt")); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// gitStatus returns git's own status of dir, as StatusEntry values.
func gitStatus(t *testing.T, dir string) []repo.StatusEntry {
	t.Helper()
	out := git(t, dir, "-c", "status.renames=false", "-c", "core.quotePath=false", "status", "--porcelain", "--untracked-files=all")
	var es []repo.StatusEntry
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if l == "" {
			continue
		}
		es = append(es, repo.StatusEntry{Path: l[3:], Staged: l[0], Worktree: l[1]})
	}
	return es
}

func showStatus(es []repo.StatusEntry) string {
	var b strings.Builder
	for _, e := range es {
		b.WriteString(string([]byte{e.Staged, e.Worktree}) + " " + e.Path + "\n")
	}
	return b.String()
}

func TestStatusMatchesGit(t *testing.T) {
	t.Parallel()
	dir := statusRepo(t)
	tr := openTree(t, dir)
	// Before git status refreshes the index's file times, then after.
	for _, when := range []string{"before git status", "after git status"} {
		got, err := tr.Status()
		if err != nil {
			t.Fatalf("Status %s: %v", when, err)
		}
		want := gitStatus(t, dir)
		if showStatus(got) != showStatus(want) {
			t.Errorf("Status %s:\ngot\n%swant (git status --porcelain)\n%s", when, showStatus(got), showStatus(want))
		}
	}
	// A few letters, spelled out.
	got, _ := tr.Status()
	for _, w := range []string{" M modified.txt", "M  staged.txt", "MM both.txt", " D deleted.txt", "D  removed.txt",
		"A  added.txt", "AM added-mod.txt", "?? untracked.txt", "?? newdir/a/b.txt", " M run.sh", " M samesize.txt",
		"D  cached-rm.txt", "?? cached-rm.txt", "D  moved/from.txt", "A  moved/to.txt", " M secret/.env.local"} {
		if !strings.Contains(showStatus(got), w+"\n") {
			t.Errorf("Status: no %q line in\n%s", w, showStatus(got))
		}
	}
}

func TestStatusNoCommits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gitInit(t, dir)
	writeFiles(t, dir, texts(map[string]string{"a.txt": "a\n", "b.txt": "b\n"}))
	git(t, dir, "add", "a.txt")
	tr := openTree(t, dir)
	got, err := tr.Status()
	if err != nil {
		t.Fatal(err)
	}
	want := []repo.StatusEntry{{"a.txt", 'A', ' '}, {"b.txt", '?', '?'}}
	if showStatus(got) != showStatus(want) || showStatus(want) != showStatus(gitStatus(t, dir)) {
		t.Errorf("Status without commits:\ngot\n%swant\n%sgit\n%s", showStatus(got), showStatus(want), showStatus(gitStatus(t, dir)))
	}
}

func TestStatusClean(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gitInit(t, dir)
	writeFiles(t, dir, texts(map[string]string{"a.txt": "a\n"}))
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "one")
	tr := openTree(t, dir)
	if got, err := tr.Status(); err != nil || len(got) != 0 {
		t.Errorf("Status of a clean tree: got %q, %v, want none", showStatus(got), err)
	}
	if got, err := tr.WorkDiff(repo.Access{}); err != nil || got != "" {
		t.Errorf("WorkDiff of a clean tree: got %q, %v, want none", got, err)
	}
}

func TestNotGit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, texts(map[string]string{"a.txt": "a\n"}))
	tr := openTree(t, dir)
	if _, err := tr.Status(); !errors.Is(err, repo.ErrNotGit) {
		t.Errorf("Status outside git: got %v, want ErrNotGit", err)
	}
	if _, err := tr.WorkDiff(repo.Access{}); !errors.Is(err, repo.ErrNotGit) {
		t.Errorf("WorkDiff outside git: got %v, want ErrNotGit", err)
	}
	if _, err := tr.History(5); !errors.Is(err, repo.ErrNotGit) {
		t.Errorf("History outside git: got %v, want ErrNotGit", err)
	}
}

// diffRepo makes a repository with committed files and then every kind of
// change to them in the working tree and the index.
func diffRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	gitInit(t, dir)
	writeFiles(t, dir, map[string]file{
		"modified.go":   {content: "package a\n\n" + numbered("// line", 30)},
		"deleted.txt":   {content: "gone\nfor good\n"},
		"crlf.txt":      {content: "one\r\ntwo\r\nthree\r\n"},
		"noeol.txt":     {content: "first\nlast"},
		"run.sh":        {content: "#!/bin/sh\necho hi\n"},
		"modeonly.sh":   {content: "#!/bin/sh\n"},
		".env":          {content: "TOKEN=old\n"},
		"image.png":     {content: "\x89PNG\x00old"},
		"staged.txt":    {content: "old\n"},
		"reverted.txt":  {content: "same\n"},
		"empty-del.txt": {content: ""},
		"dir/sub.txt":   {content: "sub\n"},
	})
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "initial")
	writeFiles(t, dir, map[string]file{
		"modified.go":   {content: "package a\n\n" + strings.Replace(strings.Replace(numbered("// line", 30), "// line 3\n", "// LINE 3\n", 1), "// line 28\n", "", 1) + "// added\n"},
		"crlf.txt":      {content: "one\r\n2\r\nthree\r\n"},
		"noeol.txt":     {content: "first\nlast\n"},
		"run.sh":        {content: "#!/bin/sh\necho hello\n", mode: 0o755},
		"modeonly.sh":   {content: "#!/bin/sh\n", mode: 0o755},
		".env":          {content: "TOKEN=new\n"},
		"image.png":     {content: "\x89PNG\x00new"},
		"staged.txt":    {content: "new\n"},
		"reverted.txt":  {content: "changed\n"},
		"added.txt":     {content: "added\nfile\n"},
		"added-empty":   {content: ""},
		"untracked.txt": {content: "not shown\n"},
		"dir/sub.txt":   {content: "sub\nmore\n"},
	})
	git(t, dir, "add", "staged.txt", "reverted.txt", "added.txt", "added-empty")
	writeFiles(t, dir, texts(map[string]string{"reverted.txt": "same\n"}))
	for _, p := range []string{"deleted.txt", "empty-del.txt"} {
		if err := os.Remove(filepath.Join(dir, p)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var diffHeader = regexp.MustCompile(`(?m)^diff --git a/(\S+) b/`)
var skippedLine = regexp.MustCompile(`(?m)^# (?:skipped (\S+):|Binary files a/(\S+) and)`)

func TestWorkDiffMatchesGit(t *testing.T) {
	t.Parallel()
	dir := diffRepo(t)
	tr := openTree(t, dir)
	got, err := tr.WorkDiff(repo.Access{})
	if err != nil {
		t.Fatal(err)
	}
	// Every file git diff HEAD names is in the diff or said skipped.
	var named []string
	for _, m := range diffHeader.FindAllStringSubmatch(got, -1) {
		named = append(named, m[1])
	}
	for _, m := range skippedLine.FindAllStringSubmatch(got, -1) {
		named = append(named, m[1]+m[2])
	}
	sort.Strings(named)
	want := strings.Fields(git(t, dir, "diff", "HEAD", "--no-renames", "--name-only"))
	sort.Strings(want)
	if !slices.Equal(named, want) {
		t.Errorf("WorkDiff names %q, want %q (git diff HEAD --name-only)\n%s", named, want, got)
	}
	for _, w := range []string{"# skipped .env: secret\n", "# Binary files a/image.png and b/image.png differ\n",
		"old mode 100644\nnew mode 100755\n", "new file mode 100644\n", "deleted file mode 100644\n"} {
		if !strings.Contains(got, w) {
			t.Errorf("WorkDiff: no %q in\n%s", w, got)
		}
	}
	for _, p := range []string{"untracked.txt", "reverted.txt"} {
		if strings.Contains(got, p) {
			t.Errorf("WorkDiff shows %s, want it absent:\n%s", p, got)
		}
	}

	// pair's own parser reads the same files back, comments aside.
	pd, err := edit.Parse(got)
	if err != nil {
		t.Fatalf("edit.Parse(WorkDiff): %v", err)
	}
	var parsed []string
	for _, f := range pd.Files {
		parsed = append(parsed, f.Path())
	}
	if headers := diffHeader.FindAllStringSubmatch(got, -1); len(parsed) != len(headers) {
		t.Errorf("edit.Parse(WorkDiff) read %q, want the %d files of the diff", parsed, len(headers))
	}

	// git applies it backwards to the working tree, which then differs
	// from HEAD only by what the diff skipped.
	patch := filepath.Join(t.TempDir(), "work.diff")
	if err := os.WriteFile(patch, []byte(got), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "apply", "--check", "-R", patch)
	git(t, dir, "apply", "-R", patch)
	left := strings.Fields(git(t, dir, "diff", "HEAD", "--no-renames", "--name-only"))
	sort.Strings(left)
	if wantLeft := []string{".env", "image.png"}; !slices.Equal(left, wantLeft) {
		t.Errorf("after git apply -R of WorkDiff, git diff HEAD names %q, want %q", left, wantLeft)
	}
}

func TestWorkDiffSecretsAllowed(t *testing.T) {
	t.Parallel()
	dir := diffRepo(t)
	tr := openTree(t, dir)
	got, err := tr.WorkDiff(repo.Access{Secrets: true})
	if err != nil {
		t.Fatal(err)
	}
	want := "diff --git a/.env b/.env\n--- a/.env\n+++ b/.env\n@@ -1 +1 @@\n-TOKEN=old\n+TOKEN=new\n"
	if !strings.Contains(got, want) || strings.Contains(got, "# skipped .env") {
		t.Errorf("WorkDiff with secrets allowed: want the diff of .env\n%s\nin\n%s", want, got)
	}
}

func TestWorkDiffContent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gitInit(t, dir)
	writeFiles(t, dir, texts(map[string]string{"a.txt": "one\ntwo\nthree\n", "b.txt": "b\n"}))
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "one")
	writeFiles(t, dir, texts(map[string]string{"a.txt": "one\n2\nthree\n"}))
	if err := os.Remove(filepath.Join(dir, "b.txt")); err != nil {
		t.Fatal(err)
	}
	tr := openTree(t, dir)
	got, err := tr.WorkDiff(repo.Access{})
	if err != nil {
		t.Fatal(err)
	}
	want := "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n" +
		"diff --git a/b.txt b/b.txt\ndeleted file mode 100644\n--- a/b.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-b\n"
	if got != want {
		t.Errorf("WorkDiff:\ngot\n%s\nwant\n%s", got, want)
	}
	// git's own diff says the same, header lines aside.
	gitDiff := git(t, dir, "diff", "HEAD")
	gitDiff = regexp.MustCompile(`(?m)^index .*\n`).ReplaceAllString(gitDiff, "")
	if gitDiff != got {
		t.Errorf("WorkDiff:\ngot\n%s\ngit diff HEAD (without index lines)\n%s", got, gitDiff)
	}
}

// A hunk does not carry line endings: WorkDiff says where they changed.
func TestWorkDiffLineEndings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gitInit(t, dir)
	writeFiles(t, dir, texts(map[string]string{"only.txt": "a\nb\n", "also.txt": "a\nb\nc\n"}))
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "one")
	writeFiles(t, dir, texts(map[string]string{"only.txt": "a\r\nb\r\n", "also.txt": "a\r\nb\nC\n"}))
	tr := openTree(t, dir)
	got, err := tr.WorkDiff(repo.Access{})
	if err != nil {
		t.Fatal(err)
	}
	want := "diff --git a/also.txt b/also.txt\n--- a/also.txt\n+++ b/also.txt\n@@ -1,3 +1,3 @@\n a\n b\n-c\n+C\n" +
		"# also.txt: line endings also differ (not shown)\n" +
		"# only.txt: only line endings differ (not shown)\n"
	if got != want {
		t.Errorf("WorkDiff:\ngot\n%s\nwant\n%s", got, want)
	}
}

func TestHistory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gitInit(t, dir)
	tr := openTree(t, dir)
	if got, err := tr.History(10); err != nil || got != nil {
		t.Errorf("History without commits: got %v, %v, want none, nil", got, err)
	}
	for i, msg := range []string{"first", "second\n\nwith a body", "third line one\nline two\n\nbody", "fourth"} {
		writeFiles(t, dir, texts(map[string]string{"f.txt": strings.Repeat("x\n", i+1)}))
		git(t, dir, "add", ".")
		git(t, dir, "commit", "-q", "-m", msg)
	}
	for _, n := range []int{0, 1, 3, 4, 10} {
		got, err := tr.History(n)
		if err != nil {
			t.Fatalf("History(%d): %v", n, err)
		}
		args := []string{"log", "--format=%H%x00%an <%ae>%x00%aI%x00%s"}
		if n > 0 {
			args = append(args, "-n", strconv.Itoa(n))
		}
		want := strings.Split(strings.TrimSpace(git(t, dir, args...)), "\n")
		var gotLines []string
		for _, c := range got {
			gotLines = append(gotLines, c.Hash+"\x00"+c.Author+"\x00"+c.Date.UTC().Format("2006-01-02T15:04:05Z07:00")+"\x00"+c.Subject)
		}
		for i := range want {
			want[i] = strings.Replace(want[i], "+00:00", "Z", 1)
		}
		if !slices.Equal(gotLines, want) {
			t.Errorf("History(%d):\ngot  %q\nwant %q (git log)", n, gotLines, want)
		}
	}
	got, _ := tr.History(2)
	if len(got) != 2 || got[0].Subject != "fourth" || got[1].Subject != "third line one line two" {
		t.Errorf("History(2): got %+v, want fourth then third", got)
	}
}

package repo_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

// ignoreCase is a repository for the comparison with git: its files (the
// ignore files among them), the ones to commit, and the environment that
// says where git finds the person's configuration ("~" is HOME).
type ignoreCase struct {
	name   string
	env    map[string]string // XDG_CONFIG_HOME, GIT_CONFIG_GLOBAL; "~/" is HOME
	home   map[string]string // files of HOME
	files  map[string]string // files of the repository
	links  map[string]string // symbolic links of the repository: name -> target
	config []string          // git config of the repository: key, value, ...
}

// TestIgnoredMatchesGitStack compares Ignored and ListFiles with git's
// own verdict (git check-ignore on each path, git ls-files
// --exclude-standard on the tree) for repositories that use the whole
// ignore stack: core.excludesFile (given with "~/", in the global or the
// repository's configuration), its defaults $XDG_CONFIG_HOME/git/ignore
// and ~/.config/git/ignore, info/exclude and nested .gitignore files,
// with negations, directories and git's pattern syntax.
func TestIgnoredMatchesGitStack(t *testing.T) {
	paths := map[string]string{
		"a.log": "", "important.log": "", "dir/a.log": "", "dir/important.log": "",
		"global.txt": "", "sub/global.txt": "", "xdg.txt": "", "home.txt": "", "info.txt": "",
		"build/out.o": "", "build/keep.txt": "", "src/build/x.c": "",
		"abc/x": "", "abc/keep": "", "abc/deep/y": "", "docs/notes.md": "", "docs/sub/notes.md": "",
		"doc/a/b/notes.md": "", "doc/notes.md": "", "#hash": "", "!bang": "", "trail ": "", "trail": "",
		"q1.c": "", "qa.c": "", "x.tmp": "", "y.TMP": "", "1.bak": "", "z.bak": "",
		"nested/one/a.gen": "", "nested/one/keep.gen": "", "nested/two/a.gen": "", "nested/only-here": "",
		"nested/one/only-here": "", "tracked.log": "", "main.go": "", "gen/a/b.txt": "", "gen/a/keep.txt": "",
		"vendor/lib/x.go": "", "anchored": "", "sub/anchored": "", "mid/dle/f": "", "x/mid/dle/f": "",
	}
	rules := map[string]string{
		".gitignore": strings.Join([]string{
			"# a comment", "*.log", "!important.log", "build/", "!build/keep.txt", "abc/**", "!abc/keep",
			"docs/**/notes.md", `\#hash`, `\!bang`, `trail\ `, "q[0-9].c", "*.[!c]mp", "[[:digit:]].bak",
			"gen/*", "!gen/a", "gen/a/*", "!gen/a/keep.txt", "vendor", "/anchored", "mid/dle",
			"nested/**/only-here", "  ",
		}, "\n") + "\n",
		"nested/.gitignore":     "*.gen\n!keep.gen\n",
		"nested/two/.gitignore": "!a.gen\n",
		"dir/.gitignore":        "!a.log\n",
	}
	cases := []ignoreCase{
		{
			name:  "excludesFile with ~/ in the global configuration",
			home:  map[string]string{".gitconfig": "[core]\n\texcludesFile = ~/my-ignore\n", "my-ignore": "global.txt\n!tracked.log\n", ".config/git/ignore": "home.txt\n"},
			files: map[string]string{".git/info/exclude": "info.txt\n"},
		},
		{
			name:   "excludesFile in the repository's configuration wins over the global one",
			home:   map[string]string{".gitconfig": "[core]\n\texcludesFile = ~/my-ignore\n", "my-ignore": "global.txt\n", "repo-ignore": "xdg.txt\n"},
			files:  map[string]string{".git/info/exclude": "info.txt\n!a.log\n"},
			config: []string{"core.excludesFile", "~/repo-ignore"},
		},
		{
			name:  "XDG_CONFIG_HOME",
			env:   map[string]string{"XDG_CONFIG_HOME": "~/xdg"},
			home:  map[string]string{"xdg/git/ignore": "xdg.txt\n/sub/\n", ".config/git/ignore": "home.txt\n"},
			files: map[string]string{},
		},
		{
			name:  "~/.config/git/ignore",
			home:  map[string]string{".config/git/ignore": "home.txt\n*.TMP\n"},
			files: map[string]string{},
		},
		{
			name:  "a missing excludesFile: no default then",
			home:  map[string]string{".gitconfig": "[core]\n\texcludesFile = ~/missing\n", ".config/git/ignore": "home.txt\n"},
			files: map[string]string{},
		},
		{
			name:  "GIT_CONFIG_GLOBAL",
			env:   map[string]string{"GIT_CONFIG_GLOBAL": "~/other.gitconfig"},
			home:  map[string]string{"other.gitconfig": "[core]\n\texcludesFile = ~/other-ignore\n", "other-ignore": "global.txt\n", ".gitconfig": "[core]\n\texcludesFile = ~/my-ignore\n", "my-ignore": "home.txt\n"},
			files: map[string]string{},
		},
		{
			name:   "core.ignoreCase",
			home:   map[string]string{".config/git/ignore": "HOME.TXT\n"},
			files:  map[string]string{".git/info/exclude": "INFO.txt\nDoc/\n"},
			config: []string{"core.ignoreCase", "true"},
		},
		{
			name:  "a .gitignore that is a symbolic link is not read",
			home:  map[string]string{},
			files: map[string]string{"elsewhere.txt": "main.go\nxdg.txt\n"},
			links: map[string]string{"sub/.gitignore": "../elsewhere.txt"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("XDG_CONFIG_HOME", "")
			t.Setenv("GIT_CONFIG_GLOBAL", "")
			os.Unsetenv("XDG_CONFIG_HOME")
			os.Unsetenv("GIT_CONFIG_GLOBAL")
			t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			for k, v := range c.env {
				t.Setenv(k, strings.Replace(v, "~", home, 1))
			}
			writeFiles(t, home, texts(c.home))
			dir := t.TempDir()
			gitInit(t, dir)
			all := map[string]string{}
			for k, v := range paths {
				all[k] = v
			}
			for k, v := range rules {
				all[k] = v
			}
			for k, v := range c.files {
				all[k] = v
			}
			writeFiles(t, dir, texts(all))
			for i := 0; i < len(c.config); i += 2 {
				gitWith(t, dir, "config", c.config[i], c.config[i+1])
			}
			for name, target := range c.links {
				if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(name))); err != nil {
					t.Fatal(err)
				}
			}
			gitWith(t, dir, "add", "-f", "tracked.log", "main.go")
			gitWith(t, dir, "commit", "-qm", "init")

			tr := openTree(t, dir)
			var checked []string
			for p := range paths {
				checked = append(checked, p)
			}
			slices.Sort(checked)
			for _, p := range append(checked, "never/made.txt", "abc/new/z") {
				got, err := tr.Ignored(p)
				if err != nil {
					t.Fatalf("Ignored(%q): %v", p, err)
				}
				cmd := exec.Command("git", "check-ignore", "-q", "--", p)
				cmd.Dir = dir
				err = cmd.Run()
				if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
					t.Fatalf("git check-ignore %s: %v", p, err)
				}
				if want := err == nil; got != want {
					t.Errorf("Ignored(%q) = %v, git check-ignore says %v", p, got, want)
				}
			}
			files, _, err := tr.ListFiles("", repo.Access{}, 0)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Split(strings.TrimSuffix(gitWith(t, dir, "ls-files", "-z", "-co", "--exclude-standard"), "\x00"), "\x00")
			slices.Sort(want)
			if !slices.Equal(files, want) {
				t.Errorf("ListFiles:\n got %q\nwant %q (git ls-files -co --exclude-standard)", files, want)
			}
		})
	}
}

// gitWith runs git in dir in the test's environment, the person's
// configuration included (git, the helper, hides it).
func gitWith(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := repotest.Cmd(t, dir, args...)
	cmd.Env = append(os.Environ(), repotest.Identity()...)
	return repotest.Output(t, cmd)
}

// TestIgnoreFilesBounded: an ignore file that is a device holds no
// patterns (git reads nothing from it either), and one over git's size
// bound is an error, not a read of 100 MB or a pattern list pair does not
// know.
func TestIgnoreFilesBounded(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	writeFiles(t, home, texts(map[string]string{".gitconfig": "[core]\n\texcludesFile = /dev/zero\n"}))
	dir := t.TempDir()
	gitInit(t, dir)
	writeFiles(t, dir, texts(map[string]string{"a.txt": "a\n", "big/x.txt": "x\n"}))
	if err := os.Symlink("/dev/zero", filepath.Join(dir, ".gitignore")); err != nil {
		t.Fatal(err)
	}
	tr := openTree(t, dir)
	if got, err := tr.Ignored("a.txt"); got || err != nil {
		t.Errorf("Ignored(a.txt) = %v, %v; want false, nil", got, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "big", ".gitignore"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(dir, "big", ".gitignore"), 101<<20); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Ignored("big/x.txt"); !errors.Is(err, repo.ErrPatternFileSize) || !strings.HasPrefix(err.Error(), "big/.gitignore: ") {
		t.Errorf("Ignored(big/x.txt): %v, want ErrPatternFileSize for big/.gitignore", err)
	}
}

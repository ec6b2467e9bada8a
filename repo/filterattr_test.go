package repo

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo/repotest"
)

// TestFilterDriverMatchesGit compares the filter driver pair finds for
// each path with git check-attr's: .gitattributes at several levels,
// info/attributes, core.attributesFile given with "~/", macros, "-filter"
// and "!filter", "**" patterns and a .gitattributes that is a link (git
// does not read it).
func TestFilterDriverMatchesGit(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	t.Setenv("XDG_CONFIG_HOME", "")
	os.Unsetenv("XDG_CONFIG_HOME")
	dir := t.TempDir()
	files := map[string]string{
		home + "/.gitconfig": "[core]\n\tattributesFile = ~/attrs\n",
		home + "/attrs":      "*.glob filter=global\n*.both filter=global\n",
		".gitattributes": strings.Join([]string{
			"[attr]crypt filter=git-crypt diff=git-crypt",
			"*.key crypt", "secrets/** filter=vault", "*.both filter=top", "/anchored.txt filter=anch",
			"docs/*.md filter=docs", "*.psd filter=lfs diff=lfs merge=lfs -text", "plain.psd -filter",
			"unset.key !filter", "[!a]x.txt filter=cls", "dir/ filter=dironly",
		}, "\n") + "\n",
		"secrets/.gitattributes":     "open.txt -filter\n*.both filter=deep\n",
		"secrets/sub/.gitattributes": "*.md filter=sub\n",
		"linked/real.txt":            "*.txt filter=linked\n",
	}
	repotest.Git(t, dir, "init", "-q")
	files[".git/info/attributes"] = "info.txt filter=info\n*.psd filter=lfs-info\n"
	for name, content := range files {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, filepath.FromSlash(name))
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("real.txt", filepath.Join(dir, "linked", ".gitattributes")); err != nil {
		t.Fatal(err)
	}
	tr, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	cfg, err := tr.repo.loadConfig()
	if err != nil {
		t.Fatal(err)
	}
	fl := tr.newFilters(context.Background(), cfg)
	named := 0
	for _, p := range []string{
		"a.key", "unset.key", "secrets/a.txt", "secrets/open.txt", "secrets/sub/deep/x.md", "secrets/sub/y.md",
		"a.both", "secrets/a.both", "z.glob", "anchored.txt", "sub/anchored.txt", "docs/a.md", "docs/sub/a.md",
		"big.psd", "plain.psd", "info.txt", "ax.txt", "bx.txt", "dir/file", "linked/a.txt", "none.txt",
	} {
		got, err := fl.driver(p)
		if err != nil {
			t.Fatalf("driver(%q): %v", p, err)
		}
		cmd := exec.Command("git", "check-attr", "filter", "--", p)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git check-attr %s: %v", p, err)
		}
		want := strings.TrimSpace(string(out[strings.LastIndex(string(out), ": ")+2:]))
		if want == "unspecified" || want == "unset" || want == "set" {
			want = ""
		}
		if got != want {
			t.Errorf("driver(%q) = %q, git check-attr says %q", p, got, want)
		}
		if want != "" {
			named++
		}
	}
	if named < 12 {
		t.Errorf("git names a filter for %d paths only: the setup is wrong", named)
	}
}

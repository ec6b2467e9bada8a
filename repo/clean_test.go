package repo_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/pair-cli/pair/repo"
)

func TestClean(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	root := filepath.Join(base, "root")
	writeFiles(t, base, texts(map[string]string{"root/a/b": "b\n", "outside.txt": "secret\n"}))
	tr := openTree(t, root)

	tests := []struct {
		in      string
		want    string
		wantErr error
	}{
		// Accepted, and cleaned.
		{in: "a.txt", want: "a.txt"},
		{in: "a/b", want: "a/b"},
		{in: "./a//b", want: "a/b"},
		{in: "a/./b/../c", want: "a/c"},
		{in: "a/b/", want: "a/b"},
		{in: "a/../b", want: "b"},
		{in: "..foo", want: "..foo"},
		{in: "a/..b", want: "a/..b"},
		{in: ".gitignore", want: ".gitignore"},
		{in: ".github/workflows/ci.yml", want: ".github/workflows/ci.yml"},
		{in: ".git-blame-ignore-revs", want: ".git-blame-ignore-revs"},
		{in: "a/.gitkeep", want: "a/.gitkeep"},
		{in: root + "/a/b", want: "a/b"},
		{in: root + "/a/../c", want: "c"},
		{in: root + "//a///b", want: "a/b"},

		// Leaving the root.
		{in: "..", wantErr: repo.ErrOutsideRepo},
		{in: "../x", wantErr: repo.ErrOutsideRepo},
		{in: "../outside.txt", wantErr: repo.ErrOutsideRepo},
		{in: "a/../../x", wantErr: repo.ErrOutsideRepo},
		{in: "a/b/../../../x", wantErr: repo.ErrOutsideRepo},
		{in: "./../x", wantErr: repo.ErrOutsideRepo},
		{in: "/etc/passwd", wantErr: repo.ErrOutsideRepo},
		{in: "/", wantErr: repo.ErrOutsideRepo},
		{in: base + "/outside.txt", wantErr: repo.ErrOutsideRepo},
		{in: root + "/../outside.txt", wantErr: repo.ErrOutsideRepo},
		{in: root + "-sibling/x", wantErr: repo.ErrOutsideRepo}, // a name that starts like the root
		{in: root + "sibling", wantErr: repo.ErrOutsideRepo},

		// Not a file.
		{in: "", wantErr: repo.ErrOutsideRepo},
		{in: ".", wantErr: repo.ErrOutsideRepo},
		{in: "./", wantErr: repo.ErrOutsideRepo},
		{in: "a/..", wantErr: repo.ErrOutsideRepo},
		{in: root, wantErr: repo.ErrOutsideRepo},
		{in: root + "/", wantErr: repo.ErrOutsideRepo},

		// Inside .git.
		{in: ".git", wantErr: repo.ErrGitInternal},
		{in: ".git/", wantErr: repo.ErrGitInternal},
		{in: ".git/config", wantErr: repo.ErrGitInternal},
		{in: ".GIT/config", wantErr: repo.ErrGitInternal},
		{in: ".Git/hooks/pre-commit", wantErr: repo.ErrGitInternal},
		{in: ".git/hooks/pre-commit", wantErr: repo.ErrGitInternal},
		{in: "./.git/config", wantErr: repo.ErrGitInternal},
		{in: "a/../.git/config", wantErr: repo.ErrGitInternal},
		{in: root + "/.git/config", wantErr: repo.ErrGitInternal},
	}
	for _, tt := range tests {
		got, err := tr.Clean(tt.in)
		switch {
		case tt.wantErr == nil && err != nil:
			t.Errorf("Clean(%q) = %q, %v, want %q, nil", tt.in, got, err, tt.want)
		case tt.wantErr == nil && got != tt.want:
			t.Errorf("Clean(%q) = %q, want %q", tt.in, got, tt.want)
		case tt.wantErr != nil && !errors.Is(err, tt.wantErr):
			t.Errorf("Clean(%q) = %q, %v, want an error wrapping %q", tt.in, got, err, tt.wantErr)
		case tt.wantErr != nil && got != "":
			t.Errorf("Clean(%q) = %q with error %v, want \"\" with the error", tt.in, got, err)
		}
	}
}

// TestCleanThenRead: what Clean returns is what Stat and ReadFile take.
func TestCleanThenRead(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeFiles(t, root, texts(map[string]string{"a/b/c.txt": "c\n"}))
	tr := openTree(t, root)
	for _, in := range []string{"a/b/c.txt", "./a//b/c.txt", "a/x/../b/c.txt", root + "/a/b/c.txt"} {
		p, err := tr.Clean(in)
		if err != nil {
			t.Errorf("Clean(%q): %v", in, err)
			continue
		}
		if fi, err := tr.Stat(p); err != nil || fi.Size() != 2 {
			t.Errorf("Stat(Clean(%q) = %q) = %v, %v, want a 2-byte file", in, p, fi, err)
		}
		if got, err := tr.ReadFile(p); err != nil || string(got) != "c\n" {
			t.Errorf("ReadFile(Clean(%q) = %q) = %q, %v, want %q, nil", in, p, got, err, "c\n")
		}
	}
}

// TestCleanRefusesPairState: outside a repository .pair at the root holds
// pair's write journal, and no patch may name it; in a repository it is
// an ordinary directory (pair's state is under .git).
func TestCleanRefusesPairState(t *testing.T) {
	plain := openTree(t, t.TempDir())
	for _, p := range []string{".pair/journal/journal.json", ".PAIR/lock", ".pair"} {
		if _, err := plain.Clean(p); !errors.Is(err, repo.ErrPairInternal) {
			t.Errorf("Clean(%q) outside git: got %v, want ErrPairInternal", p, err)
		}
	}
	if got, err := plain.Clean("docs/.pair/x"); err != nil || got != "docs/.pair/x" {
		t.Errorf("Clean(docs/.pair/x): got %q, %v, want it accepted", got, err)
	}
	dir := t.TempDir()
	gitInit(t, dir)
	if got, err := openTree(t, dir).Clean(".pair/notes.md"); err != nil || got != ".pair/notes.md" {
		t.Errorf("Clean(.pair/notes.md) in a repository: got %q, %v, want it accepted", got, err)
	}
}

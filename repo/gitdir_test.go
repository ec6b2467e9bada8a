package repo

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo/repotest"
)

// TestGitDirs checks the git and common directories that gitDirs finds
// for each form of .git against those that git itself reports.
func TestGitDirs(t *testing.T) {
	write := func(t *testing.T, p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// separate makes base/top a working tree whose git directory is
	// base/store, and returns top.
	separate := func(t *testing.T, base string) string {
		t.Helper()
		top := filepath.Join(base, "top")
		repotest.Git(t, base, "init", "-q", "--separate-git-dir="+filepath.Join(base, "store"), top)
		return top
	}
	// gitFile is separate with the .git file rewritten to content.
	gitFile := func(content string) func(t *testing.T, base string) string {
		return func(t *testing.T, base string) string {
			top := separate(t, base)
			write(t, filepath.Join(top, ".git"), content)
			return top
		}
	}
	// worktree makes base/main a repository with a commit and base/wt a
	// linked worktree of it, and returns base/wt.
	worktree := func(t *testing.T, base string) string {
		main := filepath.Join(base, "main")
		repotest.Git(t, base, "init", "-q", "main")
		write(t, filepath.Join(main, "a.txt"), "a\n")
		repotest.Git(t, main, "add", "a.txt")
		repotest.Git(t, main, "-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-q", "-m", "a")
		repotest.Git(t, main, "worktree", "add", "-q", filepath.Join(base, "wt"))
		return filepath.Join(base, "wt")
	}
	tests := []struct {
		name string
		// setup makes a tree in base and returns its top, and the git and
		// common directories relative to base ("" when it is an error).
		setup             func(t *testing.T, base string) string
		wantGit, wantComm string
		wantErr           string
		// gitDisagrees: git refuses this .git file, which pair reads.
		gitDisagrees bool
	}{
		{
			name: "plain .git directory",
			setup: func(t *testing.T, base string) string {
				repotest.Git(t, base, "init", "-q", "top")
				return filepath.Join(base, "top")
			},
			wantGit: "top/.git", wantComm: "top/.git",
		},
		{
			name:    "absolute gitdir",
			setup:   separate,
			wantGit: "store", wantComm: "store",
		},
		{
			name:    "relative gitdir",
			setup:   gitFile("gitdir: ../store\n"),
			wantGit: "store", wantComm: "store",
		},
		{
			name:    "CRLF",
			setup:   gitFile("gitdir: ../store\r\n"),
			wantGit: "store", wantComm: "store",
		},
		{
			// git takes the spaces as part of the path; a directory name
			// ending in spaces is far less likely than an editor's leftover.
			name:    "trailing spaces and tabs",
			setup:   gitFile("gitdir:\t../store \t\r\n"),
			wantGit: "store", wantComm: "store", gitDisagrees: true,
		},
		{
			name:    "linked worktree",
			setup:   worktree,
			wantGit: "main/.git/worktrees/wt", wantComm: "main/.git",
		},
		{
			name: "linked worktree, commondir with CRLF",
			setup: func(t *testing.T, base string) string {
				wt := worktree(t, base)
				write(t, filepath.Join(base, "main", ".git", "worktrees", "wt", "commondir"), "../..\r\n")
				return wt
			},
			wantGit: "main/.git/worktrees/wt", wantComm: "main/.git",
		},
		{
			name: "submodule",
			setup: func(t *testing.T, base string) string {
				repotest.Git(t, base, "init", "-q", "super")
				if err := os.MkdirAll(filepath.Join(base, "super", ".git", "modules"), 0o755); err != nil {
					t.Fatal(err)
				}
				sub := filepath.Join(base, "super", "x")
				repotest.Git(t, base, "init", "-q", "--separate-git-dir="+filepath.Join(base, "super", ".git", "modules", "x"), sub)
				write(t, filepath.Join(sub, ".git"), "gitdir: ../.git/modules/x\n")
				return sub
			},
			wantGit: "super/.git/modules/x", wantComm: "super/.git/modules/x",
		},
		{
			name: "missing target",
			setup: func(t *testing.T, base string) string {
				top := filepath.Join(base, "top")
				write(t, filepath.Join(top, ".git"), "gitdir: ../gone\n")
				return top
			},
			wantErr: "names the git directory " + filepath.Join("BASE", "gone") + ", which does not exist",
		},
		{
			name: "no gitdir line",
			setup: func(t *testing.T, base string) string {
				top := filepath.Join(base, "top")
				write(t, filepath.Join(top, ".git"), "hello\n")
				return top
			},
			wantErr: "without a \"gitdir:\" line",
		},
		{
			name: "missing common directory",
			setup: func(t *testing.T, base string) string {
				top := separate(t, base)
				write(t, filepath.Join(base, "store", "commondir"), "../nowhere\n")
				return top
			},
			wantErr: "names the common directory " + filepath.Join("BASE", "nowhere") + ", which does not exist",
		},
		{
			name:    "no .git",
			setup:   func(t *testing.T, base string) string { return base },
			wantErr: "not a git repository",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			top := tc.setup(t, base)
			gitDir, commonDir, err := gitDirs(top)
			if tc.wantErr != "" {
				want := strings.ReplaceAll(tc.wantErr, "BASE", base)
				if err == nil || !errors.Is(err, ErrNotGit) || !strings.Contains(err.Error(), want) {
					t.Fatalf("gitDirs(%s) = %q, %q, %v; want an ErrNotGit saying %q", top, gitDir, commonDir, err, want)
				}
				// The tree opens (a .git marks the top), and every git
				// operation says why there is no repository.
				tr, err := Open(top)
				if err != nil {
					t.Fatalf("Open(%s): %v", top, err)
				}
				defer tr.Close()
				if _, err := tr.Log(0); !errors.Is(err, ErrNotGit) {
					t.Errorf("Log error = %v, want ErrNotGit", err)
				}
				if err := tr.CheckCommit(); !errors.Is(err, ErrNotGit) || !strings.Contains(err.Error(), want) {
					t.Errorf("CheckCommit error = %v, want an ErrNotGit saying %q", err, want)
				}
				return
			}
			if err != nil {
				t.Fatalf("gitDirs(%s): %v", top, err)
			}
			wantGit, wantComm := filepath.Join(base, tc.wantGit), filepath.Join(base, tc.wantComm)
			if gitDir != wantGit || commonDir != wantComm {
				t.Errorf("gitDirs = %s, %s; want %s, %s", gitDir, commonDir, wantGit, wantComm)
			}
			// git itself agrees.
			if tc.gitDisagrees {
				return
			}
			out := strings.Fields(repotest.Git(t, top, "rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir"))
			if len(out) != 2 || out[0] != gitDir || out[1] != commonDir {
				t.Errorf("git rev-parse says %q, gitDirs %s, %s", out, gitDir, commonDir)
			}
			tr, err := Open(top)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer tr.Close()
			if tr.gitDir != gitDir || tr.commonDir != commonDir {
				t.Errorf("Open kept %s, %s; want %s, %s", tr.gitDir, tr.commonDir, gitDir, commonDir)
			}
		})
	}
}

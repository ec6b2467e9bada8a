//go:build unix

package repo_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

// t4122Base makes the repository of git's t4122-apply-symlink-inside.sh:
// arch/i386/boot/Makefile, and arch/x86_64/boot a link to ../i386/boot,
// committed.
func t4122Base(t *testing.T, dir string) {
	t.Helper()
	gitInit(t, dir)
	writeFiles(t, dir, texts(map[string]string{"arch/i386/boot/Makefile": "1\n2\n3\n4\n5\n"}))
	symlink(t, dir, "../i386/boot", "arch/x86_64/boot")
	repotest.Git(t, dir, "add", ".")
	repotest.Git(t, dir, "commit", "-q", "-m", "initial")
}

func symlink(t *testing.T, dir, target, name string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

// t4122Patches makes the patches of t4122 as it makes them, with git, in
// a repository of their own.
func t4122Patches(t *testing.T) map[string]string {
	t.Helper()
	dir := t.TempDir()
	t4122Base(t, dir)
	rm := func(name string) {
		if err := os.RemoveAll(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
	out := map[string]string{}

	// "apply": the link becomes a directory with a Makefile of its own.
	rm("arch/x86_64/boot")
	writeFiles(t, dir, texts(map[string]string{"arch/x86_64/boot/Makefile": "2\n3\n4\n5\n6\n"}))
	repotest.Git(t, dir, "add", ".")
	repotest.Git(t, dir, "commit", "-q", "-a", "-m", "second")
	out["test.patch"] = repotest.Git(t, dir, "format-patch", "--binary", "-1", "--stdout")
	repotest.Git(t, dir, "reset", "-q", "--hard", "HEAD~1")

	// "do not read from beyond symbolic link": a change to a file that is
	// a link's on the other side.
	writeFiles(t, dir, texts(map[string]string{"arch/x86_64/dir/file": ""}))
	repotest.Git(t, dir, "add", "arch/x86_64/dir/file")
	writeFiles(t, dir, texts(map[string]string{"arch/x86_64/dir/file": "line\n"}))
	out["patch-read"] = repotest.Git(t, dir, "diff")
	repotest.Git(t, dir, "reset", "-q", "--hard")
	rm("arch/x86_64/dir")

	// "do not follow symbolic link (setup)".
	symlink(t, dir, "../i386/dir", "arch/x86_64/dir")
	repotest.Git(t, dir, "add", "arch/x86_64/dir")
	out["add_symlink.patch"] = repotest.Git(t, dir, "diff", "HEAD")
	repotest.Git(t, dir, "reset", "-q", "--hard")
	writeFiles(t, dir, texts(map[string]string{"arch/x86_64/dir/file": ""}))
	repotest.Git(t, dir, "add", "arch/x86_64/dir/file")
	out["add_file.patch"] = repotest.Git(t, dir, "diff", "HEAD")
	out["del_file.patch"] = repotest.Git(t, dir, "diff", "-R", "HEAD")
	out["patch"] = out["add_symlink.patch"] + out["add_file.patch"]
	out["tricky_del"] = out["add_symlink.patch"] + out["del_file.patch"]
	return out
}

// TestGitT4122Symlinks replays the symbolic link cases of git's own
// t4122-apply-symlink-inside.sh against pair: the same repositories, the
// same patches. Real git apply gives the reference answer. Where git
// refuses, pair refuses, with git's wording when git says "beyond a
// symbolic link", and the tree and the index are as they were. Where git
// applies, pair applies, but for the one case named: pair writes and
// deletes no symbolic link, and refuses that patch without writing.
func TestGitT4122Symlinks(t *testing.T) {
	t.Parallel()
	patches := t4122Patches(t)
	touch := func(t *testing.T, dir, name string) {
		writeFiles(t, dir, texts(map[string]string{name: ""}))
	}
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string)
		patch string
		// differs says why pair refuses a patch git applies.
		differs string
		// missing must not exist after the refusal; kept must exist.
		missing, kept []string
	}{
		{
			name:    "apply",
			patch:   patches["test.patch"],
			differs: "pair changes and deletes no symbolic link",
			kept:    []string{"arch/x86_64/boot", "arch/i386/boot/Makefile"},
		},
		{
			name: "do not read from beyond symbolic link",
			setup: func(t *testing.T, dir string) {
				touch(t, dir, "arch/i386/dir/file")
				symlink(t, dir, "../i386/dir", "arch/x86_64/dir")
			},
			patch: patches["patch-read"],
			kept:  []string{"arch/i386/dir/file"},
		},
		{
			name:    "do not follow symbolic link (same input)",
			setup:   func(t *testing.T, dir string) { mkdir(t, dir, "arch/i386/dir") },
			patch:   patches["patch"],
			missing: []string{"arch/x86_64/dir", "arch/i386/dir/file"},
		},
		{
			name: "do not follow symbolic link (same input, tricky delete)",
			setup: func(t *testing.T, dir string) {
				touch(t, dir, "arch/i386/dir/file")
				repotest.Git(t, dir, "add", "arch/i386/dir/file")
			},
			patch:   patches["tricky_del"],
			missing: []string{"arch/x86_64/dir"},
			kept:    []string{"arch/i386/dir/file"},
		},
		{
			name: "do not follow symbolic link (existing, add)",
			setup: func(t *testing.T, dir string) {
				symlink(t, dir, "../i386/dir", "arch/x86_64/dir")
				repotest.Git(t, dir, "add", "arch/x86_64/dir")
			},
			patch:   patches["add_file.patch"],
			missing: []string{"arch/i386/dir/file"},
		},
		{
			name: "do not follow symbolic link (existing, delete)",
			setup: func(t *testing.T, dir string) {
				symlink(t, dir, "../i386/dir", "arch/x86_64/dir")
				repotest.Git(t, dir, "add", "arch/x86_64/dir")
				touch(t, dir, "arch/i386/dir/file")
			},
			patch: patches["del_file.patch"],
			kept:  []string{"arch/i386/dir/file", "arch/x86_64/dir"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			t4122Base(t, dir)
			if tc.setup != nil {
				tc.setup(t, dir)
			}
			gitErr, gitApplies := gitApplyCheck(t, dir, tc.patch)

			before, index := snapshot(t, dir), repotest.Git(t, dir, "ls-files", "-s")
			err := pairApply(t, dir, tc.patch)
			switch {
			case gitApplies && err == nil:
				return
			case gitApplies && tc.differs != "":
				t.Logf("git applies, pair refuses (%s): %v", tc.differs, err)
			case gitApplies:
				t.Fatalf("git applies the patch, pair refuses it: %v", err)
			case err == nil:
				t.Fatalf("git refuses the patch (%s), pair applied it", gitErr)
			case strings.Contains(gitErr, "beyond a symbolic link") && !errors.Is(err, repo.ErrBeyondLink):
				t.Errorf("git refuses %q, pair refuses %v, want an error wrapping ErrBeyondLink", gitErr, err)
			case strings.Contains(gitErr, "beyond a symbolic link") && !strings.Contains(err.Error(), "beyond a symbolic link"):
				t.Errorf("pair refuses %q, want git's wording (%q)", err, gitErr)
			}
			sameSnapshot(t, "tree after the refusal", snapshot(t, dir), before)
			if got := repotest.Git(t, dir, "ls-files", "-s"); got != index {
				t.Errorf("index after the refusal:\n%s\nwant\n%s", got, index)
			}
			for _, p := range tc.missing {
				if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
					t.Errorf("%s exists after the refusal", p)
				}
			}
			for _, p := range tc.kept {
				if _, err := os.Lstat(filepath.Join(dir, p)); err != nil {
					t.Errorf("%s is gone after the refusal: %v", p, err)
				}
			}
		})
	}
}

func mkdir(t *testing.T, dir, name string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(name)), 0o755); err != nil {
		t.Fatal(err)
	}
}

// gitApplyCheck asks real git apply --check about the patch in dir: its
// error output and whether it applies.
func gitApplyCheck(t *testing.T, dir, patch string) (stderr string, ok bool) {
	t.Helper()
	cmd := repotest.Cmd(t, dir, "apply", "--check", "-")
	cmd.Stdin = strings.NewReader(patch)
	var b strings.Builder
	cmd.Stderr = &b
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("git apply --check: %v", err)
	}
	return b.String(), err == nil
}

// pairApply places the patch on the tree at dir and writes it, as pair
// apply --yes --no-commit does; the error is the refusal.
func pairApply(t *testing.T, dir, patch string) error {
	t.Helper()
	p, err := edit.Parse(patch)
	if err != nil {
		return err
	}
	tr := openTree(t, dir)
	plans, err := tr.Place(p)
	if err != nil {
		return err
	}
	for _, pl := range plans {
		if len(pl.Errors) > 0 {
			return errors.New(pl.Path() + ": a hunk does not apply")
		}
	}
	_, err = tr.ApplyPlans(plans, repo.ApplyOptions{})
	return err
}

// gitdir.go: the git directory and the common directory found from .git, ErrNotGit, and gitRepo, the repository they hold (go-git's storage over them).

package repo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/pair-cli/pair/repo/internal/gitobj"
	"github.com/pair-cli/pair/repo/internal/gitstore"
)

// ErrNotGit is returned for a git operation on a tree that is not a git
// repository, and by Open for a .git file that leads to no git directory.
var ErrNotGit = errors.New("not a git repository")

// gitRepo is the tree's repository as git keeps it, in the git
// directory: its object storage, configuration, index and hooks, and the
// record of the commits pair made (record.go).
type gitRepo struct {
	// git says whether the tree is a repository's; top is its root.
	git bool
	top string
	// gitDir and commonDir are the git directory and the common
	// directory (see Tree); gitErr says why a .git leads to neither.
	gitDir, commonDir string
	gitErr            error
}

// needGit returns why the tree has no git repository to work on: ErrNotGit
// outside one, or the error of a .git that leads to no git directory.
func (gr *gitRepo) needGit() error {
	if !gr.git {
		return ErrNotGit
	}
	return gr.gitErr
}

// gitDirs finds the git directory of the working tree at top (HEAD, the
// index) and its common directory (objects, refs, config, hooks), as git
// does. .git is either the git directory itself, or a file whose first
// line is "gitdir: PATH" (a linked worktree, a submodule, a repository
// made with --separate-git-dir); a relative PATH is relative to top. A
// git directory holding a "commondir" file shares the common directory
// it names (relative to the git directory); otherwise the two are the
// same. Surrounding white space, CRLF included, is ignored in both files.
func gitDirs(top string) (gitDir, commonDir string, err error) {
	dot := filepath.Join(top, ".git")
	fi, err := os.Stat(dot)
	if err != nil {
		return "", "", fmt.Errorf("%s: %w", top, ErrNotGit)
	}
	gitDir = dot
	if !fi.IsDir() {
		b, err := os.ReadFile(dot)
		if err != nil {
			return "", "", fmt.Errorf("read %s: %w", dot, err)
		}
		line, _, _ := strings.Cut(string(b), "\n")
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
		if !ok || strings.TrimSpace(rest) == "" {
			return "", "", fmt.Errorf("%s is a file without a \"gitdir:\" line: %w", dot, ErrNotGit)
		}
		gitDir = relativeTo(top, rest)
	}
	if fi, err := os.Stat(gitDir); err != nil || !fi.IsDir() {
		return "", "", fmt.Errorf("%s names the git directory %s, which does not exist: %w", dot, gitDir, ErrNotGit)
	}
	commonDir = gitDir
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		commonDir = relativeTo(gitDir, string(b))
		if fi, err := os.Stat(commonDir); err != nil || !fi.IsDir() {
			return "", "", fmt.Errorf("%s names the common directory %s, which does not exist: %w", filepath.Join(gitDir, "commondir"), commonDir, ErrNotGit)
		}
	}
	return filepath.Clean(gitDir), filepath.Clean(commonDir), nil
}

// relativeTo returns the path p (with surrounding white space removed)
// as an absolute path, resolved against dir when it is relative.
func relativeTo(dir, p string) string {
	p = filepath.FromSlash(strings.TrimSpace(p))
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p)
}

// gitStorage opens the tree's repository: its objects and refs in the
// common directory, and the worktree's own HEAD in the git directory. It
// is ErrNotGit outside a repository.
func (gr *gitRepo) gitStorage() (*gitstore.Store, error) {
	return gr.openStore(false)
}

// openStore opens the repository's store; with keepOpen its pack files
// stay open until it is closed (see gitstore.Open).
func (gr *gitRepo) openStore(keepOpen bool) (*gitstore.Store, error) {
	if !gr.git {
		return nil, fmt.Errorf("%s: %w", gr.top, ErrNotGit)
	}
	if gr.gitErr != nil {
		return nil, gr.gitErr
	}
	return gitstore.Open(gr.gitDir, gr.commonDir, keepOpen), nil
}

// headCommit returns the commit HEAD points at, or nil on an unborn
// branch (no commit yet).
func headCommit(st *gitstore.Store) (*gitobj.Commit, error) {
	ref, err := st.Resolve(plumbing.HEAD)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read HEAD: %w", err)
	}
	c, err := gitobj.ReadCommit(st, ref.Hash())
	if err != nil {
		return nil, fmt.Errorf("read HEAD commit %s: %w", ref.Hash(), err)
	}
	return c, nil
}

// GitDir returns the tree's git directory (the target of a ".git" file
// for a linked worktree or a submodule), or "" outside a repository.
func (t *Tree) GitDir() string { return t.gitDir }

// CommonDir returns the git directory that the tree's worktrees share
// (the git directory itself but in a linked worktree), or "" outside a
// repository.
func (t *Tree) CommonDir() string { return t.commonDir }

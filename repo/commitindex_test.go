package repo_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

// CommitIndex commits what the index holds, as git commit does: a staged
// deletion, a new file, a mode change and a changed file, whatever the
// working tree holds besides; an index like HEAD, or with a conflict, is
// refused and nothing is committed.
func TestCommitIndex(t *testing.T) {
	dir := t.TempDir()
	gitInit(t, dir)
	writeFiles(t, dir, texts(map[string]string{"a": "a\n", "b": "b\n", "sub/c": "c\n", "d": "d\n"}))
	repotest.Git(t, dir, "add", "-A")
	repotest.Git(t, dir, "commit", "-q", "-m", "base")
	tr := openTree(t, dir)
	opts := repo.CommitOptions{Record: audit.Record{Subject: "staged", Session: "s-1", Model: "none", Resolved: []string{"a"}}}

	if _, err := tr.CommitIndex(opts); !errors.Is(err, repo.ErrNothingStaged) {
		t.Errorf("CommitIndex with nothing staged: %v, want ErrNothingStaged", err)
	}
	writeFiles(t, dir, texts(map[string]string{"a": "A\n", "new": "new\n", "d": "unstaged\n"}))
	repotest.Git(t, dir, "add", "a", "new")
	repotest.Git(t, dir, "rm", "-q", "sub/c")
	repotest.Git(t, dir, "update-index", "--chmod=+x", "b")
	want := repotest.Git(t, dir, "write-tree")
	res, err := tr.CommitIndex(opts)
	if err != nil {
		t.Fatalf("CommitIndex: %v", err)
	}
	if got := repotest.Git(t, dir, "rev-parse", "HEAD^{tree}"); got != want {
		t.Errorf("committed tree %s, want the index's %s", got, want)
	}
	if got := strings.Join(res.Committed, " "); got != "a b new sub/c" {
		t.Errorf("Committed = %q", got)
	}
	if st := repotest.Git(t, dir, "status", "--porcelain"); st != " M b\n M d\n" { // b's file is not executable
		t.Errorf("after the commit, git status says\n%s", st)
	}
	if tr := repotest.Git(t, dir, "log", "-1", "--format=%(trailers:key=Pair-Resolved,valueonly)"); tr != "a\n\n" {
		t.Errorf("Pair-Resolved trailer %q", tr)
	}
	repotest.Git(t, dir, "fsck", "--strict")

	// A conflict left in the index.
	head := repotest.Git(t, dir, "rev-parse", "HEAD")
	blob := strings.TrimSpace(repotest.Git(t, dir, "rev-parse", "HEAD:a"))
	cmd := repotest.Cmd(t, dir, "update-index", "--index-info")
	cmd.Stdin = strings.NewReader("0 0000000000000000000000000000000000000000\ta\n100644 " + blob + " 1\ta\n100644 " + blob + " 2\ta\n")
	repotest.Output(t, cmd)
	if _, err := tr.CommitIndex(opts); err == nil || !strings.Contains(err.Error(), "unresolved conflicts (a)") {
		t.Errorf("CommitIndex with a conflict: %v", err)
	}
	if h := repotest.Git(t, dir, "rev-parse", "HEAD"); h != head {
		t.Errorf("HEAD moved to %s", h)
	}
}

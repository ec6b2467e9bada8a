package repo_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/repo"
)

// pcPlans places diff on the tree.
func pcPlans(t *testing.T, tr *repo.Tree, diff string) []*edit.FilePlan {
	t.Helper()
	p, err := edit.Parse(diff)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	plans, err := tr.Place(p)
	if err != nil {
		t.Fatalf("Place: %v", err)
	}
	return plans
}

// pcDiverge makes a branch side that writes b.txt, and a commit on main
// that writes mainFile (b.txt for a conflict).
func pcDiverge(t *testing.T, dir, mainFile string) {
	t.Helper()
	cmGit(t, dir, "checkout", "-q", "-b", "side")
	cmWrite(t, dir, "b.txt", "side\n")
	cmGit(t, dir, "add", "b.txt")
	cmGit(t, dir, "commit", "-q", "-m", "side")
	cmGit(t, dir, "checkout", "-q", "main")
	cmWrite(t, dir, mainFile, "main\n")
	cmGit(t, dir, "add", mainFile)
	cmGit(t, dir, "commit", "-q", "-m", "main")
}

func pcOptions() repo.ApplyOptions {
	return repo.ApplyOptions{Commit: true, Record: audit.Record{Subject: "Change things", Session: "s-1", Model: "none"}}
}

// TestApplyPlansChecksCommitFirst: whatever would stop the commit stops
// ApplyPlans before it writes a file.
func TestApplyPlansChecksCommitFirst(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, dir string)
		is    error  // the reason, when it has a type
		want  string // what the error says beyond its reason
	}{
		{"index-lock", func(t *testing.T, dir string) {
			cmWrite(t, dir, ".git/index.lock", "")
		}, repo.ErrIndexLocked, ""},
		{"stale-pair-lock", func(t *testing.T, dir string) {
			cmWrite(t, dir, ".git/index.lock", "pair pid 999999999\n")
		}, repo.ErrIndexLocked, "no longer running"},
		{"merge", func(t *testing.T, dir string) {
			pcDiverge(t, dir, "c.txt")
			cmGit(t, dir, "merge", "-q", "--no-commit", "--no-ff", "side")
		}, repo.ErrOperationInProgress, "a merge"},
		{"conflict", func(t *testing.T, dir string) {
			pcDiverge(t, dir, "b.txt")
			cmGitErr(dir, "merge", "-q", "side") // conflicts
			os.Remove(filepath.Join(dir, ".git", "MERGE_HEAD"))
		}, nil, "unresolved conflicts (b.txt)"},
		{"gpg-missing", func(t *testing.T, dir string) {
			cmGit(t, dir, "config", "commit.gpgsign", "true")
			cmGit(t, dir, "config", "gpg.program", "pair-no-such-gpg")
		}, repo.ErrSigning, `signing program "pair-no-such-gpg" is not found`},
		{"ssh-no-key", func(t *testing.T, dir string) {
			cmGit(t, dir, "config", "commit.gpgsign", "true")
			cmGit(t, dir, "config", "gpg.format", "ssh")
		}, repo.ErrSigning, "user.signingkey is not"},
		{"ssh-key-missing", func(t *testing.T, dir string) {
			cmGit(t, dir, "config", "commit.gpgsign", "true")
			cmGit(t, dir, "config", "gpg.format", "ssh")
			cmGit(t, dir, "config", "user.signingkey", filepath.Join(dir, "no-such-key"))
		}, repo.ErrSigning, "cannot be read"},
		{"bad-format", func(t *testing.T, dir string) {
			cmGit(t, dir, "config", "commit.gpgsign", "true")
			cmGit(t, dir, "config", "gpg.format", "pgp2")
		}, repo.ErrSigning, `gpg.format "pgp2"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
			c.setup(t, dir)
			head := cmHead(t, dir)
			plans := pcPlans(t, tr, cmDiffLine5)
			res, err := tr.ApplyPlans(plans, pcOptions())
			if err == nil || c.is != nil && !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("ApplyPlans error = %v, want %v saying %q", err, c.is, c.want)
			}
			if errors.Is(err, repo.ErrNotCommitted) || res.Written {
				t.Errorf("ApplyPlans wrote the files before refusing: %v", err)
			}
			if got := cmRead(t, dir, "a.txt"); got != cmNumbered("l", 10) {
				t.Errorf("a.txt was written:\n%s", got)
			}
			if cmHead(t, dir) != head {
				t.Errorf("HEAD moved")
			}
			if err := tr.CheckCommit(); err == nil || c.is != nil && !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("CheckCommit = %v, want %v saying %q", err, c.is, c.want)
			}
		})
	}
}

// TestCommitRefusesMerge: Commit itself refuses a merge in progress
// rather than writing a one-parent commit.
func TestCommitRefusesMerge(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
	cmGit(t, dir, "checkout", "-q", "-b", "side")
	cmWrite(t, dir, "b.txt", "side\n")
	cmGit(t, dir, "add", "b.txt")
	cmGit(t, dir, "commit", "-q", "-m", "side")
	cmGit(t, dir, "checkout", "-q", "main")
	cmGit(t, dir, "merge", "-q", "--no-commit", "--no-ff", "side")
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	head := cmHead(t, dir)
	if _, err := tr.Commit(fcs, cmOptions(recs)); !errors.Is(err, repo.ErrOperationInProgress) {
		t.Fatalf("Commit error = %v, want ErrOperationInProgress", err)
	}
	if cmHead(t, dir) != head {
		t.Errorf("HEAD moved")
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "index.lock")); err == nil {
		t.Errorf("index.lock left behind")
	}
}

// TestCheckCommitClean: nothing in the way, nothing refused.
func TestCheckCommitClean(t *testing.T) {
	_, tr := cmRepo(t, map[string]string{"a.txt": "a\n"})
	if err := tr.CheckCommit(); err != nil {
		t.Fatalf("CheckCommit = %v", err)
	}
}

package gitstore

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/pair-cli/pair/repo/repotest"
)

func revParse(t *testing.T, dir, rev string) string {
	t.Helper()
	return strings.TrimSpace(repotest.Git(t, dir, "rev-parse", "--verify", "-q", rev))
}

// refsRepo makes a repository with branches, tags, remote-tracking refs
// (origin/HEAD symbolic) and a linked worktree on a branch of its own.
func refsRepo(t *testing.T) (dir, wt string) {
	t.Helper()
	dir = repotest.Init(t, map[string]string{"a": "a\n"})
	repotest.Git(t, dir, "branch", "topic")
	repotest.Git(t, dir, "tag", "-a", "-m", "v1", "v1")
	repotest.WriteFiles(t, dir, map[string]string{"a": "b\n"})
	repotest.Git(t, dir, "commit", "-qam", "second")
	head := revParse(t, dir, "HEAD")
	repotest.Git(t, dir, "update-ref", "refs/remotes/origin/main", head)
	repotest.Git(t, dir, "update-ref", "refs/remotes/origin/topic", head+"~1")
	repotest.Git(t, dir, "update-ref", "refs/remotes/up/deep/x", head)
	repotest.Git(t, dir, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
	wt = filepath.Join(t.TempDir(), "wt")
	repotest.Git(t, dir, "worktree", "add", "-q", "-b", "wtb", wt, "HEAD~1")
	return dir, wt
}

// openWorktree opens the store of a linked worktree as pair does: its
// own git directory, and the common directory commondir names.
func openWorktree(t *testing.T, wt string) *Store {
	t.Helper()
	gd := strings.TrimSpace(repotest.Git(t, wt, "rev-parse", "--absolute-git-dir"))
	cd := strings.TrimSpace(repotest.Git(t, wt, "rev-parse", "--git-common-dir"))
	if !filepath.IsAbs(cd) {
		cd = filepath.Join(wt, cd)
	}
	return Open(gd, filepath.Clean(cd), false)
}

func TestRefsMatchGit(t *testing.T) {
	dir, wt := refsRepo(t)
	for _, packed := range []bool{false, true} {
		if packed {
			repotest.Git(t, dir, "pack-refs", "--all", "--prune")
		}
		for _, tt := range []struct {
			dir string
			s   *Store
		}{
			{dir, Open(gitDir(dir), gitDir(dir), false)},
			{wt, openWorktree(t, wt)},
		} {
			for _, name := range []string{"HEAD", "refs/heads/main", "refs/heads/topic", "refs/heads/wtb", "refs/tags/v1", "refs/remotes/origin/HEAD", "refs/remotes/up/deep/x"} {
				ref, err := tt.s.Resolve(plumbing.ReferenceName(name))
				if err != nil {
					t.Fatalf("packed=%v %s: Resolve(%s): %v", packed, tt.dir, name, err)
				}
				if want := revParse(t, tt.dir, name); ref.Hash().String() != want {
					t.Errorf("packed=%v %s: %s = %s, git says %s", packed, tt.dir, name, ref.Hash(), want)
				}
			}
			head, err := tt.s.Reference(plumbing.HEAD)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.TrimSpace(repotest.Git(t, tt.dir, "symbolic-ref", "HEAD"))
			if head.Type() != plumbing.SymbolicReference || head.Target().String() != want {
				t.Errorf("%s: HEAD is %v, git says %s", tt.dir, head, want)
			}
			if _, err := tt.s.Resolve("refs/heads/none"); !errors.Is(err, plumbing.ErrReferenceNotFound) {
				t.Errorf("missing ref: %v", err)
			}
			if _, err := tt.s.Resolve("refs/heads"); !errors.Is(err, plumbing.ErrReferenceNotFound) {
				t.Errorf("a directory of refs as a ref: %v", err)
			}
			if _, err := tt.s.Reference("refs/heads/../../config"); !errors.Is(err, ErrRefName) {
				t.Errorf("a ref name outside refs: %v", err)
			}
			refs, err := tt.s.Refs("refs/remotes/")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range refs {
				if r.Type() == plumbing.HashReference {
					got = append(got, r.Name().String()+" "+r.Hash().String())
				} else {
					got = append(got, r.Name().String()+" -> "+r.Target().String())
				}
			}
			wantRefs := strings.TrimSpace(repotest.Git(t, tt.dir, "for-each-ref", "--format=%(refname) %(if)%(symref)%(then)-> %(symref)%(else)%(objectname)%(end)", "refs/remotes/"))
			if g := strings.Join(got, "\n"); g != wantRefs {
				t.Errorf("packed=%v %s: Refs:\n%s\nwant\n%s", packed, tt.dir, g, wantRefs)
			}
		}
	}
}

// An unborn branch: HEAD names a branch that does not exist yet.
func TestUnbornHead(t *testing.T) {
	dir := repotest.Init(t, nil)
	s := Open(gitDir(dir), gitDir(dir), false)
	if _, err := s.Resolve(plumbing.HEAD); !errors.Is(err, plumbing.ErrReferenceNotFound) {
		t.Fatalf("Resolve(HEAD) = %v", err)
	}
}

func TestSetRef(t *testing.T) {
	dir, wt := refsRepo(t)
	main := plumbing.NewHash(revParse(t, dir, "main"))
	first := plumbing.NewHash(revParse(t, dir, "main~1"))
	for _, packed := range []bool{false, true} {
		if packed {
			repotest.Git(t, dir, "pack-refs", "--all", "--prune")
		}
		s := Open(gitDir(dir), gitDir(dir), false)
		// The ref moved since it was read: refused, unchanged.
		if err := s.SetRef("refs/heads/main", first, first); !errors.Is(err, ErrRefChanged) {
			t.Fatalf("stale old value: %v", err)
		}
		if got := revParse(t, dir, "main"); got != main.String() {
			t.Fatalf("main moved to %s", got)
		}
		// A new branch must not exist yet.
		if err := s.SetRef("refs/heads/topic", first, plumbing.ZeroHash); !errors.Is(err, ErrRefChanged) {
			t.Fatalf("creating an existing branch: %v", err)
		}
		// Another process holds the lock: refused, as git refuses.
		lock := filepath.Join(gitDir(dir), "refs", "heads", "main.lock")
		if err := os.WriteFile(lock, nil, 0o666); err != nil {
			t.Fatal(err)
		}
		if err := s.SetRef("refs/heads/main", first, main); err == nil || errors.Is(err, ErrRefChanged) {
			t.Fatalf("with main.lock held: %v", err)
		}
		os.Remove(lock)
		// Moved, then moved back; git reads each move.
		if err := s.SetRef("refs/heads/main", first, main); err != nil {
			t.Fatal(err)
		}
		if got := revParse(t, dir, "main"); got != first.String() {
			t.Fatalf("git reads main as %s, want %s", got, first)
		}
		if err := s.SetRef("refs/heads/main", main, first); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(lock); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("lock left behind: %v", err)
		}
		repotest.Git(t, dir, "fsck", "--no-dangling")
	}
	// A new branch, and a detached HEAD in the linked worktree, which is
	// the worktree's own.
	s := Open(gitDir(dir), gitDir(dir), false)
	if err := s.SetRef("refs/heads/fresh/one", main, plumbing.ZeroHash); err != nil {
		t.Fatal(err)
	}
	if got := revParse(t, dir, "fresh/one"); got != main.String() {
		t.Fatalf("fresh/one is %s", got)
	}
	ws := openWorktree(t, wt)
	repotest.Git(t, wt, "checkout", "-q", "--detach")
	if err := ws.SetRef(plumbing.HEAD, main, first); err != nil {
		t.Fatal(err)
	}
	if got := revParse(t, wt, "HEAD"); got != main.String() {
		t.Fatalf("worktree HEAD is %s", got)
	}
	if got := strings.TrimSpace(repotest.Git(t, dir, "symbolic-ref", "HEAD")); got != "refs/heads/main" {
		t.Fatalf("the main worktree's HEAD changed: %s", got)
	}
}

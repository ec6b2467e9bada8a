package repo_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo"
)

// undoFixture is a repository whose HEAD is a pair commit that modifies
// a.txt, makes run.sh not executable, deletes gone.txt and adds
// new/dir/n.txt, with the user's own unrelated edits around it.
type undoFixture struct {
	*histRepo
	base, head string
}

func newUndoFixture(t *testing.T) *undoFixture {
	t.Helper()
	h := newHistRepo(t)
	h.write(map[string]string{
		"a.txt":      "one\ntwo\nthree\n",
		"gone.txt":   "to be deleted\n",
		"other.txt":  "other\n",
		"staged.txt": "staged\n",
	})
	writeFiles(t, h.dir, map[string]file{"run.sh": {content: "#!/bin/sh\necho hi\n", mode: 0o755}})
	base := h.plain("initial")
	h.write(map[string]string{"a.txt": "one\nTWO\nthree\n", "new/dir/n.txt": "new\n"})
	if err := os.Remove(filepath.Join(h.dir, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(h.dir, "run.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	recs := append(hunks("a.txt", ap, rj), hunks("new/dir/n.txt", ed)...)
	recs = append(recs, hunks("run.sh", ap)...)
	recs = append(recs, hunks("gone.txt", ap)...)
	head := h.pair(record("model change", "gpt-x", recs...))
	return &undoFixture{histRepo: h, base: base, head: head}
}

// dirty adds the user's own edits that undo must leave alone: an
// unstaged edit, a staged edit, an untracked file.
func (f *undoFixture) dirty() {
	f.write(map[string]string{"other.txt": "other, edited\n", "staged.txt": "staged, edited\n", "untracked.txt": "mine\n"})
	f.git("add", "staged.txt")
}

func TestUndo(t *testing.T) {
	f := newUndoFixture(t)
	f.dirty()

	res, err := f.tree().Undo(false)
	if err != nil {
		t.Fatal(err)
	}
	if res.DryRun || res.Commit.Hash != f.head || res.Parent != f.base || res.Branch != "refs/heads/main" {
		t.Errorf("result: dry run %v, commit %s, parent %s, branch %q; want false, %s, %s, refs/heads/main",
			res.DryRun, res.Commit.Hash, res.Parent, res.Branch, f.head, f.base)
	}
	wantFiles := []repo.UndoFile{
		{Path: "a.txt", Action: "restore", Mode: "100644"},
		{Path: "gone.txt", Action: "restore", Mode: "100644"},
		{Path: "new/dir/n.txt", Action: "remove"},
		{Path: "run.sh", Action: "restore", Mode: "100755"},
	}
	if !reflect.DeepEqual(res.Files, wantFiles) {
		t.Errorf("files:\ngot  %+v\nwant %+v", res.Files, wantFiles)
	}

	if got := f.rev("HEAD"); got != f.base {
		t.Errorf("HEAD = %s, want the parent %s", got, f.base)
	}
	if got := strings.TrimSpace(f.git("symbolic-ref", "HEAD")); got != "refs/heads/main" {
		t.Errorf("HEAD is %s, want it still on main", got)
	}
	if got := f.read("a.txt"); got != "one\ntwo\nthree\n" {
		t.Errorf("a.txt = %q, want the parent's", got)
	}
	if got := f.read("gone.txt"); got != "to be deleted\n" {
		t.Errorf("gone.txt = %q, want it back", got)
	}
	if fi, err := os.Stat(filepath.Join(f.dir, "run.sh")); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("run.sh: %v, %v; want mode 0755 back", fi, err)
	}
	for _, gone := range []string{"new/dir/n.txt", "new/dir", "new"} {
		if _, err := os.Lstat(filepath.Join(f.dir, gone)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: %v, want it removed", gone, err)
		}
	}
	// The user's edits survive, staged and unstaged as they were; the
	// undone files show no change at all.
	if got, want := f.git("status", "--porcelain"), " M other.txt\nM  staged.txt\n?? untracked.txt\n"; got != want {
		t.Errorf("git status --porcelain:\n%s\nwant:\n%s", got, want)
	}
	if got := f.git("diff", "--cached", "staged.txt"); !strings.Contains(got, "+staged, edited") {
		t.Errorf("the staged edit is lost: %q", got)
	}
	if got := f.git("diff", "HEAD", "--", "a.txt", "gone.txt", "run.sh", "new"); got != "" {
		t.Errorf("undone files differ from HEAD:\n%s", got)
	}
	f.git("fsck", "--no-progress", "--strict")
	// The undone commit can be found again in the reflog.
	if got := f.git("reflog", "-1", "--format=%H %gs", "main"); got != f.base+" pair undo: model change\n" {
		t.Errorf("reflog of main: %q", got)
	}
	if got := strings.TrimSpace(f.git("rev-parse", "main@{1}")); got != f.head {
		t.Errorf("main@{1} = %s, want the undone %s", got, f.head)
	}
	noTempFiles(t, f.dir)
}

func TestUndoDryRunChangesNothing(t *testing.T) {
	f := newUndoFixture(t)
	f.dirty()
	before := snapshot(t, f.dir)
	index := func() string {
		b, err := os.ReadFile(filepath.Join(f.dir, ".git", "index"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	idx := index()

	res, err := f.tree().Undo(true)
	if err != nil {
		t.Fatal(err)
	}
	if !res.DryRun || res.Commit.Hash != f.head || res.Parent != f.base || len(res.Files) != 4 {
		t.Errorf("dry run result: %+v", res)
	}
	sameSnapshot(t, "after a dry run", snapshot(t, f.dir), before)
	if index() != idx {
		t.Error("the dry run changed the index")
	}
	if got := f.rev("HEAD"); got != f.head {
		t.Errorf("HEAD = %s, want %s still", got, f.head)
	}
}

func TestUndoTwice(t *testing.T) {
	h := newHistRepo(t)
	h.write(map[string]string{"a.txt": "0\n"})
	base := h.plain("initial")
	h.write(map[string]string{"a.txt": "1\n"})
	p1 := h.pair(record("first", "m", hunks("a.txt", ap)...))
	h.write(map[string]string{"a.txt": "2\n"})
	h.pair(record("second", "m", hunks("a.txt", ap)...))

	// Each undo opens the tree anew: the state is git's alone.
	for _, want := range []struct{ head, content string }{{p1, "1\n"}, {base, "0\n"}} {
		if _, err := h.tree().Undo(false); err != nil {
			t.Fatal(err)
		}
		if got := h.rev("HEAD"); got != want.head {
			t.Errorf("HEAD = %s, want %s", got, want.head)
		}
		if got := h.read("a.txt"); got != want.content {
			t.Errorf("a.txt = %q, want %q", got, want.content)
		}
	}
	_, err := h.tree().Undo(false)
	wantRefusal(t, err, repo.RuleHeadNotPair)
	if got := h.git("status", "--porcelain"); got != "" {
		t.Errorf("git status after two undos: %q", got)
	}
	h.git("fsck", "--no-progress", "--strict")

	// With a commit of the person's between, the second undo stops there.
	h2 := newHistRepo(t)
	h2.write(map[string]string{"a.txt": "0\n"})
	h2.plain("initial")
	h2.write(map[string]string{"a.txt": "1\n"})
	h2.pair(record("first", "m", hunks("a.txt", ap)...))
	h2.write(map[string]string{"b.txt": "b\n"})
	mine := h2.plain("mine")
	h2.write(map[string]string{"a.txt": "2\n"})
	h2.pair(record("second", "m", hunks("a.txt", ap)...))
	if _, err := h2.tree().Undo(false); err != nil {
		t.Fatal(err)
	}
	_, err = h2.tree().Undo(false)
	wantRefusal(t, err, repo.RuleHeadNotPair)
	if got := h2.rev("HEAD"); got != mine {
		t.Errorf("HEAD = %s, want the person's commit %s", got, mine)
	}
}

func TestUndoDetachedHead(t *testing.T) {
	f := newUndoFixture(t)
	f.git("checkout", "-q", "--detach")
	res, err := f.tree().Undo(false)
	if err != nil {
		t.Fatal(err)
	}
	if res.Branch != "" {
		t.Errorf("Branch = %q, want none for a detached HEAD", res.Branch)
	}
	if got := f.rev("HEAD"); got != f.base {
		t.Errorf("HEAD = %s, want %s", got, f.base)
	}
	if got := f.rev("main"); got != f.head {
		t.Errorf("main = %s, want it untouched at %s", got, f.head)
	}
	if got := f.git("status", "--porcelain"); got != "" {
		t.Errorf("git status: %q", got)
	}
}

// wantRefusal checks that err is an *UndoRefusal of the rule.
func wantRefusal(t *testing.T, err error, rule string) *repo.UndoRefusal {
	t.Helper()
	var ref *repo.UndoRefusal
	if !errors.As(err, &ref) {
		t.Fatalf("err = %v, want a refusal by rule %s", err, rule)
	}
	if ref.Rule != rule {
		t.Fatalf("refused by rule %s (%v), want %s", ref.Rule, err, rule)
	}
	if !strings.Contains(err.Error(), rule) {
		t.Errorf("the message %q does not name the rule", err)
	}
	return ref
}

func TestUndoRefuses(t *testing.T) {
	tests := []struct {
		name   string
		rule   string
		setup  func(f *undoFixture)
		detail string   // in the refusal's message
		files  []string // the refusal's Files
	}{
		{name: "not a pair commit", rule: repo.RuleHeadNotPair, detail: `"by hand"`, setup: func(f *undoFixture) {
			f.write(map[string]string{"b.txt": "b\n"})
			f.plain("by hand")
		}},
		{name: "pair trailer not in the last paragraph", rule: repo.RuleHeadNotPair, setup: func(f *undoFixture) {
			f.commit("mentions\n\nPair-Session: x\n\nbut this is the end\n")
		}},
		{name: "pushed to the upstream", rule: repo.RulePushed, detail: "origin/main", setup: func(f *undoFixture) {
			bare := filepath.Join(f.home, "remote.git")
			f.gitIn(f.home, "init", "-q", "--bare", bare)
			f.git("remote", "add", "origin", bare)
			f.git("push", "-q", "-u", "origin", "main")
		}},
		{name: "upstream ahead of HEAD", rule: repo.RulePushed, detail: "origin/main", setup: func(f *undoFixture) {
			bare := filepath.Join(f.home, "remote.git")
			f.gitIn(f.home, "init", "-q", "--bare", bare)
			f.git("remote", "add", "origin", bare)
			f.write(map[string]string{"later.txt": "later\n"})
			f.plain("later")
			f.git("push", "-q", "-u", "origin", "main")
			f.git("reset", "-q", "--hard", "HEAD~1")
		}},
		{name: "pushed under another name, no upstream", rule: repo.RulePushed, detail: "origin/elsewhere", setup: func(f *undoFixture) {
			bare := filepath.Join(f.home, "remote.git")
			f.gitIn(f.home, "init", "-q", "--bare", bare)
			f.git("remote", "add", "origin", bare)
			f.git("push", "-q", "origin", "HEAD:elsewhere")
		}},
		{name: "edited in the working tree", rule: repo.RuleEditedAfter, detail: "a.txt (working tree)", files: []string{"a.txt"}, setup: func(f *undoFixture) {
			f.write(map[string]string{"a.txt": "one\nTWO\nthree\nfour\n"})
		}},
		{name: "edited in the index only", rule: repo.RuleEditedAfter, detail: "a.txt (index)", files: []string{"a.txt"}, setup: func(f *undoFixture) {
			f.write(map[string]string{"a.txt": "staged edit\n"})
			f.git("add", "a.txt")
			f.write(map[string]string{"a.txt": "one\nTWO\nthree\n"})
		}},
		{name: "mode changed", rule: repo.RuleEditedAfter, detail: "run.sh (working tree)", files: []string{"run.sh"}, setup: func(f *undoFixture) {
			if err := os.Chmod(filepath.Join(f.dir, "run.sh"), 0o755); err != nil {
				f.t.Fatal(err)
			}
		}},
		{name: "added file deleted", rule: repo.RuleEditedAfter, detail: "new/dir/n.txt (index, working tree)", files: []string{"new/dir/n.txt"}, setup: func(f *undoFixture) {
			f.git("rm", "-q", "new/dir/n.txt")
		}},
		{name: "deleted file recreated", rule: repo.RuleEditedAfter, detail: "gone.txt (working tree)", files: []string{"gone.txt"}, setup: func(f *undoFixture) {
			f.write(map[string]string{"gone.txt": "mine now\n"})
		}},
		{name: "merge commit", rule: repo.RuleMerge, detail: "2 parents", setup: func(f *undoFixture) {
			f.git("checkout", "-q", "-b", "side", f.base)
			f.write(map[string]string{"side.txt": "s\n"})
			f.plain("side")
			f.git("checkout", "-q", "main")
			mf := filepath.Join(f.home, "merge-msg.txt")
			if err := os.WriteFile(mf, []byte(record("merge", "m").Message()), 0o644); err != nil {
				f.t.Fatal(err)
			}
			f.git("merge", "-q", "--no-ff", "-F", mf, "side")
			if err := repo.RecordCommit(f.tree(), f.rev("HEAD")); err != nil {
				f.t.Fatal(err)
			}
		}},
		{name: "operation in progress", rule: repo.RuleInProgress, detail: "MERGE_HEAD", setup: func(f *undoFixture) {
			if err := os.WriteFile(filepath.Join(f.dir, ".git", "MERGE_HEAD"), []byte(f.base+"\n"), 0o644); err != nil {
				f.t.Fatal(err)
			}
		}},
		{name: "amended with the user's file", rule: repo.RuleAmended, detail: "the commit changes mine.txt, which its trailer does not record", files: []string{"mine.txt"}, setup: func(f *undoFixture) {
			f.write(map[string]string{"mine.txt": "my own work\n"})
			f.git("add", "mine.txt")
			f.git("commit", "-q", "--amend", "--no-edit", "--", "mine.txt")
		}},
		{name: "symbolic link", rule: repo.RuleFileType, detail: "link (mode 0120000)", files: []string{"link"}, setup: func(f *undoFixture) {
			if err := os.Symlink("a.txt", filepath.Join(f.dir, "link")); err != nil {
				f.t.Fatal(err)
			}
			f.pair(record("add a link", "m", hunks("link", ap)...), "link")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newUndoFixture(t)
			f.dirty()
			tt.setup(f)
			head := f.rev("HEAD")
			before := snapshot(t, f.dir)
			status := f.git("status", "--porcelain")
			for _, dry := range []bool{true, false} {
				_, err := f.tree().Undo(dry)
				ref := wantRefusal(t, err, tt.rule)
				if !strings.Contains(ref.Detail, tt.detail) {
					t.Errorf("detail %q does not say %q", ref.Detail, tt.detail)
				}
				if !reflect.DeepEqual(ref.Files, tt.files) {
					t.Errorf("files = %q, want %q", ref.Files, tt.files)
				}
			}
			if got := f.rev("HEAD"); got != head {
				t.Errorf("HEAD moved to %s", got)
			}
			sameSnapshot(t, "after a refusal", snapshot(t, f.dir), before)
			if got := f.git("status", "--porcelain"); got != status {
				t.Errorf("git status changed:\n%s\nwant:\n%s", got, status)
			}
			if _, err := os.Lstat(filepath.Join(f.dir, ".git", "index.lock")); err == nil {
				t.Error("index.lock left behind")
			}
		})
	}
}

func TestUndoRootCommit(t *testing.T) {
	h := newHistRepo(t)
	h.write(map[string]string{"a.txt": "a\n"})
	h.pair(record("first ever", "m", hunks("a.txt", ap)...))
	_, err := h.tree().Undo(false)
	wantRefusal(t, err, repo.RuleRoot)

	empty := newHistRepo(t)
	_, err = empty.tree().Undo(true)
	wantRefusal(t, err, repo.RuleHeadNotPair)
}

func TestUndoWaitsForGitsLock(t *testing.T) {
	f := newUndoFixture(t)
	lock := filepath.Join(f.dir, ".git", "index.lock")
	if err := os.WriteFile(lock, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := f.tree().Undo(false)
	if !errors.Is(err, repo.ErrIndexLocked) {
		t.Fatalf("err = %v, want ErrIndexLocked", err)
	}
	if got := f.rev("HEAD"); got != f.head {
		t.Errorf("HEAD moved to %s", got)
	}
	if _, err := os.Stat(lock); err != nil {
		t.Errorf("another process's lock was removed: %v", err)
	}
}

func TestUndoNotGit(t *testing.T) {
	if _, err := openTree(t, t.TempDir()).Undo(true); !errors.Is(err, repo.ErrNotGit) {
		t.Errorf("err = %v, want ErrNotGit", err)
	}
}

func TestUndoPackedRefAndWorktree(t *testing.T) {
	// The branch is only in packed-refs: the loose ref written by undo
	// takes precedence, as git's own would.
	f := newUndoFixture(t)
	f.git("pack-refs", "--all", "--prune")
	if _, err := f.tree().Undo(false); err != nil {
		t.Fatal(err)
	}
	if got := f.rev("main"); got != f.base {
		t.Errorf("main = %s, want %s", got, f.base)
	}
	f.git("fsck", "--no-progress", "--strict")

	// In a linked worktree, the index and HEAD are the worktree's own and
	// the branch is in the common directory.
	g := newUndoFixture(t)
	wt := filepath.Join(g.home, "wt")
	g.git("worktree", "add", "-q", "-b", "other", wt)
	g.write(map[string]string{"a.txt": "main's own edit\n"}) // not the worktree's business
	writeFiles(t, wt, texts(map[string]string{"w.txt": "w\n"}))
	g.gitIn(wt, "add", "w.txt")
	mf := filepath.Join(g.home, "wt-msg.txt")
	if err := os.WriteFile(mf, []byte(record("in the worktree", "m", hunks("w.txt", ap)...).Message()), 0o644); err != nil {
		t.Fatal(err)
	}
	g.gitIn(wt, "commit", "-q", "-F", mf)
	// Recorded from the worktree, in the common directory: main's tree
	// sees it too.
	if err := repo.RecordCommit(openTree(t, wt), strings.TrimSpace(g.gitIn(wt, "rev-parse", "HEAD"))); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(g.dir, ".git", "pair", "commits")); err != nil {
		t.Errorf("the record is not in the common directory: %v", err)
	}
	res, err := openTree(t, wt).Undo(false)
	if err != nil {
		t.Fatal(err)
	}
	if res.Branch != "refs/heads/other" || res.Parent != g.head {
		t.Errorf("branch %q, parent %s; want refs/heads/other, %s", res.Branch, res.Parent, g.head)
	}
	if got := strings.TrimSpace(g.gitIn(wt, "rev-parse", "other")); got != g.head {
		t.Errorf("other = %s, want %s", got, g.head)
	}
	if got := g.rev("main"); got != g.head {
		t.Errorf("main moved to %s", got)
	}
	if got := g.gitIn(wt, "status", "--porcelain"); got != "" {
		t.Errorf("git status in the worktree: %q", got)
	}
	if got := g.git("status", "--porcelain"); got != " M a.txt\n" {
		t.Errorf("git status in the main tree: %q", got)
	}
	g.git("fsck", "--no-progress", "--strict")
}

// TestUndoReflogIdentity: the reflog names the committer as git resolves
// one (here from the repository's configuration), as it does for a pair
// commit; and a locked index stops undo with ErrIndexLocked, as it stops
// a commit.
func TestUndoReflogIdentity(t *testing.T) {
	f := newUndoFixture(t)
	for _, k := range []string{"GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "EMAIL"} {
		t.Setenv(k, "")
	}
	t.Setenv("HOME", f.home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(f.home, ".config"))
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")

	lock := filepath.Join(f.dir, ".git", "index.lock")
	if err := os.WriteFile(lock, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := f.tree().Undo(false); !errors.Is(err, repo.ErrIndexLocked) {
		t.Fatalf("Undo with a locked index: err = %v, want ErrIndexLocked", err)
	}
	if err := os.Remove(lock); err != nil {
		t.Fatal(err)
	}

	if _, err := f.tree().Undo(false); err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"main", "HEAD"} {
		if got := f.git("reflog", "-1", "--format=%gn <%ge>", ref); got != "Pat Pair <pat@example.com>\n" {
			t.Errorf("reflog of %s names %q, want the repository's user", ref, got)
		}
	}
}

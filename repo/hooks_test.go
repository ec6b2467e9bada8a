package repo_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/repo"
)

// cmHook writes an executable hook script into dir.
func cmHook(t *testing.T, dir, name, script string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

// cmUnchanged checks that a refused commit changed no ref and no index,
// left no temporary file, and kept the working tree applied.
func cmUnchanged(t *testing.T, dir, head, index string) {
	t.Helper()
	if got := cmHead(t, dir); got != head {
		t.Errorf("HEAD moved from %s to %s", head, got)
	}
	if cmRead(t, dir, ".git/index") != index {
		t.Errorf("the index changed")
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".git", "*.tmp"))
	if _, err := os.Stat(filepath.Join(dir, ".git", "index.lock")); err == nil {
		left = append(left, "index.lock")
	}
	if len(left) > 0 {
		t.Errorf("files left in .git: %q", left)
	}
	if got := cmRead(t, dir, "a.txt"); !strings.Contains(got, "L5\n") {
		t.Errorf("the working tree lost the applied change: %q", got)
	}
}

func TestHooksPass(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
	hooks := filepath.Join(dir, ".git", "hooks")
	cmHook(t, hooks, "pre-commit", "echo pre-commit ran in \"$(pwd)\"\n")
	cmHook(t, hooks, "commit-msg", "echo commit-msg ran on \"$1\" >&2\n")
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	var out strings.Builder
	opts := cmOptions(recs)
	opts.HookOutput = &out
	res := cmCommit(t, tr, fcs, opts)
	if res.Hash == "" {
		t.Fatal("nothing committed")
	}
	want := "pre-commit ran in " + dir + "\ncommit-msg ran on " + filepath.Join(dir, ".git", "COMMIT_EDITMSG") + "\n"
	if out.String() != want {
		t.Errorf("hook output = %q, want %q", out.String(), want)
	}
	cmFsck(t, dir)
}

func TestHookPreCommitFails(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
	cmHook(t, filepath.Join(dir, ".git", "hooks"), "pre-commit", "echo checking\necho lint failed >&2\nexit 3\n")
	head, index := cmHead(t, dir), cmRead(t, dir, ".git/index")
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	var out strings.Builder
	opts := cmOptions(recs)
	opts.HookOutput = &out
	res, err := tr.Commit(fcs, opts)
	var he *repo.HookError
	if !errors.As(err, &he) {
		t.Fatalf("Commit = %+v, %v; want a *HookError", res, err)
	}
	if he.Hook != "pre-commit" || he.Code != 3 || he.Output != "checking\nlint failed\n" {
		t.Errorf("HookError = %+v", he)
	}
	if got, want := err.Error(), "pre-commit hook failed (exit 3)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if out.String() != he.Output {
		t.Errorf("HookOutput = %q, want %q", out.String(), he.Output)
	}
	cmUnchanged(t, dir, head, index)
}

func TestHookPreCommitSeesTheCommit(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10), "b.txt": "b\n"})
	cmWrite(t, dir, "b.txt", "b staged\n")
	cmGit(t, dir, "add", "b.txt")
	cmWrite(t, dir, "a.txt", strings.Replace(cmNumbered("l", 10), "l9\n", "mine 9\n", 1))
	out := filepath.Join(t.TempDir(), "out")
	t.Setenv("CM_OUT", out)
	cmHook(t, filepath.Join(dir, ".git", "hooks"), "pre-commit",
		"git diff --cached --name-only >\"$CM_OUT\"\ngit write-tree >>\"$CM_OUT\"\ngit show :a.txt >>\"$CM_OUT\"\n")
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	cmCommit(t, tr, fcs, cmOptions(recs))
	tree := cmGit(t, dir, "rev-parse", "HEAD^{tree}")
	want := "a.txt\n" + tree + strings.Replace(cmNumbered("l", 10), "l5\n", "L5\n", 1)
	if got := cmRead(t, out, ""); got != want {
		t.Errorf("pre-commit saw:\n%s\nwant:\n%s", got, want)
	}
	// The person's staged work is still staged.
	if got := cmGit(t, dir, "status", "--porcelain"); got != " M a.txt\nM  b.txt\n" {
		t.Errorf("git status --porcelain = %q", got)
	}
	cmFsck(t, dir)
}

func TestHookCommitMsgEdits(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
	cmHook(t, filepath.Join(dir, ".git", "hooks"), "commit-msg", "printf 'Signed-off-by: Hook <hook@example.com>\\n' >>\"$1\"\n")
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	cmCommit(t, tr, fcs, cmOptions(recs))
	msg := cmGit(t, dir, "log", "-1", "--format=%B")
	if !strings.HasSuffix(msg, "\nSigned-off-by: Hook <hook@example.com>\n\n") {
		t.Errorf("message = %q, want the hook's line at the end", msg)
	}
	if got := cmGit(t, dir, "log", "-1", "--format=%(trailers:key=Pair-Hunk,valueonly)"); got != recs[0].String()+"\n\n" {
		t.Errorf("Pair-Hunk trailers = %q", got)
	}
	if _, ok, err := audit.ParseMessage(msg); !ok || err != nil {
		t.Errorf("ParseMessage = %v, %v", ok, err)
	}
	cmFsck(t, dir)
}

func TestHookCommitMsgFails(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
	cmHook(t, filepath.Join(dir, ".git", "hooks"), "commit-msg", "echo bad message\nexit 1\n")
	head, index := cmHead(t, dir), cmRead(t, dir, ".git/index")
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	_, err := tr.Commit(fcs, cmOptions(recs))
	var he *repo.HookError
	if !errors.As(err, &he) || he.Hook != "commit-msg" || he.Code != 1 || he.Output != "bad message\n" {
		t.Fatalf("Commit error = %#v, want the commit-msg hook's", err)
	}
	cmUnchanged(t, dir, head, index)
}

func TestHooksPath(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
	cmHook(t, filepath.Join(dir, ".git", "hooks"), "pre-commit", "exit 0\n")
	cmHook(t, filepath.Join(dir, "githooks"), "pre-commit", "echo from hooksPath\nexit 5\n")
	cmGit(t, dir, "config", "core.hooksPath", "githooks")
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	_, err := tr.Commit(fcs, cmOptions(recs))
	var he *repo.HookError
	if !errors.As(err, &he) || he.Code != 5 || he.Output != "from hooksPath\n" {
		t.Fatalf("Commit error = %v, want the hook of core.hooksPath", err)
	}
}

func TestHooksNoVerify(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
	hooks := filepath.Join(dir, ".git", "hooks")
	cmHook(t, hooks, "pre-commit", "exit 1\n")
	cmHook(t, hooks, "commit-msg", "exit 1\n")
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	opts := cmOptions(recs)
	opts.NoVerify = true
	if res := cmCommit(t, tr, fcs, opts); res.Hash == "" {
		t.Fatal("nothing committed")
	}
	cmFsck(t, dir)
}

func TestHookNotExecutableIgnored(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
	hooks := filepath.Join(dir, ".git", "hooks")
	cmHook(t, hooks, "pre-commit", "exit 1\n")
	if err := os.Chmod(filepath.Join(hooks, "pre-commit"), 0o644); err != nil {
		t.Fatal(err)
	}
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	if res := cmCommit(t, tr, fcs, cmOptions(recs)); res.Hash == "" {
		t.Fatal("nothing committed")
	}
}

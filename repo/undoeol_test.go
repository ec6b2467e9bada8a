package repo_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUndoLineEndings: with core.autocrlf=true or eol=crlf attributes the
// working tree holds CRLF where the commit holds LF; git sees a clean
// tree, and so does undo, which writes the parent's version back with
// CRLF. Without a conversion, CRLF is an edit and undo refuses. In a
// linked worktree, info/attributes is the common directory's, as git
// reads it.
func TestUndoLineEndings(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(t *testing.T, dir string)
		refuse bool
		// worktree runs the test in a worktree linked to the repository.
		worktree bool
	}{
		{"autocrlf", func(t *testing.T, dir string) { cmGit(t, dir, "config", "core.autocrlf", "true") }, false, false},
		{"eol-crlf-attribute", func(t *testing.T, dir string) {
			cmWrite(t, dir, ".gitattributes", "*.txt eol=crlf\n")
			cmGit(t, dir, "add", ".gitattributes")
			cmGit(t, dir, "commit", "-q", "-m", "attributes")
		}, false, false},
		{"info-attributes-text", func(t *testing.T, dir string) {
			cmWrite(t, dir, ".git/info/attributes", "a.txt text eol=crlf\n")
		}, false, false},
		{"info-attributes-linked-worktree", func(t *testing.T, dir string) {
			cmWrite(t, dir, ".git/info/attributes", "a.txt text eol=crlf\n")
		}, false, true},
		{"no-conversion", func(t *testing.T, dir string) {}, true, false},
		{"binary-attribute", func(t *testing.T, dir string) {
			cmGit(t, dir, "config", "core.autocrlf", "true")
			cmWrite(t, dir, ".git/info/attributes", "a.txt binary\n")
		}, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
			tt.setup(t, dir)
			if tt.worktree {
				wt := filepath.Join(t.TempDir(), "wt")
				cmGit(t, dir, "worktree", "add", "-q", "-b", "side", wt)
				dir, tr = wt, openTree(t, wt)
			}
			// The working tree as git checks it out.
			os.Remove(filepath.Join(dir, "a.txt"))
			cmGit(t, dir, "checkout", "--", "a.txt")
			fcs, recs := cmApply(t, tr, cmDiffLine5)
			res := cmCommit(t, tr, fcs, cmOptions(recs))
			if res.Hash == "" {
				t.Fatalf("nothing committed: %+v", res.Uncommitted)
			}
			if tt.refuse {
				// Make the working tree CRLF where git does not convert.
				crlf := strings.ReplaceAll(cmGit(t, dir, "show", "HEAD:a.txt"), "\n", "\r\n")
				cmWrite(t, dir, "a.txt", crlf)
			} else if !strings.Contains(cmRead(t, dir, "a.txt"), "\r\n") {
				t.Fatalf("the working tree has no CRLF; the test shows nothing")
			}
			clean := cmGit(t, dir, "status", "--porcelain", "--untracked-files=no") == ""
			if clean == tt.refuse {
				t.Fatalf("git status clean = %v, want %v", clean, !tt.refuse)
			}
			_, err := tr.Undo(false)
			if tt.refuse {
				wantRefusal(t, err, "edited-after")
				return
			}
			if err != nil {
				t.Fatalf("Undo on a clean tree: %v", err)
			}
			if got, want := cmRead(t, dir, "a.txt"), strings.ReplaceAll(cmNumbered("l", 10), "\n", "\r\n"); got != want {
				t.Errorf("a.txt after undo = %q, want the parent's with CRLF %q", got, want)
			}
			if got := cmGit(t, dir, "status", "--porcelain", "--untracked-files=no"); got != "" {
				t.Errorf("git status after undo = %q, want clean", got)
			}
		})
	}
}

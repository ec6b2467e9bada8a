package repo_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo"
)

// TestUndoAfterAmend: a commit pair made and the user amended is refused
// by rule amended, naming what the trailers do not record, and the
// user's work stays; amending only the message keeps undo possible.
func TestUndoAfterAmend(t *testing.T) {
	tests := []struct {
		name   string
		amend  func(t *testing.T, dir string)
		detail string
		files  []string
	}{
		{"a file of the user's", func(t *testing.T, dir string) {
			cmWrite(t, dir, "mine.txt", "my own work\n")
			cmGit(t, dir, "add", "mine.txt")
			cmGit(t, dir, "commit", "-q", "--amend", "--no-edit")
		}, "the commit changes mine.txt, which its trailer does not record", []string{"mine.txt"}},
		{"another version of pair's file", func(t *testing.T, dir string) {
			cmWrite(t, dir, "a.txt", strings.Replace(cmNumbered("l", 10), "l5\n", "L5\nmine\n", 1))
			cmGit(t, dir, "commit", "-q", "-a", "--amend", "--no-edit")
		}, "the commit's a.txt is not the version its trailer records", []string{"a.txt"}},
		{"pair's change taken out", func(t *testing.T, dir string) {
			cmWrite(t, dir, "mine.txt", "my own work\n")
			cmGit(t, dir, "add", "mine.txt")
			cmGit(t, dir, "checkout", "HEAD~1", "--", "a.txt")
			cmGit(t, dir, "commit", "-q", "--amend", "--no-edit")
		}, "records a change to a.txt that the commit does not make", []string{"mine.txt", "a.txt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
			fcs, recs := cmApply(t, tr, cmDiffLine5)
			cmCommit(t, tr, fcs, cmOptions(recs))
			tt.amend(t, dir)
			head := cmHead(t, dir)
			before := snapshot(t, dir)
			_, err := tr.Undo(false)
			var ref *repo.UndoRefusal
			if !errors.As(err, &ref) || ref.Rule != repo.RuleAmended {
				t.Fatalf("Undo = %v, want a refusal by rule %s", err, repo.RuleAmended)
			}
			if !strings.Contains(ref.Detail, tt.detail) {
				t.Errorf("detail %q does not say %q", ref.Detail, tt.detail)
			}
			if !reflect.DeepEqual(ref.Files, tt.files) {
				t.Errorf("files = %q, want %q", ref.Files, tt.files)
			}
			if cmHead(t, dir) != head {
				t.Errorf("HEAD moved")
			}
			sameSnapshot(t, "after the refusal", snapshot(t, dir), before)
		})
	}

	t.Run("message only", func(t *testing.T) {
		dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
		fcs, recs := cmApply(t, tr, cmDiffLine5)
		res := cmCommit(t, tr, fcs, cmOptions(recs))
		msg := cmGit(t, dir, "log", "-1", "--format=%B")
		cmGit(t, dir, "commit", "-q", "--amend", "-m", "Better subject\n\n"+msg[strings.Index(msg, "\n\n")+2:])
		if _, err := tr.Undo(false); err != nil {
			t.Fatalf("Undo after rewording: %v", err)
		}
		if got := cmRead(t, dir, "a.txt"); got != cmNumbered("l", 10) {
			t.Errorf("a.txt = %q after undo", got)
		}
		_ = res
	})
}

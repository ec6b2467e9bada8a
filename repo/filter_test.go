package repo_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo"
)

// rot13 is the filter driver of these tests: its clean and its smudge
// are the same command, so the blob is the working file in rot13.
const rot13 = "tr A-Za-z N-ZA-Mn-za-m"

// ftRepo makes a repository whose .gitattributes give *.rot the filter
// rot13 (configured with clean and smudge) and secret.txt the filter
// git-crypt (not configured), and commits files with git add, which runs
// the filters.
func ftRepo(t *testing.T, files map[string]string) (string, *repo.Tree) {
	t.Helper()
	dir, tr := cmRepo(t, nil)
	cmGit(t, dir, "config", "filter.rot13.clean", rot13)
	cmGit(t, dir, "config", "filter.rot13.smudge", rot13)
	all := map[string]string{".gitattributes": "*.rot filter=rot13\nsecret.txt filter=git-crypt\n"}
	for k, v := range files {
		all[k] = v
	}
	writeFiles(t, dir, texts(all))
	cmGit(t, dir, "add", "-A")
	cmGit(t, dir, "commit", "-q", "-m", "initial")
	return dir, tr
}

// ftApply places a diff of one file, whose hunks are all approved, and
// applies it as pair apply does, committing.
func ftApply(t *testing.T, tr *repo.Tree, diff string) (*repo.Applied, error) {
	t.Helper()
	plans := pcPlans(t, tr, diff)
	if len(plans) != 1 || len(plans[0].Errors) > 0 {
		t.Fatalf("Place: %d plans, %v", len(plans), plans[0].Errors)
	}
	return tr.ApplyPlans(plans, repo.ApplyOptions{Commit: true, Record: cmOptions(nil).Record})
}

// ftStoredAsGit checks that HEAD holds name as git add stores the working
// file: the blob git hash-object --path makes of it, through the filter.
func ftStoredAsGit(t *testing.T, dir, name string) {
	t.Helper()
	got := strings.TrimSpace(cmGit(t, dir, "rev-parse", "HEAD:"+name))
	want := strings.TrimSpace(cmGit(t, dir, "hash-object", "--path="+name, name))
	if got != want {
		t.Errorf("HEAD:%s is %s, git add stores %s (%q, not %q)", name, got, want,
			cmGit(t, dir, "cat-file", "-p", "HEAD:"+name), cmGit(t, dir, "hash-object", "--stdin", "--path="+name))
	}
}

func TestCommitFilteredNewFile(t *testing.T) {
	dir, tr := ftRepo(t, map[string]string{"a.txt": "a\n"})
	res, err := ftApply(t, tr, "--- /dev/null\n+++ b/notes.rot\n@@ -0,0 +1,2 @@\n+Hello world\n+second line\n")
	if err != nil {
		t.Fatalf("ApplyPlans: %v", err)
	}
	if res.Commit == nil || len(res.Commit.Uncommitted) > 0 || len(res.Commit.Committed) != 1 {
		t.Fatalf("commit: %+v", res.Commit)
	}
	if got, want := cmGit(t, dir, "cat-file", "-p", "HEAD:notes.rot"), "Uryyb jbeyq\nfrpbaq yvar\n"; got != want {
		t.Errorf("HEAD:notes.rot = %q, want %q (cleaned by the filter)", got, want)
	}
	if got := cmRead(t, dir, "notes.rot"); got != "Hello world\nsecond line\n" {
		t.Errorf("working file = %q", got)
	}
	ftStoredAsGit(t, dir, "notes.rot")
	if st := cmGit(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("git status after the commit:\n%s", st)
	}
	cmFsck(t, dir)
}

func TestCommitFilteredExistingFile(t *testing.T) {
	dir, tr := ftRepo(t, map[string]string{"doc.rot": cmNumbered("line ", 9)})
	if got := cmGit(t, dir, "cat-file", "-p", "HEAD:doc.rot"); !strings.HasPrefix(got, "yvar 1\n") {
		t.Fatalf("the setup's blob is not filtered: %q", got)
	}
	res, err := ftApply(t, tr, "--- a/doc.rot\n+++ b/doc.rot\n@@ -4,3 +4,3 @@\n line 4\n-line 5\n+line five\n line 6\n")
	if err != nil {
		t.Fatalf("ApplyPlans: %v", err)
	}
	if res.Commit == nil || len(res.Commit.Uncommitted) > 0 {
		t.Fatalf("commit: %+v", res.Commit)
	}
	ftStoredAsGit(t, dir, "doc.rot")
	if st := cmGit(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("git status after the commit:\n%s", st)
	}
	// git diff shows blobs as stored: in rot13.
	if got := cmGit(t, dir, "diff", "HEAD~1", "HEAD", "--", "doc.rot"); !strings.Contains(got, strings.Map(rot13Rune, "-line 5\n+line five\n")) {
		t.Errorf("git diff of the commit:\n%s", got)
	}
}

// TestCommitFilteredDirtyFile: the person's own edit elsewhere in the file
// stays uncommitted; the hunk goes on HEAD's version as the person sees
// it (smudged), and the commit stores it cleaned.
func TestCommitFilteredDirtyFile(t *testing.T) {
	dir, tr := ftRepo(t, map[string]string{"doc.rot": cmNumbered("line ", 9)})
	cmWrite(t, dir, "doc.rot", strings.Replace(cmNumbered("line ", 9), "line 1\n", "my own line\n", 1))
	res, err := ftApply(t, tr, "--- a/doc.rot\n+++ b/doc.rot\n@@ -7,3 +7,3 @@\n line 7\n-line 8\n+line eight\n line 9\n")
	if err != nil {
		t.Fatalf("ApplyPlans: %v", err)
	}
	if res.Commit == nil || len(res.Commit.Uncommitted) > 0 {
		t.Fatalf("commit: %+v", res.Commit)
	}
	want := strings.Replace(cmNumbered("line ", 9), "line 8\n", "line eight\n", 1)
	if got := cmGit(t, dir, "show", "HEAD:doc.rot"); got != strings.Map(rot13Rune, want) {
		t.Errorf("HEAD:doc.rot = %q, want %q", got, strings.Map(rot13Rune, want))
	}
	if got := cmGit(t, dir, "diff", "--", "doc.rot"); !strings.Contains(got, strings.Map(rot13Rune, "-line 1\n+my own line\n")) || strings.Contains(got, strings.Map(rot13Rune, "eight")) {
		t.Errorf("git diff (the person's edit only):\n%s", got)
	}
}

func rot13Rune(r rune) rune {
	switch {
	case 'a' <= r && r <= 'z':
		return 'a' + (r-'a'+13)%26
	case 'A' <= r && r <= 'Z':
		return 'A' + (r-'A'+13)%26
	}
	return r
}

// TestCommitFilterNotConfigured: a file whose attributes name a filter
// that is not configured (git-crypt on a machine without its key) is
// refused before anything is written, naming the filter.
func TestCommitFilterNotConfigured(t *testing.T) {
	dir, tr := ftRepo(t, map[string]string{"a.txt": "a\n"})
	head := cmHead(t, dir)
	_, err := ftApply(t, tr, "--- /dev/null\n+++ b/secret.txt\n@@ -0,0 +1 @@\n+password=hunter2\n")
	var fe *repo.FilterError
	if !errors.As(err, &fe) || !errors.Is(err, repo.ErrFilter) {
		t.Fatalf("ApplyPlans: %v, want a *FilterError", err)
	}
	if want := "secret.txt: its attributes name the filter git-crypt, which is not configured here; pair will not commit it unfiltered"; err.Error() != want {
		t.Errorf("error:\n got %s\nwant %s", err, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "secret.txt")); !os.IsNotExist(err) {
		t.Errorf("secret.txt was written: %v", err)
	}
	if cmHead(t, dir) != head {
		t.Error("a commit was made")
	}
	if err := tr.CheckFilters([]string{"a.txt", "secret.txt"}); !errors.As(err, &fe) {
		t.Errorf("CheckFilters: %v, want a *FilterError", err)
	}
}

// TestCommitFilterFails: a configured clean filter that fails refuses the
// file before anything is written, even when git would not require it.
func TestCommitFilterFails(t *testing.T) {
	dir, tr := ftRepo(t, map[string]string{"a.txt": "a\n"})
	cmGit(t, dir, "config", "filter.broken.clean", "echo no key here >&2; exit 1")
	cmWrite(t, dir, ".gitattributes", "*.bin filter=broken\n")
	cmGit(t, dir, "commit", "-qam", "attributes")
	_, err := ftApply(t, tr, "--- /dev/null\n+++ b/x.bin\n@@ -0,0 +1 @@\n+data\n")
	var fe *repo.FilterError
	if !errors.As(err, &fe) || !fe.Configured || fe.Filter != "broken" {
		t.Fatalf("ApplyPlans: %v, want the filter broken failing", err)
	}
	if want := "x.bin: the filter broken failed (no key here); pair will not commit it unfiltered"; err.Error() != want {
		t.Errorf("error:\n got %s\nwant %s", err, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.bin")); !os.IsNotExist(err) {
		t.Errorf("x.bin was written: %v", err)
	}
}

// TestUndoFilteredFile: pair undo of a commit that changed a filtered
// file compares the working file with HEAD as git add would store it, and
// writes the parent's version back as git checkout would (smudged): never
// the stored (cleaned) form.
func TestUndoFilteredFile(t *testing.T) {
	orig := cmNumbered("line ", 9)
	dir, tr := ftRepo(t, map[string]string{"doc.rot": orig})
	if _, err := ftApply(t, tr, "--- a/doc.rot\n+++ b/doc.rot\n@@ -4,3 +4,3 @@\n line 4\n-line 5\n+line five\n line 6\n"); err != nil {
		t.Fatalf("ApplyPlans: %v", err)
	}
	res, err := tr.Undo(false)
	if err != nil {
		t.Fatalf("Undo: %v", err)
	}
	if len(res.Files) != 1 || res.Files[0].Path != "doc.rot" {
		t.Errorf("undone files: %+v", res.Files)
	}
	if got := cmRead(t, dir, "doc.rot"); got != orig {
		t.Errorf("doc.rot after undo = %q, want the parent's smudged form %q", got, orig)
	}
	if st := cmGit(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("git status after undo:\n%s", st)
	}
}

// TestPlaceFilteredCleanForm: a patch of a filtered file that places on
// the file as git stores it (rot13 here), and not on the working file,
// is placed there as git apply places it, and its plan changes the
// working file into what the filter's smudge makes of the result; a
// patch of the working file (a model's, which read it) stays on it; one
// that places on neither is refused with the working file's lines.
func TestPlaceFilteredCleanForm(t *testing.T) {
	work := cmNumbered("line ", 9)
	_, tr := ftRepo(t, map[string]string{"doc.rot": work})
	want := strings.Replace(work, "line 5\n", "line five\n", 1)
	for _, c := range []struct{ name, diff, want, note string }{
		{"clean form", "--- a/doc.rot\n+++ b/doc.rot\n" + strings.Map(rot13Rune, "@@ -4,3 +4,3 @@\n line 4\n-line 5\n+line five\n line 6\n"), want, "through the filter rot13"},
		{"working form", "--- a/doc.rot\n+++ b/doc.rot\n@@ -4,3 +4,3 @@\n line 4\n-line 5\n+line five\n line 6\n", want, ""},
		{"neither", "--- a/doc.rot\n+++ b/doc.rot\n@@ -4,3 +4,3 @@\n zzz 4\n-qqq 5\n+line five\n zzz 6\n", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			plans := pcPlans(t, tr, c.diff)
			if len(plans) != 1 {
				t.Fatalf("got %d plans, want 1", len(plans))
			}
			p := plans[0]
			if c.want == "" {
				if len(p.Errors) != 1 || len(p.Errors[0].Nearest) == 0 || !strings.HasPrefix(p.Errors[0].Nearest[0].Text, "line ") {
					t.Fatalf("got errors %v, want one with the working file's nearest lines", p.Errors)
				}
				return
			}
			if len(p.Errors) > 0 {
				t.Fatalf("Place: got errors %v", p.Errors)
			}
			if p.Old != work {
				t.Errorf("the plan is placed on %q, want the working file %q", p.Old, work)
			}
			got, err := p.Result(nil)
			if err != nil || got != c.want {
				t.Errorf("Result: got %q, %v; want %q", got, err, c.want)
			}
			notes := fmt.Sprint(p.Hunks[0].Notes)
			if c.note != "" && !strings.Contains(notes, c.note) || c.note == "" && strings.Contains(notes, "filter") {
				t.Errorf("notes %s, want one saying %q", notes, c.note)
			}
		})
	}
}

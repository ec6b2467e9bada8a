package repo_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo"
)

// notMadeHere checks that HEAD, whose trailers say pair, is listed by Log
// as not made here, and that Undo refuses it by rule not-made-here,
// leaving HEAD and the tree as they were.
func notMadeHere(t *testing.T, dir string, tr *repo.Tree, why string) {
	t.Helper()
	head := cmHead(t, dir)
	entries, err := tr.Log(1)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Hash != head {
		t.Fatalf("Log(1) = %+v, want HEAD %s", entries, head)
	}
	if entries[0].MadeHere() || !strings.Contains(entries[0].NotMadeHere, why) {
		t.Errorf("Log: NotMadeHere = %q, want it to say %q", entries[0].NotMadeHere, why)
	}
	if stats := repo.Stats(entries); len(stats) != 0 {
		t.Errorf("Stats counts a commit pair did not make: %+v", stats)
	}
	before := snapshot(t, dir)
	for _, dry := range []bool{true, false} {
		_, err := tr.Undo(dry)
		var ref *repo.UndoRefusal
		if !errors.As(err, &ref) || ref.Rule != repo.RuleNotMadeHere {
			t.Fatalf("Undo(dry run %v) = %v, want a refusal by rule %s", dry, err, repo.RuleNotMadeHere)
		}
		for _, want := range []string{"carries pair's trailers, but", why, "pair undo takes back only its own commits"} {
			if !strings.Contains(ref.Detail, want) {
				t.Errorf("refusal %q does not say %q", ref.Detail, want)
			}
		}
	}
	if got := cmHead(t, dir); got != head {
		t.Errorf("HEAD moved from %s to %s", head, got)
	}
	sameSnapshot(t, "after the refusal", snapshot(t, dir), before)
}

// TestForgedTrailers: a commit made with git commit, whose message carries
// pair's trailers, is not pair's: pair log says so and pair undo refuses
// it. A commit pair made still undoes.
func TestForgedTrailers(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	res := cmCommit(t, tr, fcs, cmOptions(recs))
	msg := cmGit(t, dir, "log", "-1", "--format=%B")

	// The same trailers on a commit of someone else's.
	cmWrite(t, dir, "a.txt", "all gone\n")
	cmWrite(t, dir, "msg.txt", "Innocent change\n\n"+msg[strings.Index(msg, "\n\n")+2:])
	cmGit(t, dir, "commit", "-q", "-a", "-F", "msg.txt")
	notMadeHere(t, dir, tr, "it is a copy of pair's commit "+res.Hash[:12])

	// Trailers made up whole.
	cmWrite(t, dir, "a.txt", "again\n")
	cmWrite(t, dir, "msg.txt", "Forged\n\nPair-Session: s\nPair-Model: m\nPair-Reviewed-By: Someone Else <x@example.com>\nPair-Hunk: a.txt:1 00000000000a approved\n")
	cmGit(t, dir, "commit", "-q", "-a", "-F", "msg.txt")
	notMadeHere(t, dir, tr, "this pair did not make it (it is not in .git/pair/commits)")

	// pair's own commit, once the others are gone, is pair's.
	cmGit(t, dir, "reset", "-q", "--hard", res.Hash)
	entries, err := tr.Log(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || !entries[0].MadeHere() || len(repo.Stats(entries)) != 1 {
		t.Fatalf("Log of pair's own commit: %+v", entries)
	}
	if _, err := tr.Undo(false); err != nil {
		t.Fatalf("Undo of pair's own commit: %v", err)
	}
	if got := cmRead(t, dir, "a.txt"); got != cmNumbered("l", 10) {
		t.Errorf("a.txt = %q after undo", got)
	}
}

// TestForgedNoRecordYet: in a repository where pair has recorded no
// commit (pair commits made before pair kept the record, or someone
// else's), the refusal says there is no record.
func TestForgedNoRecordYet(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": "a\n"})
	cmWrite(t, dir, "a.txt", "b\n")
	cmWrite(t, dir, "msg.txt", "Old\n\nPair-Session: s\nPair-Model: m\nPair-Reviewed-By: R <r@example.com>\nPair-Hunk: a.txt:1 00000000000a approved\n")
	cmGit(t, dir, "commit", "-q", "-a", "-F", "msg.txt")
	notMadeHere(t, dir, tr, "pair records the commits it makes in .git/pair/commits, and has recorded none in this repository")
}

// TestGitAmOfPairCommit: a real pair commit made in another clone, sent
// as a patch and applied with git am, is not this pair's.
func TestGitAmOfPairCommit(t *testing.T) {
	other, otr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
	here := filepath.Join(t.TempDir(), "here")
	cmGit(t, other, "clone", "-q", other, here)
	cmGit(t, here, "config", "user.name", "Pair Tester")
	cmGit(t, here, "config", "user.email", "tester@example.com")
	fcs, recs := cmApply(t, otr, cmDiffLine5)
	cmCommit(t, otr, fcs, cmOptions(recs))
	patch := filepath.Join(t.TempDir(), "pair.patch")
	cmGit(t, other, "format-patch", "-q", "-1", "-o", filepath.Dir(patch))
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(patch), "*.patch"))
	if len(matches) != 1 {
		t.Fatalf("format-patch wrote %q", matches)
	}
	cmGit(t, here, "am", "-q", matches[0])
	if got := cmGit(t, here, "log", "-1", "--format=%(trailers:key=Pair-Session,valueonly)"); strings.TrimSpace(got) == "" {
		t.Fatal("git am lost the trailers")
	}
	notMadeHere(t, here, openTree(t, here), "this pair did not make it")
}

// TestRecordTornLine: a line torn by a crash in the record is skipped,
// and the next commit's line is whole.
func TestRecordTornLine(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	first := cmCommit(t, tr, fcs, cmOptions(recs))
	p := filepath.Join(dir, ".git", "pair", "commits")
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("0123456789abcdef0123 half a li"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	cmWrite(t, dir, "b.txt", "b\n")
	cmGit(t, dir, "add", "b.txt")
	cmGit(t, dir, "commit", "-q", "-m", "mine")
	fcs, recs = cmApply(t, tr, strings.ReplaceAll(strings.ReplaceAll(cmDiffLine5, "-l5", "-L5"), "+L5", "+l5"))
	second := cmCommit(t, tr, fcs, cmOptions(recs))
	if len(second.Warnings) != 0 {
		t.Errorf("warnings: %q", second.Warnings)
	}
	entries, err := tr.Log(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 || entries[0].Hash != second.Hash || entries[1].Hash != first.Hash {
		t.Fatalf("Log = %+v, want the two pair commits", entries)
	}
	for _, e := range entries {
		if !e.MadeHere() {
			t.Errorf("%s: not made here: %s", e.Hash[:12], e.NotMadeHere)
		}
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[2], second.Hash+" ") {
		t.Errorf("record:\n%s", b)
	}
	if _, err := tr.Undo(false); err != nil {
		t.Errorf("Undo: %v", err)
	}
}

// TestRecordNoLinkBounded: the record is never read through a symbolic
// link, and only its end is read, however large it is.
func TestRecordNoLinkBounded(t *testing.T) {
	dir, tr := cmRepo(t, map[string]string{"a.txt": cmNumbered("l", 10)})
	fcs, recs := cmApply(t, tr, cmDiffLine5)
	cmCommit(t, tr, fcs, cmOptions(recs))
	p := filepath.Join(dir, ".git", "pair", "commits")
	line, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}

	// A large record: 16 MiB of lines that do not parse, then HEAD's.
	junk := strings.Repeat(strings.Repeat("x", 105)+"\n", (16<<20)/106)
	if err := os.WriteFile(p, append([]byte(junk), line...), 0o644); err != nil {
		t.Fatal(err)
	}
	if entries, err := tr.Log(1); err != nil || len(entries) != 1 || !entries[0].MadeHere() {
		t.Errorf("Log with a large record = %+v, %v; want HEAD, made here", entries, err)
	}

	// A link to a file that holds HEAD's line.
	elsewhere := filepath.Join(t.TempDir(), "commits")
	if err := os.WriteFile(elsewhere, line, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, p); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Log(1); !errors.Is(err, repo.ErrIsLink) {
		t.Errorf("Log with the record a link: %v, want ErrIsLink", err)
	}
	if _, err := tr.Undo(true); !errors.Is(err, repo.ErrIsLink) {
		t.Errorf("Undo with the record a link: %v, want ErrIsLink", err)
	}
}

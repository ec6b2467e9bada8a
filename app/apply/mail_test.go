package apply

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/repo/repotest"
)

// mailSeries makes a repository, then three commits on top of its first
// (the first by an author with a non-ASCII name, with a body and
// trailers), and writes them as a mailbox with git format-patch. It
// returns the repository and the mailbox's path.
func mailSeries(t *testing.T) (src, mbox string) {
	t.Helper()
	src = scratch(t)
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(src, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("NOTES", "Notes.\n")
	repotest.Git(t, src, "add", "NOTES")
	repotest.Git(t, src, "commit", "-q", "-m", "notes")
	swapped := strings.Replace(calc, "a + b", "b + a", 1)
	write("calc.go", swapped)
	repotest.Git(t, src, "commit", "-q", "-a", "--author=Zoë Jürgens <zoe@example.org>", "--date=2024-02-03T04:05:06+01:30",
		"-m", "[fix] calc: add b to a\n\nAddition commutes, but the\nspecification says b first.\n\nSigned-off-by: Zoë Jürgens <zoe@example.org>\nReviewed-by: Ann Other <ann@example.com>")
	write("NOTES", "Notes, read them.\n")
	repotest.Git(t, src, "commit", "-q", "-a", "--date=2024-02-04T10:00:00-05:00", "-m", "notes: read them")
	write("calc.go", strings.Replace(swapped, "// Add adds.", "// Add returns the sum.", 1))
	repotest.Git(t, src, "commit", "-q", "-a", "-m", "calc: say what Add returns")
	mbox = filepath.Join(t.TempDir(), "series.mbox")
	out := repotest.Git(t, src, "format-patch", "--stdout", "HEAD~3")
	if err := os.WriteFile(mbox, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return src, mbox
}

// copyAt clones src at its first commit, as the person Pair Tester.
func copyAt(t *testing.T, src string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "copy")
	repotest.Git(t, filepath.Dir(dir), "clone", "-q", src, dir)
	repotest.Git(t, dir, "remote", "remove", "origin")
	repotest.Git(t, dir, "reset", "-q", "--hard", "HEAD~3")
	repotest.Git(t, dir, "config", "user.name", "Pair Tester")
	repotest.Git(t, dir, "config", "user.email", "tester@example.com")
	return dir
}

var pairTrailer = regexp.MustCompile(`(?m)^Pair-[A-Za-z-]+: .*\n`)

// TestMailboxLikeGitAm applies a git format-patch series with git am in
// one copy and with pair apply --yes in another: the same trees, the
// same number of commits, and each commit with the same author, date,
// subject, body and trailers, pair's audit trailers aside.
func TestMailboxLikeGitAm(t *testing.T) {
	src, mbox := mailSeries(t)
	byGit, byPair := copyAt(t, src), copyAt(t, src)
	// git am commits as the person of the copy's configuration, as pair does.
	am := repotest.Cmd(t, byGit, "am", "-q", mbox)
	am.Env = slices.DeleteFunc(am.Env, func(kv string) bool { return strings.HasPrefix(kv, "GIT_COMMITTER_") })
	repotest.Output(t, am)

	o, out, errw := options(byPair, "")
	o.Patch, o.Yes = mbox, true // pair apply, which sees that the patch is mail
	if err := Run(context.Background(), o); err != nil {
		t.Fatalf("Run: %v\n%s%s", err, out, errw)
	}
	if !strings.Contains(out.String(), "applying mail 1 of 3: calc: add b to a\n") || !strings.Contains(out.String(), "applied 3 mails: 3 commits\n") {
		t.Errorf("output %q does not follow the mails", out)
	}
	for _, q := range []string{"HEAD^{tree}", "HEAD~3"} {
		if g, p := repotest.Git(t, byGit, "rev-parse", q), repotest.Git(t, byPair, "rev-parse", q); g != p {
			t.Errorf("%s: git am %s, pair %s", q, g, p)
		}
	}
	if g, p := repotest.Git(t, byGit, "rev-list", "--count", "HEAD"), repotest.Git(t, byPair, "rev-list", "--count", "HEAD"); g != p {
		t.Errorf("commits: git am %s, pair %s", g, p)
	}
	for i := range 3 {
		rev := "HEAD~" + string(rune('0'+i))
		for _, f := range []string{"%an", "%ae", "%ad", "%s", "%cn <%ce>", "%(trailers:key=Signed-off-by,key=Reviewed-by)"} {
			g := repotest.Git(t, byGit, "log", "-1", "--date=raw", "--format="+f, rev)
			p := repotest.Git(t, byPair, "log", "-1", "--date=raw", "--format="+f, rev)
			if g != p {
				t.Errorf("%s %s: git am %q, pair %q", rev, f, g, p)
			}
		}
		g := repotest.Git(t, byGit, "log", "-1", "--format=%B", rev)
		p := repotest.Git(t, byPair, "log", "-1", "--format=%B", rev)
		if pairTrailer.FindString(p) == "" {
			t.Errorf("%s: pair's commit has no audit trailers:\n%s", rev, p)
		}
		if p = strings.TrimRight(pairTrailer.ReplaceAllString(p, ""), "\n") + "\n"; strings.TrimRight(g, "\n")+"\n" != p {
			t.Errorf("%s: message\n%s\nwant (git am's)\n%s", rev, p, g)
		}
	}
	if got := repotest.Git(t, byPair, "log", "-1", "--format=%an %ad", "--date=iso", "HEAD~2"); got != "Zoë Jürgens 2024-02-03 04:05:06 +0130\n" {
		t.Errorf("first mail's author and date %q", got)
	}
	if _, err := os.Stat(filepath.Join(byPair, ".git", seriesDir)); !os.IsNotExist(err) {
		t.Errorf("the finished series is still in the git directory (%v)", err)
	}
}

// stoppedAtTwo applies the series to a copy where the second mail does
// not apply (the notes it changes were changed first): pair am stops
// there, the first mail committed, and says how to go on.
func stoppedAtTwo(t *testing.T) (dir, mbox string) {
	t.Helper()
	src, mbox := mailSeries(t)
	dir = copyAt(t, src)
	if err := os.WriteFile(filepath.Join(dir, "NOTES"), []byte("Local notes.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	repotest.Git(t, dir, "commit", "-q", "-a", "-m", "local notes")
	o, out, _ := options(dir, "")
	o.Patch, o.Yes, o.Mail = mbox, true, true
	err := Run(context.Background(), o)
	var ee *output.ExitError
	if !errors.As(err, &ee) || ee.Code != output.Failure {
		t.Fatalf("Run: %v, want an exit error", err)
	}
	for _, want := range []string{"stopped at mail 2 of 3: 1 of 1 hunk could not be placed; nothing was written",
		"the mail in " + filepath.Join(".git", seriesDir, "0002") + "), run pair am --continue", "pair am --skip", "pair am --abort takes back this series' 1 commit"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if !strings.Contains(out.String(), "applying mail 2 of 3: notes: read them") {
		t.Errorf("output %q", out)
	}
	if got := repotest.Git(t, dir, "log", "--format=%s"); got != "calc: add b to a\nlocal notes\nnotes\ninitial\n" {
		t.Errorf("log after the stop:\n%s", got)
	}
	// A new series waits for this one.
	o.Continue = false
	if err := Run(context.Background(), o); !errors.Is(err, ErrSeriesStopped) || !strings.Contains(err.Error(), "mail 2 of 3") {
		t.Errorf("a second series: %v, want ErrSeriesStopped at mail 2 of 3", err)
	}
	return dir, mbox
}

func resumeWith(t *testing.T, dir string, set func(*Options)) (string, error) {
	t.Helper()
	o, out, _ := options(dir, "")
	o.Yes = true
	set(&o)
	err := Run(context.Background(), o)
	return out.String(), err
}

func TestMailboxSkip(t *testing.T) {
	dir, _ := stoppedAtTwo(t)
	out, err := resumeWith(t, dir, func(o *Options) { o.Skip = true })
	if err != nil {
		t.Fatalf("--skip: %v", err)
	}
	if !strings.Contains(out, "skipped mail 2 of 3\n") || !strings.Contains(out, "applying mail 3 of 3: calc: say what Add returns") {
		t.Errorf("output %q", out)
	}
	if got := repotest.Git(t, dir, "log", "--format=%s"); got != "calc: say what Add returns\ncalc: add b to a\nlocal notes\nnotes\ninitial\n" {
		t.Errorf("log after --skip:\n%s", got)
	}
	if _, err := resumeWith(t, dir, func(o *Options) { o.Continue = true }); !errors.Is(err, ErrNoSeries) {
		t.Errorf("--continue after the end: %v, want ErrNoSeries", err)
	}
}

func TestMailboxContinue(t *testing.T) {
	dir, _ := stoppedAtTwo(t)
	// The person fixes the mail: its diff takes the notes as they are here.
	saved := filepath.Join(dir, ".git", seriesDir, "0002")
	b, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(saved, []byte(strings.Replace(string(b), "-Notes.", "-Local notes.", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := resumeWith(t, dir, func(o *Options) { o.Continue = true })
	if err != nil {
		t.Fatalf("--continue: %v\n%s", err, out)
	}
	if got := repotest.Git(t, dir, "log", "--format=%s"); got != "calc: say what Add returns\nnotes: read them\ncalc: add b to a\nlocal notes\nnotes\ninitial\n" {
		t.Errorf("log after --continue:\n%s", got)
	}
	if got := repotest.Git(t, dir, "show", "HEAD:NOTES"); got != "Notes, read them.\n" {
		t.Errorf("NOTES after the second mail: %q", got)
	}
}

func TestMailboxAbort(t *testing.T) {
	dir, _ := stoppedAtTwo(t)
	before := repotest.Git(t, dir, "rev-parse", "HEAD~1")
	out, err := resumeWith(t, dir, func(o *Options) { o.Abort = true })
	if err != nil {
		t.Fatalf("--abort: %v", err)
	}
	if !strings.Contains(out, "series aborted") {
		t.Errorf("output %q", out)
	}
	if got := repotest.Git(t, dir, "rev-parse", "HEAD"); got != before {
		t.Errorf("HEAD after --abort %s, want %s", got, before)
	}
	if got := repotest.Git(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("status after --abort:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", seriesDir)); !os.IsNotExist(err) {
		t.Errorf("the series is still there after --abort (%v)", err)
	}
}

// TestMessageNamesNoLocalPath: a patch given by its path outside the
// repository is named in the commit by its file name alone.
func TestMessageNamesNoLocalPath(t *testing.T) {
	dir := scratch(t)
	p := filepath.Join(t.TempDir(), "private", "fix.diff")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(patch), 0o644); err != nil {
		t.Fatal(err)
	}
	o, _, _ := options(dir, "")
	o.Patch, o.Yes = p, true
	if err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	msg := repotest.Git(t, dir, "log", "-1", "--format=%B")
	if strings.Contains(msg, filepath.Dir(p)) || !strings.Contains(msg, "Applied with pair apply from fix.diff (--yes)") {
		t.Errorf("message names where the patch lay:\n%s", msg)
	}
}

// TestMailboxDiffsLikeGitApply applies a series of mails with
// --no-commit, --index or --cached, without pair am: their diffs are
// applied one after the other and nothing is committed, as git apply
// does with the same mailbox.
func TestMailboxDiffsLikeGitApply(t *testing.T) {
	src, series := mailSeries(t)
	b, err := os.ReadFile(series)
	if err != nil {
		t.Fatal(err)
	}
	// A mail without a diff first, which git apply skips.
	withEmpty := filepath.Join(t.TempDir(), "with-empty.mbox")
	empty := "From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\nFrom: A U Thor <author@example.com>\nDate: Thu, 7 Apr 2005 15:14:13 -0700\nSubject: [PATCH] empty commit\n\n---\n2.39.5\n\n"
	if err := os.WriteFile(withEmpty, []byte(empty+string(b)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, mbox string
		flag       string
		set        func(*Options)
	}{
		{"--no-commit", series, "", func(o *Options) { o.NoCommit = true }},
		{"--index", series, "--index", func(o *Options) { o.Index = true }},
		{"--cached", series, "--cached", func(o *Options) { o.Cached = true }},
		{"--no-commit, a mail without a diff first", withEmpty, "", func(o *Options) { o.NoCommit = true }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mbox := tt.mbox
			byGit, byPair := copyAt(t, src), copyAt(t, src)
			args := []string{"apply", mbox}
			if tt.flag != "" {
				args = []string{"apply", tt.flag, mbox}
			}
			repotest.Git(t, byGit, args...)
			o, out, errw := options(byPair, "")
			o.Patch, o.Yes = mbox, true
			tt.set(&o)
			if err := Run(context.Background(), o); err != nil {
				t.Fatalf("Run: %v\n%s%s", err, out, errw)
			}
			if g, p := snapshot(t, byGit), snapshot(t, byPair); g != p {
				t.Errorf("pair made\n%s\ngit apply made\n%s", p, g)
			}
			if got, want := repotest.Git(t, byPair, "rev-parse", "HEAD"), repotest.Git(t, byGit, "rev-parse", "HEAD"); got != want {
				t.Errorf("pair moved HEAD to %s; want it left at %s", got, want)
			}
		})
	}
}

// TestFormatPatchFilesLikeGit gives pair apply the git format-patch files
// of a series one by one, as git am p1 p2 p3 and git apply p1 p2 p3 take
// them: committing, one commit per mail as git am makes them; with
// --no-commit, their diffs applied in order, nothing committed, as git
// apply applies them. A plain diff given with mail is applied with them
// under --no-commit, and refused when committing, which would need an
// author and a message it has not.
func TestFormatPatchFilesLikeGit(t *testing.T) {
	src, _ := mailSeries(t)
	dir := t.TempDir()
	repotest.Git(t, src, "format-patch", "-q", "-o", dir, "HEAD~3")
	files, err := filepath.Glob(filepath.Join(dir, "000*.patch"))
	if err != nil || len(files) != 3 {
		t.Fatalf("format-patch wrote %v (%v)", files, err)
	}
	plain := filepath.Join(dir, "plain.diff")
	if err := os.WriteFile(plain, []byte("--- a/NEW\n+++ b/NEW\n@@ -0,0 +1 @@\n+new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(dir string, set func(*Options), patches ...string) (string, error) {
		o, out, errw := options(dir, "")
		o.Patch, o.More, o.Yes = patches[0], patches[1:], true
		if set != nil {
			set(&o)
		}
		err := Run(context.Background(), o)
		return out.String() + errw.String(), err
	}
	noCommit := func(o *Options) { o.NoCommit = true }

	t.Run("committed", func(t *testing.T) {
		byGit, byPair := copyAt(t, src), copyAt(t, src)
		am := repotest.Cmd(t, byGit, append([]string{"am", "-q"}, files...)...)
		am.Env = slices.DeleteFunc(am.Env, func(kv string) bool { return strings.HasPrefix(kv, "GIT_COMMITTER_") })
		repotest.Output(t, am)
		if out, err := run(byPair, nil, files...); err != nil || !strings.Contains(out, "applied 3 mails: 3 commits\n") {
			t.Fatalf("pair apply p1 p2 p3: %v\n%s", err, out)
		}
		format := "--format=%T %an <%ae> %ad %s"
		if g, p := repotest.Git(t, byGit, "log", "-3", format), repotest.Git(t, byPair, "log", "-3", format); g != p {
			t.Errorf("pair made\n%s\ngit am made\n%s", p, g)
		}
	})
	t.Run("--no-commit", func(t *testing.T) {
		byGit, byPair := copyAt(t, src), copyAt(t, src)
		repotest.Git(t, byGit, append([]string{"apply"}, files...)...)
		out, err := run(byPair, noCommit, files...)
		if err != nil {
			t.Fatalf("pair apply --no-commit p1 p2 p3: %v\n%s", err, out)
		}
		if g, p := snapshot(t, byGit), snapshot(t, byPair); g != p {
			t.Errorf("pair made\n%s\ngit apply made\n%s", p, g)
		}
		if got, want := repotest.Git(t, byPair, "rev-parse", "HEAD"), repotest.Git(t, byGit, "rev-parse", "HEAD"); got != want {
			t.Errorf("pair moved HEAD to %s; want it left at %s", got, want)
		}
		// calc.go has a section in the first mail and one in the third.
		if !strings.Contains(out, "applied 3 hunks to 2 files\n") {
			t.Errorf("pair said\n%s\nwant 3 hunks in 2 files", out)
		}
	})
	t.Run("a plain diff with mail", func(t *testing.T) {
		byGit, byPair := copyAt(t, src), copyAt(t, src)
		head := repotest.Git(t, byPair, "rev-parse", "HEAD")
		out, err := run(byPair, nil, plain, files[0])
		var ue *output.UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "0001-fix-calc-add-b-to-a.patch is mail and plain.diff is not") ||
			strings.Contains(err.Error(), dir) {
			t.Errorf("pair apply plain.diff p1: %v\n%s; want a refusal naming the files, not their folder", err, out)
		}
		if h := repotest.Git(t, byPair, "rev-parse", "HEAD"); h != head {
			t.Errorf("refused, pair moved HEAD to %s", h)
		}
		repotest.Git(t, byGit, "apply", plain, files[0])
		if out, err := run(byPair, noCommit, plain, files[0]); err != nil {
			t.Fatalf("pair apply --no-commit plain.diff p1: %v\n%s", err, out)
		}
		if g, p := snapshot(t, byGit), snapshot(t, byPair); g != p {
			t.Errorf("pair made\n%s\ngit apply made\n%s", p, g)
		}
	})
}

package apply

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
	"golang.org/x/term"
)

// A mail whose three-way merge conflicts stops the series as git am -3
// stops it: the conflict approved, the index holds the preimage, ours and
// theirs as git am -3 leaves them, nothing is committed, and the way on
// is to stage the resolution and continue (see
// TestAmContinueCommitsResolutionAsGit).
func TestAmThreeWayConflictAsGit(t *testing.T) {
	setup := "printf '%s\\n' 1 2 3 4 5 6 7 > one\n"
	root, made, byGit, byPair := caseRepos(t, func(dir string) { sh(t, dir, setup) })
	mbox := sh(t, made, "printf '%s\\n' 1 2 3 4 five 6 7 > one; git commit -qam 'one: five in words'; git format-patch -1 --stdout\n")
	for _, dir := range []string{byGit, byPair} {
		sh(t, dir, "printf '%s\\n' 1 2 3 4 FIVE 6 7 > one; git commit -qam ours\n")
	}
	file := filepath.Join(root, "side.mbox")
	if err := os.WriteFile(file, []byte(mbox), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "am", "-3", file)
	cmd.Dir = byGit
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Fatalf("git am -3 leaves no conflict:\n%s", out)
	}
	head := sh(t, byPair, "git rev-parse HEAD")
	o, out, errw := options(byPair, "")
	o.Patch, o.Mail, o.ThreeWay, o.Decisions = file, true, true, "y"
	err := Run(context.Background(), o)
	if err == nil || !strings.Contains(err.Error(), "stopped at mail 1 of 1: conflicts in one") ||
		!strings.Contains(err.Error(), "pair am --continue commits it as this mail's") || strings.Contains(err.Error(), "then git add and commit") {
		t.Fatalf("pair am -3: %v; want it stopped at the conflict, to resolve and continue\n%s%s", err, out, errw)
	}
	if g, p := sh(t, byGit, "git ls-files -s"), sh(t, byPair, "git ls-files -s"); g != p {
		t.Errorf("pair am -3 left the index\n%s\ngit am -3 left\n%s", p, g)
	}
	if h := sh(t, byPair, "git rev-parse HEAD"); h != head {
		t.Errorf("a conflict was committed: HEAD moved from %s to %s", head, h)
	}
	if got := sh(t, byPair, "cat one"); !strings.Contains(got, "<<<<<<< ours\nFIVE\n=======\nfive\n>>>>>>> theirs\n") {
		t.Errorf("one holds\n%s\nwant the conflict markers", got)
	}
}

// keys gives a review in the terminal its keys ahead: a pseudo-terminal
// in raw mode, keys already typed.
func keys(t *testing.T, typed string) *os.File {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ptmx.Close(); tty.Close() })
	if _, err := term.MakeRaw(int(tty.Fd())); err != nil {
		t.Fatal(err)
	}
	if _, err := ptmx.WriteString(typed); err != nil {
		t.Fatal(err)
	}
	return tty
}

// withoutPairTrailers is a commit message without pair's trailers.
func withoutPairTrailers(msg string) string {
	var out []string
	for _, l := range strings.Split(msg, "\n") {
		if !strings.HasPrefix(l, "Pair-") {
			out = append(out, l)
		}
	}
	return strings.TrimRight(strings.Join(out, "\n"), "\n")
}

// pair am --continue after a three-way conflict commits the person's
// staged resolution as the mail's commit, then goes on with the series,
// as git am --continue does: the same trees, authors, dates and messages
// (apart from pair's trailers, which name the resolved file). With the
// conflict unresolved, or nothing staged, it refuses.
func TestAmContinueCommitsResolutionAsGit(t *testing.T) {
	setup := "printf '%s\\n' 1 2 3 4 5 6 7 > one; printf '%s\\n' a b c > two\n"
	root, made, byGit, byPair := caseRepos(t, func(dir string) { sh(t, dir, setup) })
	mbox := sh(t, made, "printf '%s\\n' 1 2 3 4 five 6 7 > one; git commit -qam 'one: five in words' -m 'Because words read better.' -m 'Signed-off-by: Side Author <side@example.com>'\n"+
		"printf '%s\\n' a b c d > two; GIT_AUTHOR_NAME='Other Author' GIT_AUTHOR_DATE='2025-05-06T07:08:09+02:00' git commit -qam 'two: d'\n"+
		"printf '%s\\n' 0 a b c d > two; git commit -qam 'two: 0'\n"+
		"git format-patch -3 --stdout\n")
	for _, dir := range []string{byGit, byPair} {
		sh(t, dir, "printf '%s\\n' 1 2 3 4 FIVE 6 7 > one; git commit -qam ours\n")
	}
	file := filepath.Join(root, "side.mbox")
	if err := os.WriteFile(file, []byte(mbox), 0o644); err != nil {
		t.Fatal(err)
	}
	resolve := "printf '%s\\n' 1 2 3 4 Five 6 7 > one\n"
	if out, err := exec.Command("sh", "-c", "cd "+byGit+" && GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null git am -3 ../side.mbox").CombinedOutput(); err == nil {
		t.Fatalf("git am -3 leaves no conflict:\n%s", out)
	}
	sh(t, byGit, resolve+"git add one; git am --continue\n")

	// The conflict, approved in the terminal.
	o, out, errw := options(byPair, "")
	o.Patch, o.Mail, o.ThreeWay, o.IO.Keyboard = file, true, true, keys(t, "yy")
	if err := Run(context.Background(), o); err == nil || !strings.Contains(err.Error(), "pair am --continue commits it as this mail's") {
		t.Fatalf("pair am -3: %v; want it stopped at the conflict, to resolve and continue\n%s%s", err, out, errw)
	}
	cont := func() (string, error) {
		o, out, errw := options(byPair, "")
		o.Continue, o.Yes = true, true
		err := Run(context.Background(), o)
		return out.String() + errw.String(), err
	}
	// Unresolved: refused, nothing committed.
	head := sh(t, byPair, "git rev-parse HEAD")
	if got, err := cont(); err == nil || !strings.Contains(err.Error(), "unresolved conflicts (one)") || !strings.Contains(err.Error(), "git add each file once it is resolved") {
		t.Errorf("pair am --continue with the conflict unresolved: %v\n%s; want a refusal naming one", err, got)
	}
	// Resolved in the file but not staged: the index still has the
	// conflict. Staged as HEAD: nothing to commit.
	sh(t, byPair, resolve+"git checkout -q HEAD -- one\n")
	if got, err := cont(); err == nil || !strings.Contains(err.Error(), "no changes staged for mail 1 of 3: did you forget to git add") || !strings.Contains(err.Error(), "pair am --skip") {
		t.Errorf("pair am --continue with nothing staged: %v\n%s; want git's did you forget to git add", err, got)
	}
	if h := sh(t, byPair, "git rev-parse HEAD"); h != head {
		t.Fatalf("a refused --continue committed: HEAD moved from %s to %s", head, h)
	}
	sh(t, byPair, resolve+"git add one\n")
	got, err := cont()
	if err != nil {
		t.Fatalf("pair am --continue: %v\n%s", err, got)
	}
	if !strings.Contains(got, "with your resolution of one") || !strings.Contains(got, "applying mail 3 of 3: two: 0") {
		t.Errorf("pair am --continue said\n%s\nwant the resolution committed and the rest applied", got)
	}
	if _, err := os.Stat(filepath.Join(byPair, ".git", "pair-am")); err == nil {
		t.Errorf("the finished series is still in .git/pair-am")
	}
	const format = "%T%n%an <%ae> %ad%n%B"
	g := strings.Split(sh(t, byGit, "git log -3 --date=raw --format='"+format+"%x00'"), "\x00")
	p := strings.Split(sh(t, byPair, "git log -3 --date=raw --format='"+format+"%x00'"), "\x00")
	if len(g) != len(p) {
		t.Fatalf("git made\n%q\npair made\n%q", g, p)
	}
	for i := range g {
		if withoutPairTrailers(g[i]) != withoutPairTrailers(p[i]) {
			t.Errorf("commit HEAD~%d: git made\n%s\npair made\n%s", i, g[i], p[i])
		}
	}
	if tr := sh(t, byPair, "git log -1 --skip=2 --format='%(trailers:key=Pair-Resolved,valueonly)%(trailers:key=Signed-off-by,valueonly)'"); tr != "one\nSide Author <side@example.com>\n\n" {
		t.Errorf("the resolved commit's trailers, as git reads them: %q; want Pair-Resolved: one and the mail's Signed-off-by", tr)
	}
	if st := sh(t, byPair, "git status --porcelain"); st != "" {
		t.Errorf("pair am --continue left\n%s", st)
	}
}

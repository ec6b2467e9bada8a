package apply

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// skipCase is a series whose second mail conflicts under -3, stopped by
// git am -3 in byGit and by pair am -3 in byPair. one is executable and
// has CRLF line endings in the working tree (eol=crlf), so that putting
// it back shows git checkout's conversion and mode; three holds an
// unrelated edit that stays.
func skipCase(t *testing.T) (byGit, byPair string) {
	t.Helper()
	setup := "printf '%s\\n' 1 2 3 4 5 6 7 > one; chmod +x one; echo 'one text eol=crlf' > .gitattributes; printf '%s\\n' a b c > two; echo x > three\n"
	root, made, byGit, byPair := caseRepos(t, func(dir string) { sh(t, dir, setup) })
	mbox := sh(t, made, "printf '%s\\n' a b c d > two; git commit -qam 'two: d' 2>/dev/null\n"+
		"printf '%s\\n' 1 2 3 4 five 6 7 > one; git commit -qam 'one: five in words' 2>/dev/null\n"+
		"git format-patch -2 --stdout\n")
	for _, dir := range []string{byGit, byPair} {
		sh(t, dir, "printf '%s\\n' 1 2 3 4 FIVE 6 7 > one; git commit -qam ours\n")
	}
	file := filepath.Join(root, "side.mbox")
	if err := os.WriteFile(file, []byte(mbox), 0o644); err != nil {
		t.Fatal(err)
	}
	sh(t, byGit, "! git am -3 ../side.mbox >/dev/null 2>&1\n")
	o, out, errw := options(byPair, "")
	o.Patch, o.Mail, o.ThreeWay, o.IO.Keyboard = file, true, true, keys(t, "yyyyyyyy")
	if err := Run(context.Background(), o); err == nil || !strings.Contains(err.Error(), "stopped at mail 2 of 2: conflicts in one") {
		t.Fatalf("pair am -3: %v; want it stopped at the conflict\n%s%s", err, out, errw)
	}
	if g, p := sh(t, byGit, "git ls-files -s"), sh(t, byPair, "git ls-files -s"); g != p {
		t.Fatalf("pair am -3 left the index\n%s\ngit am -3 left\n%s", p, g)
	}
	for _, dir := range []string{byGit, byPair} {
		sh(t, dir, "echo y > three\n")
	}
	return byGit, byPair
}

// amResume runs pair am with --skip, --continue or --abort in dir.
func amResume(t *testing.T, dir, flag string) (string, error) {
	t.Helper()
	o, out, errw := options(dir, "")
	o.Yes = true
	switch flag {
	case "--skip":
		o.Skip = true
	case "--abort":
		o.Abort = true
	default:
		o.Continue = true
	}
	err := Run(context.Background(), o)
	return out.String() + errw.String(), err
}

// sameStateAsGit fails unless both repositories have the same HEAD tree,
// index, status and working files (bytes and executable bits).
func sameStateAsGit(t *testing.T, what, byGit, byPair string) {
	t.Helper()
	const look = "git rev-parse HEAD^{tree}; git ls-files -s; git status --porcelain; for f in one two three; do od -c $f; ls -l $f | cut -c1-10; done\n"
	if g, p := sh(t, byGit, look), sh(t, byPair, look); g != p {
		t.Errorf("%s: pair left\n%s\ngit left\n%s", what, p, g)
	}
}

// pair am --skip and --abort after a -3 conflict put the conflicted file
// back as HEAD has it, index and working tree, as git am --skip and
// --abort do; other files keep their edits.
func TestAmSkipAbortResetConflictAsGit(t *testing.T) {
	for _, flag := range []string{"--skip", "--abort"} {
		t.Run(flag, func(t *testing.T) {
			byGit, byPair := skipCase(t)
			sh(t, byGit, "git am "+flag+"\n")
			if got, err := amResume(t, byPair, flag); err != nil {
				t.Fatalf("pair am %s: %v\n%s", flag, err, got)
			}
			sameStateAsGit(t, "pair am "+flag, byGit, byPair)
			if _, err := os.Stat(filepath.Join(byPair, ".git", "pair-am")); err == nil {
				t.Errorf("pair am %s kept the series", flag)
			}
		})
	}
}

// Unlike git am --skip and --abort, which put the conflicted file back
// whatever it holds, pair refuses when the person changed it since the
// conflict, in the working tree or the index: it names the file and how
// to keep or drop the work, and changes nothing. Once the work is
// dropped, it goes on as git does.
func TestAmSkipAbortRefuseLaterWork(t *testing.T) {
	for _, c := range []struct{ flag, work, where string }{
		{"--skip", "printf '1\\nFive\\n' > one\n", "one (working tree)"},
		{"--abort", "printf '1\\nFive\\n' > one\n", "one (working tree)"},
		{"--skip", "printf '1\\nFive\\n' > one; git add one\n", "one (working tree, index)"},
		{"--abort", "printf '1\\nFive\\n' > one; git add one; git checkout -q HEAD -- one; git add one\n", ""},
	} {
		t.Run(c.flag, func(t *testing.T) {
			byGit, byPair := skipCase(t)
			sh(t, byPair, c.work)
			before := sh(t, byPair, "git ls-files -s; git status --porcelain; od -c one")
			got, err := amResume(t, byPair, c.flag)
			if c.where == "" { // the work is HEAD's: nothing to lose
				if err != nil {
					t.Fatalf("pair am %s: %v\n%s", c.flag, err, got)
				}
				sh(t, byGit, "git am "+c.flag+"\n")
				sameStateAsGit(t, "pair am "+c.flag+" after the file was put back by hand", byGit, byPair)
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.where+" changed since the conflict was left") ||
				!strings.Contains(err.Error(), "git checkout HEAD -- one") || !strings.Contains(err.Error(), "pair am "+c.flag+" again") {
				t.Fatalf("pair am %s after work on one: %v\n%s; want a refusal naming %s", c.flag, err, got, c.where)
			}
			if after := sh(t, byPair, "git ls-files -s; git status --porcelain; od -c one"); after != before {
				t.Errorf("the refused pair am %s changed\n%s\nto\n%s", c.flag, before, after)
			}
			sh(t, byPair, "git checkout -q HEAD -- one\n")
			if got, err := amResume(t, byPair, c.flag); err != nil {
				t.Fatalf("pair am %s once the work is dropped: %v\n%s", c.flag, err, got)
			}
			sh(t, byGit, "git am "+c.flag+"\n")
			sameStateAsGit(t, "pair am "+c.flag+" once the work is dropped", byGit, byPair)
		})
	}
}

package edit_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// The differential tests of git apply's options of placement: a random
// file and a random change to it, made into a patch by git diff or
// diff, applied by git apply with the option and by Place with the
// PlaceOptions that stand for it.

// optGen makes the files of one case: lines of few words, so that lines
// repeat and only the numbers can tell them apart.
type optGen struct{ r *rand.Rand }

func newOptGen(seed uint64) optGen {
	return optGen{rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d))}
}

func (g optGen) line() string {
	words := []string{"alpha", "beta", "gamma", "delta", "}", "", "\treturn nil", "x := 1"}
	return words[g.r.IntN(len(words))]
}

// file is a file of a few lines, some ending without a newline.
func (g optGen) file() []string {
	lines := make([]string, 1+g.r.IntN(20))
	for i := range lines {
		lines[i] = g.line()
	}
	return lines
}

// edit changes a few lines: replaced, inserted, deleted.
func (g optGen) edit(lines []string) []string {
	out := slices.Clone(lines)
	for range 1 + g.r.IntN(4) {
		i := g.r.IntN(len(out) + 1)
		switch g.r.IntN(3) {
		case 0:
			out = slices.Insert(out, i, g.line()+" new")
		case 1:
			if i < len(out) && len(out) > 1 {
				out = slices.Delete(out, i, i+1)
			}
		default:
			if i < len(out) {
				out[i] += " changed"
			}
		}
	}
	return out
}

func joinLines(lines []string, final bool) string {
	s := strings.Join(lines, "\n")
	if final && len(lines) > 0 {
		s += "\n"
	}
	return s
}

// makeDiff returns the patch from old to new of file f, made by git diff
// (in a repository, with args) or by diff (when tool is "diff").
func makeDiff(t *testing.T, tool, old, new string, args ...string) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if tool == "diff" {
		write("f.orig", old)
		write("f", new)
		return runIn(t, dir, "diff", append(args, "f.orig", "f")...)
	}
	if out, err := git(t, dir, "init", "-q"); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	write("f", old)
	if out, err := git(t, dir, "add", "f"); err != nil {
		t.Fatalf("git add: %v\n%s", err, out)
	}
	write("f", new)
	out, err := git(t, dir, append([]string{"diff"}, args...)...)
	if err != nil {
		t.Fatalf("git diff: %v\n%s", err, out)
	}
	return out
}

// gitApplied applies patch to a file f holding old with git apply and
// args, and returns the result, or ok false when git refuses it.
func gitApplied(t *testing.T, old, patch string, args ...string) (string, bool) {
	t.Helper()
	dir := t.TempDir()
	if out, err := git(t, dir, "init", "-q"); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "p.diff")
	if err := os.WriteFile(file, []byte(patch), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := git(t, dir, append(append([]string{"apply"}, args...), file)...); err != nil {
		return "", false
	}
	b, err := os.ReadFile(filepath.Join(dir, "f"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b), true
}

// pairApplied places patch on old with the options o and applies it,
// returning the placement errors joined ("" when there are none).
func pairApplied(t *testing.T, old, patch string, o edit.PlaceOptions) (string, string) {
	t.Helper()
	p := mustParse(t, patch)
	if len(p.Files) != 1 {
		t.Fatalf("Parse: got %d files, want 1\npatch:\n%s", len(p.Files), patch)
	}
	p.SetPlacing(o)
	rs, errs := edit.Place(old, p.Files[0])
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Error())
	}
	if len(errs) > 0 {
		return "", strings.Join(msgs, "\n")
	}
	return mustApply(t, old, rs), ""
}

// TestZeroContextLikeGit: a change made into a patch by git diff -U0 or
// diff -U0 is applied by pair, with no option, as git apply
// --unidiff-zero applies it.
func TestZeroContextLikeGit(t *testing.T) {
	requireGit(t)
	t.Parallel()
	eachSeed(t, 120, func(t *testing.T, seed uint64) {
		g := newOptGen(seed)
		lines := g.file()
		final := g.r.IntN(5) != 0
		old := joinLines(lines, final)
		new := joinLines(g.edit(lines), final)
		if old == new {
			return
		}
		tool, args := "git", []string{"-U0"}
		if seed%2 == 1 {
			tool, args = "diff", []string{"-U0"}
		}
		patch := makeDiff(t, tool, old, new, args...)
		want, ok := gitApplied(t, old, patch, "--unidiff-zero")
		if !ok || want != new {
			t.Fatalf("git apply --unidiff-zero: got %q (applied %v), want %q\npatch:\n%s", want, ok, new, patch)
		}
		got, errs := pairApplied(t, old, patch, edit.PlaceOptions{})
		if errs != "" || got != want {
			t.Errorf("pair: got %q (errors %s), want git's %q\nold:\n%q\npatch:\n%s", got, errs, want, old, patch)
		}
	})
}

// TestAppendAfterLastLine: lines a zero-context hunk appends after a last
// line that has no newline. patch -p1 writes them on lines of their own,
// the last with the newline the patch gives it; git apply --unidiff-zero
// ends the file so too, but joins the first added line to the old last
// line ("a\nbc\n"), which no patch means. pair writes what patch writes.
func TestAppendAfterLastLine(t *testing.T) {
	requireGit(t)
	for _, c := range []struct {
		name, old, hunk, want string
	}{
		{"one line", "a\nb", text("@@ -2,0 +3 @@", "+c"), "a\nb\nc\n"},
		{"two lines", "a\nb", text("@@ -2,0 +3,2 @@", "+c", "+d"), "a\nb\nc\nd\n"},
		{"marked without a newline", "a\nb", text("@@ -2,0 +3 @@", "+c", `\ No newline at end of file`), "a\nb\nc"},
		{"CRLF", "a\r\nb", text("@@ -2,0 +3 @@", "+c"), "a\r\nb\r\nc\r\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			patch := "--- a/f\n+++ b/f\n" + c.hunk
			gitGot, ok := gitApplied(t, c.old, patch, "--unidiff-zero")
			if !ok || strings.HasSuffix(gitGot, "\n") != strings.HasSuffix(c.want, "\n") {
				t.Fatalf("git apply --unidiff-zero: got %q (applied %v); want its final newline as %q's", gitGot, ok, c.want)
			}
			if c.name != "CRLF" { // patch writes the patch's LF where pair keeps the file's CRLF
				if got := patchApplied(t, c.old, patch); got != c.want {
					t.Fatalf("patch -p1: got %q, want %q", got, c.want)
				}
			}
			got, errs := pairApplied(t, c.old, patch, edit.PlaceOptions{})
			if errs != "" || got != c.want {
				t.Errorf("pair: got %q (errors %s), want %q", got, errs, c.want)
			}
		})
	}
}

// patchApplied is old with patch applied by patch -p1.
func patchApplied(t *testing.T, old, patch string) string {
	t.Helper()
	dir := t.TempDir()
	f, pf := filepath.Join(dir, "f"), filepath.Join(t.TempDir(), "p.diff")
	if err := os.WriteFile(f, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pf, []byte(patch), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("patch", "-s", "-p1", "-i", pf)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("patch -p1: %v\n%s", err, out)
	}
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// eachSeed runs check for n seeds (a quarter with -short), in parallel
// subtests named by their seed.
func eachSeed(t *testing.T, n int, check func(t *testing.T, seed uint64)) int {
	if testing.Short() {
		n /= 4
	}
	for seed := range uint64(n) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			check(t, seed)
		})
	}
	return n
}

// damage changes a few lines of a file in the way of its option: their
// whitespace (for --ignore-whitespace), or their text (for -C, where a
// context line of the patch is then not the file's).
func (g optGen) damage(lines []string, ws bool) []string {
	out := slices.Clone(lines)
	for range 1 + g.r.IntN(2) {
		i := g.r.IntN(len(out))
		switch {
		case !ws:
			out[i] += " edited"
		case g.r.IntN(2) == 0:
			out[i] = "  " + out[i]
		default:
			out[i] = strings.ReplaceAll(out[i], " ", "   ") + " "
		}
	}
	return out
}

// TestOptionsLikeGit: a patch made by git diff (or diff -u) from a file,
// applied to that file with a few lines changed since, by git apply with
// --ignore-whitespace or -C<n> and by pair with the same option. Where
// git applies it, pair must give the same file, or refuse; where git
// does not, pair may refuse or apply, but must write what the patch
// marks only, which the other tests check.
func TestOptionsLikeGit(t *testing.T) {
	requireGit(t)
	t.Parallel()
	var agreed, refused, gitRefused atomic.Int64
	var n int
	t.Cleanup(func() {
		t.Logf("%d cases: %d as git applies them, %d refused by pair that git applies, %d git refuses", n, agreed.Load(), refused.Load(), gitRefused.Load())
		if refused.Load()*4 > agreed.Load() {
			t.Errorf("pair refused %d cases git applies, against %d applied alike: more than a quarter", refused.Load(), agreed.Load())
		}
	})
	n = eachSeed(t, 160, func(t *testing.T, seed uint64) {
		g := newOptGen(seed)
		lines := g.file()
		lines = append(lines, g.file()...) // longer files, for context to go wrong in
		ws := seed%2 == 0
		var gitArgs []string
		var o edit.PlaceOptions
		if ws {
			gitArgs, o = []string{"--ignore-whitespace"}, edit.PlaceOptions{IgnoreWhitespace: true}
		} else {
			c := int(seed/2) % 3
			gitArgs, o = []string{fmt.Sprintf("-C%d", c)}, edit.PlaceOptions{ContextGiven: true, Context: c}
		}
		old := joinLines(lines, true)
		new := joinLines(g.edit(lines), true)
		if old == new {
			return
		}
		tool, args := "git", []string{}
		if seed%3 == 1 {
			tool, args = "diff", []string{"-u"}
		}
		patch := makeDiff(t, tool, old, new, args...)
		target := joinLines(g.damage(lines, ws), true)
		want, ok := gitApplied(t, target, patch, gitArgs...)
		got, errs := pairApplied(t, target, patch, o)
		switch {
		case !ok:
			gitRefused.Add(1)
		case errs != "":
			refused.Add(1)
			t.Logf("git apply %s applies, pair refuses: %s", gitArgs, errs)
		case got != want:
			t.Errorf("git apply %s: pair gives\n%q\ngit gives\n%q\ntarget:\n%q\npatch:\n%s", gitArgs, got, want, target, patch)
		default:
			agreed.Add(1)
		}
	})
}

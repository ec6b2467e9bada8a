package edit_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// The three hunks git diff writes of git's t4117: the file holds 1 to
// 21, and gets A B for 3, C after 12 and D after 20.
var (
	t4117Pre   = text(strings.Fields("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21")...)
	t4117Post  = text(strings.Fields("1 2 A B 4 5 6 7 8 9 10 11 12 C 13 14 15 16 17 18 19 20 D 21")...)
	t4117Hunk1 = text("@@ -1,6 +1,7 @@", " 1", " 2", "-3", "+A", "+B", " 4", " 5", " 6")
	t4117Hunks = t4117Hunk1 + text("@@ -10,6 +11,7 @@", " 10", " 11", " 12", "+C", " 13", " 14", " 15") +
		text("@@ -18,4 +20,5 @@", " 18", " 19", " 20", "+D", " 21")
	// t4117File is the file the patch is applied to: E after 1, F after
	// 20, lines the context of the first and the last hunk lack.
	t4117File = text(strings.Fields("1 E 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 F 21")...)
	// t4117Tolerant is what pair makes of the hunks where nothing says
	// git made them of another version of the file: E and F kept.
	t4117Tolerant = text(strings.Fields("1 E 2 A B 4 5 6 7 8 9 10 11 12 C 13 14 15 16 17 18 19 20 D F 21")...)
)

// TestRuleContextAsGit: git's t4117. In git's own diff of another
// version of the file, a hunk whose context lacks a line the file has
// fits only as pair fits a model's hunk, keeping the line; git apply
// refuses it, and so does pair, naming the line, and offers its own
// place for review. The hunk that fits as git fits it is placed.
func TestRuleContextAsGit(t *testing.T) {
	requireGit(t)
	patch := gitSection(t4117Pre, t4117Post, t4117Hunks)
	if got, ok := gitApplied(t, t4117File, patch); ok {
		t.Fatalf("git apply: got %q, want a refusal", got)
	}
	rs, errs := edit.Place(t4117File, onlyFile(t, patch))
	if len(rs) != 1 || rs[0].Hunk != 1 || rs[0].Label() != "offset" {
		t.Errorf("Place: got %s, want hunk 2 alone placed, offset", describe(rs))
	}
	if len(errs) != 2 {
		t.Fatalf("Place: got errors %v, want two", errs)
	}
	names := []string{`the file's line 2, "E", is not in it`, `the file's line 22, "F", is not in it`}
	offered := rs
	for k, e := range errs {
		if !errors.Is(e, edit.ErrNoMatch) || lastRule(e) != "contextAsGit" {
			t.Errorf("hunk %d: got %v by %v, want no match, by contextAsGit", e.Hunk+1, e, e.Rules)
		}
		if !strings.Contains(e.Detail, "git's diff of another version of the file") || !strings.Contains(e.Detail, names[k]) || !strings.Contains(e.Detail, "git apply refuses it too") {
			t.Errorf("hunk %d: got detail %q, want it to say whose diff it is, name the line (%s), and that git refuses it", e.Hunk+1, e.Detail, names[k])
		}
		r := e.Interpreted
		if r == nil || r.Pass != edit.PassUncertain || !strings.Contains(uncertainNote(*r), "by pair's tolerance, where git apply finds no place") {
			t.Fatalf("hunk %d: got reading %+v, want an uncertain one saying git finds no place", e.Hunk+1, r)
		}
		offered = append(offered, *r)
	}
	if got := mustApply(t, t4117File, offered); got != t4117Tolerant {
		t.Errorf("the readings offered: got\n%s\nwant\n%s", got, t4117Tolerant)
	}
}

// TestRuleContextAsGitTolerant: the same hunks, where nothing says git
// made them of another version of the file, keep pair's tolerance, as
// a model's hunks do: each is placed, the line its context lacks kept.
func TestRuleContextAsGitTolerant(t *testing.T) {
	header := text("--- a/f", "+++ b/f")
	for _, v := range []struct{ name, patch string }{
		{"no index line", header + t4117Hunks},
		{"a diff --git line, no index line", text("diff --git a/f b/f") + header + t4117Hunks},
		{"the index line's ids written by hand", text("diff --git a/f b/f", "index 1111111..2222222 100644") + header + t4117Hunks},
		{"the index line's ids counting up", text("diff --git a/f b/f", "index abc1234..def5678 100644") + header + t4117Hunks},
		{"the index line names the file's blob", gitSection(t4117File, t4117Post, t4117Hunks)},
		{"counts that are not its lines'", gitSection(t4117Pre, t4117Post, miscounted(t4117Hunk1)+strings.TrimPrefix(t4117Hunks, t4117Hunk1))},
	} {
		t.Run(v.name, func(t *testing.T) {
			placedOrRefused(t, t4117File, v.patch, t4117Tolerant, "")
		})
	}
}

// TestRuleContextAsGitWhitespace: in git's own diff of another version
// of the file, a context line that differs from the file's in
// whitespace only fits as git apply fits it: not at all without an
// option; with --ignore-whitespace where only the length of a run of
// whitespace differs, not where one line has whitespace the other has
// not, at its start or its end. pair, which forgives all of these in a
// model's hunk, refuses what git refuses.
func TestRuleContextAsGitWhitespace(t *testing.T) {
	requireGit(t)
	pre := text("a", "b b", "c", "d", "e", "f", "g", "h")
	post := strings.Replace(pre, "d\n", "D\n", 1)
	hunk := text("@@ -1,7 +1,7 @@", " a", " b b", " c", "-d", "+D", " e", " f", " g")
	patch := gitSection(pre, post, hunk)
	for _, tt := range []struct {
		name, line string
		o          edit.PlaceOptions
		applies    bool
	}{
		{"trailing space", "b b ", edit.PlaceOptions{}, false},
		{"a space doubled", "b  b", edit.PlaceOptions{}, false},
		{"a space doubled, --ignore-whitespace", "b  b", edit.PlaceOptions{IgnoreWhitespace: true}, true},
		{"a tab for a space, --ignore-whitespace", "b\tb", edit.PlaceOptions{IgnoreWhitespace: true}, true},
		{"indented, --ignore-whitespace", "\tb b", edit.PlaceOptions{IgnoreWhitespace: true}, false},
		{"trailing space, --ignore-whitespace", "b b ", edit.PlaceOptions{IgnoreWhitespace: true}, false},
		{"trailing space, fixed", "b b ", edit.PlaceOptions{FixWhitespace: func(s string) string { return strings.TrimRight(s, " ") }}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			file := strings.Replace(pre, "b b\n", tt.line+"\n", 1)
			var args []string
			if tt.o.IgnoreWhitespace {
				args = append(args, "--ignore-whitespace")
			}
			if tt.o.FixWhitespace != nil {
				args = append(args, "--whitespace=fix")
			}
			want, ok := gitApplied(t, file, patch, args...)
			if ok != tt.applies {
				t.Fatalf("git apply %v: got %q (applied %v), want applied %v", args, want, ok, tt.applies)
			}
			got, errs := pairApplied(t, file, patch, tt.o)
			switch {
			case !tt.applies && (errs == "" || !strings.Contains(errs, "git apply refuses it too")):
				t.Errorf("pair: got %q (errors %q), want a refusal by contextAsGit", got, errs)
			case tt.applies && tt.o.FixWhitespace == nil && got != want:
				t.Errorf("pair: got %q (errors %q), want git's %q", got, errs, want)
			case tt.applies && errs != "":
				t.Errorf("pair: got errors %q, want none", errs)
			}
		})
	}
}

// TestRuleContextAsGitNamesTheLine: the refusal names the first line of
// the hunk that does not fit as git fits it, as the file has it.
func TestRuleContextAsGitNamesTheLine(t *testing.T) {
	pre := text("package p", "", "func f() {", "\tone()", "\ttwo()", "\tthree()", "\tfour()", "\tfive()", "}")
	post := strings.Replace(pre, "three", "THREE", 1)
	patch := gitSection(pre, post, text("@@ -3,7 +3,7 @@", " func f() {", " \tone()", " \ttwo()", "-\tthree()", "+\tTHREE()", " \tfour()", " \tfive()", " }"))
	for _, tt := range []struct{ name, file, want string }{
		{"a line changed", strings.Replace(pre, "\tone()", "\tone(1)", 1), `its context line "\tone()" is the file's line 4, "\tone(1)"`},
		{"a line the file lacks", strings.Replace(pre, "func f() {\n", "", 1), `its context line "func f() {" is not in the file there`},
		{"a line of the file's between", strings.Replace(pre, "\ttwo()", "\ttwo()\n\textra()", 1), `the file's line 6, "\textra()", is not in it`},
		{"a line indented otherwise", strings.Replace(pre, "\ttwo()", "    two()", 1), `its context line "\ttwo()" is the file's line 5, "    two()"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := edit.Place(tt.file, onlyFile(t, patch))
			if len(errs) != 1 || lastRule(errs[0]) != "contextAsGit" || !strings.Contains(errs[0].Detail, tt.want) {
				t.Fatalf("Place: got errors %v, want one by contextAsGit naming the line: %s", errs, tt.want)
			}
		})
	}
}

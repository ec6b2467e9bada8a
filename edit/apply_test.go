package edit_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// TestApplyCRLFPatch: a patch whose every line ends with CRLF (a model's
// reply, a mail client's) says nothing of the file's endings; one where
// only some do (git diff of a CRLF file) gives each added line its own.
func TestApplyCRLFPatch(t *testing.T) {
	for _, tt := range []struct{ name, old, patch, want string }{
		{"whole patch CRLF, LF file", "a\nb\nc\n", text("--- a/f", "+++ b/f", "@@ -1,3 +1,3 @@", " a", "-b", "+B", " c"), "a\nB\nc\n"},
		{"whole patch CRLF, CRLF file", "a\r\nb\r\nc\r\n", text("--- a/f", "+++ b/f", "@@ -1,3 +1,3 @@", " a", "-b", "+B", " c"), "a\r\nB\r\nc\r\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			patch := strings.ReplaceAll(tt.patch, "\n", "\r\n")
			if got := mustApply(t, tt.old, mustPlace(t, tt.old, patch)); got != tt.want {
				t.Errorf("Apply:\ngot  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestApplyPlaced(t *testing.T) {
	tests := []struct {
		name  string
		old   string
		patch string
		want  string
	}{
		{
			name:  "CRLF file: added lines get CRLF",
			old:   "a\r\nb\r\nc\r\nd\r\n",
			patch: text("@@ -1,3 +1,4 @@", " a", "-b", "+B", "+B2", " c"),
			want:  "a\r\nB\r\nB2\r\nc\r\nd\r\n",
		},
		{
			name:  "CRLF file from a CRLF patch",
			old:   "a\r\nb\r\nc\r\n",
			patch: strings.ReplaceAll(text("@@ -1,3 +1,3 @@", " a", "-b", "+B", " c"), "\n", "\r\n"),
			want:  "a\r\nB\r\nc\r\n",
		},
		{
			name:  "endings as content: LF to CRLF, as git diff writes it",
			old:   "a\nb\n",
			patch: text("@@ -1,2 +1,2 @@", "-a", "-b", "+a\r", "+b\r"),
			want:  "a\r\nb\r\n",
		},
		{
			name:  "endings as content: CRLF to LF",
			old:   "a\r\nb\r\nc\r\n",
			patch: text("@@ -1,3 +1,3 @@", " a\r", "-b\r", "+b", " c\r"),
			want:  "a\r\nb\nc\r\n",
		},
		{
			name:  "endings as content: an added line in a CRLF file keeps the patch's LF",
			old:   "a\r\nb\r\n",
			patch: text("@@ -1,2 +1,3 @@", " a\r", "+x", " b\r"),
			want:  "a\r\nx\nb\r\n",
		},
		{
			name: "mixed endings outside the hunk kept byte for byte",
			old:  "one\r\ntwo\r\nthree\nfour\nfive\nsix\r\nodd\rbyte\xff\x00\nseven\n",
			patch: text(
				"@@ -3,3 +3,4 @@",
				" three",
				"-four",
				"+FOUR",
				"+4",
				" five",
			),
			want: "one\r\ntwo\r\nthree\nFOUR\n4\nfive\nsix\r\nodd\rbyte\xff\x00\nseven\n",
		},
		{
			name:  "a replaced line's ending is kept in a mixed file",
			old:   "a\r\nb\nc\r\nd\r\n",
			patch: text("@@ -1,2 +1,2 @@", " a", "-b", "+B"),
			want:  "a\r\nB\nc\r\nd\r\n",
		},
		{
			name:  "lines added beyond those replaced take the dominant ending",
			old:   "a\r\nb\nc\r\nd\r\n",
			patch: text("@@ -1,2 +1,3 @@", " a", "-b", "+B", "+B2"),
			want:  "a\r\nB\nB2\r\nc\r\nd\r\n",
		},
		{
			name:  "no final newline stays absent when the hunk does not reach the end",
			old:   "a\nb\nc",
			patch: text("@@ -1,2 +1,2 @@", "-a", "+A", " b"),
			want:  "A\nb\nc",
		},
		{
			name:  "no final newline stays absent when the hunk forgot its markers",
			old:   "a\nb\nc",
			patch: text("@@ -2,2 +2,2 @@", " b", "-c", "+C"),
			want:  "a\nb\nC",
		},
		{
			name:  "no final newline stays absent with markers on both sides",
			old:   "a\nb\nc",
			patch: text("@@ -2,2 +2,2 @@", " b", "-c", `\ No newline at end of file`, "+C", `\ No newline at end of file`),
			want:  "a\nb\nC",
		},
		{
			// The added last line ends as the patch ends it, as git apply
			// --unidiff-zero and patch write it (see TestAppendAfterLastLine).
			name:  "no final newline: lines added after the last line",
			old:   "a\nb",
			patch: text("@@ -1,2 +1,3 @@", " a", " b", "+c"),
			want:  "a\nb\nc\n",
		},
		{
			name:  "no final newline: the added last line marked without one",
			old:   "a\nb",
			patch: text("@@ -1,2 +1,3 @@", " a", " b", "+c", `\ No newline at end of file`),
			want:  "a\nb\nc",
		},
		{
			name:  "no final newline: a line added before the last keeps it so",
			old:   "a\nb",
			patch: text("@@ -1,2 +1,3 @@", " a", "+x", " b"),
			want:  "a\nx\nb",
		},
		{
			name:  "marker on the old side adds the final newline",
			old:   "a\nb",
			patch: text("@@ -1,2 +1,2 @@", " a", "-b", `\ No newline at end of file`, "+B"),
			want:  "a\nB\n",
		},
		{
			name:  "marker on the new side removes the final newline",
			old:   "a\nb\n",
			patch: text("@@ -1,2 +1,2 @@", " a", "-b", "+B", `\ No newline at end of file`),
			want:  "a\nB",
		},
		{
			name:  "marker not at the end of the file is ignored",
			old:   "a\nb\nc\n",
			patch: text("@@ -1,2 +1,2 @@", " a", "-b", "+B", `\ No newline at end of file`),
			want:  "a\nB\nc\n",
		},
		{
			name:  "deleting the last line of a file without final newline",
			old:   "a\nb",
			patch: text("@@ -1,2 +1 @@", " a", "-b", `\ No newline at end of file`),
			want:  "a\n",
		},
		{
			name:  "creating a file",
			old:   "",
			patch: text("@@ -0,0 +1,2 @@", "+one", "+two"),
			want:  "one\ntwo\n",
		},
		{
			name:  "creating a file without final newline",
			old:   "",
			patch: text("@@ -0,0 +1,2 @@", "+one", "+two", `\ No newline at end of file`),
			want:  "one\ntwo",
		},
		{
			name:  "deleting all lines",
			old:   "one\ntwo\n",
			patch: text("@@ -1,2 +0,0 @@", "-one", "-two"),
			want:  "",
		},
		{
			name:  "deleting all lines of a file without final newline",
			old:   "one\ntwo",
			patch: text("@@ -1,2 +0,0 @@", "-one", "-two", `\ No newline at end of file`),
			want:  "",
		},
		{
			name:  "replacing every line",
			old:   "one\ntwo\n",
			patch: text("@@ -1,2 +1,1 @@", "-one", "-two", "+three"),
			want:  "three\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := mustPlace(t, tt.old, "--- a/f\n+++ b/f\n"+tt.patch)
			for _, r := range rs {
				checkFileText(t, tt.old, r)
			}
			if got := mustApply(t, tt.old, rs); got != tt.want {
				t.Errorf("Apply:\ngot  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestApplyNoHunks(t *testing.T) {
	for _, old := range []string{"", "a", "a\n", "a\r\nb", "a\r\nb\n\n\n", "x\ry\r"} {
		if got := mustApply(t, old, nil); got != old {
			t.Errorf("Apply(%q, nil): got %q, want it unchanged", old, got)
		}
	}
}

func TestApplyResolved(t *testing.T) {
	old := text("a", "b", "c", "d", "e")
	tests := []struct {
		name string
		rs   []edit.Resolved
		want string
		err  error
	}{
		{
			name: "hunks out of order",
			rs: []edit.Resolved{
				{Hunk: 1, Start: 3, Lines: ls(" d", "-e", "+E")},
				{Hunk: 0, Start: 0, Lines: ls("-a", "+A", " b")},
			},
			want: text("A", "b", "c", "d", "E"),
		},
		{
			name: "shared context",
			rs: []edit.Resolved{
				{Start: 0, Lines: ls(" a", "-b", "+B", " c")},
				{Start: 2, Lines: ls(" c", "-d", "+D", " e")},
			},
			want: text("a", "B", "c", "D", "e"),
		},
		{
			name: "insertion right before a deletion of another hunk",
			rs: []edit.Resolved{
				{Start: 1, Lines: ls(" b", "+x")},
				{Start: 2, Lines: ls("-c", " d")},
			},
			want: text("a", "b", "x", "d", "e"),
		},
		{
			name: "stale: a line changed",
			rs:   []edit.Resolved{{Start: 1, Lines: ls(" b", "-C", "+X")}},
			err:  edit.ErrStale,
		},
		{
			name: "stale: past the end",
			rs:   []edit.Resolved{{Start: 4, Lines: ls(" e", "-f", "+F")}},
			err:  edit.ErrStale,
		},
		{
			name: "conflict: the same line deleted twice",
			rs: []edit.Resolved{
				{Hunk: 0, Start: 0, Lines: ls(" a", "-b", "+B")},
				{Hunk: 1, Start: 1, Lines: ls("-b", "+beta")},
			},
			err: edit.ErrOverlap,
		},
		{
			name: "conflict: overlapping deletions",
			rs: []edit.Resolved{
				{Hunk: 0, Start: 1, Lines: ls("-b", "-c", "+X")},
				{Hunk: 1, Start: 2, Lines: ls("-c", "-d", "+Y")},
			},
			err: edit.ErrOverlap,
		},
		{
			name: "conflict: two insertions at one place",
			rs: []edit.Resolved{
				{Hunk: 0, Start: 1, Lines: ls(" b", "+x", " c")},
				{Hunk: 1, Start: 2, Lines: ls("+y", " c")},
			},
			err: edit.ErrOverlap,
		},
		{
			name: "conflict: an insertion inside a deletion",
			rs: []edit.Resolved{
				{Hunk: 0, Start: 1, Lines: ls("-b", "-c", "-d")},
				{Hunk: 1, Start: 2, Lines: ls(" c", "+x", " d")},
			},
			err: edit.ErrOverlap,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := edit.Apply(old, tt.rs)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Errorf("Apply: got %q, %v; want error %v", got, err, tt.err)
				}
				if got != "" {
					t.Errorf("Apply: got text %q with an error, want none", got)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("Apply: got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestApplyStaleAfterPlace(t *testing.T) {
	old := text("a", "b", "c", "d")
	rs := mustPlace(t, old, "--- a/f\n+++ b/f\n"+text("@@ -2,2 +2,2 @@", " b", "-c", "+C"))
	for _, changed := range []string{
		text("a", "b", "X", "d"),
		text("a", "B", "c", "d"),
		text("b", "c", "d"), // lines moved up
		text("a", "b"),
		"",
	} {
		if got, err := edit.Apply(changed, rs); !errors.Is(err, edit.ErrStale) {
			t.Errorf("Apply(%q): got %q, %v; want ErrStale", changed, got, err)
		}
	}
	// Trailing whitespace and line endings are content too.
	for _, changed := range []string{
		text("a", "b ", "c", "d"),
		"a\nb\nc\r\r\nd\n",
	} {
		if got, err := edit.Apply(changed, rs); !errors.Is(err, edit.ErrStale) {
			t.Errorf("Apply(%q): got %q, %v; want ErrStale", changed, got, err)
		}
	}
}

func TestApplyFinalNewline(t *testing.T) {
	tests := []struct {
		old   string
		final edit.Newline
		want  string
	}{
		{"a\nb\n", edit.NewlineKeep, "a\nB\n"},
		{"a\nb", edit.NewlineKeep, "a\nB"},
		{"a\nb", edit.NewlineAdd, "a\nB\n"},
		{"a\nb\n", edit.NewlineRemove, "a\nB"},
		{"a\r\nb", edit.NewlineAdd, "a\r\nB\r\n"},
		{"a\r\nb\r\n", edit.NewlineRemove, "a\r\nB"},
	}
	for _, tt := range tests {
		r := edit.Resolved{Start: 1, Lines: ls("-b", "+B"), FinalNewline: tt.final}
		if got := mustApply(t, tt.old, []edit.Resolved{r}); got != tt.want {
			t.Errorf("Apply(%q, FinalNewline %v): got %q, want %q", tt.old, tt.final, got, tt.want)
		}
	}
}

func TestResolvedCounts(t *testing.T) {
	r := edit.Resolved{Lines: ls(" a", "-b", "-c", "+C", " d", "+e")}
	if got, want := r.OldCount(), 4; got != want {
		t.Errorf("OldCount: got %d, want %d", got, want)
	}
	if got, want := r.NewCount(), 4; got != want {
		t.Errorf("NewCount: got %d, want %d", got, want)
	}
}

// A hunk whose only change is the final newline (what git diff writes when
// a newline is added at the end of a file, or removed) is not a no-op.
func TestApplyNewlineOnlyHunk(t *testing.T) {
	tests := []struct {
		name, old, patch, want string
	}{
		{
			name:  "add the final newline",
			old:   "a\nb\nc",
			patch: text("@@ -1,3 +1,3 @@", " a", " b", "-c", `\ No newline at end of file`, "+c"),
			want:  "a\nb\nc\n",
		},
		{
			name:  "remove the final newline",
			old:   "a\nb\nc\n",
			patch: text("@@ -1,3 +1,3 @@", " a", " b", "-c", "+c", `\ No newline at end of file`),
			want:  "a\nb\nc",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, errs := edit.Place(tt.old, onlyFile(t, "--- a/f\n+++ b/f\n"+tt.patch))
			if len(errs) > 0 {
				t.Fatalf("Place: got errors %v, want none", errs)
			}
			if got := mustApply(t, tt.old, rs); got != tt.want {
				t.Errorf("Apply: got %q, want %q", got, tt.want)
			}
		})
	}
}

// A "\ No newline at end of file" marker after a context line says that
// neither side ends with a newline: the hunk changes nothing about the
// final newline, even when the file does end with one.
func TestApplyContextNoNewlineMarkerKeepsNewline(t *testing.T) {
	old := text("a", "b", "c")
	patch := text("--- a/f", "+++ b/f", "@@ -1,3 +1,3 @@", " a", "-b", "+B", " c", `\ No newline at end of file`)
	rs, errs := edit.Place(old, onlyFile(t, patch))
	if len(errs) > 0 {
		return // refusing is acceptable too
	}
	if got, want := mustApply(t, old, rs), text("a", "B", "c"); got != want {
		t.Errorf("Apply: got %q, want %q (final newline kept)", got, want)
	}
}

// When the new file is to end without a newline (the old file has none, or
// the hunk's marker removes it) and the hunk's last added line is empty,
// that line must not vanish: Apply's result and what the rendered diff
// applies to must agree. (Found by FuzzPlace:
// testdata/fuzz/FuzzPlace/7cd915d852c63554 and 662991c997f2fef5.)
func TestApplyAddedEmptyLastLine(t *testing.T) {
	tests := []struct {
		name, old, patch string
	}{
		{"file without final newline", "a\nb", text("@@ -2 +2,2 @@", " b", "+")},
		{"marker removes the final newline", "a\n", text("@@ -1 +1,2 @@", " a", "+", `\ No newline at end of file`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, errs := edit.Place(tt.old, onlyFile(t, "--- a/f\n+++ b/f\n"+tt.patch))
			if len(errs) > 0 {
				return // a refusal is fine
			}
			got := mustApply(t, tt.old, rs)
			diff, err := edit.Render("f", "f", "", tt.old, rs)
			if err != nil {
				t.Fatal(err)
			}
			again := mustApply(t, tt.old, mustPlace(t, tt.old, diff))
			if got != again {
				t.Errorf("Apply: got %q, but the rendered diff\n%s applies to %q", got, diff, again)
			}
			if n := strings.Count(got, "\n"); n < 2 {
				t.Errorf("Apply: got %q, want the added blank line kept", got)
			}
		})
	}
}

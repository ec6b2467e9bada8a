package edit_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// TestRulePinnedEdge: git's t4113. A hunk with no trailing context ends
// the file, and one from line 1 with no leading context starts it; a
// file that has the hunk's result at that edge had it applied already,
// and placing the hunk after (or before) its context would write its
// line a second time. git apply refuses both; so does pair.
func TestRulePinnedEdge(t *testing.T) {
	requireGit(t)
	tests := []struct{ name, old, patch string }{
		{"at the end", text("a", "b", "c"), text("diff --git a/f b/f", "--- a/f", "+++ b/f", "@@ -1,2 +1,3 @@", " a", " b", "+c")},
		{"at the beginning", text("a", "b", "c"), text("diff a/f b/f", "--- a/f", "+++ b/f", "@@ -1,2 +1,3 @@", "+a", " b", " c")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, ok := gitApplied(t, tt.old, tt.patch); ok {
				t.Fatalf("git apply: got %q, want a refusal", got)
			}
			_, errs := edit.Place(tt.old, onlyFile(t, tt.patch))
			if len(errs) != 1 || !errors.Is(errs[0], edit.ErrAlreadyApplied) || lastRule(errs[0]) != "pinnedEdge" {
				t.Fatalf("Place: got errors %v, want one: already applied, by pinnedEdge", errs)
			}
		})
	}
}

// TestRulePinnedEdgeChooses: of two places, a hunk without trailing
// context takes the one at the end of the file, as git does, in a diff
// git did not make too.
func TestRulePinnedEdgeChooses(t *testing.T) {
	old := text("x", "y", "mid", "x", "y")
	patch := text("--- a/f", "+++ b/f", "@@ -2,2 +2,3 @@", " x", " y", "+z")
	requireGit(t)
	want, ok := gitApplied(t, old, patch)
	if !ok || want != text("x", "y", "mid", "x", "y", "z") {
		t.Fatalf("git apply: got %q (applied %v), want the line at the end", want, ok)
	}
	rs := mustPlace(t, old, patch)
	wantApplied(t, old, rs, want)
	wantTrace(t, old, patch, "pinnedEdge")
}

// gitSection is the diff of file f that git diff writes, pre its old
// content and post its new one, with hunks (written with text): its
// index line names their blobs, abbreviated as git does.
func gitSection(pre, post string, hunks string) string {
	return text("diff --git a/f b/f", "index "+edit.BlobID(pre, "")[:7]+".."+edit.BlobID(post, "")[:7]+" 100644", "--- a/f", "+++ b/f") + hunks
}

// lines numbered from, to: "l3", "l4", ... as a file's text.
func lines(from, to int) string {
	var ls []string
	for i := from; i <= to; i++ {
		ls = append(ls, fmt.Sprintf("l%d", i))
	}
	return text(ls...)
}

// more is four lines added to a file, at its start or its end, since
// git made the diffs of pinnedCases.
var more = text("m1", "m2", "m3", "m4")

// The pinned cases of TestRulePinnedEdgeWhole and the rest: git diff's
// hunk of pre (lines l1 to l8) into post, and the file it is applied
// to, which has four lines more where the hunk is pinned: git refuses
// the hunk there.
var pinnedCases = []struct {
	name, post, hunk, file string
	// tolerant is what pair makes of the hunk where nothing says git
	// made its diff of another version of the file: placed by its
	// context, away from its edge.
	tolerant string
	// shapeRefused is set for a hunk whose added lines have no context
	// on one side: in a diff with index lines, which has git's shape,
	// checkShape refuses it away from that edge of the file (a context
	// line was lost), and pair has no place to offer.
	shapeRefused bool
}{
	{"the end, its last line deleted", lines(1, 7),
		text("@@ -5,4 +5,3 @@", " l5", " l6", " l7", "-l8"), lines(1, 8) + more, lines(1, 7) + more, false},
	{"the end, a line added", lines(1, 9),
		text("@@ -6,3 +6,4 @@", " l6", " l7", " l8", "+l9"), lines(1, 8) + more, lines(1, 9) + more, true},
	{"the start, a line added", lines(0, 8),
		text("@@ -1,3 +1,4 @@", "+l0", " l1", " l2", " l3"), more + lines(1, 8), more + lines(0, 8), true},
	{"the start, with context before its change", strings.Replace(lines(1, 8), "l4", "X", 1),
		text("@@ -1,7 +1,7 @@", " l1", " l2", " l3", "-l4", "+X", " l5", " l6", " l7"), more + lines(1, 8), more + strings.Replace(lines(1, 8), "l4", "X", 1), false},
}

// TestRulePinnedEdgeWhole: in git's own diff of another version of the
// file, git apply's pins hold whole (git's t4113, the file changed since
// the diff): a hunk with no context after its last change fits only at
// the end of the file, one numbered from line 1 only at its start, with
// context before its change or not. Elsewhere git refuses it; so does
// pair, and offers that place for review.
func TestRulePinnedEdgeWhole(t *testing.T) {
	requireGit(t)
	for _, tt := range pinnedCases {
		t.Run(tt.name, func(t *testing.T) {
			patch := gitSection(lines(1, 8), tt.post, tt.hunk)
			if got, ok := gitApplied(t, tt.file, patch); ok {
				t.Fatalf("git apply: got %q, want a refusal", got)
			}
			_, errs := edit.Place(tt.file, onlyFile(t, patch))
			if len(errs) != 1 || !errors.Is(errs[0], edit.ErrNoMatch) || lastRule(errs[0]) != "pinnedEdge" {
				t.Fatalf("Place: got errors %v, want one: no match, by pinnedEdge", errs)
			}
			r := errs[0].Interpreted
			if tt.shapeRefused {
				if r != nil {
					t.Errorf("Place: got reading %+v, want none (checkShape refuses it)", r)
				}
				return
			}
			if r == nil || r.Pass != edit.PassUncertain || !strings.Contains(uncertainNote(*r), "where git apply pins it") {
				t.Fatalf("Place: got reading %+v, want an uncertain one saying where git pins the hunk", r)
			}
			if got := mustApply(t, tt.file, []edit.Resolved{*r}); got != tt.tolerant {
				t.Errorf("the reading offered: got\n%s\nwant\n%s", got, tt.tolerant)
			}
		})
	}
}

// TestRulePinnedEdgeTolerant: the same hunks, where nothing says git
// made their diff of another version of the file, keep pair's
// tolerance: models write hunks without trailing context in the middle
// of a file, and numbers that are not the file's. pinnedEdge leaves them
// to pair's other rules, which place them by their context, where git
// refuses them.
func TestRulePinnedEdgeTolerant(t *testing.T) {
	requireGit(t)
	header := text("--- a/f", "+++ b/f")
	for _, tt := range pinnedCases {
		type variant struct {
			name, patch string
			indexed     bool
		}
		variants := []variant{
			{"no index line", header + tt.hunk, false},
			{"a diff --git line, no index line", text("diff --git a/f b/f") + header + tt.hunk, false},
			// In the file it was made from, git's hunk fits at its edge:
			// this one is no hunk git wrote.
			{"the index line names the file's blob", gitSection(tt.file, tt.post, tt.hunk), true},
			{"counts that are not its lines'", gitSection(lines(1, 8), tt.post, miscounted(tt.hunk)), true},
		}
		if strings.HasPrefix(tt.name, "the end") {
			// git writes its context lines wherever the file goes on.
			variants = append(variants, variant{"less context than git writes", gitSection(lines(1, 8), tt.post, shortened(tt.hunk)), true})
		}
		for _, v := range variants {
			t.Run(tt.name+", "+v.name, func(t *testing.T) {
				if got, ok := gitApplied(t, tt.file, v.patch); ok {
					t.Fatalf("git apply: got %q, want a refusal", got)
				}
				var by edit.RuleID
				if v.indexed && tt.shapeRefused {
					by = "checkShape"
				}
				placedOrRefused(t, tt.file, v.patch, tt.tolerant, by)
			})
		}
	}
}

// placedOrRefused places patch on old: with rule set, it wants one
// refusal by that rule; else none, and the result want.
func placedOrRefused(t *testing.T, old, patch, want string, rule edit.RuleID) {
	t.Helper()
	rs, errs := edit.Place(old, onlyFile(t, patch))
	if rule != "" {
		if len(errs) != 1 || lastRule(errs[0]) != rule {
			t.Fatalf("Place: got errors %v, want one by %s", errs, rule)
		}
		return
	}
	if len(errs) > 0 {
		t.Fatalf("Place: got errors %v, want none", errs)
	}
	wantApplied(t, old, rs, want)
}

// miscounted is hunk with its header's counts one more than its lines.
func miscounted(hunk string) string {
	var a, b, c, d int
	head, rest, _ := strings.Cut(hunk, "\n")
	fmt.Sscanf(head, "@@ -%d,%d +%d,%d @@", &a, &b, &c, &d)
	return fmt.Sprintf("@@ -%d,%d +%d,%d @@\n", a, b+1, c, d+1) + rest
}

// shortened is hunk without its first line, a context line, as git
// never writes it in the middle of a file: less context before its
// change than after.
func shortened(hunk string) string {
	var a, b, c, d int
	head, rest, _ := strings.Cut(hunk, "\n")
	fmt.Sscanf(head, "@@ -%d,%d +%d,%d @@", &a, &b, &c, &d)
	_, rest, _ = strings.Cut(rest, "\n")
	return fmt.Sprintf("@@ -%d,%d +%d,%d @@\n", a+1, b-1, c+1, d-1) + rest
}

// TestRulePinnedEdgeWholeChooses: in git's own diff of another version
// of the file, of several places a pinned hunk takes its edge's, and
// the note says why.
func TestRulePinnedEdgeWholeChooses(t *testing.T) {
	tt := pinnedCases[1]
	file := lines(1, 8) + text("mid", "l6", "l7", "l8")
	patch := gitSection(lines(1, 8), tt.post, tt.hunk)
	requireGit(t)
	want, ok := gitApplied(t, file, patch)
	if !ok || want != file+"l9\n" {
		t.Fatalf("git apply: got %q (applied %v), want the line at the end", want, ok)
	}
	rs := mustPlace(t, file, patch)
	wantApplied(t, file, rs, want)
	if len(rs) != 1 || !slices.Contains(rs[0].Rules, "pinnedEdge") || !slices.ContainsFunc(rs[0].Notes, func(n string) bool {
		return strings.Contains(n, "chose the one at the end of the file: it has no context after its last change, so git apply pins it there, in git's own diff of blob")
	}) {
		t.Errorf("got %s, want it placed by pinnedEdge, its note saying why", describe(rs))
	}
}

// TestRulePinnedEdgeReverse: git apply -R reads a diff backwards: its
// index line's second blob is the one it applies to, and the pins are
// the reversed hunk's. pair's Place reads the reversed diff (what -R
// makes of it in app/apply); git apply -R the diff as written.
func TestRulePinnedEdgeReverse(t *testing.T) {
	requireGit(t)
	pre, post := text("a", "b"), text("a", "b", "c")
	forward := gitSection(pre, post, text("@@ -1,2 +1,3 @@", " a", " b", "+c"))
	backward := text("diff --git a/f b/f", "index "+edit.BlobID(post, "")[:7]+".."+edit.BlobID(pre, "")[:7]+" 100644", "--- a/f", "+++ b/f",
		"@@ -1,3 +1,2 @@", " a", " b", "-c")
	spre, spost := text("b", "c"), text("a", "b", "c")
	startForward := gitSection(spre, spost, text("@@ -1,2 +1,3 @@", "+a", " b", " c"))
	startBackward := text("diff --git a/f b/f", "index "+edit.BlobID(spost, "")[:7]+".."+edit.BlobID(spre, "")[:7]+" 100644", "--- a/f", "+++ b/f",
		"@@ -1,3 +1,2 @@", "-a", " b", " c")
	for _, tt := range []struct {
		name, forward, backward, file string
		want                          string // "" for a refusal
	}{
		{"the end, on the blob it reverses", forward, backward, post, pre},
		{"the end, the file goes on", forward, backward, text("a", "b", "c", "d"), ""},
		{"the start, on the blob it reverses", startForward, startBackward, spost, spre},
		{"the start, a line before", startForward, startBackward, text("x", "a", "b", "c"), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := gitApplied(t, tt.file, tt.forward, "-R")
			if !ok {
				got = ""
			}
			if got != tt.want {
				t.Fatalf("git apply -R: got %q (applied %v), want %q", got, ok, tt.want)
			}
			var by edit.RuleID
			if tt.want == "" {
				by = "pinnedEdge"
			}
			placedOrRefused(t, tt.file, tt.backward, tt.want, by)
		})
	}
}

// TestRulePinnedEdgeContextOption: git apply -C<n> tries a hunk with
// more context on a side than n again without its pins, where it fits
// nowhere pinned; pair does too.
func TestRulePinnedEdgeContextOption(t *testing.T) {
	requireGit(t)
	tt := pinnedCases[0]
	patch := gitSection(lines(1, 8), tt.post, tt.hunk)
	want, ok := gitApplied(t, tt.file, patch, "-C1")
	if !ok || want != tt.tolerant {
		t.Fatalf("git apply -C1: got %q (applied %v), want %q", want, ok, tt.tolerant)
	}
	got, errs := pairApplied(t, tt.file, patch, edit.PlaceOptions{ContextGiven: true, Context: 1})
	if errs != "" || got != want {
		t.Errorf("Place -C1: got %q, errors %q; want %q", got, errs, want)
	}
}

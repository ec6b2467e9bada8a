package review_test

import (
	"strings"
	"testing"

	"github.com/pair-cli/pair/review"
)

// Later proposals for an always-approved file: a grant covers edits of
// its content only. A deletion, a mode change, a rename or a symbolic
// link is asked, as is any edit of a file read as configuration; the
// summary names what the change does.
func TestGrantCoversContentOnly(t *testing.T) {
	const content = "--- a/notes.txt\n+++ b/notes.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n"
	for _, tc := range []struct {
		name, patch, grant string
		as                 string // the path the file is reviewed as, if not its own
		want               string // state after New
		summary, why       string
	}{
		{"content edit", content, "notes.txt", "", "[1=g]", "1 approved", ""},
		{"deletion", "diff --git a/notes.txt b/notes.txt\ndeleted file mode 100644\n--- a/notes.txt\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-one\n-two\n-three\n",
			"notes.txt", "", "[1=.]", "1 approved (deleted)", "not this change (deleted)"},
		{"mode change with content", "diff --git a/notes.txt b/notes.txt\nold mode 100644\nnew mode 100755\n--- a/notes.txt\n+++ b/notes.txt\n@@ -1,3 +1,3 @@\n-one\n+#!/bin/sh\n two\n three\n",
			"notes.txt", "", "[1=.]", "1 approved (mode 100644 → 100755)", "not this change (mode 100644 → 100755)"},
		{"mode change alone", "diff --git a/notes.txt b/notes.txt\nold mode 100644\nnew mode 100755\n",
			"notes.txt", "", "[1=.]", "1 approved (mode 100644 → 100755)", "not this change (mode 100644 → 100755)"},
		{"rename", "diff --git a/notes.txt b/docs/notes.txt\nsimilarity index 100%\nrename from notes.txt\nrename to docs/notes.txt\n",
			"docs/notes.txt", "", "[1=.]", "1 approved (renamed from notes.txt)", "not this change (renamed from notes.txt)"},
		{"link", "diff --git a/notes.txt b/notes.txt\nold mode 100644\nnew mode 120000\n--- a/notes.txt\n+++ b/notes.txt\n@@ -1,3 +1 @@\n-one\n-two\n-three\n+/etc/passwd\n\\ No newline at end of file\n",
			"notes.txt", "", "[1=.]", "1 approved (mode 100644 → 120000, symbolic link)", "symbolic link"},
		{"configuration", content, "sub/.gitignore", "sub/.gitignore", "[1=.]", "1 approved", "configuration"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPlace(t, tc.patch)
			if tc.as != "" {
				p.Files[0].OldPath, p.Files[0].NewPath = tc.as, tc.as
			}
			r := review.New(p, []string{tc.grant})
			if got := state(r); got != tc.want {
				t.Fatalf("got state %q, want %q", got, tc.want)
			}
			if got := r.NotCovered(&r.Items[0]); !strings.Contains(got, tc.why) || (tc.why == "") != (got == "") {
				t.Errorf("NotCovered: got %q, want it to say %q", got, tc.why)
			}
			if tc.want == "[1=.]" {
				if err := r.Approve(); err != nil {
					t.Fatal(err)
				}
			}
			if got := r.Summary()[0].Text(); got != tc.summary {
				t.Errorf("summary: got %q, want %q", got, tc.summary)
			}
		})
	}
}

// The terminal shows why a granted file's change is asked, the mode
// change with the hunk, and names the change in the summary.
func TestTerminalGrantAsksModeChange(t *testing.T) {
	patch := "diff --git a/notes.txt b/notes.txt\nold mode 100644\nnew mode 100755\n--- a/notes.txt\n+++ b/notes.txt\n@@ -1,3 +1,3 @@\n-one\n+#!/bin/sh\n two\n three\n"
	r := review.New(mustPlace(t, patch), []string{"notes.txt"})
	screen, err := term(t, r, "yy", nil)
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, screen)
	}
	for _, want := range []string{
		"mode 100644 → 100755\n",
		"asked although the file is always approved: that covers edits of its content, not this change (mode 100644 → 100755)\n",
		"notes.txt                                1 approved (mode 100644 → 100755)\n",
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
}

// ApproveAhead (--yes) approves everything but the hunks of files read as
// configuration, which stay undecided and are named.
func TestApproveAheadLeavesConfiguration(t *testing.T) {
	p := mustPlace(t, calcPatch+stringsPatch+readmePatch)
	p.Files[1].OldPath, p.Files[1].NewPath = "sub/.gitattributes", "sub/.gitattributes"
	r := review.New(p, nil)
	left := r.ApproveAhead()
	if got, want := state(r), "[1=y] 2=y 3=y 4=. 5=. 6=y"; got != want {
		t.Errorf("got state %q, want %q", got, want)
	}
	if len(left) != 1 || left[0] != "sub/.gitattributes" {
		t.Errorf("got left %q, want the configuration file", left)
	}
	if got, want := review.NotAhead(left, "--yes"), "pair: not written: sub/.gitattributes: --yes never approves an edit to a file that pair or git reads as configuration"; got != want {
		t.Errorf("NotAhead = %q, want %q", got, want)
	}
}

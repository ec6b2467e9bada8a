package edit_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// TestRuleZeroContext: hunks without context (diff -U0) go where their
// numbers put them, and nowhere else; elsewhere they are refused, and a
// place holding their deleted lines is offered for review.
func TestRuleZeroContext(t *testing.T) {
	old := text("a", "b", "c", "b", "e", "f")
	hdr := text("--- a/f", "+++ b/f")
	tests := []struct {
		name, hunks string
		index       string      // the patch's index line, if any
		want        string      // the file after, "" when refused
		err         error       // the refusal's reason
		offered     int         // with an uncertain reading at this 1-based line, or 0
		trace       edit.RuleID // the rule that decided
	}{
		{name: "append at the end", hunks: text("@@ -6,0 +7,1 @@", "+g"), want: text("a", "b", "c", "b", "e", "f", "g"), trace: "zeroContext"},
		{name: "insert at the start", hunks: text("@@ -0,0 +1 @@", "+z"), want: text("z", "a", "b", "c", "b", "e", "f"), trace: "zeroContext"},
		{name: "insert after line 2", hunks: text("@@ -2,0 +3,2 @@", "+x", "+y"), want: text("a", "b", "x", "y", "c", "b", "e", "f"), trace: "zeroContext"},
		// "b" is at lines 2 and 4: the number chooses, no search.
		{name: "replace a common line by number", hunks: text("@@ -4 +4 @@", "-b", "+B"), want: text("a", "b", "c", "B", "e", "f"), trace: "zeroContext"},
		{name: "delete by number", hunks: text("@@ -2,2 +1,0 @@", "-b", "-c"), want: text("a", "b", "e", "f"), trace: "zeroContext"},
		{name: "two hunks", hunks: text("@@ -1 +1 @@", "-a", "+A", "@@ -6,0 +7 @@", "+g"), want: text("A", "b", "c", "b", "e", "f", "g"), trace: "zeroContext"},
		{name: "insert beyond the end", hunks: text("@@ -9,0 +10 @@", "+g"), err: edit.ErrNoMatch, trace: "zeroContext"},
		// "e" is at line 5 only: offered there, never applied.
		{name: "deleted line elsewhere", hunks: text("@@ -2 +2 @@", "-e", "+E"), err: edit.ErrNoMatch, offered: 5, trace: "zeroContext"},
		{name: "deleted line nowhere", hunks: text("@@ -2 +2 @@", "-q", "+Q"), err: edit.ErrNoMatch, trace: "zeroContext"},
		// "b" is at lines 2 and 4, as far from line 3 each: no offer.
		{name: "deleted line at two places as near", hunks: text("@@ -3 +3 @@", "-b", "+B"), err: edit.ErrNoMatch, trace: "zeroContext"},
		{name: "already applied", hunks: text("@@ -3 +3 @@", "-x", "+c"), err: edit.ErrAlreadyApplied, trace: "zeroContext"},
		// git's t4104: the index line says the file was empty, and it is
		// not: git pins the hunk to both ends, so it fits nowhere.
		{name: "first lines of an empty file, which is not", hunks: text("@@ -0,0 +1 @@", "+z"), index: "index e69de29..72943a1 100644", err: edit.ErrNoMatch, trace: "zeroContext"},
		{name: "insert at the start, index line of another blob", hunks: text("@@ -0,0 +1 @@", "+z"), index: "index 1234567..72943a1 100644", want: text("z", "a", "b", "c", "b", "e", "f"), trace: "zeroContext"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hdr := hdr
			if tt.index != "" {
				hdr = text("diff --git a/f b/f", tt.index) + hdr
			}
			rs, errs := edit.Place(old, onlyFile(t, hdr+tt.hunks))
			if tt.want != "" {
				if len(errs) > 0 {
					t.Fatalf("Place: got errors %v, want none", errs)
				}
				wantApplied(t, old, rs, tt.want)
				for _, r := range rs {
					if lastOf(r.Rules) != "onePlace" || r.Rules[0] != tt.trace || r.Label() != "exact" {
						t.Errorf("hunk %d: got trace %v label %s, want %s then onePlace, exact", r.Hunk+1, r.Rules, r.Label(), tt.trace)
					}
				}
				return
			}
			if len(errs) != 1 || len(rs) != 0 {
				t.Fatalf("Place: got %d errors %v and %d hunks placed, want one refusal\n%s", len(errs), errs, len(rs), describe(rs))
			}
			e := errs[0]
			if !errors.Is(e, tt.err) || lastRule(e) != tt.trace {
				t.Errorf("got %v by %v, want %v by %s", e, e.Rules, tt.err, tt.trace)
			}
			switch {
			case tt.offered == 0 && e.Interpreted != nil:
				t.Errorf("got a reading offered at line %d, want none", e.Interpreted.Start+1)
			case tt.offered > 0 && e.Interpreted == nil:
				t.Errorf("got no reading offered, want one at line %d", tt.offered)
			case tt.offered > 0:
				r := e.Interpreted
				if r.Pass != edit.PassUncertain || r.Start+1 != tt.offered || !strings.Contains(strings.Join(r.Notes, "\n"), "uncertain:") {
					t.Errorf("offered %s at line %d with notes %q, want uncertain at line %d", r.Pass, r.Start+1, r.Notes, tt.offered)
				}
			}
		})
	}
}

// TestRuleZeroContextNotHeaders: a hunk without context whose header's
// counts are not its lines' is no diff -U0 hunk, and is placed as
// before: by its content where it is unique, and refused when it only
// adds lines.
func TestRuleZeroContextNotHeaders(t *testing.T) {
	old := text("a", "b", "c")
	rs := mustPlace(t, old, text("--- a/f", "+++ b/f", "@@ -9,3 +9,3 @@", "-b", "+B"))
	wantApplied(t, old, rs, text("a", "B", "c"))
	refused(t, old, text("--- a/f", "+++ b/f", "@@ -1,3 +1,4 @@", "+x"), "hasContext")
}

package edit_test

import (
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// sideFive is t4108's side branch as a patch: line 5 of 1..7 becomes five.
const sideFive = `--- a/one
+++ b/one
@@ -2,6 +2,6 @@
 2
 3
 4
-5
+five
 6
 7
`

func TestConflictsWriteMarkers(t *testing.T) {
	base := "1\n2\n3\n4\n5\n6\n7\n"
	tests := []struct {
		name, now, want string
	}{
		{"changed line", "1\n2\n3\n4\nFIVE\n6\n7\n", "1\n2\n3\n4\n<<<<<<< ours\nFIVE\n=======\nfive\n>>>>>>> theirs\n6\n7\n"},
		{"deleted line", "1\n2\n3\n4\n6\n7\n", "1\n2\n3\n4\n<<<<<<< ours\n=======\nfive\n>>>>>>> theirs\n6\n7\n"},
		{"no final newline", "1\n2\n3\n4\nFIVE\n6\n7", "1\n2\n3\n4\n<<<<<<< ours\nFIVE\n=======\nfive\n>>>>>>> theirs\n6\n7"},
		{"crlf", "1\r\n2\r\n3\r\n4\r\nFIVE\r\n6\r\n7\r\n", "1\r\n2\r\n3\r\n4\r\n<<<<<<< ours\r\nFIVE\r\n=======\r\nfive\r\n>>>>>>> theirs\r\n6\r\n7\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := edit.PlanFile("one", "one", tt.now, onlyFile(t, sideFive))
			if len(p.Errors) != 1 {
				t.Fatalf("placed on the file: %d refused, want 1", len(p.Errors))
			}
			p.ThreeWay(edit.Seen{Start: 1, Text: base, Preimage: true})
			if n := p.Conflicts(base); n != 1 || len(p.Errors) != 0 || len(p.Hunks) != 1 {
				t.Fatalf("Conflicts = %d, %d placed, %d refused; want 1, 1, 0", n, len(p.Hunks), len(p.Errors))
			}
			h := p.Hunks[0]
			if h.Pass != edit.PassConflict || h.Label() != "conflict" || h.Guard != edit.ConflictGuard {
				t.Errorf("pass %s, guard %q; want conflict, guarded", h.Label(), h.Guard)
			}
			got, err := edit.Apply(tt.now, p.Hunks)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestThreeWayPreimageWording(t *testing.T) {
	base := "1\n2\n3\n4\n5\n6\n7\n"
	now := "1\n2\nthree\n4\n5\n6\n7\n"
	p := edit.PlanFile("one", "one", now, onlyFile(t, sideFive))
	if len(p.Errors) != 1 {
		t.Fatalf("placed on the file: %d refused, want 1", len(p.Errors))
	}
	p.ThreeWay(edit.Seen{Start: 1, Text: base, Preimage: true})
	if n := p.Conflicts(base); n != 0 || len(p.Hunks) != 1 {
		t.Fatalf("Conflicts = %d with %d placed; want a clean merge", n, len(p.Hunks))
	}
	notes := strings.Join(p.Hunks[0].Notes, "\n")
	if !strings.Contains(notes, "in the patch's preimage") || strings.Contains(notes, "model") {
		t.Errorf("notes %q: want them worded for the patch's preimage", notes)
	}
	got, _ := edit.Apply(now, p.Hunks)
	if want := "1\n2\nthree\n4\nfive\n6\n7\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestAddAdd(t *testing.T) {
	tests := []struct {
		name, ours, theirs string
		style              edit.ConflictStyle
		want               string // "" for a clean merge
	}{
		{"same content", "a\nb\n", "a\nb\n", edit.StyleMerge, ""},
		{"one line differs", "1\n2\n3\n4\n5\n", "1\n2\nthree\n4\n5\n", edit.StyleMerge,
			"1\n2\n<<<<<<< ours\n3\n=======\nthree\n>>>>>>> theirs\n4\n5\n"},
		{"two apart", "a\nb\nc\nd\ne\nf\ng\n", "a\nB\nc\nd\ne\nf\nG\n", edit.StyleMerge,
			"a\n<<<<<<< ours\nb\n=======\nB\n>>>>>>> theirs\nc\nd\ne\nf\n<<<<<<< ours\ng\n=======\nG\n>>>>>>> theirs\n"},
		{"three lines apart, joined", "a\nb\nc\nd\ne\nf\n", "a\nB\nc\nd\ne\nF\n", edit.StyleMerge,
			"a\n<<<<<<< ours\nb\nc\nd\ne\nf\n=======\nB\nc\nd\ne\nF\n>>>>>>> theirs\n"},
		{"lines added at the end", "a\nb\n", "a\nb\nc\n", edit.StyleMerge, "a\nb\n<<<<<<< ours\n=======\nc\n>>>>>>> theirs\n"},
		{"diff3", "1\n2\n3\n", "1\ntwo\n3\n", edit.StyleDiff3, "<<<<<<< ours\n1\n2\n3\n||||||| base\n=======\n1\ntwo\n3\n>>>>>>> theirs\n"},
		{"zdiff3", "1\n2\n3\n", "1\ntwo\n3\n", edit.StyleZdiff3, "1\n<<<<<<< ours\n2\n||||||| base\n=======\ntwo\n>>>>>>> theirs\n3\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ok := edit.AddAdd(tt.ours, tt.theirs, 0, tt.style)
			if !ok {
				if tt.want != "" {
					t.Fatalf("AddAdd gives no conflict; want\n%s", tt.want)
				}
				return
			}
			got, err := edit.Apply(tt.ours, []edit.Resolved{c})
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want || c.Pass != edit.PassConflict {
				t.Errorf("AddAdd writes (%v)\n%s\nwant\n%s", c.Pass, got, tt.want)
			}
		})
	}
}

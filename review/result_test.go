package review_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/review"
)

// TestFailedHunks checks that a hunk that cannot be placed is listed with
// its file and never offered as an item.
func TestFailedHunks(t *testing.T) {
	r := review.New(place(t, calcPatch+notesFailPatch+readmeFailPatch), nil)
	if got, want := state(r), "[1=.] 2=. 3=. 4=."; got != want {
		t.Fatalf("got state %q, want %q", got, want)
	}
	tests := []struct {
		path   string
		hunks  int
		failed []int // 0-based hunk indexes in the diff
	}{
		{"calc.go", 3, nil},
		{"notes.txt", 1, []int{1}},
		{"README.md", 0, []int{0}},
	}
	for i, tt := range tests {
		f := &r.Proposal.Files[i]
		if f.Path() != tt.path || len(f.Hunks) != tt.hunks {
			t.Errorf("file %d: got %s with %d hunks, want %s with %d", i, f.Path(), len(f.Hunks), tt.path, tt.hunks)
		}
		var failed []int
		for _, e := range f.Failed {
			failed = append(failed, e.Hunk)
			if !strings.Contains(e.Reason, "hunk does not match the file") {
				t.Errorf("%s: hunk %d: got reason %q, want it not to match", tt.path, e.Hunk, e.Reason)
			}
		}
		if !reflect.DeepEqual(failed, tt.failed) {
			t.Errorf("%s: got failed hunks %v, want %v", tt.path, failed, tt.failed)
		}
	}
	for _, it := range r.Items {
		if it.Whole || it.File == 2 {
			t.Errorf("item %s: got file %d, whole %v, want no item for a file whose hunks all failed", it.ID, it.File, it.Whole)
		}
	}
	if got := r.Search("Changelog"); got == nil {
		t.Errorf("Search for a failed hunk's line: got no error, want no match")
	}
	mustDo(t, r, "a", "y")
	if !r.Done() {
		t.Errorf("Done(): got false after deciding every placed hunk, want true")
	}
	want := map[string]string{"calc.go": calcNew, "notes.txt": "one\n2\nthree\n"}
	if got := results(t, r); !reflect.DeepEqual(got, want) {
		t.Errorf("results:\ngot  %q\nwant %q", got, want)
	}
}

func TestSummary(t *testing.T) {
	r := review.New(place(t, calcPatch+notesFailPatch+readmeFailPatch), nil)
	mustDo(t, r, "y", "s", "n:later")
	if got, want := state(r), "1=y 2.1=n [2.2=.] 3=. 4=."; got != want {
		t.Fatalf("got state %q, want %q", got, want)
	}
	mustDo(t, r, "g4")
	text, _ := r.EditText()
	if err := r.Edit(strings.Replace(text, "\n+", "\n+ ", 1)); err != nil {
		t.Fatalf("Edit: got error %v, want none", err)
	}
	mustDo(t, r, "y")
	if got, want := state(r), "1=y 2.1=n [2.2=.] 3=e 4=y"; got != want {
		t.Fatalf("got state %q, want %q", got, want)
	}
	want := []review.FileSummary{
		{Path: "calc.go", Approved: 1, Edited: 1, Rejected: 1, Undecided: 1},
		{Path: "notes.txt", Approved: 1, Failed: 1},
		{Path: "README.md", Failed: 1},
	}
	got := r.Summary()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Summary():\ngot  %+v\nwant %+v", got, want)
	}
	for i, applies := range []bool{true, true, false} {
		if i < len(got) && got[i].Applies() != applies {
			t.Errorf("%s: Applies(): got %v, want %v", got[i].Path, got[i].Applies(), applies)
		}
	}
	wantTotals := review.FileSummary{Approved: 2, Edited: 1, Rejected: 1, Undecided: 1, Failed: 2}
	if got := r.Totals(); got != wantTotals {
		t.Errorf("Totals(): got %+v, want %+v", got, wantTotals)
	}
	if (review.FileSummary{Edited: 1}).Applies() != true || (review.FileSummary{Rejected: 3, Undecided: 1}).Applies() != false {
		t.Errorf("FileSummary.Applies: got an edit not applied or a rejection applied")
	}
}

func TestSummaryEmptyAndFresh(t *testing.T) {
	r := fixture(t)
	want := []review.FileSummary{
		{Path: "calc.go", Undecided: 3},
		{Path: "util/strings.go", Undecided: 2},
		{Path: "README.md", Undecided: 1},
	}
	if got := r.Summary(); !reflect.DeepEqual(got, want) {
		t.Errorf("Summary():\ngot  %+v\nwant %+v", got, want)
	}
	if got, want := r.Totals(), (review.FileSummary{Undecided: 6}); got != want {
		t.Errorf("Totals(): got %+v, want %+v", got, want)
	}
	empty := review.New(review.Proposal{}, nil)
	if got := empty.Summary(); len(got) != 0 {
		t.Errorf("Summary() of an empty review: got %+v, want none", got)
	}
}

// TestPlansUnchanged checks that a file whose hunks are all approved as
// placed is written by the proposal's own plan.
func TestPlansUnchanged(t *testing.T) {
	r := fixture(t)
	mustDo(t, r, "a", "d", "a")
	plans, err := r.Plans()
	if err != nil {
		t.Fatalf("Plans(): got error %v, want none", err)
	}
	if len(plans) != 2 {
		t.Fatalf("Plans(): got %d plans, want 2 (calc.go, README.md)", len(plans))
	}
	for k, fi := range []int{0, 2} {
		p, f := plans[k], &r.Proposal.Files[fi]
		if p.Path() != f.Path() {
			t.Errorf("plan %d: got %s, want %s", k, p.Path(), f.Path())
			continue
		}
		if p.Diff != f.Diff {
			t.Errorf("%s: got a new diff, want the proposal's", p.Path())
		}
		if !reflect.DeepEqual(p.Hunks, f.Hunks) || p.Old != f.Old || p.OldPath != f.OldPath || p.NewPath != f.NewPath {
			t.Errorf("%s: got plan %+v, want the proposal's file %+v", p.Path(), p, f)
		}
	}
	want := map[string]string{"calc.go": calcNew, "README.md": readmeNew}
	if got := results(t, r); !reflect.DeepEqual(got, want) {
		t.Errorf("results:\ngot  %q\nwant %q", got, want)
	}
}

// TestPlansPartial checks that a file with some of its hunks approved is
// written with exactly those.
func TestPlansPartial(t *testing.T) {
	tests := []struct {
		name string
		keys []string
		want map[string]string // path -> content; a missing file is not written
	}{
		{
			name: "every other hunk",
			keys: []string{"y", "n", "y", "n", "y", "n"},
			want: map[string]string{
				"calc.go":         with(t, calcOld, change1, change3),
				"util/strings.go": with(t, stringsOld, change5),
			},
		},
		{
			name: "only the middle hunk of a file",
			keys: []string{"n", "y", "n", "a", "n"},
			want: map[string]string{
				"calc.go":         with(t, calcOld, change2a, change2b),
				"util/strings.go": stringsNew,
			},
		},
		{
			name: "the last hunk of each file",
			keys: []string{"n", "n", "y", "n", "y", "y"},
			want: map[string]string{
				"calc.go":         with(t, calcOld, change3),
				"util/strings.go": with(t, stringsOld, change5),
				"README.md":       readmeNew,
			},
		},
		{
			name: "a piece of a split hunk, an undecided hunk not written",
			keys: []string{"J", "s", "n", "y", "y", "d", "y"},
			want: map[string]string{
				"calc.go":   with(t, calcOld, change2b, change3),
				"README.md": readmeNew,
			},
		},
		{
			name: "quit after one",
			keys: []string{"y", "q"},
			want: map[string]string{"calc.go": with(t, calcOld, change1)},
		},
		{
			name: "nothing approved",
			keys: []string{"d", "d", "d"},
			want: map[string]string{},
		},
		{
			name: "nothing decided",
			want: map[string]string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := fixture(t)
			mustDo(t, r, tt.keys...)
			if got := results(t, r); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("results:\ngot  %q\nwant %q", got, tt.want)
			}
			plans, err := r.Plans()
			if err != nil {
				t.Fatalf("Plans(): got error %v, want none", err)
			}
			for _, p := range plans {
				fi := fileIndex(t, r, p.Path())
				if p.Old != r.Proposal.Files[fi].Old {
					t.Errorf("%s: got a plan against other content, want the proposal's", p.Path())
				}
				if len(p.Errors) > 0 {
					t.Errorf("%s: got placement errors %v, want none", p.Path(), p.Errors)
				}
				want, err := edit.Apply(p.Old, r.Accepted(fi))
				if err != nil {
					t.Fatalf("%s: Apply(Accepted): got error %v, want none", p.Path(), err)
				}
				if got, _ := p.Result(nil); got != want {
					t.Errorf("%s: got result\n%s\nwant what the approved hunks give\n%s", p.Path(), got, want)
				}
			}
		})
	}
}

func fileIndex(t *testing.T, r *review.Review, path string) int {
	t.Helper()
	for i := range r.Proposal.Files {
		if r.Proposal.Files[i].Path() == path {
			return i
		}
	}
	t.Fatalf("no file %s in the proposal", path)
	return -1
}

func TestAccepted(t *testing.T) {
	r := fixture(t)
	mustDo(t, r, "g3", "y", "g2", "s", "y", "n", "g1", "y")
	var starts []int
	for _, h := range r.Accepted(0) {
		starts = append(starts, h.Start)
	}
	if want := []int{5, 22, 36}; !reflect.DeepEqual(starts, want) {
		t.Errorf("Accepted(0): got hunks at %v, want at %v (file order)", starts, want)
	}
	if got := r.Accepted(1); len(got) != 0 {
		t.Errorf("Accepted(1): got %d hunks, want none", len(got))
	}

	// A proposal is plain data: one whose hunks are out of order still
	// gives them in file order.
	p := mustPlace(t, calcPatch)
	slices.Reverse(p.Files[0].Hunks)
	r = review.New(p, nil)
	mustDo(t, r, "a")
	starts = nil
	for _, h := range r.Accepted(0) {
		starts = append(starts, h.Start)
	}
	if want := []int{5, 22, 36}; !reflect.DeepEqual(starts, want) {
		t.Errorf("Accepted(0) of hunks out of order: got hunks at %v, want at %v", starts, want)
	}
	if got := results(t, r)["calc.go"]; got != calcNew {
		t.Errorf("calc.go from hunks out of order:\ngot\n%s\nwant\n%s", got, calcNew)
	}
}

// TestPlansDeletion checks that a deletion is written whole or not at all.
func TestPlansDeletion(t *testing.T) {
	tests := []struct {
		keys []string
		want map[string]string
		err  string
	}{
		{keys: []string{"y", "y"}, want: map[string]string{"gone.txt": "<deleted>"}},
		{keys: []string{"a"}, want: map[string]string{"gone.txt": "<deleted>"}},
		{keys: []string{"n", "n"}, want: map[string]string{}},
		{keys: []string{"y", "n"}, err: "gone.txt: a deletion is all or nothing, but only some of its hunks were approved"},
		{keys: []string{"n", "y"}, err: "gone.txt: a deletion is all or nothing"},
		{keys: []string{"y"}, err: "gone.txt: a deletion is all or nothing"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.keys, ""), func(t *testing.T) {
			r := review.New(mustPlace(t, gonePatch), nil)
			if got := r.FileOf(r.Current()).Action(); got != "delete" {
				t.Fatalf("got action %q, want delete", got)
			}
			mustDo(t, r, tt.keys...)
			if tt.err != "" {
				plans, err := r.Plans()
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("Plans(): got %d plans, error %v, want error %q", len(plans), err, tt.err)
				}
				return
			}
			if got := results(t, r); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("results: got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestJSONRoundTrip saves a review half-way, after a split and an edit,
// and finishes it from the saved JSON: the result is the same as without
// the round trip.
func TestJSONRoundTrip(t *testing.T) {
	r1 := fixture(t)
	mustDo(t, r1, "y", "g2", "s", "n:keep the short comment", "g4")
	text, err := r1.EditText()
	if err != nil {
		t.Fatalf("EditText(): got error %v, want none", err)
	}
	if err := r1.Edit(with(t, text, change{"\n+\t\treturn\n", "\n+\t\treturn // nothing to print\n"})); err != nil {
		t.Fatalf("Edit: got error %v, want none", err)
	}
	if got, want := state(r1), "1=y 2.1=n 2.2=. 3=e [4=.] 5=. 6=."; got != want {
		t.Fatalf("before saving: got state %q, want %q", got, want)
	}

	data, err := json.Marshal(r1)
	if err != nil {
		t.Fatalf("json.Marshal: got error %v, want none", err)
	}
	var r2 review.Review
	if err := json.Unmarshal(data, &r2); err != nil {
		t.Fatalf("json.Unmarshal: got error %v, want none", err)
	}
	if got := snapshot(t, &r2); got != string(data) {
		t.Errorf("round trip:\ngot  %s\nwant %s", got, data)
	}
	if !reflect.DeepEqual(&r2, r1) {
		t.Errorf("round trip: got a review that differs from the saved one:\ngot  %+v\nwant %+v", &r2, r1)
	}

	finish := []string{"y", "d:later", "y", "y"}
	for _, r := range []*review.Review{r1, &r2} {
		mustDo(t, r, finish...)
		if got, want := state(r), "1=y 2.1=n [2.2=y] 3=e 4=y 5=n 6=y"; got != want {
			t.Errorf("finished: got state %q, want %q", got, want)
		}
		if got, want := notes(r), "2.1:keep the short comment 5:later"; got != want {
			t.Errorf("finished: got notes %q, want %q", got, want)
		}
	}
	want := map[string]string{
		"calc.go": with(t, calcOld, change1, change2b, change{"\tfmt.Println(\"div\", q, err)\n",
			"\tif err != nil {\n\t\tfmt.Println(\"div\", err)\n\t\treturn // nothing to print\n\t}\n\tfmt.Println(\"div\", q)\n"}),
		"util/strings.go": with(t, stringsOld, change4),
		"README.md":       readmeNew,
	}
	got1, got2 := results(t, r1), results(t, &r2)
	if !reflect.DeepEqual(got1, want) {
		t.Errorf("without the round trip:\ngot  %q\nwant %q", got1, want)
	}
	if !reflect.DeepEqual(got2, got1) {
		t.Errorf("after the round trip:\ngot  %q\nwant %q", got2, got1)
	}
}

// TestHunkRecord checks what the audit keeps of each item: the file's
// path, the 1-based first line (0 for a whole-file item), the hash of the
// hunk and the decision as it stands.
func TestHunkRecord(t *testing.T) {
	r := review.New(place(t, calcPatch), nil)
	mustDo(t, r, "y", "n")
	for i := range r.Items {
		it := &r.Items[i]
		want := audit.HunkRecord{Path: "calc.go", Start: it.Hunk.Start + 1, Hash: it.Hunk.Hash(), Decision: it.Decision}
		if got := r.HunkRecord(it); got != want {
			t.Errorf("item %s: HunkRecord = %+v, want %+v", it.ID, got, want)
		}
	}
	if got := []audit.Decision{r.HunkRecord(&r.Items[0]).Decision, r.HunkRecord(&r.Items[1]).Decision, r.HunkRecord(&r.Items[2]).Decision}; !slices.Equal(got, []audit.Decision{audit.Approved, audit.Rejected, audit.Undecided}) {
		t.Errorf("decisions = %v, want approved, rejected, undecided", got)
	}
	// The patch's first hunk is "@@ -6,7 +6,7 @@": it covers line 6 on.
	if got := r.HunkRecord(&r.Items[0]).Start; got != 6 {
		t.Errorf("first item starts at line %d, want 6", got)
	}

	w := review.New(mustPlace(t, renamePatch), nil)
	mustDo(t, w, "y")
	if got := w.HunkRecord(&w.Items[0]); !w.Items[0].Whole || got.Path != "docs/notes.txt" || got.Start != 0 || got.Decision != audit.Approved {
		t.Errorf("rename: HunkRecord = %+v, want docs/notes.txt:0 approved", got)
	}
}

// TestSummaryAlreadyApplied: a hunk whose result the file already holds
// is said as such in the summary, not as a hunk that could not be placed.
func TestSummaryAlreadyApplied(t *testing.T) {
	patch := calcPatch + "diff --git a/notes.txt b/notes.txt\n--- a/notes.txt\n+++ b/notes.txt\n@@ -1,3 +1,3 @@\n one\n-deux\n+two\n three\n"
	r := review.New(place(t, patch), nil)
	var notes review.FileSummary
	for _, s := range r.Summary() {
		if s.Path == "notes.txt" {
			notes = s
		}
	}
	if notes.Failed != 1 || notes.Already != 1 {
		t.Fatalf("notes.txt summary: %+v, want 1 failed, already applied", notes)
	}
	if got, want := notes.Text(), "1 already in the file"; got != want {
		t.Errorf("summary text %q, want %q", got, want)
	}
	if tot := r.Totals(); tot.Already != 1 || tot.Failed != 1 {
		t.Errorf("totals %+v, want the already applied hunk counted once, as such", tot)
	}
}

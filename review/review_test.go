package review_test

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/edit/edittest"
	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/review"
)

func TestDecision(t *testing.T) {
	tests := []struct {
		d       audit.Decision
		applies bool
		str     string
	}{
		{audit.Undecided, false, "undecided"},
		{audit.Approved, true, "approved"},
		{audit.Rejected, false, "rejected"},
		{audit.Edited, true, "edited"},
	}
	for _, tt := range tests {
		if got := tt.d.Applies(); got != tt.applies {
			t.Errorf("%q.Applies(): got %v, want %v", tt.d, got, tt.applies)
		}
		if got := tt.d.String(); got != tt.str {
			t.Errorf("%q.String(): got %q, want %q", tt.d, got, tt.str)
		}
	}
}

func TestFromPlans(t *testing.T) {
	p := mustPlace(t, calcPatch+stringsPatch+readmePatch)
	if got, want := len(p.Files), 3; got != want {
		t.Fatalf("got %d files, want %d", got, want)
	}
	tests := []struct {
		path, action string
		hunks        int
		old          string
	}{
		{"calc.go", "modify", 3, calcOld},
		{"util/strings.go", "modify", 2, stringsOld},
		{"README.md", "modify", 1, readmeOld},
	}
	for i, tt := range tests {
		f := &p.Files[i]
		if got := f.Path(); got != tt.path {
			t.Errorf("file %d: got path %q, want %q", i, got, tt.path)
		}
		if got := f.Action(); got != tt.action {
			t.Errorf("%s: got action %q, want %q", tt.path, got, tt.action)
		}
		if got := len(f.Hunks); got != tt.hunks {
			t.Errorf("%s: got %d hunks, want %d", tt.path, got, tt.hunks)
		}
		if f.Old != tt.old {
			t.Errorf("%s: got old content\n%s\nwant\n%s", tt.path, f.Old, tt.old)
		}
		if f.Diff == nil || f.Diff.Path() != tt.path {
			t.Errorf("%s: got diff %+v, want the file's diff", tt.path, f.Diff)
		}
	}
}

func TestFileAction(t *testing.T) {
	tests := []struct {
		old, new   string
		action     string
		path       string
		wantAction string
	}{
		{"a.go", "a.go", "", "a.go", "modify"},
		{"", "a.go", "", "a.go", "create"},
		{"a.go", "", "", "a.go", "delete"},
		{"a.go", "b.go", "", "b.go", "rename"},
	}
	for _, tt := range tests {
		f := review.File{OldPath: tt.old, NewPath: tt.new}
		if got := f.Action(); got != tt.wantAction {
			t.Errorf("File{%q, %q}.Action(): got %q, want %q", tt.old, tt.new, got, tt.wantAction)
		}
		if got := f.Path(); got != tt.path {
			t.Errorf("File{%q, %q}.Path(): got %q, want %q", tt.old, tt.new, got, tt.path)
		}
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		name   string
		grants []string
		want   string
		done   bool
	}{
		{"no grants", nil, "[1=.] 2=. 3=. 4=. 5=. 6=.", false},
		{"grant of another path", []string{"other.go", "util"}, "[1=.] 2=. 3=. 4=. 5=. 6=.", false},
		{"grant of the middle file", []string{"util/strings.go"}, "[1=.] 2=. 3=. 4=g 5=g 6=.", false},
		{"grant of the first file", []string{"calc.go"}, "1=g 2=g 3=g [4=.] 5=. 6=.", false},
		{"grants of the first two files", []string{"calc.go", "util/strings.go"}, "1=g 2=g 3=g 4=g 5=g [6=.]", false},
		{"grants of every file", []string{"README.md", "calc.go", "util/strings.go"}, "[1=g] 2=g 3=g 4=g 5=g 6=g", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			grants := slices.Clone(tt.grants)
			r := review.New(mustPlace(t, calcPatch+stringsPatch+readmePatch), grants)
			if got := state(r); got != tt.want {
				t.Errorf("got state %q, want %q", got, tt.want)
			}
			if got := r.Done(); got != tt.done {
				t.Errorf("Done(): got %v, want %v", got, tt.done)
			}
			if !slices.Equal(r.Grants, tt.grants) {
				t.Errorf("got grants %q, want %q", r.Grants, tt.grants)
			}
			if len(grants) > 0 {
				grants[0] = "changed by the caller"
				if slices.Contains(r.Grants, "changed by the caller") {
					t.Errorf("got grants %q sharing the caller's slice, want a copy", r.Grants)
				}
			}
			for _, it := range r.Items {
				if it.Granted && it.Note != "" {
					t.Errorf("item %s: got note %q on a granted item, want none", it.ID, it.Note)
				}
			}
		})
	}
}

func TestEmptyReview(t *testing.T) {
	r := review.New(review.Proposal{}, nil)
	if r.Current() != nil {
		t.Errorf("Current(): got %+v, want nil", r.Current())
	}
	if !r.Done() {
		t.Errorf("Done(): got false, want true")
	}
	if got := r.Undecided(); got != 0 {
		t.Errorf("Undecided(): got %d, want 0", got)
	}
	if n, total := r.Position(); n != 1 || total != 0 {
		t.Errorf("Position(): got %d, %d, want 1, 0", n, total)
	}
	if r.CanSplit() || r.CanEdit() {
		t.Errorf("CanSplit, CanEdit: got %v, %v, want false, false", r.CanSplit(), r.CanEdit())
	}
	for _, key := range []string{"y", "n", "a", "d", "A", "s"} {
		if err := do(r, key); !errors.Is(err, review.ErrNoItem) {
			t.Errorf("key %q: got error %v, want ErrNoItem", key, err)
		}
	}
	if _, err := r.EditText(); !errors.Is(err, review.ErrNoItem) {
		t.Errorf("EditText: got error %v, want ErrNoItem", err)
	}
	if err := r.Edit("+x\n"); !errors.Is(err, review.ErrNoItem) {
		t.Errorf("Edit: got error %v, want ErrNoItem", err)
	}
	for _, key := range []string{"j", "k", "J", "K", "g1"} {
		if err := do(r, key); !errors.Is(err, review.ErrNoOther) {
			t.Errorf("key %q: got error %v, want ErrNoOther", key, err)
		}
	}
	if err := r.Search("x"); !errors.Is(err, review.ErrNoMatch) {
		t.Errorf("Search: got error %v, want ErrNoMatch", err)
	}
	plans, err := r.Plans()
	if err != nil || len(plans) != 0 {
		t.Errorf("Plans(): got %d plans, error %v, want none", len(plans), err)
	}
	r.QuitReview()
	if !r.Quit {
		t.Errorf("QuitReview: got Quit false, want true")
	}
}

// TestKeys checks the decision keys: what each decides, the notes, and
// where the cursor goes next.
func TestKeys(t *testing.T) {
	tests := []struct {
		name   string
		keys   []string
		want   string // state after the keys
		notes  string
		grants []string
		quit   bool
	}{
		{
			name: "y approves and moves on",
			keys: []string{"y"},
			want: "1=y [2=.] 3=. 4=. 5=. 6=.",
		},
		{
			name: "n rejects without a note",
			keys: []string{"n"},
			want: "1=n [2=.] 3=. 4=. 5=. 6=.",
		},
		{
			name:  "n rejects with a note, trimmed",
			keys:  []string{"n:  keep the old message \n"},
			want:  "1=n [2=.] 3=. 4=. 5=. 6=.",
			notes: "1:keep the old message",
		},
		{
			name: "n with a blank note has none",
			keys: []string{"n: \t "},
			want: "1=n [2=.] 3=. 4=. 5=. 6=.",
		},
		{
			name: "y after n drops the note",
			keys: []string{"n:no", "K", "y"},
			want: "1=y [2=.] 3=. 4=. 5=. 6=.",
		},
		{
			name:  "n after y",
			keys:  []string{"y", "K", "n:on second thought"},
			want:  "1=n [2=.] 3=. 4=. 5=. 6=.",
			notes: "1:on second thought",
		},
		{
			name: "a approves the rest of the first file",
			keys: []string{"a"},
			want: "1=y 2=y 3=y [4=.] 5=. 6=.",
		},
		{
			name:  "d rejects the rest of the first file, a note on each",
			keys:  []string{"d:not calc"},
			want:  "1=n 2=n 3=n [4=.] 5=. 6=.",
			notes: "1:not calc 2:not calc 3:not calc",
		},
		{
			name: "a on the last hunk of a file leaves the next file",
			keys: []string{"g3", "a"},
			want: "1=. 2=. 3=y [4=.] 5=. 6=.",
		},
		{
			name:  "d on the last hunk of a file leaves the next file",
			keys:  []string{"g3", "d:no"},
			want:  "1=. 2=. 3=n [4=.] 5=. 6=.",
			notes: "3:no",
		},
		{
			name: "a on a middle hunk leaves the earlier ones of the file",
			keys: []string{"g2", "a"},
			want: "1=. 2=y 3=y [4=.] 5=. 6=.",
		},
		{
			name:  "d on the last hunk of the second file leaves its first",
			keys:  []string{"g5", "d:no"},
			want:  "1=. 2=. 3=. 4=. 5=n [6=.]",
			notes: "5:no",
		},
		{
			name:  "d on the first hunk of the second file, first file undecided",
			keys:  []string{"g4", "d:later"},
			want:  "1=. 2=. 3=. 4=n 5=n [6=.]",
			notes: "4:later 5:later",
		},
		{
			name: "a keeps a later hunk of the file that was decided",
			keys: []string{"g5", "n", "g4", "a"},
			want: "1=. 2=. 3=. 4=y 5=n [6=.]",
		},
		{
			name:  "d keeps a later hunk of the file that was decided",
			keys:  []string{"g3", "y", "g1", "d:x"},
			want:  "1=n 2=n 3=y [4=.] 5=. 6=.",
			notes: "1:x 2:x",
		},
		{
			name: "a on the only hunk of the last file wraps to the first undecided",
			keys: []string{"g6", "a"},
			want: "[1=.] 2=. 3=. 4=. 5=. 6=y",
		},
		{
			name: "the cursor skips decided items",
			keys: []string{"g3", "y", "g2", "y"},
			want: "1=. 2=y 3=y [4=.] 5=. 6=.",
		},
		{
			name: "the cursor wraps to the first undecided",
			keys: []string{"g2", "y", "y", "y", "y", "y"},
			want: "[1=.] 2=y 3=y 4=y 5=y 6=y",
		},
		{
			name: "the cursor wraps past decided items",
			keys: []string{"y", "y", "g6", "y"},
			want: "1=y 2=y [3=.] 4=. 5=. 6=y",
		},
		{
			name: "the cursor stays on the last decision when all are done",
			keys: []string{"a", "a", "a"},
			want: "1=y 2=y 3=y 4=y 5=y [6=y]",
		},
		{
			name:   "A approves the rest of the file and grants it",
			keys:   []string{"g4", "A"},
			want:   "1=. 2=. 3=. 4=y 5=y [6=.]",
			grants: []string{"util/strings.go"},
		},
		{
			name:   "A on the last hunk of a file",
			keys:   []string{"g3", "A"},
			want:   "1=. 2=. 3=y [4=.] 5=. 6=.",
			grants: []string{"calc.go"},
		},
		{
			name:   "A twice on one file grants it once",
			keys:   []string{"g4", "A", "g5", "A"},
			want:   "1=. 2=. 3=. 4=y 5=y [6=.]",
			grants: []string{"util/strings.go"},
		},
		{
			name:   "A on two files",
			keys:   []string{"g6", "A", "A"},
			want:   "1=y 2=y 3=y [4=.] 5=. 6=y",
			grants: []string{"README.md", "calc.go"},
		},
		{
			name:  "q half-way rejects the rest and keeps earlier decisions",
			keys:  []string{"y", "n:no", "q"},
			want:  "1=y 2=n [3=n] 4=n 5=n 6=n",
			notes: "2:no",
			quit:  true,
		},
		{
			name: "q keeps decisions after the cursor",
			keys: []string{"g5", "y", "g2", "q"},
			want: "1=n [2=n] 3=n 4=n 5=y 6=n",
			quit: true,
		},
		{
			name: "q at the start rejects everything",
			keys: []string{"q"},
			want: "[1=n] 2=n 3=n 4=n 5=n 6=n",
			quit: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := fixture(t)
			mustDo(t, r, tt.keys...)
			if got := state(r); got != tt.want {
				t.Errorf("got state %q, want %q", got, tt.want)
			}
			if got := notes(r); got != tt.notes {
				t.Errorf("got notes %q, want %q", got, tt.notes)
			}
			if !slices.Equal(r.Grants, tt.grants) {
				t.Errorf("got grants %q, want %q", r.Grants, tt.grants)
			}
			if r.Quit != tt.quit {
				t.Errorf("got Quit %v, want %v", r.Quit, tt.quit)
			}
			undecided := strings.Count(tt.want, "=.")
			if got := r.Undecided(); got != undecided {
				t.Errorf("Undecided(): got %d, want %d", got, undecided)
			}
			if got := r.Done(); got != (undecided == 0) {
				t.Errorf("Done(): got %v, want %v", got, undecided == 0)
			}
			for _, it := range r.Items {
				if it.Granted {
					t.Errorf("item %s: got Granted, want an answer in this review not marked as granted", it.ID)
				}
			}
		})
	}
}

// TestAlwaysApproveAcrossFiles checks that A grants one file's path for
// the session: the next proposal approves its hunks at once, and no other
// file's.
func TestAlwaysApproveAcrossFiles(t *testing.T) {
	r := fixture(t)
	mustDo(t, r, "y", "n", "g4", "A")
	if got, want := state(r), "1=y 2=n 3=. 4=y 5=y [6=.]"; got != want {
		t.Fatalf("after A: got state %q, want %q", got, want)
	}
	if got, want := r.Grants, []string{"util/strings.go"}; !slices.Equal(got, want) {
		t.Fatalf("after A: got grants %q, want %q", got, want)
	}
	if got := item(t, r, "6").Decision; got != audit.Undecided {
		t.Errorf("README.md after A on util/strings.go: got %v, want undecided", got)
	}

	// The next proposal of the session: the granted file comes first now.
	next := review.New(mustPlace(t, stringsPatch+calcPatch+readmePatch), r.Grants)
	if got, want := state(next), "1=g 2=g [3=.] 4=. 5=. 6=."; got != want {
		t.Errorf("next review: got state %q, want %q", got, want)
	}
	for _, it := range next.Items {
		path := next.FileOf(&it).Path()
		if got, want := it.Granted, path == "util/strings.go"; got != want {
			t.Errorf("next review, item %s of %s: got Granted %v, want %v", it.ID, path, got, want)
		}
	}
	mustDo(t, next, "d", "n")
	if got, want := results(t, next), map[string]string{"util/strings.go": stringsNew}; !reflect.DeepEqual(got, want) {
		t.Errorf("next review: got results %q, want %q", got, want)
	}

	// A grant is taken back like any decision; the item is no longer
	// marked as granted.
	if err := next.Decide("1", audit.Rejected, "not this time"); err != nil {
		t.Fatalf("Decide: got error %v, want none", err)
	}
	if it := item(t, next, "1"); it.Granted || it.Decision != audit.Rejected {
		t.Errorf("granted item rejected: got %v, granted %v, want rejected, not granted", it.Decision, it.Granted)
	}
}

// TestMoves checks j, k, J, K and g: where the cursor goes, and that a
// move that cannot be made fails with ErrNoOther and leaves it.
func TestMoves(t *testing.T) {
	tests := []struct {
		name  string
		setup []string
		key   string
		want  string
		err   error
	}{
		{"j to the next", nil, "j", "1=. [2=.] 3=. 4=. 5=. 6=.", nil},
		{"j skips decided", []string{"J", "y", "g1"}, "j", "1=. 2=y [3=.] 4=. 5=. 6=.", nil},
		{"j skips a decided file", []string{"g2", "a", "g1"}, "j", "1=. 2=y 3=y [4=.] 5=. 6=.", nil},
		{"j at the last item", []string{"g6"}, "j", "1=. 2=. 3=. 4=. 5=. [6=.]", review.ErrNoOther},
		{"j does not wrap", []string{"g6", "y", "g5"}, "j", "1=. 2=. 3=. 4=. [5=.] 6=y", review.ErrNoOther},
		{"j from a decided item, only decided after", []string{"g6", "y", "g5", "y", "g5"}, "j", "1=. 2=. 3=. 4=. [5=y] 6=y", review.ErrNoOther},
		{"k to the previous", []string{"g3"}, "k", "1=. [2=.] 3=. 4=. 5=. 6=.", nil},
		{"k skips decided", []string{"J", "y"}, "k", "[1=.] 2=y 3=. 4=. 5=. 6=.", nil},
		{"k at the first item", nil, "k", "[1=.] 2=. 3=. 4=. 5=. 6=.", review.ErrNoOther},
		{"k with only decided before", []string{"y", "y"}, "k", "1=y 2=y [3=.] 4=. 5=. 6=.", review.ErrNoOther},
		{"J to a decided item", []string{"J", "y", "g1"}, "J", "1=. [2=y] 3=. 4=. 5=. 6=.", nil},
		{"J across files", []string{"g3"}, "J", "1=. 2=. 3=. [4=.] 5=. 6=.", nil},
		{"J at the last item", []string{"g6"}, "J", "1=. 2=. 3=. 4=. 5=. [6=.]", review.ErrNoOther},
		{"K to a decided item", []string{"y"}, "K", "[1=y] 2=. 3=. 4=. 5=. 6=.", nil},
		{"K at the first item", nil, "K", "[1=.] 2=. 3=. 4=. 5=. 6=.", review.ErrNoOther},
		{"g to the last", nil, "g6", "1=. 2=. 3=. 4=. 5=. [6=.]", nil},
		{"g to a decided item", []string{"y"}, "g1", "[1=y] 2=. 3=. 4=. 5=. 6=.", nil},
		{"g 0", []string{"g3"}, "g0", "1=. 2=. [3=.] 4=. 5=. 6=.", review.ErrNoOther},
		{"g past the end", []string{"g3"}, "g7", "1=. 2=. [3=.] 4=. 5=. 6=.", review.ErrNoOther},
		{"g negative", []string{"g3"}, "g-1", "1=. 2=. [3=.] 4=. 5=. 6=.", review.ErrNoOther},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := fixture(t)
			mustDo(t, r, tt.setup...)
			before := snapshot(t, r)
			err := do(r, tt.key)
			if !errors.Is(err, tt.err) || (err != nil) != (tt.err != nil) {
				t.Errorf("key %q: got error %v, want %v", tt.key, err, tt.err)
			}
			if got := state(r); got != tt.want {
				t.Errorf("key %q: got state %q, want %q", tt.key, got, tt.want)
			}
			if err != nil {
				if got := snapshot(t, r); got != before {
					t.Errorf("key %q failed but changed the review:\ngot  %s\nwant %s", tt.key, got, before)
				}
			}
		})
	}
}

func TestGotoMessageAndPosition(t *testing.T) {
	r := fixture(t)
	err := r.Goto(9)
	if got, want := err.Error(), "no such hunk: there are 6 hunks; 9 is not one of them"; got != want {
		t.Errorf("Goto(9): got error %q, want %q", got, want)
	}
	mustDo(t, r, "g4")
	if n, total := r.Position(); n != 4 || total != 6 {
		t.Errorf("Position() after g4: got %d of %d, want 4 of 6", n, total)
	}
	if got := r.Current().ID; got != "4" {
		t.Errorf("Current() after g4: got item %s, want 4", got)
	}
	if got := r.FileOf(r.Current()).Path(); got != "util/strings.go" {
		t.Errorf("FileOf(Current()) after g4: got %q, want util/strings.go", got)
	}
}

// TestSearch checks /: regular expressions over the lines of each item
// and its file's path, from after the cursor, wrapping around.
func TestSearch(t *testing.T) {
	tests := []struct {
		name    string
		setup   []string
		pattern string
		want    string
		err     error
	}{
		{"a path", nil, "README", "1=. 2=. 3=. 4=. 5=. [6=.]", nil},
		{"a path matched by two items takes the first", nil, `strings\.go$`, "1=. 2=. 3=. [4=.] 5=. 6=.", nil},
		{"the same path again takes the next", []string{"g4"}, `strings\.go$`, "1=. 2=. 3=. 4=. [5=.] 6=.", nil},
		{"the same path again wraps", []string{"g5"}, `strings\.go$`, "1=. 2=. 3=. [4=.] 5=. 6=.", nil},
		{"a removed line", nil, `print the results\.`, "1=. 2=. 3=. 4=. 5=. [6=.]", nil},
		{"an added line", nil, "a single space", "1=. 2=. 3=. 4=. [5=.] 6=.", nil},
		{"a context line", []string{"g4"}, `^\tif b == 0 \{$`, "1=. [2=.] 3=. 4=. 5=. 6=.", nil},
		{"starts after the cursor", nil, "ErrDivide", "1=. [2=.] 3=. 4=. 5=. 6=.", nil},
		{"wraps to the start", []string{"g3"}, "ErrDivide", "[1=.] 2=. 3=. 4=. 5=. 6=.", nil},
		{"wraps to the current item last", nil, "calc: divide", "[1=.] 2=. 3=. 4=. 5=. 6=.", nil},
		{"finds decided items", []string{"y"}, "calc: divide", "[1=y] 2=. 3=. 4=. 5=. 6=.", nil},
		{"the diff prefix is not part of the line", nil, `^\+`, "[1=.] 2=. 3=. 4=. 5=. 6=.", review.ErrNoMatch},
		{"no match", []string{"g2"}, "nowhere to be found", "1=. [2=.] 3=. 4=. 5=. 6=.", review.ErrNoMatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := fixture(t)
			mustDo(t, r, tt.setup...)
			err := r.Search(tt.pattern)
			if !errors.Is(err, tt.err) || (err != nil) != (tt.err != nil) {
				t.Errorf("Search(%q): got error %v, want %v", tt.pattern, err, tt.err)
			}
			if got := state(r); got != tt.want {
				t.Errorf("Search(%q): got state %q, want %q", tt.pattern, got, tt.want)
			}
		})
	}
}

func TestSearchBadPattern(t *testing.T) {
	r := fixture(t)
	mustDo(t, r, "g3")
	before := snapshot(t, r)
	err := r.Search("(unclosed")
	if err == nil || errors.Is(err, review.ErrNoMatch) || !strings.HasPrefix(err.Error(), "bad search pattern: ") {
		t.Errorf(`Search("(unclosed"): got error %v, want "bad search pattern: ..."`, err)
	}
	if got := snapshot(t, r); got != before {
		t.Errorf("a bad pattern changed the review:\ngot  %s\nwant %s", got, before)
	}
}

// TestDecide checks decisions by item id, wherever the cursor is.
func TestDecide(t *testing.T) {
	tests := []struct {
		name     string
		setup    []string
		id       string
		decision audit.Decision
		note     string
		want     string
		notes    string
		is       error // the error's reason, when it has a type
	}{
		{
			name: "approve the current item moves on",
			id:   "1", decision: audit.Approved,
			want: "1=y [2=.] 3=. 4=. 5=. 6=.",
		},
		{
			name: "reject another item keeps the cursor",
			id:   "4", decision: audit.Rejected, note: " too clever ",
			want:  "[1=.] 2=. 3=. 4=n 5=. 6=.",
			notes: "4:too clever",
		},
		{
			name:  "approve a rejected item drops its note",
			setup: []string{"n:no"},
			id:    "1", decision: audit.Approved,
			want: "1=y [2=.] 3=. 4=. 5=. 6=.",
		},
		{
			name:  "undecided takes a decision back",
			setup: []string{"y", "y"},
			id:    "1", decision: audit.Undecided,
			want: "1=. 2=y [3=.] 4=. 5=. 6=.",
		},
		{
			name:  "undecided on the current item keeps the cursor",
			setup: []string{"y", "K"},
			id:    "1", decision: audit.Undecided,
			want: "[1=.] 2=. 3=. 4=. 5=. 6=.",
		},
		{
			name:  "a split piece by its id",
			setup: []string{"g2", "s"},
			id:    "2.2", decision: audit.Rejected, note: "keep ErrDivide bare",
			want:  "1=. [2.1=.] 2.2=n 3=. 4=. 5=. 6=.",
			notes: "2.2:keep ErrDivide bare",
		},
		{
			name: "an unknown id",
			id:   "7", decision: audit.Approved,
			want: "[1=.] 2=. 3=. 4=. 5=. 6=.",
			is:   review.ErrNoOther,
		},
		{
			name:  "the id of a hunk that was split",
			setup: []string{"g2", "s"},
			id:    "2", decision: audit.Approved,
			want: "1=. [2.1=.] 2.2=. 3=. 4=. 5=. 6=.",
			is:   review.ErrNoOther,
		},
		{
			name: "edited on a hunk that was not edited",
			id:   "3", decision: audit.Edited,
			want: "[1=.] 2=. 3=. 4=. 5=. 6=.",
			is:   review.ErrBadDecision,
		},
		{
			name: "an unknown decision",
			id:   "1", decision: audit.Decision("maybe"),
			want: "[1=.] 2=. 3=. 4=. 5=. 6=.",
			is:   review.ErrBadDecision,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := fixture(t)
			mustDo(t, r, tt.setup...)
			before := snapshot(t, r)
			err := r.Decide(tt.id, tt.decision, tt.note)
			switch {
			case tt.is != nil:
				if !errors.Is(err, tt.is) {
					t.Errorf("Decide: got error %v, want %v", err, tt.is)
				}
			case err != nil:
				t.Errorf("Decide: got error %v, want none", err)
			}
			if got := state(r); got != tt.want {
				t.Errorf("got state %q, want %q", got, tt.want)
			}
			if got := notes(r); got != tt.notes {
				t.Errorf("got notes %q, want %q", got, tt.notes)
			}
			if err != nil {
				if got := snapshot(t, r); got != before {
					t.Errorf("a refused decision changed the review:\ngot  %s\nwant %s", got, before)
				}
			}
		})
	}
	t.Run("unknown id is ErrNoOther", func(t *testing.T) {
		r := fixture(t)
		if err := r.Decide("2.1", audit.Approved, ""); !errors.Is(err, review.ErrNoOther) {
			t.Errorf("Decide(2.1) before a split: got error %v, want ErrNoOther", err)
		}
	})
}

func TestSplitRefused(t *testing.T) {
	tests := []struct {
		name  string
		patch string
		setup []string
	}{
		{"a hunk with one run", calcPatch, nil},
		{"the last hunk of a file", calcPatch, []string{"g3"}},
		{"a piece of a split hunk", calcPatch, []string{"g2", "s"}},
		{"a rename", renamePatch, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := review.New(mustPlace(t, tt.patch), nil)
			mustDo(t, r, tt.setup...)
			if r.CanSplit() {
				t.Errorf("CanSplit(): got true, want false")
			}
			before := snapshot(t, r)
			if err := r.Split(); !errors.Is(err, review.ErrCannotSplit) {
				t.Errorf("Split(): got error %v, want ErrCannotSplit", err)
			}
			if got := snapshot(t, r); got != before {
				t.Errorf("a refused split changed the review:\ngot  %s\nwant %s", got, before)
			}
		})
	}
}

func TestSplit(t *testing.T) {
	r := fixture(t)
	mustDo(t, r, "y", "y", "K") // item 2 was approved: the split drops that
	if !r.CanSplit() {
		t.Fatalf("CanSplit() on item 2: got false, want true")
	}
	orig := r.Current().Hunk
	if err := r.Split(); err != nil {
		t.Fatalf("Split(): got error %v, want none", err)
	}
	if got, want := state(r), "1=y [2.1=.] 2.2=. 3=. 4=. 5=. 6=."; got != want {
		t.Errorf("after s: got state %q, want %q", got, want)
	}
	if n, total := r.Position(); n != 2 || total != 7 {
		t.Errorf("Position() after s: got %d of %d, want 2 of 7", n, total)
	}
	pieces := []struct {
		id, header, lines string
		start             int
	}{
		{
			id:     "2.1",
			header: "@@ -23,6 +23,6 @@ func Mul(a, b int) int {",
			start:  22,
			lines: " \treturn a * b\n" +
				" }\n" +
				" \n" +
				"-// Div returns a divided by b.\n" +
				"+// Div returns a divided by b, or ErrDivide when b is zero.\n" +
				" func Div(a, b int) (int, error) {\n" +
				" \tif b == 0 {\n",
		},
		{
			id:     "2.2",
			header: "@@ -27,6 +27,6 @@",
			start:  26,
			lines: " func Div(a, b int) (int, error) {\n" +
				" \tif b == 0 {\n" +
				"-\t\treturn 0, ErrDivide\n" +
				"+\t\treturn 0, fmt.Errorf(\"div %d: %w\", a, ErrDivide)\n" +
				" \t}\n" +
				" \treturn a / b, nil\n" +
				" }\n",
		},
	}
	for k, want := range pieces {
		it := &r.Items[1+k]
		if it.ID != want.id {
			t.Errorf("piece %d: got id %q, want %q", k+1, it.ID, want.id)
		}
		if it.File != 0 || it.Whole || it.Decision != audit.Undecided || it.Original != nil {
			t.Errorf("piece %s: got file %d, whole %v, %v, original %v, want file 0, a plain undecided hunk", it.ID, it.File, it.Whole, it.Decision, it.Original)
		}
		if it.Hunk.Start != want.start {
			t.Errorf("piece %s: got start %d, want %d", it.ID, it.Hunk.Start, want.start)
		}
		if it.Hunk.Hunk != orig.Hunk {
			t.Errorf("piece %s: got source hunk %d, want %d", it.ID, it.Hunk.Hunk, orig.Hunk)
		}
		if got := r.Header(it); got != want.header {
			t.Errorf("piece %s: got header %q, want %q", it.ID, got, want.header)
		}
		if got := edittest.Show(it.Hunk.Lines); got != want.lines {
			t.Errorf("piece %s: got lines\n%s\nwant\n%s", it.ID, got, want.lines)
		}
	}
	// Items after the split keep their ids and move by one.
	if err := r.Goto(4); err != nil || r.Current().ID != "3" {
		t.Errorf("Goto(4) after the split: got item %s, error %v, want item 3", r.Current().ID, err)
	}
}

// TestSplitThenGoBack splits a hunk, decides a piece, goes back with K to
// an earlier item, changes its decision, and checks what gets written.
func TestSplitThenGoBack(t *testing.T) {
	r := fixture(t)
	steps := []struct {
		key  string
		want string
	}{
		{"y", "1=y [2=.] 3=. 4=. 5=. 6=."},
		{"s", "1=y [2.1=.] 2.2=. 3=. 4=. 5=. 6=."},
		{"y", "1=y 2.1=y [2.2=.] 3=. 4=. 5=. 6=."},
		{"K", "1=y [2.1=y] 2.2=. 3=. 4=. 5=. 6=."},
		{"n:keep the short comment", "1=y 2.1=n [2.2=.] 3=. 4=. 5=. 6=."},
		{"K", "1=y [2.1=n] 2.2=. 3=. 4=. 5=. 6=."},
		{"K", "[1=y] 2.1=n 2.2=. 3=. 4=. 5=. 6=."},
		{"K", "[1=y] 2.1=n 2.2=. 3=. 4=. 5=. 6=."}, // fails: the first item
		{"n", "1=n 2.1=n [2.2=.] 3=. 4=. 5=. 6=."},
		{"y", "1=n 2.1=n 2.2=y [3=.] 4=. 5=. 6=."},
		{"a", "1=n 2.1=n 2.2=y 3=y [4=.] 5=. 6=."},
		{"d", "1=n 2.1=n 2.2=y 3=y 4=n 5=n [6=.]"},
		{"y", "1=n 2.1=n 2.2=y 3=y 4=n 5=n [6=y]"},
	}
	for i, s := range steps {
		err := do(r, s.key)
		if wantErr := i == 7; (err != nil) != wantErr {
			t.Fatalf("step %d, key %q: got error %v, want error %v", i+1, s.key, err, wantErr)
		}
		if got := state(r); got != s.want {
			t.Fatalf("step %d, key %q: got state %q, want %q", i+1, s.key, got, s.want)
		}
	}
	if got, want := notes(r), "2.1:keep the short comment"; got != want {
		t.Errorf("got notes %q, want %q", got, want)
	}
	want := map[string]string{
		"calc.go":   with(t, calcOld, change2b, change3),
		"README.md": readmeNew,
	}
	if got := results(t, r); !reflect.DeepEqual(got, want) {
		t.Errorf("results:\ngot  %q\nwant %q", got, want)
	}
}

// TestSplitPlans checks that the pieces of a split hunk that are approved,
// and only they, are written.
func TestSplitPlans(t *testing.T) {
	tests := []struct {
		name string
		keys []string // after "g2", "s": pieces 2.1 and 2.2, then 3
		want string   // calc.go, "" for not written
	}{
		{"first piece", []string{"y", "n", "n"}, with(t, calcOld, change2a)},
		{"second piece", []string{"n", "y", "n"}, with(t, calcOld, change2b)},
		{"both pieces", []string{"y", "y", "n"}, with(t, calcOld, change2a, change2b)},
		{"second piece and the next hunk", []string{"n", "y", "y"}, with(t, calcOld, change2b, change3)},
		{"no piece", []string{"n", "n", "n"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := review.New(mustPlace(t, calcPatch), nil)
			mustDo(t, r, "n", "s")
			mustDo(t, r, tt.keys...)
			if !r.Done() {
				t.Fatalf("got state %s, want every item decided", state(r))
			}
			got := results(t, r)
			want := map[string]string{}
			if tt.want != "" {
				want["calc.go"] = tt.want
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("results:\ngot  %q\nwant %q", got, want)
			}
			plans, err := r.Plans()
			if err != nil {
				t.Fatalf("Plans(): got error %v, want none", err)
			}
			for _, p := range plans {
				if p.Diff == r.Proposal.Files[0].Diff {
					t.Errorf("%s: got the proposal's diff for split hunks, want one rendered from them", p.Path())
				}
				if len(p.Errors) > 0 {
					t.Errorf("%s: got placement errors %v, want none", p.Path(), p.Errors)
				}
				direct, err := edit.Apply(calcOld, r.Accepted(0))
				if err != nil || direct != tt.want {
					t.Errorf("Apply(Accepted(0)): got %q, %v, want %q", direct, err, tt.want)
				}
			}
		})
	}
}

// Whole items: a file change with no lines to decide on.
const renamePatch = `diff --git a/notes.txt b/docs/notes.txt
similarity index 100%
rename from notes.txt
rename to docs/notes.txt
`

const modePatch = `diff --git a/notes.txt b/notes.txt
old mode 100644
new mode 100755
`

const emptyFilePatch = `diff --git a/empty.txt b/empty.txt
new file mode 100644
index 0000000..e69de29
`

func TestWholeItems(t *testing.T) {
	tests := []struct {
		name             string
		patch            string
		action, path     string
		oldPath, newPath string
		result           string
	}{
		{"rename", renamePatch, "rename", "docs/notes.txt", "notes.txt", "docs/notes.txt", notesOld},
		{"mode change", modePatch, "modify", "notes.txt", "notes.txt", "notes.txt", notesOld},
		{"empty file created", emptyFilePatch, "create", "empty.txt", "", "empty.txt", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := review.New(mustPlace(t, tt.patch), nil)
			if got, want := state(r), "[1=.]"; got != want {
				t.Fatalf("got state %q, want %q", got, want)
			}
			it := r.Current()
			if !it.Whole {
				t.Errorf("got Whole false, want true")
			}
			if got := r.FileOf(it).Action(); got != tt.action {
				t.Errorf("got action %q, want %q", got, tt.action)
			}
			if got := r.FileOf(it).Path(); got != tt.path {
				t.Errorf("got path %q, want %q", got, tt.path)
			}
			if r.CanSplit() || r.CanEdit() {
				t.Errorf("CanSplit, CanEdit: got %v, %v, want false, false", r.CanSplit(), r.CanEdit())
			}
			if err := r.Split(); !errors.Is(err, review.ErrCannotSplit) {
				t.Errorf("Split(): got error %v, want ErrCannotSplit", err)
			}
			if _, err := r.EditText(); !errors.Is(err, review.ErrCannotEdit) {
				t.Errorf("EditText(): got error %v, want ErrCannotEdit", err)
			}
			if err := r.Edit("+x\n"); !errors.Is(err, review.ErrCannotEdit) {
				t.Errorf("Edit(): got error %v, want ErrCannotEdit", err)
			}
			if err := r.Search(regexpQuote(tt.path)); err != nil {
				t.Errorf("Search for the path: got error %v, want none", err)
			}

			// Rejected, nothing is written.
			mustDo(t, r, "n")
			if plans, err := r.Plans(); err != nil || len(plans) != 0 {
				t.Errorf("rejected: got %d plans, error %v, want none", len(plans), err)
			}

			// Approved, the file change is written as proposed.
			mustDo(t, r, "y")
			plans, err := r.Plans()
			if err != nil || len(plans) != 1 {
				t.Fatalf("approved: got %d plans, error %v, want one", len(plans), err)
			}
			p := plans[0]
			if p.OldPath != tt.oldPath || p.NewPath != tt.newPath {
				t.Errorf("approved: got paths %q -> %q, want %q -> %q", p.OldPath, p.NewPath, tt.oldPath, tt.newPath)
			}
			if p.Diff != r.Proposal.Files[0].Diff {
				t.Errorf("approved: got a new diff, want the proposal's")
			}
			if got, err := p.Result(nil); err != nil || got != tt.result {
				t.Errorf("approved: got result %q, %v, want %q", got, err, tt.result)
			}
			if got, want := r.Totals(), (review.FileSummary{Approved: 1}); got != want {
				t.Errorf("Totals(): got %+v, want %+v", got, want)
			}
		})
	}
}

func TestRenameDiffHeaders(t *testing.T) {
	r := review.New(mustPlace(t, renamePatch), nil)
	mustDo(t, r, "y")
	plans, err := r.Plans()
	if err != nil || len(plans) != 1 {
		t.Fatalf("Plans(): got %d plans, error %v, want one", len(plans), err)
	}
	if d := plans[0].Diff; !d.Renamed || d.OldPath != "notes.txt" || d.NewPath != "docs/notes.txt" {
		t.Errorf("got diff renamed %v, %q -> %q, want a rename of notes.txt to docs/notes.txt", d.Renamed, d.OldPath, d.NewPath)
	}
}

func regexpQuote(s string) string {
	return strings.NewReplacer(".", `\.`).Replace(s)
}

// TestGuardedNotGranted: a grant approves its file's hunks at once, but
// not a guarded one (a deletion that would lose work): a person decides.
func TestGuardedNotGranted(t *testing.T) {
	p := mustPlace(t, calcPatch)
	p.Files[0].Hunks[1].Guard = "deleting it would lose 1 uncommitted line (line 4)"
	r := review.New(p, []string{"calc.go"})
	for i, it := range r.Items {
		want := audit.Approved
		if i == 1 {
			want = audit.Undecided
		}
		if it.Decision != want {
			t.Errorf("item %s: got %q, want %q", it.ID, it.Decision, want)
		}
	}
	if r.Cursor != 1 {
		t.Errorf("cursor on item %d, want 1 (the guarded one)", r.Cursor)
	}
}

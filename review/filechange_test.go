package review_test

import (
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/review"
)

// TestFileChangesWithoutLines: a rename, a copy and a mode change without
// lines are each an item, described in one line, and the audit records
// each with a hash of what it does, so that two such changes differ.
func TestFileChangesWithoutLines(t *testing.T) {
	plans := []*edit.FilePlan{
		{OldPath: "a", NewPath: "b", Old: "x\n", Diff: &edit.FileDiff{OldPath: "a", NewPath: "b", Renamed: true}},
		{OldPath: "a", NewPath: "c", Old: "x\n", Diff: &edit.FileDiff{OldPath: "a", NewPath: "c", Copied: true}},
		{OldPath: "run.sh", NewPath: "run.sh", Old: "x\n", Diff: &edit.FileDiff{OldPath: "run.sh", NewPath: "run.sh", OldMode: "100644", NewMode: "100755"}},
		{OldPath: "d", NewPath: "e", Old: "y\n", Diff: &edit.FileDiff{OldPath: "d", NewPath: "e", Renamed: true, OldMode: "100644", NewMode: "100755"}},
	}
	r := review.New(review.FromPlans(plans), nil)
	if len(r.Items) != len(plans) {
		t.Fatalf("got %d items, want %d", len(r.Items), len(plans))
	}
	wantChanges := []string{"renamed from a", "copied from a", "mode 100644 → 100755", "renamed from d, mode 100644 → 100755"}
	wantAction := []string{"rename", "copy", "modify", "rename"}
	seen := map[string]bool{}
	for i := range r.Items {
		it := &r.Items[i]
		if !it.Whole {
			t.Errorf("item %d is not the file change itself", i+1)
		}
		f := r.FileOf(it)
		if got := f.Action(); got != wantAction[i] {
			t.Errorf("item %d: Action() = %q, want %q", i+1, got, wantAction[i])
		}
		if got := strings.Join(f.Changes(), ", "); got != wantChanges[i] {
			t.Errorf("item %d: Changes() = %q, want %q", i+1, got, wantChanges[i])
		}
		h := r.HunkRecord(it)
		if h.Start != 0 || len(h.Hash) != 12 {
			t.Errorf("item %d: record %+v, want start 0 and a 12-digit hash", i+1, h)
		}
		if seen[h.Hash] {
			t.Errorf("item %d: hash %s is another item's", i+1, h.Hash)
		}
		seen[h.Hash] = true
	}
	if got := review.FileReportOf(plans[1]).Action; got != review.ActionCopy {
		t.Errorf("FileReportOf(a copy).Action = %q, want %q", got, review.ActionCopy)
	}
}

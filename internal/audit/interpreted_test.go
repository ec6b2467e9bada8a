package audit_test

import (
	"testing"

	"github.com/pair-cli/pair/internal/audit"
)

func TestHunkRecordInterpreted(t *testing.T) {
	tests := []struct {
		value string
		want  audit.HunkRecord
	}{
		{"a b.go:12 0123456789ab approved", audit.HunkRecord{Path: "a b.go", Start: 12, Hash: "0123456789ab", Decision: audit.Approved}},
		{"a.c:3 0123456789ab approved interpreted", audit.HunkRecord{Path: "a.c", Start: 3, Hash: "0123456789ab", Decision: audit.Approved, Interpreted: true}},
		{"interpreted:3 0123456789ab rejected", audit.HunkRecord{Path: "interpreted", Start: 3, Hash: "0123456789ab", Decision: audit.Rejected}},
		{"m.py:40 0123456789ab edited uncertain", audit.HunkRecord{Path: "m.py", Start: 40, Hash: "0123456789ab", Decision: audit.Edited, Uncertain: true}},
		{"uncertain:3 0123456789ab approved", audit.HunkRecord{Path: "uncertain", Start: 3, Hash: "0123456789ab", Decision: audit.Approved}},
	}
	for _, tt := range tests {
		got, err := audit.ParseHunkRecord(tt.value)
		if err != nil {
			t.Fatalf("ParseHunkRecord(%q): got error %v", tt.value, err)
		}
		if got != tt.want {
			t.Errorf("ParseHunkRecord(%q): got %+v, want %+v", tt.value, got, tt.want)
		}
		if s := got.String(); s != tt.value {
			t.Errorf("String: got %q, want %q", s, tt.value)
		}
	}
}

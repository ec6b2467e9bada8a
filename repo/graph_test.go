package repo_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/repo"
)

// TestApplySectionsAfterReview: a file's sections apply one after
// another; when the person rejects an earlier section, a later one is
// placed again on what is left, and refused when it needs what was
// rejected (it changes a file that section created).
func TestApplySectionsAfterReview(t *testing.T) {
	t.Parallel()
	twoParts := lines(
		"--- a/f.txt", "+++ b/f.txt", "@@ -1,2 +1,2 @@", "-one", "+ONE", " two",
		"--- a/f.txt", "+++ b/f.txt", "@@ -4,2 +4,2 @@", " four", "-five", "+FIVE",
	)
	createModify := lines(
		"--- /dev/null", "+++ b/n.txt", "@@ -0,0 +1,2 @@", "+a", "+b",
		"--- a/n.txt", "+++ b/n.txt", "@@ -1,2 +1,2 @@", " a", "-b", "+B",
	)
	tests := []struct {
		name  string
		patch string
		keep  []int  // the plans approved
		want  string // f.txt or n.txt afterwards ("" for none)
		err   error
	}{
		{"both sections", twoParts, []int{0, 1}, lines("ONE", "two", "three", "four", "FIVE"), nil},
		{"the first rejected", twoParts, []int{1}, lines("one", "two", "three", "four", "FIVE"), nil},
		{"the second rejected", twoParts, []int{0}, lines("ONE", "two", "three", "four", "five"), nil},
		{"create and modify", createModify, []int{0, 1}, lines("a", "B"), nil},
		{"the creation rejected", createModify, []int{1}, "", repo.ErrChanged},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			writeFiles(t, root, texts(map[string]string{"f.txt": fiveLines}))
			tr := openTree(t, root)
			p, err := edit.Parse(tc.patch)
			if err != nil {
				t.Fatal(err)
			}
			plans, err := tr.Place(p)
			if err != nil {
				t.Fatalf("Place: %v", err)
			}
			var kept []*edit.FilePlan
			for _, i := range tc.keep {
				kept = append(kept, plans[i])
			}
			_, err = tr.ApplyPlans(kept, repo.ApplyOptions{})
			if !errors.Is(err, tc.err) || (err != nil) != (tc.err != nil) {
				t.Fatalf("ApplyPlans: %v, want %v", err, tc.err)
			}
			name := "f.txt"
			if tc.patch == createModify {
				name = "n.txt"
			}
			b, rerr := os.ReadFile(filepath.Join(root, name))
			if tc.want == "" {
				if rerr == nil {
					t.Errorf("%s written: %q", name, b)
				}
				return
			}
			if string(b) != tc.want {
				t.Errorf("%s = %q, want %q", name, b, tc.want)
			}
		})
	}
}

package review_test

import (
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/review"
)

// placeOn places patch against the contents old (by path).
func placeOn(t *testing.T, patch string, old map[string]string) review.Proposal {
	t.Helper()
	p, err := edit.Parse(patch)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	in := make([]edit.PlanInput, 0, len(p.Files))
	for _, fd := range p.Files {
		in = append(in, edit.PlanInput{OldPath: fd.OldPath, NewPath: fd.NewPath, Old: old[fd.OldPath], Diff: fd})
	}
	return review.FromPlans(edit.PlanFiles(in))
}

const (
	linkPatch = "diff --git a/docs/x b/docs/x\nindex 1856dae..975fbec 120000\n--- a/docs/x\n+++ b/docs/x\n@@ -1 +1 @@\n-../z\n\\ No newline at end of file\n+../y\n\\ No newline at end of file\n"
	newLink   = "diff --git a/l b/l\nnew file mode 120000\nindex 0000000..1de5659\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+target\n\\ No newline at end of file\n"
	goneLink  = "diff --git a/g b/g\ndeleted file mode 120000\nindex 1de5659..0000000\n--- a/g\n+++ /dev/null\n@@ -1 +0,0 @@\n-target\n\\ No newline at end of file\n"
	submodule = "diff --git a/lib/dep b/lib/dep\nindex 1a2b3c4..5d6e7f8 160000\n--- a/lib/dep\n+++ b/lib/dep\n@@ -1 +1 @@\n-Subproject commit 1a2b3c4d5e6f1a2b3c4d5e6f1a2b3c4d5e6f1a2b\n+Subproject commit 5d6e7f85d6e7f85d6e7f85d6e7f85d6e7f85d6e7\n"
	newSub    = "diff --git a/s b/s\nnew file mode 160000\nindex 0000000..5d6e7f8\n--- /dev/null\n+++ b/s\n@@ -0,0 +1 @@\n+Subproject commit 5d6e7f85d6e7f85d6e7f85d6e7f85d6e7f85d6e7\n"
	// git diff --binary of a created 5-byte file 00 01 02 03 04.
	newBinary = "diff --git a/logo.bin b/logo.bin\nnew file mode 100644\nindex 0000000000000000000000000000000000000000..85025d98693fe77b700bcf818dfd8fcd13c4e961\nGIT binary patch\nliteral 5\nMcmZQzWMXCk000>P3jhEB\n\nliteral 0\nHcmV?d00001\n\n"
)

func TestSpecialItems(t *testing.T) {
	p := placeOn(t, linkPatch+newLink+goneLink+submodule+newSub+newBinary, map[string]string{
		"docs/x": "../z", "g": "target", "lib/dep": "Subproject commit 1a2b3c4d5e6f1a2b3c4d5e6f1a2b3c4d5e6f1a2b\n",
	})
	// A grant covers edits of text a person saw, not what a link, a
	// submodule or a binary file points at or holds.
	r := review.New(p, []string{"docs/x", "lib/dep", "logo.bin"})
	want := []string{
		"link docs/x -> ../y (was ../z)",
		"link l -> target",
		"delete link g (-> target)",
		"submodule lib/dep: 1a2b3c4 → 5d6e7f8",
		"new submodule s at 5d6e7f8",
		"new binary file logo.bin: 5 B",
	}
	if len(r.Items) != len(want) {
		t.Fatalf("got %d items, want one per file, %d", len(r.Items), len(want))
	}
	hashes := map[string]bool{}
	for i := range r.Items {
		it := &r.Items[i]
		if !it.Whole || it.Granted || it.Decision != audit.Undecided {
			t.Errorf("item %d: got whole %v, granted %v, %v; want the file change as one undecided item", i, it.Whole, it.Granted, it.Decision)
		}
		reports := review.FileReports(r)
		if got := reports[i].Change; got != want[i] {
			t.Errorf("item %d: got %q, want %q", i, got, want[i])
		}
		r.Items[i].Decision = audit.Approved
		h := r.HunkRecord(it)
		if h.Start != 0 || len(h.Hash) != 12 || hashes[h.Hash] {
			t.Errorf("item %d: got record %+v, want start 0 and a hash of its own", i, h)
		}
		hashes[h.Hash] = true
	}
	if got := r.NotCovered(&r.Items[3]); !strings.Contains(got, "(submodule pointer)") {
		t.Errorf("NotCovered(the submodule): got %q, want it to name the submodule pointer", got)
	}
	plans, err := r.Plans()
	if err != nil || len(plans) != len(want) {
		t.Fatalf("Plans: got %d plans, %v; want %d", len(plans), err, len(want))
	}
	if got, err := plans[0].Result(nil); err != nil || got != "../y" {
		t.Errorf("the link's plan gives %q, %v; want ../y", got, err)
	}
	var b strings.Builder
	review.PrintPlacements(&b, "", review.FileReports(r), nil)
	if !strings.Contains(b.String(), "link docs/x -> ../y (was ../z)\ndocs/x\tapproved\n") {
		t.Errorf("got listing\n%s\nwant the link described and decided", b.String())
	}
}

// A submodule turned into a file or a folder, or a file into a
// submodule: git's two sections of one path, two items, each saying what
// it is part of, in the review and in the placement listing alike.
func TestSubmoduleTypechangeItems(t *testing.T) {
	id := "1a2b3c4d5e6f1a2b3c4d5e6f1a2b3c4d5e6f1a2b"
	goneSub := "diff --git a/s b/s\ndeleted file mode 160000\nindex 1a2b3c4..0000000\n--- a/s\n+++ /dev/null\n@@ -1 +0,0 @@\n-Subproject commit " + id + "\n"
	newFile := func(p string) string {
		return "diff --git a/" + p + " b/" + p + "\nnew file mode 100644\nindex 0000000..d95f3ad\n--- /dev/null\n+++ b/" + p + "\n@@ -0,0 +1 @@\n+content\n"
	}
	goneFile := func(p string) string {
		return "diff --git a/" + p + " b/" + p + "\ndeleted file mode 100644\nindex d95f3ad..0000000\n--- a/" + p + "\n+++ /dev/null\n@@ -1 +0,0 @@\n-content\n"
	}
	old := map[string]string{"s": "Subproject commit " + id + "\n", "s/a": "content\n"}
	file := map[string]string{"s": "content\n"}
	for _, tt := range []struct {
		name, patch, want string
		old               map[string]string
	}{
		{"a submodule replaced by a file", goneSub + newFile("s"), "delete submodule s (at 1a2b3c4), for a file in its place", old},
		{"a submodule replaced by a folder", goneSub + newFile("s/a"), "delete submodule s (at 1a2b3c4), for a folder in its place", old},
		{"a file replaced by a submodule", goneFile("s") + newSub, "new submodule s at 5d6e7f8, in place of the file", file},
		{"a folder replaced by a submodule", goneFile("s/a") + newSub, "new submodule s at 5d6e7f8, in place of the folder", old},
		{"a submodule deleted, another file created", goneSub + newFile("t"), "delete submodule s (at 1a2b3c4)", old},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// Each section placed on its own, as the tree places the two
			// sections of one path.
			patch, err := edit.Parse(tt.patch)
			if err != nil {
				t.Fatal(err)
			}
			var in []*edit.FilePlan
			for _, fd := range patch.Files {
				in = append(in, edit.PlanFile(fd.OldPath, fd.NewPath, tt.old[fd.OldPath], fd))
			}
			r := review.New(review.FromPlans(in), nil)
			if len(r.Items) != 2 {
				t.Fatalf("got %d items, want 2", len(r.Items))
			}
			got := ""
			for _, fr := range review.FileReports(r) {
				got += fr.Change
			}
			if got != tt.want {
				t.Errorf("the review describes %q, want %q", got, tt.want)
			}
			got = ""
			for _, fr := range review.FileReportsOf(in) {
				got += fr.Change
			}
			if got != tt.want {
				t.Errorf("the listing describes %q, want %q", got, tt.want)
			}
		})
	}
}

package edit_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// TestPlaceFilesManyFiles places a patch of many files at once (which
// PlaceFiles does side by side) and checks that every file gets what
// placing it alone gives: exact hunks, a hunk with trailing white space,
// a hunk that fits nowhere and one that fits twice, in files of different
// sizes. Run with -race, it also checks that the files share nothing.
func TestPlaceFilesManyFiles(t *testing.T) {
	t.Parallel()
	var olds []string
	var patch strings.Builder
	for f := range 40 {
		var old strings.Builder
		n := 30 + f*7
		for i := range n {
			fmt.Fprintf(&old, "line %d of file %d\n", i+1, f)
		}
		old.WriteString("same\nsame\nsame\n")
		olds = append(olds, old.String())
		name := fmt.Sprintf("f%d.txt", f)
		fmt.Fprintf(&patch, "--- a/%s\n+++ b/%s\n", name, name)
		fmt.Fprintf(&patch, "@@ -2,3 +2,3 @@\n line 2 of file %d\n-line 3 of file %d\n+changed\n line 4 of file %d\n", f, f, f)
		switch f % 4 {
		case 1: // a context line with trailing white space
			fmt.Fprintf(&patch, "@@ -10,4 +10,4 @@\n line 10 of file %d\n line 11 of file %d  \n-line 12 of file %d\n+changed\n line 13 of file %d\n", f, f, f, f)
		case 2: // fits nowhere
			patch.WriteString("@@ -20,3 +20,3 @@\n not\n-in\n+the\n file\n")
		case 3: // fits twice, without line numbers to choose
			patch.WriteString("@@ @@\n same\n-same\n+other\n")
		}
	}
	p, err := edit.Parse(patch.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Files) != len(olds) {
		t.Fatalf("parsed %d files, want %d", len(p.Files), len(olds))
	}
	rs, errs := edit.PlaceFiles(olds, p.Files)
	for i, fd := range p.Files {
		aloneRs, aloneErrs := edit.Place(olds[i], fd)
		if !reflect.DeepEqual(rs[i], aloneRs) {
			t.Errorf("%s: placed together %+v, alone %+v", fd.Path(), rs[i], aloneRs)
		}
		if len(errs[i]) != len(aloneErrs) {
			t.Errorf("%s: %d errors together, %d alone", fd.Path(), len(errs[i]), len(aloneErrs))
			continue
		}
		for j := range errs[i] {
			if errs[i][j].Error() != aloneErrs[j].Error() {
				t.Errorf("%s: error %q together, %q alone", fd.Path(), errs[i][j], aloneErrs[j])
			}
		}
		// Every file's first hunk places; the third and fourth kinds of
		// file have one hunk that does not.
		wantErrs := 0
		if i%4 >= 2 {
			wantErrs = 1
		}
		if len(errs[i]) != wantErrs || len(rs[i]) == 0 || rs[i][0].Pass != edit.PassExact {
			t.Errorf("%s: %d placed (the first by %v), %d errors; want the first exact and %d errors", fd.Path(), len(rs[i]), rs[i][0].Pass, len(errs[i]), wantErrs)
		}
		if i%4 == 1 && (len(rs[i]) != 2 || rs[i][1].Pass == edit.PassExact) {
			t.Errorf("%s: the hunk with trailing white space was not placed tolerantly: %+v", fd.Path(), rs[i])
		}
	}
}

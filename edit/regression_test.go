package edit_test

// Regression tests for placement bugs that FuzzDamaged found late, each
// fixed; the comment on each says what went wrong.

import (
	"testing"

	"github.com/pair-cli/pair/edit"
)

// Found by FuzzDamaged (testdata/fuzz/FuzzDamaged/490e0a43530b4ba3). The
// patch deletes "    return nil" and lost the context line "\treturn nil"
// after it. The fuzzy pass drops the leading blank context line as "not in
// the file" (it is, right above), matches the context "return nil" with
// the file's "    return nil" and the deleted "    return nil" with the
// file's "\treturn nil": it deletes the wrong line. Indentation is ignored
// for a deleted line even though the hunk's other lines show no
// consistent re-indentation.
func TestRegressionFuzzyDeletesLineWithOtherIndentationAfterLostContext(t *testing.T) {
	old := text("", "return nil", "    return nil", "\treturn nil", "}")
	patch := text("--- a/f", "+++ b/f", "@@ -1,5 +1,4 @@", " ", " return nil", "-    return nil", " }") // " \treturn nil" lost before " }"
	rs, errs := edit.Place(old, onlyFile(t, patch))
	if len(errs) > 0 {
		return // a refusal is fine
	}
	if got, want := mustApply(t, old, rs), text("", "return nil", "\treturn nil", "}"); got != want {
		t.Errorf("Apply:\ngot  %q\nwant %q\nresolved:\n%s", got, want, describe(rs))
	}
}

// Found by FuzzDamaged (testdata/fuzz/FuzzDamaged/92d98778434b8227). A
// variant of TestPlaceFusedDoesNotGuessAroundLostContextLine that passes
// the fused pass's newer checks (each part has three lines and a rare
// one): the patch lost one "}" of a run of "}" lines, and the fused pass
// explains the loss as a one-line gap between two hunks run together,
// adding the second "\treturn nil" one "}" too late.
func TestRegressionFusedPassGuessesAroundLostContextLineInRun(t *testing.T) {
	rt := "\treturn nil"
	old := text("x := compute(1, 2, 4)", "}", "}", "}", "}", "}", rt)
	patch := text("--- a/f", "+++ b/f", "@@ -1,7 +1,6 @@",
		"-x := compute(1, 2, 4)", "-}", "+"+rt, " }", " }", "+"+rt, " }", "-"+rt) // one " }" lost
	rs, errs := edit.Place(old, onlyFile(t, patch))
	if len(errs) > 0 {
		return // a refusal is fine
	}
	if got, want := mustApply(t, old, rs), text(rt, "}", "}", rt, "}", "}"); got != want {
		t.Errorf("Apply:\ngot  %q\nwant %q\nresolved:\n%s", got, want, describe(rs))
	}
}

// Found by FuzzDamaged (testdata/fuzz/FuzzDamaged/d2e06bbf04a9e7b4 and
// 76789b8552130899). The fuzzy pass may drop one leading context line as
// "not in the file" (restored in d36676d); both times here the line is in
// the file, and the drop lets a damaged hunk fit somewhere else:
//
//   - the patch lost the "}" between its added line and its deleted line;
//     reading the gap as a lost line is rightly refused, but dropping the
//     leading "\treturn nil" places the hunk one line lower, and the line
//     is added after the second "}" instead of the first;
//   - the patch's last added line (a blank one, at the end of the file) is
//     written as context; dropping the leading blank line and skipping a
//     file line fits the hunk three lines higher, on the other
//     "x := compute(1, 2, 3)", and "}" is added in the middle of the file.
func TestRegressionLeadingEdgeDropMisplacesDamagedHunk(t *testing.T) {
	rt, c3 := "\treturn nil", "x := compute(1, 2, 3)"
	tests := []struct {
		name, old, patch, want string
	}{
		{
			name:  "lost context line",
			old:   text(rt, "}", "}", rt),
			patch: text("@@ -1,4 +1,4 @@", " "+rt, " }", "+x := compute(1, 2, 4)", "-"+rt), // " }" lost before "-\treturn nil"
			want:  text(rt, "}", "x := compute(1, 2, 4)", "}"),
		},
		{
			name:  "missing plus at the end of the file",
			old:   text("if err != nil {", c3, "\tfmt.Println(\"hello, world\")", "a", "", c3, "a"),
			patch: text("@@ -5,3 +5,5 @@", " ", " "+c3, " a", "+}", " "), // the last line should be "+"
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, errs := edit.Place(tt.old, onlyFile(t, "--- a/f\n+++ b/f\n"+tt.patch))
			if len(errs) > 0 {
				return // a refusal is fine
			}
			got := mustApply(t, tt.old, rs)
			if tt.want == "" || got != tt.want {
				t.Errorf("Apply:\ngot  %q\nwant %q (or a refusal)\nresolved:\n%s", got, tt.want, describe(rs))
			}
		})
	}
}

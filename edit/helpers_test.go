package edit_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/edit/edittest"
)

// text joins lines with "\n" and ends the result with one.
func text(lines ...string) string {
	return strings.Join(lines, "\n") + "\n"
}

// ls builds hunk lines from strings written as in a diff.
func ls(lines ...string) []edit.Line { return edittest.Lines(lines...) }

// mustParse parses a patch and fails the test on error.
func mustParse(t testing.TB, patch string) *edit.Patch {
	t.Helper()
	p, err := edit.Parse(patch)
	if err != nil {
		t.Fatalf("Parse: got error %v, want none\npatch:\n%s", err, patch)
	}
	return p
}

// onlyFile parses a patch that must name exactly one file.
func onlyFile(t testing.TB, patch string) *edit.FileDiff {
	t.Helper()
	p := mustParse(t, patch)
	if len(p.Files) != 1 {
		t.Fatalf("Parse: got %d files, want 1\npatch:\n%s", len(p.Files), patch)
	}
	return p.Files[0]
}

// mustPlace parses patch (one file) and places it against old, failing
// the test if any hunk cannot be placed.
func mustPlace(t testing.TB, old, patch string) []edit.Resolved {
	t.Helper()
	fd := onlyFile(t, patch)
	rs, errs := edit.Place(old, fd)
	for _, e := range errs {
		t.Errorf("Place: got error %v, want none; nearest %v", e, e.Nearest)
	}
	if len(errs) > 0 {
		t.FailNow()
	}
	return rs
}

// mustApply applies resolved hunks and fails the test on error.
func mustApply(t testing.TB, old string, rs []edit.Resolved) string {
	t.Helper()
	got, err := edit.Apply(old, rs)
	if err != nil {
		t.Fatalf("Apply: got error %v, want none", err)
	}
	return got
}

// wantApplied applies resolved hunks to old and fails the test unless
// the result is want.
func wantApplied(t testing.TB, old string, rs []edit.Resolved, want string) {
	t.Helper()
	if got := mustApply(t, old, rs); got != want {
		t.Errorf("got\n%s\nwant\n%s\n%s", got, want, describe(rs))
	}
}

// describe prints resolved hunks for failure messages.
func describe(rs []edit.Resolved) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "hunk %d part %d start %d pass %v label %s offset %d hinted %v final %v notes %q\n%s",
			r.Hunk, r.Part, r.Start, r.Pass, r.Label(), r.Offset, r.Hinted, r.FinalNewline, r.Notes, edittest.Show(r.Lines))
	}
	return b.String()
}

// checkFileText checks that every context and deleted line of r is the
// file's own line at its position: what the reviewer sees is the file.
func checkFileText(t testing.TB, old string, r edit.Resolved) {
	t.Helper()
	file := strings.Split(strings.TrimSuffix(strings.ReplaceAll(old, "\r\n", "\n"), "\n"), "\n")
	if old == "" {
		file = nil
	}
	pos := r.Start
	for _, l := range r.Lines {
		if l.Kind == edit.Add {
			continue
		}
		if pos >= len(file) {
			t.Errorf("hunk %d: line %q at %d is past the end of the file (%d lines)", r.Hunk, l.Text, pos+1, len(file))
			return
		}
		if l.Text != file[pos] {
			t.Errorf("hunk %d: resolved line %d: got %q, want the file's %q", r.Hunk, pos+1, l.Text, file[pos])
		}
		pos++
	}
}

// refused places a one-file patch against old and fails the test unless
// some hunk is refused by the rule want: the last rule of its trace.
func refused(t testing.TB, old, patch string, want edit.RuleID) {
	t.Helper()
	rs, errs := edit.Place(old, onlyFile(t, patch))
	for _, e := range errs {
		if len(e.Rules) > 0 && e.Rules[len(e.Rules)-1] == want {
			return
		}
	}
	var got [][]edit.RuleID
	for _, e := range errs {
		got = append(got, e.Rules)
	}
	t.Errorf("Place: got errors %v with traces %v, want one refused by %s\n%s", errs, got, want, describe(rs))
}

// placeFilesErr places every file of patch against files (path to
// content) as one diff and returns the files' new contents, and the
// placement errors joined ("" when there are none).
func placeFilesErr(t testing.TB, files map[string]string, patch string) (map[string]string, string) {
	t.Helper()
	p := mustParse(t, patch)
	olds := make([]string, len(p.Files))
	for i, fd := range p.Files {
		olds[i] = files[fd.Path()]
	}
	rss, errss := edit.PlaceFiles(olds, p.Files)
	out := map[string]string{}
	var msgs []string
	for i, fd := range p.Files {
		for _, e := range errss[i] {
			msgs = append(msgs, e.Error())
		}
		if len(errss[i]) == 0 {
			out[fd.Path()] = mustApply(t, olds[i], rss[i])
		}
	}
	return out, strings.Join(msgs, "\n")
}

// placeFiles is placeFilesErr for a patch that must place entirely.
func placeFiles(t testing.TB, files map[string]string, patch string) map[string]string {
	t.Helper()
	out, errs := placeFilesErr(t, files, patch)
	if errs != "" {
		t.Fatalf("PlaceFiles: got errors, want none:\n%s", errs)
	}
	return out
}

// lastRule is the rule that refused a hunk: the last of its trace.
func lastRule(e *edit.PlacementError) edit.RuleID { return lastOf(e.Rules) }

// traces places a one-file patch against old and returns the traces of
// its placed hunks, its refusals and their uncertain or interpreted
// readings.
func traces(t testing.TB, old, patch string) (placed, refusedBy, offered [][]edit.RuleID) {
	t.Helper()
	rs, errs := edit.Place(old, onlyFile(t, patch))
	for _, r := range rs {
		placed = append(placed, r.Rules)
	}
	for _, e := range errs {
		refusedBy = append(refusedBy, e.Rules)
		if e.Interpreted != nil {
			offered = append(offered, e.Interpreted.Rules)
		}
	}
	return placed, refusedBy, offered
}

// wantTrace fails the test unless some trace of placing patch against
// old (see traces) names rule.
func wantTrace(t testing.TB, old, patch string, rule edit.RuleID) {
	t.Helper()
	placed, refusedBy, offered := traces(t, old, patch)
	for _, tr := range slices.Concat(placed, refusedBy, offered) {
		if slices.Contains(tr, rule) {
			return
		}
	}
	t.Errorf("traces: placed %v, refused %v, offered %v; want one naming %s", placed, refusedBy, offered, rule)
}

// wantRefused fails the test unless some hunk of patch is refused by
// rule, the last of its trace.
func wantRefused(t testing.TB, old, patch string, rule edit.RuleID) {
	t.Helper()
	refused(t, old, patch, rule)
}

// lastOf is the last rule of a trace, "" for none.
func lastOf(trace []edit.RuleID) edit.RuleID {
	if len(trace) == 0 {
		return ""
	}
	return trace[len(trace)-1]
}

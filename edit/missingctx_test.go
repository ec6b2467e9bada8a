package edit_test

import (
	"strings"
	"testing"
)

// TestMissingContextLine places git hunks that lost one interior context
// line, where the lost line looks like a line next to it: the fuzzy pass
// once took that for the trap of an added line written as context and
// refused them.
func TestMissingContextLine(t *testing.T) {
	tests := []struct {
		name, old, patch string
		from, to         string // the change: want is old with from replaced by to
	}{
		{
			// "\t}," closes the outer block; the hunk's "\t\t}," the inner
			// one: equal but for indentation, which the hunk shows right.
			name: "outer closing line after an inner one",
			old: text("var versions = map[string]spec{", "\t\"1.1.0\": {", "\t\texclude: []string{",
				"\t\t\t\"a\",", "\t\t\t\"b\",", "\t\t\t\"c\",", "\t\t\t\"d\",", "\t\t},", "\t},", "", "\t\"1.0.0\": {",
				"\t\texclude: []string{", "\t\t\t\"e\",", "\t\t},", "\t},", "}"),
			patch: text("--- a/v.go", "+++ b/v.go", "@@ -5,6 +5,5 @@", " \t\t\t\"b\",", " \t\t\t\"c\",", "-\t\t\t\"d\",", " \t\t},", " ", " \t\"1.0.0\": {"),
			from:  "\t\t\t\"d\",\n",
			to:    "",
		},
		{
			// Two blank lines between Python functions, written as one.
			name: "one of two blank lines",
			old: text("def a():", "    return 1", "", "", "def b():", "    x = 2", "    return x", "",
				"", "def c():", "    return 3"),
			patch: text("--- a/m.py", "+++ b/m.py", "@@ -2,6 +2,6 @@", "     return 1", " ", " def b():",
				"-    x = 2", "+    x = 4", "     return x", " "),
			from: "x = 2",
			to:   "x = 4",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := mustPlace(t, tt.old, tt.patch)
			want := strings.Replace(tt.old, tt.from, tt.to, 1)
			if got := mustApply(t, tt.old, rs); got != want {
				t.Errorf("got\n%s\nwant\n%s\n%s", got, want, describe(rs))
			}
		})
	}
}

package repo_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo"
)

// TestRecoveryNotice: a recovery of many files is told as a count, the
// first few names one per line, and how many more.
func TestRecoveryNotice(t *testing.T) {
	t.Parallel()
	var paths []string
	for i := range 400 {
		paths = append(paths, fmt.Sprintf("dir/file%03d.go", i))
	}
	for _, tc := range []struct {
		rep  repo.RecoveryReport
		want []string
	}{
		{repo.RecoveryReport{}, nil},
		{repo.RecoveryReport{Action: "rolled back", Paths: paths[:1]},
			[]string{"an earlier pair was interrupted while writing 1 file; its write was rolled back:\n  dir/file000.go"}},
		{repo.RecoveryReport{Action: "rolled forward", Paths: paths, Conflicts: []string{"a\tb"}},
			[]string{"an earlier pair was interrupted while writing 400 files; its write was rolled forward:\n" +
				"  dir/file000.go\n  dir/file001.go\n  dir/file002.go\n  dir/file003.go\n  dir/file004.go\n" +
				"  dir/file005.go\n  dir/file006.go\n  dir/file007.go\n  dir/file008.go\n  dir/file009.go\n  and 390 more",
				"changed since, and left as they are: 1 file:\n  \"a\\tb\""}},
		{repo.RecoveryReport{Action: repo.ActionUncommitted, Paths: paths[:11]},
			[]string{"an earlier pair was stopped after writing 11 files and before committing them; they are written but not committed (see git status):\n  " +
				strings.Join(paths[:11], "\n  ")}},
	} {
		got := tc.rep.Notice()
		if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
			t.Errorf("Notice of %s, %d files:\ngot  %q\nwant %q", tc.rep.Action, len(tc.rep.Paths), got, tc.want)
		}
	}
}

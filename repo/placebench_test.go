package repo_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

// placeTree writes a git repository of files in nested directories (dirs
// directories of perDir files, each of 200 lines), commits it, and
// returns the tree's directory with a patch of two hunks per file, as git
// diff writes it.
func placeTree(tb testing.TB, dirs, perDir int) (dir, patch string) {
	tb.Helper()
	dir = tb.TempDir()
	gitInit(tb, dir)
	files := map[string]file{}
	var p strings.Builder
	for d := range dirs {
		for f := range perDir {
			name := fmt.Sprintf("pkg%d/sub%d/deep/file%d.go", d%4, d, f)
			var body strings.Builder
			for i := range 200 {
				fmt.Fprintf(&body, "line %d of %s\n", i+1, name)
			}
			files[name] = file{content: body.String()}
			fmt.Fprintf(&p, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n", name, name, name, name)
			for _, at := range []int{20, 150} {
				fmt.Fprintf(&p, "@@ -%d,7 +%d,7 @@\n", at, at)
				for i := at; i < at+7; i++ {
					line := fmt.Sprintf("line %d of %s", i, name)
					if i == at+3 {
						fmt.Fprintf(&p, "-%s\n+%s changed\n", line, line)
					} else {
						fmt.Fprintf(&p, " %s\n", line)
					}
				}
			}
		}
	}
	writeFiles(tb, dir, files)
	repotest.Git(tb, dir, "add", "-A")
	repotest.Git(tb, dir, "commit", "-q", "-m", "files")
	return dir, p.String()
}

// BenchmarkPlaceManyFiles opens the tree and resolves, checks, reads and
// places a patch of 240 files in 20 directories (two hunks each), as pair
// apply --check does: the path walking and the preflight of every file
// count as much as the placement.
//
//	go test -run '^$' -bench PlaceManyFiles ./repo
func BenchmarkPlaceManyFiles(b *testing.B) {
	dir, text := placeTree(b, 20, 12)
	for b.Loop() {
		p, err := edit.Parse(text)
		if err != nil {
			b.Fatal(err)
		}
		tr, err := repo.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		plans, err := tr.Place(p)
		tr.Close()
		if err != nil {
			b.Fatal(err)
		}
		if len(plans) != 240 || len(plans[0].Errors) != 0 || len(plans[0].Hunks) != 2 {
			b.Fatalf("got %d plans, the first with %d hunks and errors %v", len(plans), len(plans[0].Hunks), plans[0].Errors)
		}
	}
}

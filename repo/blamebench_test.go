package repo_test

import (
	"fmt"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

// longHistory makes a repository where main.go, of about lines lines,
// changes in each of commits commits (a few lines edited, added and
// removed, as in real work; other files change beside it), written with
// git fast-import and packed as a clone would be.
func longHistory(tb testing.TB, commits, lines int) string {
	tb.Helper()
	dir := repotest.Init(tb, nil)
	rng := rand.New(rand.NewPCG(11, 13))
	n := 0
	mk := func() string {
		n++
		switch n % 5 {
		case 0:
			return "\t}"
		case 1:
			return ""
		}
		return fmt.Sprintf("\tx%d := compute(%d, %d)", n, n*3, n*7)
	}
	var file []string
	for range lines {
		file = append(file, mk())
	}
	var s strings.Builder
	for c := range commits {
		if c > 0 {
			for range 1 + rng.IntN(4) {
				at := rng.IntN(len(file) + 1)
				switch rng.IntN(3) {
				case 0:
					file = slices.Insert(file, at, mk(), mk())
				case 1:
					if at < len(file) {
						file = slices.Delete(file, at, min(len(file), at+2))
					}
				default:
					if at < len(file) {
						file[at] = mk()
					}
				}
			}
		}
		body := strings.Join(file, "\n") + "\n"
		other := fmt.Sprintf("other %d\n", c)
		fmt.Fprintf(&s, "commit refs/heads/main\ncommitter T <t@example.com> %d +0000\ndata 8\ncommit %d\n", 1700000000+c*60, c%10)
		fmt.Fprintf(&s, "M 100644 inline main.go\ndata %d\n%s\nM 100644 inline other.txt\ndata %d\n%s\n", len(body), body, len(other), other)
	}
	cmd := repotest.Cmd(tb, dir, "fast-import", "--quiet")
	cmd.Stdin = strings.NewReader(s.String())
	repotest.Output(tb, cmd)
	repotest.Git(tb, dir, "gc", "-q")
	repotest.Git(tb, dir, "reset", "-q", "--hard", "main")
	return dir
}

// BenchmarkBlame times Blame and git blame --porcelain on a file of about
// 500 lines changed by each of 1,000 commits; their ns/op give the
// ratio. It checks first that both give each line the same commit.
func BenchmarkBlame(b *testing.B) {
	dir := longHistory(b, 1000, 500)
	tr, err := repo.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	got, err := tr.Blame("main.go", repo.Access{}, repo.BlameOptions{})
	if err != nil {
		b.Fatal(err)
	}
	want := gitBlame(b, dir, "main.go")
	for i, l := range got.Lines {
		if l.Commit != want[i] {
			b.Fatalf("line %d: %s, git blame says %s", i+1, l.Commit, want[i])
		}
	}
	b.Run("pair", func(b *testing.B) {
		for b.Loop() {
			if _, err := tr.Blame("main.go", repo.Access{}, repo.BlameOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("git", func(b *testing.B) {
		env := repotest.Env(b)
		for b.Loop() {
			cmd := exec.Command("git", "blame", "--porcelain", "main.go")
			cmd.Dir, cmd.Env = dir, env
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

package repo_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo/repotest"
)

func TestHistory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gitInit(t, dir)
	tr := openTree(t, dir)
	if got, err := tr.History(10); err != nil || got != nil {
		t.Errorf("History without commits: got %v, %v, want none, nil", got, err)
	}
	for i, msg := range []string{"first", "second\n\nwith a body", "third line one\nline two\n\nbody", "fourth"} {
		writeFiles(t, dir, texts(map[string]string{"f.txt": strings.Repeat("x\n", i+1)}))
		repotest.Git(t, dir, "add", ".")
		repotest.Git(t, dir, "commit", "-q", "-m", msg)
	}
	for _, n := range []int{0, 1, 3, 4, 10} {
		got, err := tr.History(n)
		if err != nil {
			t.Fatalf("History(%d): %v", n, err)
		}
		args := []string{"log", "--format=%H%x00%an <%ae>%x00%aI%x00%s"}
		if n > 0 {
			args = append(args, "-n", strconv.Itoa(n))
		}
		want := strings.Split(strings.TrimSpace(repotest.Git(t, dir, args...)), "\n")
		var gotLines []string
		for _, c := range got {
			gotLines = append(gotLines, c.Hash+"\x00"+c.Author+"\x00"+c.Date.UTC().Format("2006-01-02T15:04:05Z07:00")+"\x00"+c.Subject)
		}
		for i := range want {
			want[i] = strings.Replace(want[i], "+00:00", "Z", 1)
		}
		if !slices.Equal(gotLines, want) {
			t.Errorf("History(%d):\ngot  %q\nwant %q (git log)", n, gotLines, want)
		}
	}
	got, _ := tr.History(2)
	if len(got) != 2 || got[0].Subject != "fourth" || got[1].Subject != "third line one line two" {
		t.Errorf("History(2): got %+v, want fourth then third", got)
	}
}

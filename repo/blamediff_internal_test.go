package repo

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo/repotest"
)

var hunkHeader = regexp.MustCompile(`(?m)^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@`)

// gitAdded returns the lines of b (0-based) that git diff -U0 shows
// added: blame's diff, which has no context either.
func gitAdded(t *testing.T, dir, a, b string) map[int]bool {
	t.Helper()
	pa, pb := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.WriteFile(pa, []byte(a), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pb, []byte(b), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := repotest.Cmd(t, dir, "diff", "--no-index", "-U0", "a", "b")
	out, _ := cmd.Output() // exit status 1: the files differ
	added := map[int]bool{}
	for _, m := range hunkHeader.FindAllStringSubmatch(string(out), -1) {
		start, _ := strconv.Atoi(m[1])
		n := 1
		if m[2] != "" {
			n, _ = strconv.Atoi(m[2])
		}
		for i := range n {
			added[start-1+i] = true
		}
	}
	return added
}

// tailCase is a change of pair's own history where git's diff without
// context differs from its diff with context: the common tail it cuts
// changes how often "\t}" occurs.
var tailCase = [2]string{`	}
	}
	}
	}
// old to nw in the reflogs of ref and of HEAD, as git does, with the
// message what. With create, a missing reflog is created (as git commit
// does); without, only the reflogs that exist are written. A failure here
// loses no work, so it is ignored.
func appendReflogs(gitDir, commonDir string, ref plumbing.ReferenceName, old, nw plumbing.Hash, name, email string, when time.Time, what string, create bool) {
	line := fmt.Sprintf("%s %s %s <%s> %d %s\t%s\n", old, nw, name, email, when.Unix(), when.Format("-0700"), what)
	logs := []string{filepath.Join(gitDir, "logs", "HEAD")}
	if ref != plumbing.HEAD {
		logs = append(logs, filepath.Join(commonDir, "logs", filepath.FromSlash(path.Clean(ref.String()))))
	}
	flag := os.O_WRONLY | os.O_APPEND
	if create {
		flag |= os.O_CREATE
	}
	for _, p := range logs {
		if create {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				continue
			}
		}
		f, err := os.OpenFile(p, flag, 0o644)
		if err != nil {
			continue // no reflog kept for this ref
		}
		f.WriteString(line)
		f.Close()
	}
}
`, `	if c.opts.Now != nil {
		now = c.opts.Now
		}
		out = append(out, l)
	}
	if len(out) == 0 {

// appendReflogs records a move of ref (plumbing.HEAD when detached) from
// old to nw in the reflogs of ref and of HEAD, as git does, with the
// message what. With create, a missing reflog is created (as git commit
// does); without, only the reflogs that exist are written. A failure here
// loses no work, so it is ignored.
func appendReflogs(gitDir, commonDir string, ref plumbing.ReferenceName, old, nw plumbing.Hash, name, email string, when time.Time, what string, create bool) {
	line := fmt.Sprintf("%s %s %s <%s> %d %s\t%s\n", old, nw, name, email, when.Unix(), when.Format("-0700"), what)
	logs := []string{filepath.Join(gitDir, "logs", "HEAD")}
	if ref != plumbing.HEAD {
		logs = append(logs, filepath.Join(commonDir, "logs", filepath.FromSlash(path.Clean(ref.String()))))
	}
	flag := os.O_WRONLY | os.O_APPEND
	if create {
		flag |= os.O_CREATE
	}
	for _, p := range logs {
		if create {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				continue
			}
		}
		f, err := os.OpenFile(p, flag, 0o644)
		if err != nil {
			continue // no reflog kept for this ref
		}
		f.WriteString(line)
		f.Close()
	}
}
`}

// gitDiff makes git's choices: on files whose lines repeat (braces, blank
// lines, the same statement), small and large, with changes few and
// many, the lines it adds are those git diff adds.
func TestGitDiffAgreesWithGit(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 5))
	common := []string{"}", "", "\t}", "\t\treturn nil, err", "\tif err != nil {"}
	line := func() string {
		if rng.IntN(2) == 0 {
			return common[rng.IntN(len(common))] + "\n"
		}
		return fmt.Sprintf("line %d\n", rng.IntN(300))
	}
	want := gitAdded(t, dir, tailCase[0], tailCase[1])
	a, b := splitBlameLines(tailCase[0]), splitBlameLines(tailCase[1])
	kept, _ := gitDiff(a, b)
	for j, k := range kept {
		if (k < 0) != want[j] {
			t.Errorf("tail case: line %d %q: added %v, git diff says %v", j+1, b[j], k < 0, want[j])
		}
	}
	for iter := range 60 {
		size, edits, span := 20, 4, 3
		if iter%3 == 0 {
			size, edits, span = 1500, 100, 25 // long enough for the cut tail and the search's cut-offs
		}
		a = nil
		for range size {
			a = append(a, line())
		}
		b = append([]string(nil), a...)
		for range 1 + rng.IntN(edits) {
			at := rng.IntN(len(b) + 1)
			switch rng.IntN(3) {
			case 0:
				var add []string
				for range 1 + rng.IntN(span) {
					add = append(add, line())
				}
				b = append(b[:at], append(add, b[at:]...)...)
			case 1:
				b = append(b[:at], b[min(len(b), at+1+rng.IntN(span)):]...)
			default:
				if at < len(b) {
					b[at] = line()
				}
			}
		}
		want := gitAdded(t, dir, strings.Join(a, ""), strings.Join(b, ""))
		kept, _ := gitDiff(a, b)
		for j, k := range kept {
			if (k < 0) != want[j] {
				t.Fatalf("case %d (%d and %d lines): line %d %q: added %v, git diff says %v", iter, len(a), len(b), j+1, b[j], k < 0, want[j])
			}
		}
	}
}

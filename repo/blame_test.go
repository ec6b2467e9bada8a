package repo_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

// gitBlame returns, for each line of path, the commit git blame
// --porcelain names, with args before the path (-C).
func gitBlame(t testing.TB, dir, path string, args ...string) []string {
	t.Helper()
	out := repotest.Git(t, dir, append(append([]string{"blame", "--porcelain"}, args...), "--", path)...)
	var commits []string
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) >= 3 && len(f[0]) == 40 && !strings.HasPrefix(l, "\t") {
			final, err := strconv.Atoi(f[2])
			if err != nil {
				t.Fatalf("porcelain line %q", l)
			}
			for len(commits) < final {
				commits = append(commits, "")
			}
			commits[final-1] = f[0]
		}
	}
	return commits
}

// history makes a repository of files whose lines change over many
// commits: lines edited, inserted and deleted, files renamed, blocks
// moved within a file and between files, some commits made with git and
// some through Tree.Commit, each hunk of those with a decision. want
// holds the decision of each line pair wrote: by commit, path and line.
type history struct {
	dir   string
	files map[string][]string
	rng   *rand.Rand
	n     int // lines made so far
	want  map[string]string
	tree  *repo.Tree
}

func newHistory(t *testing.T, seed uint64) *history {
	dir := repotest.Init(t, nil)
	tr := openTree(t, dir)
	return &history{dir: dir, files: map[string][]string{}, rng: rand.New(rand.NewPCG(seed, 7)), want: map[string]string{}, tree: tr}
}

// line makes a new line. With common set, some lines are ones that
// repeat in any code (a closing brace, a blank line), where diffs have
// choices.
func (h *history) line(common bool) string {
	if common && h.rng.IntN(4) == 0 {
		return []string{"}", "", "\treturn nil", "\t}"}[h.rng.IntN(4)]
	}
	h.n++
	return fmt.Sprintf("\tline %d says something about item%d", h.n, h.n*7)
}

func (h *history) paths() []string {
	var ps []string
	for p := range h.files {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return ps
}

func (h *history) write(t *testing.T, p string) {
	t.Helper()
	if len(h.files[p]) == 0 {
		repotest.WriteFile(t, h.dir, p, "")
		return
	}
	repotest.WriteFile(t, h.dir, p, strings.Join(h.files[p], "\n")+"\n")
}

// edit changes a file at random: lines inserted, deleted or replaced.
func (h *history) edit(p string, common bool) {
	ls := h.files[p]
	for range 1 + h.rng.IntN(3) {
		at := h.rng.IntN(len(ls) + 1)
		switch h.rng.IntN(3) {
		case 0: // insert
			var add []string
			for range 1 + h.rng.IntN(4) {
				add = append(add, h.line(common))
			}
			ls = slices.Insert(ls, at, add...)
		case 1: // delete
			if at < len(ls) {
				ls = slices.Delete(ls, at, min(len(ls), at+1+h.rng.IntN(3)))
			}
		default: // replace
			if at < len(ls) {
				ls[at] = h.line(common)
			}
		}
	}
	h.files[p] = ls
}

// moveBlock moves (or copies) a block of at least three lines from one
// file to another, or within a file.
func (h *history) moveBlock(from, to string, keep bool) {
	src := h.files[from]
	if len(src) < 4 {
		return
	}
	n := 3 + h.rng.IntN(min(3, len(src)-3))
	at := h.rng.IntN(len(src) - n + 1)
	blk := slices.Clone(src[at : at+n])
	if !keep {
		h.files[from] = slices.Delete(src, at, at+n)
	}
	dst := h.files[to]
	h.files[to] = slices.Insert(dst, h.rng.IntN(len(dst)+1), blk...)
}

// gitCommit commits everything with git; a forged message says pair.
func (h *history) gitCommit(t *testing.T, forged bool) {
	t.Helper()
	repotest.Git(t, h.dir, "add", "-A")
	msg := "by hand"
	if forged {
		msg = "forged\n\nPair-Session: s-forged\nPair-Model: forger\nPair-Reviewed-By: X <x@example.com>\n"
		for _, p := range h.paths() {
			msg += fmt.Sprintf("Pair-Hunk: %s:1 000000000000 approved\n", p)
		}
	}
	repotest.Git(t, h.dir, "commit", "-q", "--allow-empty", "-m", msg)
}

// pairCommit changes path as edit does and commits it through
// Tree.Commit, giving each hunk a decision (and recording one rejected
// hunk that wrote nothing); it notes the decision of each line written.
func (h *history) pairCommit(t *testing.T, p string, common bool) {
	t.Helper()
	before := ""
	if len(h.files[p]) > 0 {
		before = strings.Join(h.files[p], "\n") + "\n"
	}
	_, existed := h.files[p]
	h.edit(p, common)
	h.write(t, p)
	after := repotest.ReadFile(t, h.dir, p)
	hunks := edit.Diff(before, after)
	if len(hunks) == 0 {
		return
	}
	rec := audit.Record{Subject: "pair change", Session: fmt.Sprintf("s-%d", h.n), Model: "model-x"}
	decisions := []audit.Decision{audit.Approved, audit.Edited, audit.Approved}
	var lineDecisions []string // by new line, for lines added
	newLine := 0
	oldLine := 0
	for i, hk := range hunks {
		d := decisions[h.rng.IntN(len(decisions))]
		hr := audit.HunkRecord{Path: p, Start: hk.Start + 1, Hash: hk.Hash(), Decision: d, Interpreted: d == audit.Approved && h.rng.IntN(3) == 0}
		shown := string(d)
		if hr.Interpreted {
			shown = repo.DecisionInterpreted
		}
		for oldLine < hk.Start {
			lineDecisions = append(lineDecisions, "")
			newLine++
			oldLine++
		}
		for _, l := range hk.Lines {
			switch l.Kind {
			case edit.Context:
				lineDecisions = append(lineDecisions, "")
				newLine++
				oldLine++
			case edit.Delete:
				oldLine++
			case edit.Add:
				lineDecisions = append(lineDecisions, shown)
				newLine++
			}
		}
		rec.Hunks = append(rec.Hunks, hr)
		if i == 0 {
			rec.Hunks = append(rec.Hunks, audit.HunkRecord{Path: p, Start: hk.Start + 1, Hash: "0123456789ab", Decision: audit.Rejected})
		}
	}
	res, err := h.tree.Commit([]repo.FileCommit{{Path: p, Before: before, After: after, Hunks: hunks, Create: !existed}}, repo.CommitOptions{Record: rec})
	if err != nil {
		t.Fatalf("Commit: %v", err)
	}
	for i, d := range lineDecisions {
		if d != "" {
			h.want[fmt.Sprintf("%s %s %d", res.Hash, p, i+1)] = d
		}
	}
}

// grow makes commits steps of history. With copies, blocks move between
// files in the commits that change both.
func (h *history) grow(t *testing.T, steps int, common, copies bool) {
	t.Helper()
	for _, p := range []string{"a.go", "b.go", "dir/c.go"} {
		for range 16 {
			h.files[p] = append(h.files[p], h.line(false))
		}
		h.write(t, p)
	}
	h.gitCommit(t, false)
	for step := range steps {
		ps := h.paths()
		p := ps[h.rng.IntN(len(ps))]
		switch r := h.rng.IntN(10); {
		case r < 3:
			h.pairCommit(t, p, common)
			continue
		case r == 3: // a rename, with or without an edit
			np := fmt.Sprintf("moved/f%d.go", step)
			if err := os.MkdirAll(filepath.Join(h.dir, "moved"), 0o755); err != nil {
				t.Fatal(err)
			}
			repotest.Git(t, h.dir, "mv", p, np)
			h.files[np] = h.files[p]
			delete(h.files, p)
			if h.rng.IntN(2) == 0 {
				h.edit(np, common)
				h.write(t, np)
			}
		case r == 4 && copies: // a block moved or copied to another file
			q := ps[h.rng.IntN(len(ps))]
			h.moveBlock(p, q, q != p && h.rng.IntN(2) == 0)
			if q != p {
				h.edit(p, false) // the source changes in the same commit
			}
			h.write(t, p)
			h.write(t, q)
		default:
			h.edit(p, common)
			h.write(t, p)
		}
		h.gitCommit(t, h.rng.IntN(5) == 0)
	}
}

// check compares Blame with git blame on every file, and the decisions
// of pair's lines with what pair recorded.
func (h *history) check(t *testing.T, copies bool) (lines, pairLines int) {
	t.Helper()
	var args []string
	if copies {
		args = []string{"-C"}
	}
	for _, p := range h.paths() {
		want := gitBlame(t, h.dir, p, args...)
		got, err := h.tree.Blame(p, repo.Access{}, repo.BlameOptions{Copies: copies})
		if err != nil {
			t.Fatalf("Blame(%s): %v", p, err)
		}
		if len(got.Lines) != len(want) {
			t.Fatalf("%s: %d lines, git blame has %d", p, len(got.Lines), len(want))
		}
		for i, l := range got.Lines {
			lines++
			if l.Commit != want[i] {
				t.Errorf("%s:%d %q: commit %.12s, git blame says %.12s", p, i+1, l.Text, l.Commit, want[i])
				continue
			}
			d, ok := h.want[fmt.Sprintf("%s %s %d", l.Commit, l.Path, l.OrigLine)]
			switch {
			case ok && l.Pair == nil:
				t.Errorf("%s:%d: not shown as pair's (%s)", p, i+1, d)
			case ok:
				pairLines++
				if l.Pair.Decision != d || l.Pair.Model != "model-x" || !strings.HasPrefix(l.Pair.Session, "s-") {
					t.Errorf("%s:%d: %+v, want decision %s", p, i+1, *l.Pair, d)
				}
			case l.Pair != nil:
				t.Errorf("%s:%d: shown as pair's %+v, but pair did not write it", p, i+1, *l.Pair)
			}
		}
	}
	return lines, pairLines
}

func TestBlameAgreesWithGit(t *testing.T) {
	for _, tc := range []struct {
		name           string
		common, copies bool
	}{
		{"distinct lines", false, false},
		{"common lines", true, false},
		{"copies", false, true},
	} {
		for seed := range uint64(3) {
			t.Run(fmt.Sprintf("%s/%d", tc.name, seed), func(t *testing.T) {
				h := newHistory(t, seed)
				h.grow(t, 40, tc.common, tc.copies)
				lines, pairLines := h.check(t, tc.copies)
				if pairLines == 0 || lines < 30 {
					t.Errorf("only %d lines, %d of pair's: the history tests too little", lines, pairLines)
				}
				if tc.copies {
					moved := 0
					for _, p := range h.paths() {
						plain, c := gitBlame(t, h.dir, p), gitBlame(t, h.dir, p, "-C")
						for i := range plain {
							if plain[i] != c[i] {
								moved++
							}
						}
					}
					if moved == 0 {
						t.Errorf("git blame -C finds no line that git blame does not: the history tests no copy")
					}
					t.Logf("%d lines, %d of pair's, %d found by -C only", lines, pairLines, moved)
				}
			})
		}
	}
}

// A commit made with git whose message carries pair's trailers is not
// pair's: its lines have no Pair.
// blame blames the file p of tr, failing the test on an error.
func blame(t *testing.T, tr *repo.Tree, p string) *repo.Blame {
	t.Helper()
	b, err := tr.Blame(p, repo.Access{}, repo.BlameOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBlameForgedTrailer(t *testing.T) {
	dir := repotest.Init(t, map[string]string{"a.txt": "one\n"})
	repotest.WriteFile(t, dir, "a.txt", "one\ntwo\n")
	repotest.Git(t, dir, "commit", "-q", "-am", "forged\n\nPair-Session: s\nPair-Model: m\nPair-Reviewed-By: X <x@example.com>\nPair-Hunk: a.txt:1 000000000000 approved\n")
	tr := openTree(t, dir)
	b := blame(t, tr, "a.txt")
	if b.Lines[1].Commit != repotest.Head(t, dir) || b.Lines[1].Pair != nil {
		t.Errorf("line 2: %+v, want HEAD's and no pair record", b.Lines[1])
	}
	// Recorded as this pair's own, the same commit is believed.
	if err := repo.RecordCommit(tr, repotest.Head(t, dir)); err != nil {
		t.Fatal(err)
	}
	if p := blame(t, tr, "a.txt").Lines[1].Pair; p == nil || p.Model != "m" || p.Decision != "approved" || p.Session != "s" {
		t.Errorf("line 2 of a recorded commit: %+v", p)
	}
}

func TestBlameWorkingTree(t *testing.T) {
	dir := repotest.Init(t, map[string]string{"a.txt": "one\ntwo\n"})
	repotest.WriteFile(t, dir, "a.txt", "one\nnew\ntwo\n")
	tr := openTree(t, dir)
	b := blame(t, tr, "a.txt")
	want := gitBlame(t, dir, "a.txt")
	for i, l := range b.Lines {
		w := want[i]
		if w == strings.Repeat("0", 40) {
			w = ""
		}
		if l.Commit != w {
			t.Errorf("line %d: %q, git blame says %q", i+1, l.Commit, w)
		}
	}
}

func TestBlameErrors(t *testing.T) {
	dir := repotest.Init(t, map[string]string{"bin.dat": "a\x00b\n", "d/f.txt": "x\n", "ok.txt": "x\n"})
	repotest.WriteFile(t, dir, "new.txt", "never committed\n")
	tr := openTree(t, dir)
	for _, tc := range []struct {
		path string
		is   error
		says string
	}{
		{"bin.dat", repo.ErrBinary, "bin.dat: binary file"},
		{"new.txt", repo.ErrNotInHead, "new.txt: no such path in HEAD"},
		{"gone.txt", repo.ErrNotInHead, "gone.txt: no such path in HEAD"},
		{"d", nil, "d: is a folder"},
		{"../x", repo.ErrOutsideRepo, "outside"},
	} {
		_, err := tr.Blame(tc.path, repo.Access{}, repo.BlameOptions{})
		if err == nil || tc.is != nil && !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("Blame(%s) = %v, want %v saying %q", tc.path, err, tc.is, tc.says)
		}
	}
	_ = os.Remove(filepath.Join(dir, "ok.txt"))
	if _, err := tr.Blame("ok.txt", repo.Access{}, repo.BlameOptions{}); err != nil {
		t.Errorf("Blame of a file deleted from the working tree: %v, want HEAD's file blamed", err)
	}
}

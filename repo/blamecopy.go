// blamecopy.go: blame -C: blocks of lines moved within a file or copied from the files the same commit changed.

package repo

import (
	"slices"
	"unicode"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/pair-cli/pair/repo/internal/gitobj"
)

// The least score, in letters and digits, of a block that blame -C
// takes as moved within a file (moveScore) or from another file
// (copyScore): a block must score more. They are git's defaults.
const (
	moveScore = 20
	copyScore = 40
)

// copies passes on the lines refs of o that no parent's diff kept but
// that a parent holds as a block elsewhere: first in o's own file in each
// parent (a move), then in the files the commit changed, as they were in
// each parent (a move or copy from another file). It returns the lines
// still blamed on o.
func (b *blamer) copies(o *blameOrigin, parents []*gitobj.Commit, origins []*blameOrigin, refs []blameRef) ([]blameRef, error) {
	var err error
	for _, po := range origins {
		if po != nil {
			refs = b.takeBlocks(o, refs, []*blameOrigin{po}, moveScore)
		}
	}
	if o.commit == nil {
		return refs, nil // copies into the working tree are not looked for
	}
	to, err := b.tree(o.commit.Tree())
	if err != nil {
		return nil, err
	}
	for i, p := range parents {
		if len(refs) == 0 {
			break
		}
		from, err := b.tree(p.Tree())
		if err != nil {
			return nil, err
		}
		changes, err := gitobj.Diff(b.st, from, to)
		if err != nil {
			return nil, err
		}
		var cands []*blameOrigin
		for _, c := range changes {
			if c.From == nil || !blobMode(c.From.Mode) || origins[i] != nil && c.Path == origins[i].path {
				continue
			}
			co, err := b.origin(p, c.Path, c.From.Hash)
			if err != nil {
				return nil, err
			}
			cands = append(cands, co)
		}
		refs = b.takeBlocks(o, refs, cands, copyScore)
	}
	return refs, nil
}

// takeBlocks hands to the candidates the blocks of refs they hold: each
// run of lines (consecutive in o and in the blamed file) scoring more
// than least gives the best block found in any candidate (the first of
// equal ones) to that candidate, if the block scores more than least;
// what is left of the run is tried again, until nothing moves. It
// returns the lines left.
func (b *blamer) takeBlocks(o *blameOrigin, refs []blameRef, cands []*blameOrigin, least int) []blameRef {
	if len(cands) == 0 {
		return refs
	}
	slices.SortFunc(refs, func(x, y blameRef) int { return x.orig - y.orig })
	for moved := true; moved && len(refs) > 0; {
		moved = false
		var left []blameRef
		for _, run := range runsOf(refs) {
			texts := make([]string, len(run))
			for i, r := range run {
				texts[i] = o.lines[r.orig]
			}
			if lineScore(texts) < least {
				left = append(left, run...)
				continue
			}
			var best block
			var to *blameOrigin
			for _, c := range cands {
				if bl := bestBlock(texts, c.lines, b.index(c.blob, c.lines)); bl.score > best.score {
					best, to = bl, c
				}
			}
			if best.score <= least {
				left = append(left, run...)
				continue
			}
			moved = true
			passed := make([]blameRef, best.n)
			for k := range best.n {
				passed[k] = blameRef{final: run[best.from+k].final, orig: best.at + k}
			}
			b.add(to, passed)
			left = append(left, run[:best.from]...)
			left = append(left, run[best.from+best.n:]...)
		}
		refs = left
		slices.SortFunc(refs, func(x, y blameRef) int { return x.orig - y.orig })
	}
	return refs
}

// runsOf splits refs, sorted by orig, into runs of lines consecutive
// both in the suspect's file and in the blamed file.
func runsOf(refs []blameRef) [][]blameRef {
	var out [][]blameRef
	start := 0
	for i := 1; i <= len(refs); i++ {
		if i == len(refs) || refs[i].orig != refs[i-1].orig+1 || refs[i].final != refs[i-1].final+1 {
			out = append(out, refs[start:i])
			start = i
		}
	}
	return out
}

// block is a run of lines found in another file: n lines from line from
// of the run, at line at of the file, scoring score.
type block struct{ from, at, n, score int }

// blockBudget bounds the comparisons of one bestBlock.
const blockBudget = 1 << 22

// bestBlock returns the block of run's lines, found line for line in
// target, with the most letters and digits (the first of equal ones).
// idx holds the lines of target by text.
func bestBlock(run, target []string, idx map[string][]int) block {
	var best block
	work := 0
	for i := range run {
		for _, j := range idx[run[i]] {
			if i > 0 && j > 0 && target[j-1] == run[i-1] {
				continue // inside a block found from its start
			}
			n := 1
			for i+n < len(run) && j+n < len(target) && run[i+n] == target[j+n] {
				n++
			}
			work += n
			if s := lineScore(run[i : i+n]); s > best.score {
				best = block{from: i, at: j, n: n, score: s}
			}
			if work > blockBudget {
				return best
			}
		}
	}
	return best
}

// index returns the lines of the blob h by text, built once.
func (b *blamer) index(h plumbing.Hash, lines []string) map[string][]int {
	if b.indexes == nil {
		b.indexes = map[plumbing.Hash]map[string][]int{}
	}
	if m, ok := b.indexes[h]; ok {
		return m
	}
	m := map[string][]int{}
	for i, l := range lines {
		m[l] = append(m[l], i)
	}
	b.indexes[h] = m
	return m
}

// lineScore is what git blame scores a block by: its letters and digits.
func lineScore(lines []string) int {
	n := 0
	for _, l := range lines {
		for _, r := range l {
			if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
				n++
			}
		}
	}
	return n
}

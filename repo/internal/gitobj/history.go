package gitobj

import (
	"container/heap"
	"iter"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// ByCommitTime yields start and every commit it reaches through its
// parents, each once, newest committer time first, as git log orders
// them; commits of the same time come in the order they were found. It
// stops at the first error, which it yields with a nil commit.
func ByCommitTime(s storer.EncodedObjectStorer, start *Commit) iter.Seq2[*Commit, error] {
	return func(yield func(*Commit, error) bool) {
		q := &commitQueue{}
		seen := map[plumbing.Hash]bool{start.Hash: true}
		q.push(start)
		for q.Len() > 0 {
			c := heap.Pop(q).(queued).c
			for _, h := range c.Parents() {
				if seen[h] {
					continue
				}
				seen[h] = true
				p, err := ReadCommit(s, h)
				if err != nil {
					yield(nil, err)
					return
				}
				q.push(p)
			}
			if !yield(c, nil) {
				return
			}
		}
	}
}

type queued struct {
	c    *Commit
	when int64 // committer time, in seconds
	n    int   // order of arrival
}

// commitQueue is a heap of commits, newest first, then first come.
type commitQueue struct {
	items []queued
	n     int
}

func (q *commitQueue) push(c *Commit) {
	q.n++
	heap.Push(q, queued{c: c, when: c.Committer().When.Unix(), n: q.n})
}

func (q *commitQueue) Len() int { return len(q.items) }
func (q *commitQueue) Less(i, j int) bool {
	a, b := q.items[i], q.items[j]
	if a.when != b.when {
		return a.when > b.when
	}
	return a.n < b.n
}
func (q *commitQueue) Swap(i, j int) { q.items[i], q.items[j] = q.items[j], q.items[i] }
func (q *commitQueue) Push(x any)    { q.items = append(q.items, x.(queued)) }
func (q *commitQueue) Pop() any {
	last := q.items[len(q.items)-1]
	q.items = q.items[:len(q.items)-1]
	return last
}

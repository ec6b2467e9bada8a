// history.go: History and HistoryOf, the latest commits, of the tree or of one path.

package repo

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"github.com/pair-cli/pair/repo/internal/gitobj"
)

// Commit is a commit of the history, as History reads it.
type Commit struct {
	Hash    string    // full hash
	Author  string    // "Name <email>"
	Date    time.Time // author date
	Subject string    // first paragraph of the message, on one line
}

// History returns the last n commits reachable from HEAD (all of them when
// n <= 0), newest first by commit time, as git log lists them. A
// repository without commits has no history and no error; a tree that is
// not in a git repository is ErrNotGit.
func (t *Tree) History(n int) ([]Commit, error) {
	return t.HistoryOf("", Access{}, n)
}

// HistoryOf is History for the pathspec p only, as git log -- p lists it:
// the commits that change the file p, or a file under the folder p ("" is
// every commit). A commit changes p when p differs in it from p in each of
// its parents (a merge that keeps p as one of its parents has it is left
// out, as git's history simplification leaves it out). The pathspec is checked as
// Pathspec checks it.
func (t *Tree) HistoryOf(p string, access Access, n int) ([]Commit, error) {
	spec, err := t.Pathspec(p, access)
	if err != nil {
		return nil, err
	}
	st, err := t.repo.gitStorage()
	if err != nil {
		return nil, err
	}
	c, err := headCommit(st)
	if c == nil || err != nil {
		return nil, err // nil, nil without commits
	}
	var out []Commit
	for c, err := range gitobj.ByCommitTime(st, c) {
		if err != nil {
			return out, fmt.Errorf("read history: %w", err)
		}
		if spec != "" {
			changed, err := changes(st, c, spec)
			if err != nil {
				return out, fmt.Errorf("read history of %s: %w", spec, err)
			}
			if !changed {
				continue
			}
		}
		author := c.Author()
		out = append(out, Commit{
			Hash:    c.Hash.String(),
			Author:  fmt.Sprintf("%s <%s>", author.Name, author.Email),
			Date:    author.When,
			Subject: subjectOf(c.Message),
		})
		if n > 0 && len(out) >= n {
			break
		}
	}
	return out, nil
}

// changes reports whether the commit c changes the path p: p's entry (a
// file's blob or a folder's tree, and its mode) differs from p's entry in
// each parent, or, without parents, p is there.
func changes(st storer.EncodedObjectStorer, c *gitobj.Commit, p string) (bool, error) {
	e, ok, err := entryAt(st, c.Tree(), p)
	if err != nil {
		return false, err
	}
	parents := c.Parents()
	if len(parents) == 0 {
		return ok, nil
	}
	for _, ph := range parents {
		pc, err := gitobj.ReadCommit(st, ph)
		if err != nil {
			return false, err
		}
		pe, pok, err := entryAt(st, pc.Tree(), p)
		if err != nil {
			return false, err
		}
		if pok == ok && (!ok || (pe.Hash == e.Hash && pe.Mode == e.Mode)) {
			return false, nil // the same as in this parent
		}
	}
	return true, nil
}

// entryAt returns the entry of path p in the tree h; ok is false when the
// tree does not hold it.
func entryAt(st storer.EncodedObjectStorer, h plumbing.Hash, p string) (e gitobj.TreeEntry, ok bool, err error) {
	t, err := gitobj.ReadTree(st, h)
	if err != nil {
		return e, false, err
	}
	e, err = gitobj.Find(st, t, p)
	if errors.Is(err, gitobj.ErrNotFound) {
		return e, false, nil
	}
	return e, err == nil, err
}

// subjectOf returns a commit message's subject as git log's %s does: its
// first paragraph, lines joined by spaces.
func subjectOf(msg string) string {
	var lines []string
	for _, l := range strings.Split(strings.ReplaceAll(msg, "\r\n", "\n"), "\n") {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			if len(lines) > 0 {
				break
			}
			continue // blank lines before the subject
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, " ")
}

package repo

import (
	"fmt"
	"strings"
	"time"

	"github.com/pair-cli/pair/internal/gitobj"
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
	st, err := t.gitStorage()
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

// uncommitted.go: what a recovery says about files written but not committed.

package repo

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/repo/internal/gitobj"
)

// forgetWritten removes the journal that write kept in the state
// "written", once the commit that followed is made or refused.
func (cj *crashJournal) forgetWritten() {
	l, err := cj.lock()
	if err != nil {
		return // left for the next Open, which checks against HEAD
	}
	defer l.unlock()
	if j, err := readJournal(l.dir); err == nil && j != nil && j.State == stateWritten {
		_ = clearJournal(l.dir)
	}
}

// differFromHead returns the files of a written set whose working-tree
// state differs from HEAD's: present with other content, present while
// HEAD has none, or missing while HEAD has one. Without a HEAD (or a
// readable one), every file of the set counts.
func (t *Tree) differFromHead(j *journal) []string {
	var head *gitobj.Tree
	st, err := t.repo.gitStorage()
	if err == nil {
		if c, err := headCommit(st); c != nil && err == nil {
			head, _ = gitobj.ReadTree(st, c.Tree())
		}
	}
	var out []string
	for _, e := range j.Changes {
		s, err := t.disk.stateOf(e.Path)
		if err != nil || head == nil {
			out = append(out, e.Path)
			continue
		}
		f, err := gitobj.Find(st, head, e.Path)
		if errors.Is(err, gitobj.ErrNotFound) || (err == nil && (f.Mode == filemode.Dir || f.Mode == filemode.Submodule)) {
			if s.exists {
				out = append(out, e.Path)
			}
			continue
		}
		if err != nil {
			out = append(out, e.Path)
			continue
		}
		content, err := gitobj.ReadBlob(st, f.Hash)
		if err != nil || !s.regular || s.hash != hashOf(content) {
			out = append(out, e.Path)
		}
	}
	return out
}

// noticeNames is how many file names a recovery notice lists; the others
// are counted.
const noticeNames = 10

// Notice words the report for a person, as messages to print one after
// the other (nil when there was nothing to recover). A long list of files
// is shown as a count, the first few names one per line, and how many
// more there are.
func (r RecoveryReport) Notice() []string {
	if r.Action == "" {
		return nil
	}
	var out []string
	switch r.Action {
	case ActionUncommitted:
		out = append(out, fmt.Sprintf("an earlier pair was stopped after writing %s and before committing %s; %s written but not committed (see git status)%s",
			count(len(r.Paths), "file"), map[bool]string{true: "it", false: "them"}[len(r.Paths) == 1],
			map[bool]string{true: "it is", false: "they are"}[len(r.Paths) == 1], names(r.Paths)))
	default:
		out = append(out, fmt.Sprintf("an earlier pair was interrupted while writing %s; its write was %s%s",
			count(len(r.Paths), "file"), r.Action, names(r.Paths)))
	}
	if len(r.Conflicts) > 0 {
		out = append(out, fmt.Sprintf("changed since, and left as they are: %s%s", count(len(r.Conflicts), "file"), names(r.Conflicts)))
	}
	return out
}

// count is n and what, counted ("1 file", "2 files").
func count(n int, what string) string {
	return fmt.Sprintf("%d %s", n, output.Plural(n, what))
}

// names lists paths after a colon, one per indented line, the first
// noticeNames of them, then how many more there are.
func names(paths []string) string {
	if len(paths) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(":")
	for i, p := range paths {
		if i == noticeNames && len(paths) > noticeNames+1 {
			fmt.Fprintf(&b, "\n  and %d more", len(paths)-noticeNames)
			break
		}
		if strings.ContainsFunc(p, unicode.IsControl) {
			p = strconv.Quote(p)
		}
		fmt.Fprintf(&b, "\n  %s", p)
	}
	return b.String()
}

// answers.go: Answer, decisions given ahead as letters or lines, and Play, which applies them to a review.

package review

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/pair-cli/pair/internal/output"
)

// Answer is one decision given ahead of the review, without a terminal:
// a key (y, n, a, d, A or q) and, for a rejection, an optional note.
type Answer struct {
	Key  rune
	Note string
}

// answerKeys are the keys an answer may use: only decisions, never moves.
const answerKeys = "ynadAq"

// ParseLetters reads answers written as one letter per hunk ("yny"), as
// --decisions gives them. Spaces and commas between letters are ignored.
func ParseLetters(s string) ([]Answer, error) {
	var out []Answer
	for i, c := range s {
		if unicode.IsSpace(c) || c == ',' {
			continue
		}
		if !strings.ContainsRune(answerKeys, c) {
			return nil, fmt.Errorf("decision %q at position %d: use y (approve), n (reject), a or d (approve or reject the rest of the file), A (always approve the file) or q (reject the rest)", c, i+1)
		}
		out = append(out, Answer{Key: c})
	}
	return out, nil
}

// LineAnswers reads answers one per line from r: a key, optionally
// followed by a note for a rejection ("n keep the old name"). Blank lines
// and lines starting with # are skipped. "yes" and "no" are y and n.
// The returned function reports false when the input ends.
func LineAnswers(r io.Reader) func() (Answer, bool, error) {
	sc := bufio.NewScanner(r)
	line := 0
	return func() (Answer, bool, error) {
		for sc.Scan() {
			line++
			s := strings.TrimSpace(sc.Text())
			if s == "" || strings.HasPrefix(s, "#") {
				continue
			}
			word, rest, _ := strings.Cut(s, " ")
			word = strings.TrimSuffix(word, ":")
			switch strings.ToLower(word) {
			case "yes":
				word = "y"
			case "no":
				word = "n"
			}
			if len(word) != 1 || !strings.ContainsRune(answerKeys, rune(word[0])) {
				return Answer{}, false, fmt.Errorf("line %d: %q is not a decision: start the line with y, n, a, d, A or q", line, clip(s))
			}
			a := Answer{Key: rune(word[0]), Note: strings.TrimSpace(rest)}
			if a.Note != "" && a.Key != 'n' && a.Key != 'd' {
				return Answer{}, false, fmt.Errorf("line %d: only a rejection (n or d) takes a note", line)
			}
			return a, true, nil
		}
		return Answer{}, false, sc.Err()
	}
}

// Letters turns a list of answers into a source for Play.
func Letters(as []Answer) func() (Answer, bool, error) {
	i := 0
	return func() (Answer, bool, error) {
		if i >= len(as) {
			return Answer{}, false, nil
		}
		i++
		return as[i-1], true, nil
	}
}

// AnswersError means the answers given ahead did not fit the review: too
// few for its hunks, or some left over. Nothing should be written.
type AnswersError struct {
	Used      int // answers used
	Undecided int // items left undecided when the answers ran out
	Extra     bool
}

func (e *AnswersError) Error() string {
	if e.Extra {
		return fmt.Sprintf("more decisions than hunks: %d %s decided every hunk, and more were given", e.Used, output.Plural(e.Used, "decision"))
	}
	if e.Used == 0 {
		return fmt.Sprintf("no decisions given for %d %s", e.Undecided, output.Plural(e.Undecided, "hunk"))
	}
	was := "decision was"
	if e.Used != 1 {
		was = "decisions were"
	}
	return fmt.Sprintf("decisions ran out: %d %s given, %d %s still undecided", e.Used, was, e.Undecided, output.Plural(e.Undecided, "hunk"))
}

// ErrNoAnswers is a sentinel for errors.Is on *AnswersError.
var ErrNoAnswers = errors.New("decisions do not fit the hunks")

func (e *AnswersError) Is(target error) bool { return target == ErrNoAnswers }

// Play decides the review in order from next's answers. It fails with an
// *AnswersError if they run out before every item is decided or if any
// are left over: the decisions were meant for other hunks, so none of
// them should count.
func (r *Review) Play(next func() (Answer, bool, error)) error {
	used := 0
	for !r.Done() {
		a, ok, err := next()
		if err != nil {
			return err
		}
		if !ok {
			return &AnswersError{Used: used, Undecided: r.Undecided()}
		}
		used++
		if err := r.Answer(a); err != nil {
			return err
		}
	}
	if _, ok, err := next(); err != nil {
		return err
	} else if ok {
		return &AnswersError{Used: used, Extra: true}
	}
	return nil
}

// Answer applies one decision key to the current item.
func (r *Review) Answer(a Answer) error {
	switch a.Key {
	case 'y':
		return r.Approve()
	case 'n':
		return r.Reject(a.Note)
	case 'a':
		return r.ApproveFile()
	case 'd':
		return r.RejectFile(a.Note)
	case 'A':
		return r.AlwaysApprove()
	case 'q':
		r.QuitReview()
		return nil
	}
	return fmt.Errorf("%q is not a decision", a.Key)
}

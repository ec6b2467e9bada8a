// indent.go: the ordered table of named cases that decide a hunk's indentation.

package edit

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// indentQuery is what the indentation of one reading is decided from:
// the hunk's lines, where they sit in the file, the evidence its
// deleted and context lines give (see evidence), and the candidate's
// comparison level.
type indentQuery struct {
	pl    *placer
	lines []Line
	pre   []preLine
	align []int
	c     *candidate
	ev    evidence
	// re is the mapping of the patch's indentation to the file's that
	// the cases decide.
	re reindent
}

// indentReading is how a reading indents its added lines: the mapping,
// whether the pass becomes PassIndent, the notes for the reviewer, the
// doubt that makes the reading only likely, and the cases that decided.
type indentReading struct {
	re reindent
	// differs is set when the witnesses differ from the file, which makes
	// a whitespace pass an indentation one; guessed when a guess
	// converts the added lines, which makes any stricter pass one.
	differs, guessed bool
	notes            []string
	doubt            string
	refuse           string
	rules            []RuleID
}

// indentCase is one named case of the indentation reading: when applies
// (it may set q.re), the reading takes the case's mapping and note.
type indentCase struct {
	Rule
	// group is the step the case belongs to: the first case of a group
	// that applies decides it (see readIndent).
	group   indentGroup
	applies func(q *indentQuery) bool
	// note is said to the reviewer, doubt makes the reading likely only
	// (a format of the added line that re moves), refuse refuses it.
	note   string
	doubt  func(q *indentQuery) string
	refuse string
}

type indentGroup int

const (
	// differs: the hunk's witnesses differ from the file's indentation.
	groupDiffers indentGroup = iota
	// lent: a hunk that shows nothing takes what the other hunks show.
	groupLent
	// doubts: readings that convert the added lines on a guess.
	groupGuess
	// moved: a mapping that moves lines whose indentation is text.
	groupMoved
)

// indentCases is the ordered table of the indentation cases. Each group
// is tried in its turn (see readIndent), and within a group the first
// case that applies decides.
var indentCases = sync.OnceValue(func() []indentCase {
	keep := func(q *indentQuery) bool { q.re = reindent{}; return true }
	fitsAsWritten := func(q *indentQuery) bool { return q.pl.indentsFit(q.lines, reindent{}) }
	return []indentCase{
		{
			Rule: Rule{ID: "indentLearnt", Stage: StageReading, Verdicts: []Verdict{Certain},
				Statement: "The hunk's deleted lines, or three or more context lines, show how the patch indents: the added lines are re-indented the same way."},
			group: groupDiffers,
			applies: func(q *indentQuery) bool {
				var ok bool
				q.re, ok = q.ev.reindent(q.pl.style)
				return ok
			},
		},
		{
			Rule: Rule{ID: "offStyle", Stage: StageReading, Verdicts: []Verdict{Certain},
				Statement: "The added lines are indented as the file indents, and the context lines that differ as it never does: the context lines are what is off, and the added lines stay as written."},
			group:   groupDiffers,
			applies: func(q *indentQuery) bool { return fitsAsWritten(q) && q.pl.offStyle(q.ev) && keep(q) },
			note:    "added lines kept at their indentation, which the file uses; the patch indents some context lines as the file never does",
		},
		{
			Rule: Rule{ID: "unanimousFit", Stage: StageReading, Verdicts: []Verdict{Certain},
				Statement: "Too few context lines to trust alone agree on a change of indentation, and only that change makes the added lines fit the file: they are re-indented."},
			group: groupDiffers,
			applies: func(q *indentQuery) bool {
				if !q.pl.unanimousFit(q.lines, q.ev) {
					return false
				}
				q.re = learnReindent(q.ev.ctx)
				return true
			},
		},
		{
			Rule: Rule{ID: "deletedUnchanged", Stage: StageReading, Verdicts: []Verdict{Certain},
				Statement: "The deleted lines show no change of indentation and the file can hold the added lines as written: they stay so."},
			group:   groupDiffers,
			applies: func(q *indentQuery) bool { return q.ev.deletedAtZero() && fitsAsWritten(q) && keep(q) },
		},
		{
			Rule: Rule{ID: "blankAdds", Stage: StageReading, Verdicts: []Verdict{Certain},
				Statement: "Blank added lines have no indentation to decide."},
			group: groupDiffers,
			applies: func(q *indentQuery) bool {
				return !slices.ContainsFunc(q.lines, func(l Line) bool { return l.Kind == Add && strings.TrimSpace(l.Text) != "" }) && keep(q)
			},
		},
		{
			Rule: Rule{ID: "addsAtNeighbours", Stage: StageReading, Verdicts: []Verdict{Certain},
				Statement: "Each run of added lines starts at the indentation of the file lines on both sides of it: they stay as written, since any change would move them off that level."},
			group: groupDiffers,
			applies: func(q *indentQuery) bool {
				return fitsAsWritten(q) && q.pl.addsAtNeighbours(q.lines, q.align) && keep(q)
			},
			note: "added lines kept at their indentation, that of the file's lines around them; the patch's context lines disagree on how it indents",
		},
		{
			Rule:    ruleIndentFromOneLine,
			group:   groupDiffers,
			applies: lostOnOneLine,
			doubt:   lostOnOneLineDoubt,
		},
		{
			Rule: Rule{ID: "indentUnknown", Stage: StageReading, Verdicts: []Verdict{Refuse},
				Statement: "The patch's indentation differs from the file's in a way that does not say how to indent the added lines: the hunk is refused."},
			group:   groupDiffers,
			applies: func(q *indentQuery) bool { return true },
			refuse:  "the patch's indentation differs from the file's in a way that does not say how to indent its added lines",
		},
		{
			Rule: Rule{ID: "lentStyle", Stage: StageReading, Verdicts: []Verdict{Certain},
				Statement: "A hunk that shows no indentation of its own takes the change of indentation style (tabs written as spaces) the patch's other hunks show."},
			group: groupLent,
			applies: func(q *indentQuery) bool {
				if !q.re.identity() || q.ev.indented || q.pl.style.kind == 0 {
					return false
				}
				q.re = reindent{style: q.pl.style}
				return true
			},
		},
		{
			Rule: Rule{ID: "indentsFit", Stage: StageReading, Verdicts: []Verdict{Certain},
				Statement: "Added lines indented as the file indents are not moved to an indentation the file never uses: the context lines are what is off."},
			group: groupLent,
			applies: func(q *indentQuery) bool {
				pl, lines := q.pl, q.lines
				if q.re.identity() || !pl.indentsFit(lines, reindent{}) || pl.indentsFit(lines, q.re) || q.ev.unanimous() && pl.indentsCovered(lines, q.re, q.align) {
					return false
				}
				q.re = reindent{}
				return true
			},
			note: "added lines kept at their indentation, which the file uses; the patch indents its context lines otherwise",
		},
		{
			Rule: Rule{ID: "fallbackStyle", Stage: StageReading, Verdicts: []Verdict{Likely},
				Statement: "A hunk that shows no indentation adds lines indented as the file never indents; the patch's other hunks disagree on converting such lines, so converting them is only likely."},
			group: groupGuess,
			applies: func(q *indentQuery) bool {
				pl, lines := q.pl, q.lines
				if !q.re.identity() || q.c.keepIndent || pl.style.kind != 0 || pl.fallback.kind == 0 || !indentedAdds(lines) {
					return false
				}
				if q.c.level == levelExact {
					q.ev = pl.evidence(q.pre, q.align)
				}
				fb := reindent{style: pl.fallback}
				if q.ev.indented || pl.indentsFit(lines, reindent{}) || !pl.indentsFit(lines, fb) {
					return false
				}
				q.re = fb
				return true
			},
			doubt: func(*indentQuery) string {
				return "the added lines are indented as the file never indents its lines; the patch's other hunks convert such indentation to the file's, but others match it as written, so which these lines want is a guess"
			},
		},
		{
			Rule: Rule{ID: "spacedOnly", Stage: StageReading, Verdicts: []Verdict{Likely},
				Statement: "The hunk's only indented lines are ones a file of tabs indents with spaces (a comment's, a raw string's): whether to convert the added lines as the other hunks do is only likely."},
			group: groupGuess,
			applies: func(q *indentQuery) bool {
				pl, lines := q.pl, q.lines
				if !q.re.identity() || q.c.keepIndent || !q.ev.spaced || !indentedAdds(lines) {
					return false
				}
				st := pl.converting()
				conv := reindent{style: st}
				if st.kind == 0 || pl.indentsFit(lines, reindent{}) || !pl.indentsFit(lines, conv) {
					return false
				}
				if _, ok := pl.movedInRawString(lines, q.align, conv); !ok {
					q.re = conv
				}
				return true
			},
			doubt: func(q *indentQuery) string {
				if !q.re.identity() {
					return "the hunk's only indented lines are indented with spaces as the file has them, which does not show whether the patch wrote the file's tabs as spaces, as its other hunks do; whether to convert the added lines' spaces to tabs is a guess"
				}
				// The likelier reading keeps a raw string's lines as the
				// file's own lines around them are, as written.
				l, _ := q.pl.movedInRawString(q.lines, q.align, reindent{style: q.pl.converting()})
				return fmt.Sprintf("added line %q is inside a raw string, whose indentation is the string's own text, and whether the patch wrote it with the file's tabs as spaces, as its other hunks do, is a guess", strings.TrimSpace(l))
			},
		},
		{
			Rule: Rule{ID: "unchangedPair", Stage: StageReading, Verdicts: []Verdict{Likely},
				Statement: "The hunk deletes a line and adds it back unchanged, which git never writes, while the patch's other hunks change the file's indentation: the two lines likely differed in indentation the patch lost, so converting is only likely."},
			group: groupGuess,
			applies: func(q *indentQuery) bool {
				if !q.re.identity() || q.c.keepIndent {
					return false
				}
				st := q.pl.converting()
				if st.kind == 0 {
					return false
				}
				if _, ok := unchangedPair(q.lines, reindent{style: st}); !ok {
					return false
				}
				q.re = reindent{style: st}
				return true
			},
			doubt: func(q *indentQuery) string {
				st := q.pl.converting()
				l, _ := unchangedPair(q.lines, reindent{style: st})
				return fmt.Sprintf("the hunk deletes line %q and adds it back unchanged, which git never writes: the patch's other hunks write the file's indentation otherwise (%s), so the two lines likely differed in indentation the patch lost; converting the added lines is a guess", strings.TrimSpace(l), st.describe())
			},
		},
		{
			Rule: Rule{ID: "movedInComment", Stage: StageReading, Verdicts: []Verdict{Likely},
				Statement: "Re-indenting an added line inside a block comment, whose indentation is the comment's own text, is only likely."},
			group: groupMoved,
			applies: func(q *indentQuery) bool {
				if !q.pl.blockComments {
					return false
				}
				_, ok := movedInComment(q.lines, q.re)
				return ok
			},
			doubt: func(q *indentQuery) string {
				// A comment's inner lines are indented as their writer
				// pleased (a table drawn in spaces after a tab): the
				// mapping that fits the code may not be how they were
				// written.
				l, _ := movedInComment(q.lines, q.re)
				return fmt.Sprintf("added line %q is inside a block comment, where indentation is the comment's own text, and re-indenting it as the code is a guess", strings.TrimSpace(l))
			},
		},
		{
			Rule: Rule{ID: "movedInRawString", Stage: StageReading, Verdicts: []Verdict{Likely},
				Statement: "Re-indenting an added line inside a Go raw string, whose indentation is the string's own text, is only likely."},
			group: groupMoved,
			applies: func(q *indentQuery) bool {
				_, ok := q.pl.movedInRawString(q.lines, q.align, q.re)
				return ok
			},
			doubt: func(q *indentQuery) string {
				l, _ := q.pl.movedInRawString(q.lines, q.align, q.re)
				return fmt.Sprintf("added line %q is inside a raw string, whose indentation is the string's own text, and re-indenting it as the code is a guess", strings.TrimSpace(l))
			},
		},
	}
})

// readIndent decides how a reading indents its added lines, from the
// evidence in q. The steps, in order:
//
//  1. where the witnesses differ from the file (a tolerant level), the
//     first case of groupDiffers that applies decides the mapping, or
//     doubts it (indentFromOneLine), or refuses (indentUnknown);
//  2. the cases of groupLent, each in turn: a hunk showing nothing takes
//     the patch's style, and a mapping that moves fitting lines off the
//     file's indentation is dropped;
//  3. unless the caller asked for the added lines as written, the first
//     case of groupGuess that applies converts them on a guess;
//  4. a caller's request for the lines as written (see otherReading);
//  5. unless a guess is already made, the first case of groupMoved that
//     applies doubts a mapping that moves text's indentation.
func readIndent(q indentQuery) indentReading {
	var out indentReading
	cases := indentCases()
	first := func(g indentGroup) *indentCase {
		for k := range cases {
			if ic := &cases[k]; ic.group == g && ic.applies(&q) {
				out.rules = append(out.rules, ic.ID)
				if ic.note != "" {
					out.notes = append(out.notes, ic.note)
				}
				return ic
			}
		}
		return nil
	}
	if q.c.level >= levelWhitespace && q.ev.differs && !q.pl.opts.IgnoreWhitespace {
		out.differs = true
		ic := first(groupDiffers)
		if ic.refuse != "" {
			out.refuse = ic.refuse
			return out
		}
		if ic.doubt != nil {
			out.doubt = ic.doubt(&q)
		}
	}
	for k := range cases {
		if ic := &cases[k]; ic.group == groupLent && ic.applies(&q) {
			out.rules = append(out.rules, ic.ID)
			if ic.note != "" {
				out.notes = append(out.notes, ic.note)
			}
		}
	}
	if ic := first(groupGuess); ic != nil {
		out.doubt = ic.doubt(&q)
		out.guessed = !q.re.identity()
	}
	if q.c.keepIndent {
		q.re = reindent{}
	}
	if out.doubt == "" && !q.re.identity() {
		if ic := first(groupMoved); ic != nil {
			out.doubt = ic.doubt(&q)
		}
	}
	out.re = q.re
	return out
}

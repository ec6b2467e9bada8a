// rule_indentfromoneline.go: the rule indentFromOneLine, a case of the indentation table (indentCases).

package edit

import (
	"fmt"
	"slices"
	"strings"
)

// ruleIndentFromOneLine is the rule of that id; see its Statement.
var ruleIndentFromOneLine = Rule{
	ID:        "indentFromOneLine",
	Stage:     StageReading,
	Verdicts:  []Verdict{Likely},
	Statement: "A hunk whose only line to place it by is one context line, written with less indentation than the file gives it, likely lost that indentation: re-indenting its added lines by what the line lost is only likely.",
}

// lostOnOneLine reports whether the hunk's one non-blank pre-image line
// is a context line that lost part of its indentation (the file's ends
// with the patch's), and its added lines, given what it lost, are
// indented as the file indents; it then sets q.re to add what was lost.
// The added lines may fit as written too: one line is no witness of how
// the patch indents (see indentLearnt), so the reading is only likely.
func lostOnOneLine(q *indentQuery) bool {
	if len(q.ev.del) > 0 || len(q.ev.ctx) != 1 {
		return false
	}
	w := q.ev.ctx[0]
	if oneLine(q.pre) == "" || len(w[1]) <= len(w[0]) || !strings.HasSuffix(w[1], w[0]) || !addsText(q.lines) {
		return false
	}
	m := reindent{add: w[1][:len(w[1])-len(w[0])]}
	if !q.pl.indentsFit(q.lines, m) {
		return false
	}
	q.re = m
	return true
}

// oneLine returns the one non-blank line of a pre-image, "" if it has
// none or more than one.
func oneLine(pre []preLine) string {
	one := ""
	for _, p := range pre {
		if strings.TrimSpace(p.text) == "" {
			continue
		}
		if one != "" {
			return ""
		}
		one = p.text
	}
	return one
}

// addsText reports whether the hunk adds a non-blank line.
func addsText(lines []Line) bool {
	return slices.ContainsFunc(lines, func(l Line) bool { return l.Kind == Add && strings.TrimSpace(l.Text) != "" })
}

// lostOnOneLineDoubt says why the reading of lostOnOneLine is only likely.
func lostOnOneLineDoubt(q *indentQuery) string {
	return fmt.Sprintf("the hunk's only line to place it by, %q, is indented %s in the file and %s in the patch: its added lines are re-indented by what that line lost, but one line does not show whether the patch lost the indentation of the added lines too",
		strings.TrimSpace(oneLine(q.pre)), describeIndent(q.ev.ctx[0][1]), describeIndent(q.ev.ctx[0][0]))
}

// describeIndent names an indentation in words: "by 2 tabs", "not at all".
func describeIndent(ind string) string {
	if ind == "" {
		return "not at all"
	}
	tabs := strings.Count(ind, "\t")
	spaces := len(ind) - tabs
	var parts []string
	if tabs > 0 {
		parts = append(parts, plural(tabs, "tab"))
	}
	if spaces > 0 {
		parts = append(parts, plural(spaces, "space"))
	}
	return "by " + strings.Join(parts, " and ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

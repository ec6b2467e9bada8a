// numbers.go: line numbers a model copied from read_file, found and removed.

package edit

import (
	"slices"
	"strconv"
	"strings"
)

// NumberedNote is the reviewer's note on a hunk whose lines carried their
// line numbers, as read_file shows them, and were read without them (see
// Unnumber).
const NumberedNote = "the lines carried their line numbers, as read_file shows them (N<TAB>line); pair removed the numbers"

// minNumbered is the fewest context and deleted lines a hunk must have
// for its numbers to be read as line numbers: one number proves nothing.
const minNumbered = 2

// Unnumber removes from the hunks of p the line numbers a model copied
// from read_file's output ("N<TAB>line", the number right-aligned with
// spaces) into its diff, and marks each such hunk Numbered. It returns
// how many hunks it changed.
//
// It decides per hunk, from the hunk's text and header alone, and only
// when every context and deleted line (at least two) starts with a number
// and a tab, the numbers run on by one, line after line, as the file's
// lines do, and the first is the header's old start when the header has
// one.
//
// Added lines lose their numbers too only when every run of them carries
// consecutive numbers that continue the old or the new side's numbering,
// and none of the old side's lines, its number removed, starts with a
// number and a tab again (then the file's lines carry numbers of their
// own, and so may the added lines). Otherwise they are kept as written:
// their numbers, if any, are taken as their text.
//
// Anything else is left as written, and diffs made by git (an "index"
// header) are never changed. A file whose lines really start with numbers
// and tabs (tab-separated data, say) keeps them unless the numbers run on
// exactly as the lines' own numbers; for that last case, KeepOwnNumbers
// gives such a hunk its numbers back when the file holds its lines as
// written.
func Unnumber(p *Patch) int {
	n := 0
	for _, f := range p.Files {
		if f.Indexed {
			continue
		}
		for _, h := range f.Hunks {
			if h.unnumber() {
				n++
			}
		}
	}
	return n
}

// unnumber removes the line numbers of h when its lines carry them
// consistently (see Unnumber).
func (h *Hunk) unnumber() bool {
	if h.Numbered {
		return false
	}
	nums := make([]int, len(h.Lines))
	rests := make([]string, len(h.Lines))
	first, old, added, addedNumbered := 0, 0, 0, 0
	for i, l := range h.Lines {
		num, rest, ok := lineNumber(l.Text)
		if l.Kind == Add {
			added++
			if ok {
				addedNumbered++
				nums[i], rests[i] = num, rest
			}
			continue
		}
		if !ok {
			return false
		}
		if old == 0 {
			first = num
		}
		if num != first+old {
			return false
		}
		nums[i], rests[i] = num, rest
		old++
	}
	if old < minNumbered || (h.HasNumbers && h.OldStart != first) {
		return false
	}
	stripAdded := addedNumbered > 0 && addedNumbered == added && h.addedNumbersRun(nums, first) && !ownNumbers(h, rests)
	h.written = slices.Clone(h.Lines)
	for i := range h.Lines {
		if h.Lines[i].Kind != Add || stripAdded {
			h.Lines[i].Text = rests[i]
		}
	}
	h.Numbered = true
	return true
}

// ownNumbers reports whether a context or deleted line of h, its number
// removed (rests), still starts with a number and a tab: the file's lines
// carry numbers of their own.
func ownNumbers(h *Hunk, rests []string) bool {
	for i, l := range h.Lines {
		if l.Kind == Add {
			continue
		}
		if _, _, ok := lineNumber(rests[i]); ok {
			return true
		}
	}
	return false
}

// addedNumbersRun reports whether every run of added lines of h carries
// consecutive numbers (nums) starting where the new side's numbering is,
// or where the old side's is: at the first line of the deleted lines the
// run replaces, or at the next old line. first is the old side's first
// number.
func (h *Hunk) addedNumbersRun(nums []int, first int) bool {
	newFirst := first
	if h.HasNumbers && h.NewStart > 0 {
		newFirst = first + h.NewStart - h.OldStart
	}
	oldNext, newNext, delFirst := first, newFirst, -1
	for i := 0; i < len(h.Lines); {
		switch h.Lines[i].Kind {
		case Context:
			oldNext++
			newNext++
			delFirst = -1
			i++
			continue
		case Delete:
			if delFirst < 0 {
				delFirst = oldNext
			}
			oldNext++
			i++
			continue
		}
		start := nums[i]
		if start != newNext && start != oldNext && start != delFirst {
			return false
		}
		for ; i < len(h.Lines) && h.Lines[i].Kind == Add; i++ {
			if nums[i] != start {
				return false
			}
			start++
			newNext++
		}
		delFirst = -1
	}
	return true
}

// lineNumber splits read_file's "N<TAB>" prefix, the number right-aligned
// with spaces, from s. Numbers start at 1 and have no leading zero.
func lineNumber(s string) (int, string, bool) {
	t := strings.TrimLeft(s, " ")
	digits, rest, ok := strings.Cut(t, "\t")
	if !ok || digits == "" || digits[0] == '0' || len(digits) > 9 {
		return 0, "", false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, "", false
		}
	}
	n, err := strconv.Atoi(digits)
	if err != nil {
		return 0, "", false
	}
	return n, rest, true
}

// KeepOwnNumbers gives back their numbers to the hunks of fd that
// Unnumber changed whose context and deleted lines, as written, numbers
// included, are consecutive lines of old, the file's content: the
// numbers were the file's own text (a tab-separated file whose first
// column is the line number, say), not read_file's. Line endings are not
// compared. It returns how many hunks it gave back.
func KeepOwnNumbers(fd *FileDiff, old string) int {
	old = "\n" + strings.ReplaceAll(old, "\r\n", "\n")
	n := 0
	for _, h := range fd.Hunks {
		if !h.Numbered {
			continue
		}
		var pre strings.Builder
		pre.WriteByte('\n')
		for _, l := range h.written {
			if l.Kind != Add {
				pre.WriteString(l.Text)
				pre.WriteByte('\n')
			}
		}
		if strings.Contains(old, pre.String()) || strings.HasSuffix(old, strings.TrimSuffix(pre.String(), "\n")) {
			h.Lines, h.written, h.Numbered = h.written, nil, false
			n++
		}
	}
	return n
}

// numbered reports whether a hunk of fd lost its line numbers.
func (fd *FileDiff) numbered() bool {
	return slices.ContainsFunc(fd.Hunks, func(h *Hunk) bool { return h.Numbered })
}

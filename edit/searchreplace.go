// searchreplace.go: SEARCH/REPLACE blocks, as Aider writes them, read into hunks.

package edit

import (
	"fmt"
	"strings"
)

// srMarker reports whether l is one of the markers of a SEARCH/REPLACE
// block: 5 to 9 of c, then word ("SEARCH", "REPLACE", or "" for the
// "=======" divider), as Aider writes and accepts them.
func srMarker(l string, c byte, word string) bool {
	if l == "" || l[0] != c { // most lines: the marker starts the line
		return false
	}
	l = strings.TrimRight(l, " \t")
	n := len(l) - len(strings.TrimLeft(l, string(c)))
	if n < 5 || n > 9 {
		return false
	}
	rest := strings.TrimSpace(l[n:])
	if c == '<' {
		rest = strings.TrimSuffix(rest, ">")
	}
	return rest == word
}

func isSearch(l string) bool  { return srMarker(l, '<', "SEARCH") }
func isDivider(l string) bool { return srMarker(l, '=', "") }
func isReplace(l string) bool { return srMarker(l, '>', "REPLACE") }

func hasSearchReplace(lines []string) bool {
	for _, l := range lines {
		if isSearch(l) {
			return true
		}
	}
	return false
}

// parseSearchReplace reads Aider's SEARCH/REPLACE blocks. Each block's
// file is named by the line before its fence, by the first line inside
// the fence, or by the fence's info string; a block without any of these
// is for the file of the block before it. Every block becomes a hunk
// without line numbers whose old side is the SEARCH lines: the placement
// engine finds it by content, tolerating whitespace as it does for any
// hunk, and refuses it where it fits more than one place. Lines common to
// both sides become context lines. An empty SEARCH is a hunk of added
// lines only: it creates the file, or fills an empty one.
func parseSearchReplace(lines []string) (*Edits, error) {
	e := &Edits{Form: FormSearchReplace}
	byPath := map[string]*FileDiff{}
	used := map[int]bool{} // fences that hold a block, by opening line
	prev := ""
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if isReplace(l) {
			return nil, &FormatError{FormSearchReplace, i + 1, "\">>>>>>> REPLACE\" without a \"<<<<<<< SEARCH\" before it"}
		}
		if !isSearch(l) {
			continue
		}
		start := i
		p, fence, pathFence := srPath(lines, i)
		for _, f := range []int{fence, pathFence} {
			if f >= 0 {
				used[f] = true
			}
		}
		if p == "" {
			p = prev
		}
		if p == "" {
			return nil, &FormatError{FormSearchReplace, start + 1, "SEARCH block without a file path: write the path on the line before the fence"}
		}
		var search, replace []string
		i++
		for ; i < len(lines) && !isDivider(lines[i]); i++ {
			if isSearch(lines[i]) || isReplace(lines[i]) {
				return nil, &FormatError{FormSearchReplace, i + 1, fmt.Sprintf("the SEARCH block opened at line %d has no \"=======\" before this marker", start+1)}
			}
			search = append(search, lines[i])
		}
		if i == len(lines) {
			return nil, &FormatError{FormSearchReplace, i, fmt.Sprintf("the text ends in the SEARCH block opened at line %d, before its \"=======\" and \">>>>>>> REPLACE\"", start+1)}
		}
		i++
		for ; i < len(lines) && !isReplace(lines[i]); i++ {
			if isSearch(lines[i]) || isDivider(lines[i]) {
				return nil, &FormatError{FormSearchReplace, i + 1, fmt.Sprintf("the block opened at line %d is not closed by \">>>>>>> REPLACE\" before this marker", start+1)}
			}
			replace = append(replace, lines[i])
		}
		if i == len(lines) {
			return nil, &FormatError{FormSearchReplace, i, fmt.Sprintf("the text ends before the block opened at line %d is closed by \">>>>>>> REPLACE\"", start+1)}
		}
		fd := byPath[p]
		if fd == nil {
			fd = &FileDiff{OldPath: p, NewPath: p, Stripped: true}
			byPath[p] = fd
			e.Files = append(e.Files, fd)
		}
		fd.Hunks = append(fd.Hunks, replaceHunk(search, replace))
		prev = p
	}
	for _, b := range fencedBlocks(lines) {
		if !used[b.open] && !blockHasMarker(b.body) {
			e.Ignored = append(e.Ignored, Ignored{Line: b.open + 1, Reason: "no SEARCH/REPLACE block in it: taken as example code"})
		}
	}
	return e, nil
}

func blockHasMarker(body []string) bool {
	for _, l := range body {
		if isSearch(l) || isReplace(l) {
			return true
		}
	}
	return false
}

// srPath finds the path of the block whose SEARCH marker is at line i: the
// line before it (a path as the fence's first line), the fence's info
// string, the line before the fence (a blank line between allowed), or a
// fence of its own holding only the path, just before the block's fence. It
// returns the indexes of the opening fence and of the path's fence, or -1.
func srPath(lines []string, i int) (p string, fence, pathFence int) {
	fence, pathFence = -1, -1
	if i == 0 {
		return "", fence, pathFence
	}
	k := i - 1
	if p, ok := pathLine(lines[k], false); ok {
		if k > 0 {
			if _, _, isFence := fenceOpen(lines[k-1]); isFence {
				fence = k - 1
			}
		}
		return p, fence, pathFence
	}
	_, info, isFence := fenceOpen(lines[k])
	if !isFence {
		return "", fence, pathFence
	}
	fence = k
	if p, ok := infoPath(info); ok {
		return p, fence, pathFence
	}
	for k--; k >= 0 && k >= fence-2; k-- {
		if strings.TrimSpace(lines[k]) == "" {
			continue
		}
		if k >= 2 && bareFence(strings.TrimSpace(lines[k])) {
			// The path alone in a fence of its own, as deepseek-coder
			// writes it: "```python", "path", "```", then the block's fence.
			if _, _, open := fenceOpen(lines[k-2]); open {
				if p, ok := pathLine(lines[k-1], false); ok {
					return p, fence, k - 2
				}
			}
		}
		p, _ := pathLine(lines[k], false)
		return p, fence, pathFence
	}
	return "", fence, pathFence
}

// replaceHunk is the hunk that replaces search by replace: lines the two
// have in common, in order, are context.
func replaceHunk(search, replace []string) *Hunk {
	h := &Hunk{}
	if len(search) == 0 {
		for _, l := range replace {
			h.Lines = append(h.Lines, Line{Kind: Add, Text: l})
		}
		return h
	}
	i, j := 0, 0
	for _, op := range lineOps(linesText(search), linesText(replace)) {
		for n := 0; n < op.n; n++ {
			switch op.kind {
			case Context:
				h.Lines = append(h.Lines, Line{Kind: Context, Text: search[i]})
				i++
				j++
			case Delete:
				h.Lines = append(h.Lines, Line{Kind: Delete, Text: search[i]})
				i++
			case Add:
				h.Lines = append(h.Lines, Line{Kind: Add, Text: replace[j]})
				j++
			}
		}
	}
	return h
}

// linesText is lines as a file whose every line ends with a newline.
func linesText(lines []string) fileText {
	t := fileText{lines: lines, eols: make([]string, len(lines))}
	for i := range t.eols {
		t.eols[i] = "\n"
	}
	return t
}

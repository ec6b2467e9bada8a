// v4a.go: V4A patches, as Codex writes them, read into hunks.

package edit

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// unifiedHeader matches a unified diff's hunk header, which models also
// write in V4A patches. It is compiled on first use, not at start-up.
var unifiedHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^@@+ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@+(.*)$`)
})

// The markers of the V4A apply_patch form.
const (
	v4aBegin  = "*** Begin Patch"
	v4aEnd    = "*** End Patch"
	v4aUpdate = "*** Update File:"
	v4aAdd    = "*** Add File:"
	v4aDelete = "*** Delete File:"
	v4aMove   = "*** Move to:"
	v4aEOF    = "*** End of File"
)

// v4aHint is what a V4A hunk says about its place besides its lines: the
// "@@" anchor lines to find above it, in order, and whether it ends at
// the end of the file.
type v4aHint struct {
	anchors []string
	atEnd   bool
}

func hasV4A(lines []string) bool {
	for i, l := range lines {
		if paddedBegin(lines, i) {
			return true
		}
		if !strings.HasPrefix(l, "*") { // every marker starts with "***"
			continue
		}
		l = strings.TrimRight(l, " \t")
		if l == v4aBegin || strings.HasPrefix(l, v4aUpdate) || strings.HasPrefix(l, v4aAdd) || strings.HasPrefix(l, v4aDelete) {
			return true
		}
	}
	return false
}

// paddedBegin reports whether lines[i] is "*** Begin Patch" with
// whitespace before it, as the first line of the text or of a fenced
// block (where it cannot be a context line of a unified diff).
func paddedBegin(lines []string, i int) bool {
	if strings.TrimSpace(lines[i]) != v4aBegin || lines[i][0] == '*' {
		return false
	}
	for k := i - 1; k >= 0; k-- {
		if strings.TrimSpace(lines[k]) != "" {
			_, _, fence := fenceOpen(lines[k])
			return fence
		}
	}
	return true
}

// atEnd reports whether only blank lines and closing fences follow line i.
func atEnd(lines []string, i int) bool {
	for _, l := range lines[i+1:] {
		if strings.TrimSpace(l) != "" && !bareFence(strings.TrimSpace(l)) {
			return false
		}
	}
	return true
}

// parseV4A reads the apply_patch form. Text outside "*** Begin Patch" and
// "*** End Patch" is prose (a patch without "*** Begin Patch" starts at
// its first file marker, one without "*** End Patch" ends at a closing
// fence or at the end of the text). Each "@@" line starts a hunk; its
// text is an anchor, a line to find above the hunk, kept as the hunk's
// Section and used by Patch as a line hint. A hunk without numbers is
// placed by its context like any other.
func parseV4A(lines []string) (*Edits, error) {
	e := &Edits{Form: FormV4A, hints: map[*Hunk]v4aHint{}, deleteAll: map[*FileDiff]bool{}}
	used := map[int]bool{}
	for i := 0; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], " \t")
		if paddedBegin(lines, i) {
			l = v4aBegin
		}
		if l != v4aBegin && !strings.HasPrefix(l, v4aUpdate) && !strings.HasPrefix(l, v4aAdd) && !strings.HasPrefix(l, v4aDelete) {
			continue
		}
		if l == v4aBegin {
			i++
		}
		end, err := e.v4aPatch(lines, i)
		if err != nil {
			return nil, err
		}
		for k := i; k <= end && k < len(lines); k++ {
			used[k] = true
		}
		i = end
	}
	for _, b := range fencedBlocks(lines) {
		inside := false
		for k := b.open; k <= b.end && k < len(lines); k++ {
			inside = inside || used[k]
		}
		if !inside {
			e.Ignored = append(e.Ignored, Ignored{Line: b.open + 1, Reason: "not part of a *** Begin Patch: taken as example code"})
		}
	}
	return e, nil
}

// v4aPatch reads the file sections of one patch from line i, and returns
// the index of the line that ended it.
func (e *Edits) v4aPatch(lines []string, i int) (int, error) {
	var fd *FileDiff
	var h *Hunk
	var anchors []string
	numbered := 0 // the old start of a unified "@@ -a,b +c,d @@" header
	adding := false
	blanks := 0 // empty lines of an added file not yet known to be part of it
	closeHunk := func(atEnd bool) {
		if h != nil && !adding {
			trimBlankTail(h)
		}
		if h != nil && (adding || len(h.Lines) > 0) {
			fd.Hunks = append(fd.Hunks, h)
			e.hints[h] = v4aHint{anchors: anchors, atEnd: atEnd}
		}
		h, anchors, numbered = nil, nil, 0
	}
	closeFile := func(at int) error {
		if fd != nil && len(anchors) > 0 && h == nil {
			return &FormatError{FormV4A, at + 1, "\"@@\" anchor without any line after it"}
		}
		closeHunk(false)
		if adding && len(fd.Hunks) == 1 && len(fd.Hunks[0].Lines) == 0 {
			fd.Hunks = nil // an empty new file
		}
		fd, adding, blanks = nil, false, 0
		return nil
	}
	name := func(l, marker string, at int) (string, error) {
		p := strings.TrimSpace(strings.TrimPrefix(l, marker))
		if p == "" {
			return "", &FormatError{FormV4A, at + 1, fmt.Sprintf("%q without a path", marker)}
		}
		return p, nil
	}
	for ; i < len(lines); i++ {
		raw := lines[i]
		l := strings.TrimRight(raw, " \t")
		// Whitespace before a marker, as Codex's apply_patch forgives it:
		// outside an update hunk, where no line starts with a space, and
		// on "*** End Patch" at the end of the text.
		if t := strings.TrimSpace(l); t != l && (strings.HasPrefix(t, "***") &&
			(fd == nil || adding || fd.Deleted || t == v4aEnd && atEnd(lines, i)) ||
			h == nil && fd != nil && !adding && (t == "@@" || strings.HasPrefix(t, "@@ "))) {
			l = t
		}
		switch {
		case l == v4aEnd:
			return i, closeFile(i)
		case l == v4aBegin:
			return i, &FormatError{FormV4A, i + 1, "\"*** Begin Patch\" inside a patch: the patch before it has no \"*** End Patch\""}
		case strings.HasPrefix(l, v4aUpdate), strings.HasPrefix(l, v4aAdd), strings.HasPrefix(l, v4aDelete):
			if err := closeFile(i); err != nil {
				return i, err
			}
			marker := v4aUpdate
			if strings.HasPrefix(l, v4aAdd) {
				marker = v4aAdd
			} else if strings.HasPrefix(l, v4aDelete) {
				marker = v4aDelete
			}
			p, err := name(l, marker, i)
			if err != nil {
				return i, err
			}
			fd = &FileDiff{OldPath: p, NewPath: p, Stripped: true}
			e.Files = append(e.Files, fd)
			switch marker {
			case v4aAdd:
				fd.OldPath, fd.New, adding = "", true, true
				h = &Hunk{}
			case v4aDelete:
				fd.NewPath, fd.Deleted = "", true
				e.deleteAll[fd] = true
			}
		case strings.HasPrefix(l, v4aMove):
			if fd == nil || fd.New || fd.Deleted || len(fd.Hunks) > 0 || h != nil || fd.Renamed {
				return i, &FormatError{FormV4A, i + 1, "\"*** Move to:\" must follow \"*** Update File:\" directly"}
			}
			p, err := name(l, v4aMove, i)
			if err != nil {
				return i, err
			}
			fd.NewPath, fd.Renamed = p, true
		case l == v4aEOF:
			if fd == nil || adding || h == nil {
				return i, &FormatError{FormV4A, i + 1, "\"*** End of File\" outside an update hunk"}
			}
			closeHunk(true)
		case strings.HasPrefix(l, "***"):
			return i, &FormatError{FormV4A, i + 1, fmt.Sprintf("unknown marker %q: expected *** Update File:, *** Add File:, *** Delete File:, *** Move to:, *** End of File or *** End Patch", l)}
		case fd == nil:
			if strings.TrimSpace(l) == "" {
				continue
			}
			if _, _, ok := fenceOpen(l); ok {
				return i - 1, nil // the fence around a patch without "*** End Patch"
			}
			return i, &FormatError{FormV4A, i + 1, "a line outside any file section: start one with *** Update File:, *** Add File: or *** Delete File:"}
		case adding:
			switch {
			case strings.HasPrefix(raw, "+"):
				for ; blanks > 0; blanks-- {
					h.Lines = append(h.Lines, Line{Kind: Add})
				}
				h.Lines = append(h.Lines, Line{Kind: Add, Text: raw[1:]})
			case raw == "":
				blanks++
			case bareFence(raw):
				return i - 1, closeFile(i)
			default:
				return i, &FormatError{FormV4A, i + 1, "a line of an added file must start with +"}
			}
		case fd.Deleted:
			if strings.TrimSpace(l) != "" {
				if bareFence(raw) {
					return i - 1, closeFile(i)
				}
				return i, &FormatError{FormV4A, i + 1, "a deleted file takes no lines"}
			}
		case strings.HasPrefix(l, "@@"):
			if h != nil {
				closeHunk(false)
			}
			if m := unifiedHeader().FindStringSubmatch(l); m != nil {
				// A unified diff's header in a V4A patch: its number is a
				// hint, and what follows it a section, not an anchor.
				start, _ := strconv.Atoi(m[1])
				numbered = start
				if a := strings.TrimSpace(m[2]); a != "" {
					anchors = append(anchors, a)
				}
				continue
			}
			if a := strings.TrimSpace(strings.TrimPrefix(l, "@@")); a != "" {
				anchors = append(anchors, a)
			}
		default:
			if bareFence(raw) {
				return i - 1, closeFile(i)
			}
			if h == nil {
				h = &Hunk{}
				if len(anchors) > 0 {
					h.Section = anchors[len(anchors)-1]
				}
				if numbered > 0 {
					h.HasNumbers, h.OldStart = true, numbered
				}
			}
			switch {
			case raw == "":
				h.Lines = append(h.Lines, Line{Kind: Context})
			case raw[0] == ' ' || raw[0] == '-' || raw[0] == '+':
				h.Lines = append(h.Lines, Line{Kind: Kind(raw[0]), Text: raw[1:]})
			default:
				return i, &FormatError{FormV4A, i + 1, "a line of an update hunk must start with ' ' (context), '-' (removed) or '+' (added)"}
			}
		}
	}
	return len(lines), closeFile(len(lines) - 1)
}

// bareFence reports whether l is a closing fence at the start of the line:
// the end of a fenced patch that has no "*** End Patch".
func bareFence(l string) bool {
	return strings.HasPrefix(l, "```") && strings.Trim(l, "` \t") == ""
}

// trimBlankTail drops empty context lines at the end of a hunk: they are
// the blank line between a hunk and the next marker.
func trimBlankTail(h *Hunk) {
	n := len(h.Lines)
	for n > 0 && h.Lines[n-1] == (Line{Kind: Context}) {
		n--
	}
	h.Lines = h.Lines[:n]
}

// applyHints turns the V4A anchors and "*** End of File" of fd's hunks
// into line hints against old, the file's content. An anchor is found
// as V4A finds it: the first line, after the previous anchor, equal to it
// but for surrounding whitespace; the hint is the line after it. A hunk at
// the end of the file is hinted at its last lines, and one with no
// context gets the file's last line as context, so that its place is
// the end of the file; so does a chunk that only adds lines, without an
// anchor. An anchor that is not in the file gives no hint.
func (e *Edits) applyHints(fd *FileDiff, old string) {
	t := splitFile(old)
	for _, h := range fd.Hunks {
		hint, ok := e.hints[h]
		if !ok || h.HasNumbers {
			continue
		}
		// A chunk that only adds lines, with no anchor to find, goes at
		// the end of the file, as Codex's apply_patch puts it.
		if hint.atEnd || len(hint.anchors) == 0 && len(h.Pre()) == 0 {
			if len(h.Pre()) == 0 && len(t.lines) > 0 {
				h.Lines = append([]Line{{Kind: Context, Text: t.lines[len(t.lines)-1]}}, h.Lines...)
			}
			h.HasNumbers, h.OldStart = true, max(1, len(t.lines)-len(h.Pre())+1)
			continue
		}
		if len(hint.anchors) == 0 {
			continue
		}
		at, found := 0, true
		for _, a := range hint.anchors {
			found = false
			for ; at < len(t.lines); at++ {
				if strings.TrimSpace(t.lines[at]) == a {
					found = true
					at++
					break
				}
			}
			if !found {
				break
			}
		}
		if found {
			h.HasNumbers, h.OldStart = true, at+1
		}
	}
}

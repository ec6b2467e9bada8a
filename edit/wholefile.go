// wholefile.go: whole files in a reply, turned into hunks against the file.

package edit

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// WholeFile is a file's complete new content, as a model writes it in a
// fenced block under the file's path. It becomes hunks only against the
// file's current content (see Diff).
type WholeFile struct {
	Path string
	// Content is the block's lines, each ending with a newline.
	Content string
	// Line is the 1-based line of the block's opening fence.
	Line int
	// Exact marks content given exactly, final newline or not (a model's
	// write_file), rather than in a fence: it is never taken as an
	// excerpt.
	Exact bool
}

// Diff returns the file diff that turns old into w's content: the hunks
// of a line diff, with line numbers, as git diff would write them. old is
// the file's current content, or (see Edits.Base) the content w was
// written against. When the file does not exist (exists is false) it is
// created. A fence cannot say whether the file ends with a newline, so
// the file's own final newline (or its absence) is kept.
func (w WholeFile) Diff(old string, exists bool) (*FileDiff, error) {
	if !exists {
		return fileDiffOf("", w.Path, "", w.Content)
	}
	fd, err := fileDiffOf(w.Path, w.Path, old, w.Text(old, exists))
	if err != nil {
		return nil, err
	}
	fd.OldPath, fd.NewPath = w.Path, w.Path
	return fd, nil
}

// Text is w's content as it replaces old (see Diff): with old's final
// newline, or its absence, unless w is Exact.
func (w WholeFile) Text(old string, exists bool) string {
	if exists && !w.Exact && !splitFile(old).finalNewline() {
		return strings.TrimSuffix(w.Content, "\n")
	}
	return w.Content
}

// excerpt returns why w cannot be taken as the whole of old, or "": a
// block that keeps less than half of the lines of a file of some size is
// an excerpt the model quoted, not the file's new content.
func (w WholeFile) excerpt(old string) string {
	ot := splitFile(old)
	if w.Exact || len(ot.lines) < 8 {
		return ""
	}
	kept := 0
	for _, op := range lineOps(ot, splitFile(w.Content)) {
		if op.kind == Context {
			kept += op.n
		}
	}
	if 2*kept >= len(ot.lines) {
		return ""
	}
	return fmt.Sprintf("keeps %d of the %d lines of %s: taken as an excerpt, not the whole file (send a diff to change part of a file)", kept, len(ot.lines), w.Path)
}

// elision matches a line that stands for lines left out ("// ... existing
// code ...", "# rest of the file unchanged"): a block holding one is not
// a whole file. It is compiled on first use, not at start-up.
var elision = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\s*(//|#|--|;|/?\*|<!--)?\s*(\.\.\.|…)?\s*(rest of|existing|unchanged|remains? the same|same as before|omitted|remaining|other (code|methods|functions))\b.*(\.\.\.|…)?`)
})

// elided reports whether a block's line stands for lines left out.
func elided(l string) bool {
	t := strings.TrimSpace(l)
	if !strings.Contains(t, "...") && !strings.Contains(t, "…") {
		return false
	}
	return elision().MatchString(t) || strings.HasPrefix(t, "...") && strings.Count(t, "...") == 1 && len(t) > 3 && !strings.ContainsAny(t, "()[]{}=;")
}

// parseWholeFiles takes every fenced block named by a path (the fence's
// info string, or a path alone on the line before the fence) as a whole
// file. Other blocks are example code; blocks that leave lines out are
// excerpts.
func parseWholeFiles(lines []string) *Edits {
	e := &Edits{Form: FormWholeFile}
	for _, b := range fencedBlocks(lines) {
		p, ok := infoPath(b.info)
		if !ok && b.open > 0 {
			p, ok = pathLine(lines[b.open-1], true)
		}
		switch {
		case !ok:
			e.Ignored = append(e.Ignored, Ignored{Line: b.open + 1, Reason: "no path names it: taken as example code"})
			continue
		case b.end >= len(lines):
			e.Ignored = append(e.Ignored, Ignored{Line: b.open + 1, Reason: "the fence is never closed: the file may be cut short"})
			continue
		}
		if i := slices.IndexFunc(b.body, elided); i >= 0 {
			e.Ignored = append(e.Ignored, Ignored{Line: b.open + 1, Reason: fmt.Sprintf("line %d leaves lines out (%q): not a whole file", b.open+2+i, strings.TrimSpace(b.body[i]))})
			continue
		}
		var c strings.Builder
		for _, l := range b.body {
			c.WriteString(l)
			c.WriteByte('\n')
		}
		if k := slices.IndexFunc(e.Whole, func(w WholeFile) bool { return w.Path == p }); k >= 0 {
			e.Ignored = append(e.Ignored, Ignored{Line: e.Whole[k].Line, Reason: fmt.Sprintf("a later block (line %d) gives %s again", b.open+1, p)})
			e.Whole = slices.Delete(e.Whole, k, k+1)
		}
		e.Whole = append(e.Whole, WholeFile{Path: p, Content: c.String(), Line: b.open + 1})
	}
	return e
}

package agent

import (
	"slices"
	"strings"

	"github.com/pair-cli/pair/edit"
)

// SeenFile is what the model was last shown of a file: its last read
// (whole or a range), the file as sent in context, or the file as the
// model's approved edit left it. It is the base of a three-way reading
// of the model's hunks (edit.FilePlan.ThreeWay).
type SeenFile struct {
	Path string `json:"path"`
	edit.Seen
}

// saw records that the model was shown text, lines from start (1-based)
// of the file p. Only the last view of each file is kept, and all of them
// together within the context budget: the oldest go first.
func (a *Agent) saw(p string, start int, text string) {
	st := a.st
	st.Seen = slices.DeleteFunc(st.Seen, func(f SeenFile) bool { return f.Path == p })
	budget := a.settings().ContextChars
	if text == "" || len(text) > budget/2 {
		return
	}
	st.Seen = append(st.Seen, SeenFile{Path: p, Seen: edit.Seen{Start: start, Text: text}})
	total := 0
	for _, f := range st.Seen {
		total += len(f.Text)
	}
	for total > budget && len(st.Seen) > 1 {
		total -= len(st.Seen[0].Text)
		st.Seen = st.Seen[1:]
	}
}

// seen returns what the model was last shown of the file p.
func (a *Agent) seen(p string) (edit.Seen, bool) {
	for _, f := range a.st.Seen {
		if f.Path == p {
			return f.Seen, true
		}
	}
	return edit.Seen{}, false
}

// threeWay reads the refused hunks of plans again against what the model
// was shown of their files: a hunk written against lines the person has
// changed since is placed with the person's lines kept, or refused as a
// conflict (see edit.FilePlan.ThreeWay).
func (a *Agent) threeWay(plans []*edit.FilePlan) {
	for _, p := range plans {
		if len(p.Errors) == 0 || p.OldPath == "" {
			continue
		}
		if s, ok := a.seen(p.OldPath); ok {
			p.ThreeWay(s)
		}
	}
}

// sawWritten records, after approved hunks were written, each written
// file as it now is: the model was told what became of its hunks, so this
// is the file as it knows it. A deleted file is forgotten.
func (a *Agent) sawWritten(plans []*edit.FilePlan) {
	for _, p := range plans {
		if p.OldPath != "" && p.OldPath != p.NewPath {
			a.saw(p.OldPath, 1, "")
		}
		if p.NewPath == "" {
			continue
		}
		text, cut, err := a.Tree.ReadText(p.NewPath, a.Access, maxReadBytes)
		if err != nil || cut {
			text = ""
		}
		a.saw(p.NewPath, 1, text)
	}
}

// sawContext records a file sent in context: its text, without a last
// line cut short when it was truncated.
func (a *Agent) sawContext(p, text string, truncated bool) {
	if truncated {
		if i := strings.LastIndexByte(text, '\n'); i >= 0 {
			text = text[:i+1]
		} else {
			text = ""
		}
	}
	a.saw(p, 1, text)
}

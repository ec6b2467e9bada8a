package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/pair-cli/pair/edit"
)

// unparsed is the feedback for an edit that does not parse: what is
// wrong, and the one form the system prompt teaches (see systemPrompt).
// pair reads other forms too (see edit.ParseEdits), but the model is
// taught one, so that it does not mix them.
func unparsed(err error, textOnly bool) string {
	problem := err.Error()
	if errors.Is(err, edit.ErrNoEdits) {
		// Its text lists every form pair reads: keep only the reasons.
		problem = "no unified diff found" + strings.TrimPrefix(problem, edit.ErrNoEdits.Error())
	}
	send := `Send a unified diff with propose_diff: "--- a/path" and "+++ b/path" headers, then "@@" hunks whose lines start with " " (context, copied from the file), "-" (removed) or "+" (added); or call write_file with the complete content of a new or rewritten file.`
	if textOnly {
		send = `Send a unified diff in a fenced block marked diff: "--- a/path" and "+++ b/path" headers, then "@@" hunks whose lines start with " " (context, copied from the file), "-" (removed) or "+" (added).`
	}
	return "error: the edit does not parse: " + problem + ". " + send
}

// parsedEdit is an edit read for a proposal: its patch, the bases its
// whole files are changes from, and those files as the model wrote them.
type parsedEdit struct {
	patch *edit.Patch
	bases []Base
	whole map[string]string
}

// writeArgs are the arguments of a write_file, as a pending proposal
// keeps them.
type writeArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

// writeText is the text of a proposal made by write_file (see edits).
func writeText(path, content string) string {
	b, _ := json.Marshal(writeArgs{Path: path, Content: content}) // strings only: no error
	return string(b)
}

// parseEdits reads an edit in any form pair knows (see edit.ParseEdits),
// or, for write_file, the file it writes (see writeText), and completes it
// against the files as they are now. Whole files are changes from their
// bases: those given (a resumed proposal's), else the base of each file
// now (see base). Fenced blocks that were not taken as edits go into the
// action log, with why.
func (a *Agent) parseEdits(tool, text string, fixed []Base) (*parsedEdit, error) {
	e, err := a.editsOf(tool, text)
	if err != nil {
		return nil, err
	}
	pe := &parsedEdit{whole: map[string]string{}}
	e.Base = func(p string) (string, error) {
		b, err := findBase(fixed, p)
		if err != nil {
			b, err = a.base(p)
		}
		if err != nil {
			return "", err
		}
		pe.bases = append(pe.bases, b)
		if b.Missing {
			return "", fmt.Errorf("%s: %w", p, errMissing)
		}
		return b.Text, nil
	}
	pe.patch, err = e.Patch(a.readCurrent)
	for _, ig := range e.Ignored {
		a.log(ActionNotice, tool, fmt.Sprintf("%s edit: ignored the block at line %d: %s", e.Form, ig.Line, ig.Reason))
	}
	if err != nil {
		return nil, err
	}
	for _, w := range e.Whole {
		if b, err := findBase(pe.bases, w.Path); err == nil {
			pe.whole[w.Path] = w.Text(b.Text, !b.Missing)
		}
	}
	return pe, nil
}

// editsOf reads the edits of a proposal's text: a write_file's file, or
// an edit in any form.
func (a *Agent) editsOf(tool, text string) (*edit.Edits, error) {
	var w writeArgs
	if tool == "write_file" && json.Unmarshal([]byte(text), &w) == nil && w.Path != "" {
		return &edit.Edits{Form: edit.FormWholeFile, Whole: []edit.WholeFile{{Path: w.Path, Content: w.Content, Exact: true}}}, nil
	}
	// A write_file paused before its text was its arguments holds a
	// unified diff.
	return edit.ParseEdits(text)
}

// readCurrent reads a file an edit names, with the session's access.
func (a *Agent) readCurrent(p string) (string, error) {
	return a.Tree.ReadEditTarget(p, a.Access)
}

// replyHasEdits reports whether a reply without tool calls holds an edit
// in any form: a fenced or bare unified diff, SEARCH/REPLACE blocks, a V4A
// patch (well formed or not), or a whole file under its path that differs
// from the file. Code in a fence without a path is an example, not an
// edit.
func (a *Agent) replyHasEdits(s string) bool {
	if hasDiff(s) {
		return true
	}
	e, err := edit.ParseEdits(s)
	var fe *edit.FormatError
	switch {
	case errors.As(err, &fe):
		return true // a broken edit: proposing it tells the model why
	case err != nil:
		return false
	case e.Form != edit.FormWholeFile:
		return true
	}
	_, err = e.Patch(a.readCurrent)
	return !errors.Is(err, edit.ErrNoEdits)
}

package agent

import (
	"errors"
	"fmt"

	"github.com/pair-cli/pair/edit"
)

// editForms names the edit forms pair reads, for the model.
const editForms = "a unified diff (---/+++ headers, @@ hunks), Aider's SEARCH/REPLACE blocks under the file's path, " +
	"a V4A patch (*** Begin Patch), or a whole file in a fenced block under its path"

// parseEdits reads an edit in any form pair knows (see edit.ParseEdits)
// and completes it against the files as they are now. Fenced blocks that
// were not taken as edits go into the action log, with why.
func (a *Agent) parseEdits(tool, text string) (*edit.Patch, error) {
	e, err := edit.ParseEdits(text)
	if err != nil {
		return nil, err
	}
	p, err := e.Patch(a.readCurrent)
	for _, ig := range e.Ignored {
		a.log(ActionNotice, tool, fmt.Sprintf("%s edit: ignored the block at line %d: %s", e.Form, ig.Line, ig.Reason))
	}
	return p, err
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

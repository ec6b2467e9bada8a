package agent

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/repo"
)

// SeenFile is what the model was last shown of a file: its last read
// (whole or a range), the file as sent in context, or the file as the
// model's approved edit left it. It is the base of a three-way reading
// of the model's hunks (edit.FilePlan.ThreeWay).
type SeenFile struct {
	Path string `json:"path"`
	edit.Seen
	// Whole marks a view of the whole file, from its first line to its
	// end: the base of the model's whole-file forms (see base).
	Whole bool `json:"whole,omitempty"`
}

// saw records that the model was shown text, lines from start (1-based)
// of the file p; whole, that it was the whole file. Only the last view of
// each file is kept, and all of them together within the context budget:
// the oldest go first.
func (a *Agent) saw(p string, start int, text string, whole bool) {
	st := a.st
	st.Seen = slices.DeleteFunc(st.Seen, func(f SeenFile) bool { return f.Path == p })
	budget := a.settings().ContextChars
	if text == "" || len(text) > budget/2 {
		return
	}
	st.Seen = append(st.Seen, SeenFile{Path: p, Seen: edit.Seen{Start: start, Text: text}, Whole: whole && start == 1})
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

// seenWhole returns the model's last view of the file p when it was the
// whole file.
func (a *Agent) seenWhole(p string) (edit.Seen, bool) {
	for _, f := range a.st.Seen {
		if f.Path == p && f.Whole {
			return f.Seen, true
		}
	}
	return edit.Seen{}, false
}

// Where a Base comes from.
const (
	baseSeen = "seen" // the model's last view of the whole file
	baseHead = "HEAD" // the file as HEAD commits it
)

// errMissing is a base without the file: a whole file written over it
// creates it.
var errMissing = fmt.Errorf("no such file in what the model saw: %w", fs.ErrNotExist)

// errNoBase means a pending proposal fixed no base for a file.
var errNoBase = errors.New("no base")

// errUnread refuses a whole file written over a file that git does not
// have and the model has not read whole: nothing tells the person's lines
// from the ones the model means to drop.
var errUnread = errors.New("the file exists, is not committed, and you have not read all of it: read it with read_file, then send your change again")

// base returns what a whole file the model writes at p (write_file, a
// whole file in a reply) is a change from: the whole file as the model
// last saw it (read from its first line to its end, sent whole in
// context, or as its approved whole-file edit left it); else, when the
// model saw part of it or none, the file as HEAD commits it, the version
// the person's uncommitted changes are changes from; else, for a file
// that does not exist, nothing (the edit creates it). A file that
// exists, that git does not have and that the model has not seen whole is
// refused (errUnread).
func (a *Agent) base(p string) (Base, error) {
	if s, ok := a.seenWhole(p); ok {
		return Base{Path: p, Text: s.Text, From: baseSeen}, nil
	}
	_, _, err := a.Tree.ReadText(p, a.Access, 0)
	if errors.Is(err, repo.ErrBeyondLink) {
		// No base: the edit is placed as a new file, and placement
		// refuses it in git's words.
		return Base{Path: p, Missing: true, From: baseHead}, nil
	}
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Base{}, err
	}
	head, ok, err := a.Tree.HeadText(p)
	switch {
	case err != nil:
		return Base{}, err
	case !exists:
		return Base{Path: p, Missing: true, From: baseHead}, nil
	case ok:
		return Base{Path: p, Text: head, From: baseHead}, nil
	}
	return Base{}, errUnread
}

// findBase returns the base of p among bases.
func findBase(bases []Base, p string) (Base, error) {
	for _, b := range bases {
		if b.Path == p {
			return b, nil
		}
	}
	return Base{}, errNoBase
}

// threeWay reads the refused hunks of plans again against what the model
// was shown of their files: a hunk written against lines the person has
// changed since is placed with the person's lines kept, or refused as a
// conflict (see edit.FilePlan.ThreeWay). A whole file's hunks are read
// against its base.
func (a *Agent) threeWay(plans []*edit.FilePlan, bases []Base) {
	for _, p := range plans {
		if len(p.Errors) == 0 || p.OldPath == "" {
			continue
		}
		if b, err := findBase(bases, p.OldPath); err == nil {
			if !b.Missing {
				p.ThreeWay(edit.Seen{Start: 1, Text: b.Text})
			}
			continue
		}
		if s, ok := a.seen(p.OldPath); ok {
			p.ThreeWay(s)
		}
	}
}

// guardDeletions leaves to a person the deletion of a file that holds
// lines the model did not see, or that git does not have (see
// wouldLose): its hunks say what it would lose (edit.Resolved.Guard), and
// decisions given ahead do not approve them.
func (a *Agent) guardDeletions(plans []*edit.FilePlan) {
	for _, p := range plans {
		if p.NewPath != "" || p.OldPath == "" {
			continue
		}
		if why := a.wouldLose(p.OldPath, p.Old); why != "" {
			p.Guard(why)
		}
	}
}

// wouldLose says, for the person, what deleting the file p, whose content
// is now, would lose: the lines changed since the model last saw the
// whole of it, or the lines git does not have. It is "" when the file is
// what the model saw and what HEAD commits.
func (a *Agent) wouldLose(p, now string) string {
	if s, ok := a.seenWhole(p); ok && s.Text != now {
		lost := edit.Lost(s.Text, now)
		if len(lost) == 0 {
			return "it was changed since the model read it: lines were deleted"
		}
		return fmt.Sprintf("deleting it would lose %d %s you changed since the model read it (%s)", len(lost), output.Plural(len(lost), "line"), edit.LineList(lost))
	}
	return a.Tree.DeletionLoss(p, now)
}

// sawWritten records, after approved hunks were written, each written
// file as the model knows it: the file as it now is, as the model was
// told what became of its hunks; for a whole file (whole, by path), the
// content the model wrote, so that lines the person changed in it stay
// the person's for the model's next whole file. A deleted file is
// forgotten.
func (a *Agent) sawWritten(plans []*edit.FilePlan, whole map[string]string) {
	for _, p := range plans {
		if p.OldPath != "" && p.OldPath != p.NewPath {
			a.saw(p.OldPath, 1, "", false)
		}
		if p.NewPath == "" {
			continue
		}
		if w, ok := whole[p.NewPath]; ok {
			a.saw(p.NewPath, 1, w, true)
			continue
		}
		text, cut, err := a.Tree.ReadText(p.NewPath, a.Access, maxReadBytes)
		if err != nil || cut {
			text = ""
		}
		a.saw(p.NewPath, 1, text, true)
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
	a.saw(p, 1, text, !truncated)
}

// noticeConflicts tells the person of each hunk refused because it
// changes lines they changed since the model read them.
func (a *Agent) noticeConflicts(plans []*edit.FilePlan) {
	for _, p := range plans {
		for _, e := range p.Errors {
			if errors.Is(e.Err, edit.ErrConflict) {
				a.emit(Event{Kind: EventNotice, Text: fmt.Sprintf("%s: a change of the model's was refused: it changes lines you changed since it read the file (%s)", p.Path(), e.Detail)})
			}
		}
	}
}

// writeKeptWhole tells the model, for each whole file it wrote over a
// file that differs from its base, which lines of the file it did not
// know: they were kept, unless its change was refused.
func writeKeptWhole(b *strings.Builder, plans []*edit.FilePlan, bases []Base) {
	for _, p := range plans {
		base, err := findBase(bases, p.OldPath)
		if err != nil || base.Missing || base.Text == p.Old || len(p.Errors) > 0 {
			continue
		}
		lost := edit.Lost(base.Text, p.Old)
		if len(lost) == 0 {
			fmt.Fprintf(b, "- %s: lines were deleted from it since you read it; your content was placed on it as it is now, and they stay deleted.\n", p.Path())
			continue
		}
		since := "the person changed " + edit.LineList(lost) + " since you read it"
		if base.From == baseHead {
			since = "it has uncommitted changes you had not read (" + edit.LineList(lost) + ")"
		}
		fmt.Fprintf(b, "- %s: %s; your content was placed on it as it is now, as a change from what you read, and those lines are kept.\n", p.Path(), since)
	}
}

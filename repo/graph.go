// graph.go: the order of a patch's sections: each placed on what the ones before it left, and the final state written.

package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"syscall"

	"github.com/pair-cli/pair/edit"
)

// A patch's sections are applied one after another, as git apply does:
//
//   - A section that changes or deletes a path an earlier section wrote
//     reads that section's result (create then modify, a format-patch
//     series of one file). One whose path an earlier section deleted or
//     renamed away is refused, in git's words.
//   - A rename or a copy reads its source as the tree holds it, whatever
//     the sections before it did: all preimages are read first, so a
//     swap (A→B, B→A) and a chain (A→B, C→A) read both old files.
//   - A path that a section deletes or renames away may be created by
//     another (git diff -B's delete and create of one path, a
//     typechange, the target of a chain).
//   - What is written is the tree's final state: each path once, with
//     deletions before creations (see Tree.write), so that a file may
//     become a directory and the reverse.

// sequence follows the paths of a patch's sections while they are
// resolved, in order (see resolve).
type sequence struct {
	// written maps a path a section wrote to that section's index, or to
	// -1 when a section deleted or renamed it away.
	written map[string]int
	// leaving holds the paths some section deletes or renames away, as
	// git's "to be deleted": a section may create them.
	leaving map[string]bool
}

// newSequence looks ahead at the paths p's sections delete or rename
// away.
func (t *Tree) newSequence(p *edit.Patch) *sequence {
	s := &sequence{written: map[string]int{}, leaving: map[string]bool{}}
	for _, fd := range p.Files {
		if !(fd.Deleted || fd.Renamed) || fd.Source() == "" {
			continue
		}
		for _, c := range fd.Candidates(fd.Source()) {
			if cp, err := t.Clean(c); err == nil {
				s.leaving[cp] = true
			}
		}
	}
	return s
}

// known reports what the earlier sections did to p: ok is false when
// none wrote, deleted or renamed it; at is the index of the section that
// wrote it last, or -1 when it is gone.
func (s *sequence) known(p string) (at int, ok bool) {
	if s == nil {
		return 0, false
	}
	at, ok = s.written[p]
	return at, ok
}

// leavesUnder reports whether a section deletes or renames away a path
// inside the directory dir.
func (s *sequence) leavesUnder(dir string) bool { return deletesUnder(s.leaving, dir) }

// leavesAbove reports whether a section deletes or renames away a file
// where p has a directory.
func (s *sequence) leavesAbove(p string) bool {
	return belowAny(p, s.leaving)
}

// goneError is the refusal of a section that reads a path an earlier
// section deleted or renamed away (git: "path … has been
// renamed/deleted").
func goneError(p string) error {
	return fmt.Errorf("%s: %w: an earlier section of the patch deletes or renames it away, and this one changes it", p, ErrConflict)
}

// add records what section i did, once resolved.
func (s *sequence) add(i int, fd *edit.FileDiff, oldPath, newPath string) {
	if newPath != "" {
		s.written[newPath] = i
	} else {
		s.written[oldPath] = -1
	}
	if fd.Renamed && oldPath != "" && oldPath != newPath {
		// Gone, unless another section writes it, before or after.
		if _, ok := s.written[oldPath]; !ok {
			s.written[oldPath] = -1
		}
	}
}

// finalConflicts refuses a patch that leaves a path both a file and the
// directory of another.
func (s *sequence) finalConflicts() error {
	var paths []string
	for p, at := range s.written {
		if at >= 0 {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			if at, ok := s.written[d]; ok && at >= 0 {
				return fmt.Errorf("%s: %w: the patch makes it both a file and the directory of %s", d, ErrConflict, p)
			}
		}
	}
	return nil
}

// slot is what a path holds at one point of a patch.
type slot struct {
	exists bool
	// content is a file's content, or a symbolic link's target (link).
	content string
	exec    bool
	link    bool
	// whole says a binary patch made the content: it is committed as a
	// whole (see FileCommit.Whole).
	whole bool
	// origin is the tree path whose content this one continues ("" for
	// content the patch created); renamed says a rename brought it here.
	origin  string
	renamed bool
	// plans counts the sections applied since origin; hunks are the last
	// one's.
	plans int
	hunks []edit.Resolved
}

// settled is the final state of a patch's paths.
type settled struct {
	t     *Tree
	orig  map[string]*slot // the tree's paths, as read
	state map[string]*slot
	order []string // the paths of state, first touched first
}

// tree returns p as the tree holds it.
func (s *settled) tree(p string) (*slot, error) {
	if o, ok := s.orig[p]; ok {
		return o, nil
	}
	o := &slot{origin: p}
	if beyondLink(s.t.root, p) {
		// Not in the tree: a folder the patch makes where it takes a
		// link away (any other path beyond a link is refused).
		s.orig[p] = o
		return o, nil
	}
	fi, err := s.t.root.Lstat(p)
	switch {
	case notExist(err):
	case err != nil:
		return nil, wrapEscape(p, err)
	case fi.Mode().IsRegular():
		b, err := s.t.root.ReadFile(p)
		if err != nil {
			return nil, wrapEscape(p, err)
		}
		o.exists, o.content, o.exec = true, string(b), fi.Mode()&0o111 != 0
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := s.t.root.Readlink(p)
		if err != nil {
			return nil, wrapEscape(p, err)
		}
		o.exists, o.content, o.link = true, target, true
	}
	s.orig[p] = o
	return o, nil
}

// now returns p as the sections so far left it.
func (s *settled) now(p string) (*slot, error) {
	if st, ok := s.state[p]; ok {
		return st, nil
	}
	return s.tree(p)
}

func (s *settled) set(p string, st *slot) {
	if _, ok := s.state[p]; !ok {
		s.order = append(s.order, p)
	}
	s.state[p] = st
}

// settle places fully placed plans one after another, as the patch's
// sections apply (see sequence), on what the tree holds now: a plan whose
// content changed since it was placed, on disk or because hunks of an
// earlier section of its file were rejected, is placed again, and fails
// with ErrChanged when its hunks no longer place cleanly. replaced names
// the plans placed again. The plans are updated in place.
func (t *Tree) settle(plans []*edit.FilePlan) (s *settled, replaced []string, err error) {
	s = &settled{t: t, orig: map[string]*slot{}, state: map[string]*slot{}}
	renamedAway := map[string]bool{}
	leaving := map[string]bool{} // git's "to be deleted"
	for _, p := range plans {
		if p.OldPath != "" && (p.NewPath == "" || p.Diff.Renamed && p.OldPath != p.NewPath) {
			leaving[p.OldPath] = true
		}
	}
	for i, p := range plans {
		base := &slot{}
		if p.OldPath != "" {
			if p.Diff.Renamed || p.Diff.Copied {
				base, err = s.tree(p.OldPath)
			} else {
				base, err = s.now(p.OldPath)
			}
			if err != nil {
				return nil, nil, err
			}
			if !base.exists {
				if renamedAway[p.OldPath] {
					return nil, nil, goneError(p.OldPath)
				}
				return nil, nil, fmt.Errorf("%s: %w: it was removed", p.OldPath, ErrChanged)
			}
			if base.link != linkSource(p.Diff) {
				what := "a file, not a symbolic link"
				if base.link {
					what = "a symbolic link"
				}
				return nil, nil, fmt.Errorf("%s: %w: it is %s", p.OldPath, ErrChanged, what)
			}
		}
		if p.NewPath != "" && p.NewPath != p.OldPath && !leaving[p.NewPath] && s.state[p.NewPath] == nil {
			// Created, or the target of a rename or a copy: it must not
			// exist (an empty file may be filled), unless a section takes
			// the file there away.
			cur, err := s.tree(p.NewPath)
			if err != nil {
				return nil, nil, err
			}
			if cur.exists && len(cur.content) > 0 {
				return nil, nil, fmt.Errorf("%s: %w: the patch creates it, but it exists now", p.NewPath, ErrChanged)
			}
		}
		if base.content != p.Old {
			np := edit.PlanFile(p.OldPath, p.NewPath, base.content, p.Diff)
			if len(np.Errors) > len(p.Errors) || len(np.Hunks) != len(p.Hunks) {
				return nil, nil, fmt.Errorf("%s: %w, and its hunks no longer place cleanly", p.Path(), ErrChanged)
			}
			plans[i], p = np, np
			replaced = append(replaced, p.Path())
		}
		content, err := p.Result(nil)
		if err != nil {
			return nil, nil, err
		}
		if p.NewPath == "" {
			s.set(p.OldPath, &slot{})
			continue
		}
		mode, err := modeOf(p.Diff)
		if err != nil {
			return nil, nil, err
		}
		next := &slot{exists: true, content: content, exec: base.exec, origin: base.origin,
			renamed: base.renamed || p.Diff.Renamed, plans: base.plans + 1, hunks: p.Hunks,
			link: linkResult(p.Diff), whole: p.Diff.Binary || base.whole && len(p.Hunks) == 0}
		if p.OldPath == "" {
			next.exec, next.origin, next.renamed = false, "", false
		}
		if mode != 0 {
			next.exec = mode&0o111 != 0
		}
		if next.link {
			next.exec = false
		}
		s.set(p.NewPath, next)
		if p.Diff.Renamed && p.OldPath != p.NewPath {
			renamedAway[p.OldPath] = true
			if _, ok := s.state[p.OldPath]; !ok {
				s.set(p.OldPath, &slot{})
			}
		}
	}
	return s, replaced, nil
}

// perm is the permission bits a file of the given executable bit is
// written with.
func perm(exec bool) fs.FileMode {
	if exec {
		return 0o755
	}
	return 0o644
}

// same reports whether the tree's path o (nil: not read) holds what st
// does.
func (o *slot) same(st *slot) bool {
	return o != nil && o.exists && st.exists && o.content == st.content && o.exec == st.exec && o.link == st.link
}

// changes is the write set of the final state: each path that differs
// from the tree, once.
func (s *settled) changes() []Change {
	var out []Change
	for _, p := range s.order {
		st, o := s.state[p], s.orig[p]
		was := o != nil && o.exists && o.link
		switch {
		case !st.exists && o != nil && o.exists:
			out = append(out, Change{Path: p, Delete: true, WasLink: was})
		case !st.exists:
		case o.same(st):
		default:
			c := Change{Path: p, Content: []byte(st.content), Link: st.link, WasLink: was}
			if !st.link && (o == nil || !o.exists || o.link || o.exec != st.exec) {
				c.Mode = perm(st.exec)
			}
			out = append(out, c)
		}
	}
	return out
}

// commits describes the final state for Commit: a path's change from the
// tree, a rename where a renamed file's source is gone, and a diff of the
// whole change where several sections made it (Commit places the hunks on
// HEAD's version when the person has edits of their own).
func (s *settled) commits() []FileCommit {
	var out []FileCommit
	claimed := map[string]bool{}
	hunks := func(st *slot, before string) []edit.Resolved {
		if st.plans == 1 && st.origin != "" && s.orig[st.origin] != nil && s.orig[st.origin].content == before {
			return st.hunks
		}
		return edit.Diff(before, st.content)
	}
	// Renames first, so that their sources are claimed.
	for _, p := range s.order {
		st, o := s.state[p], s.orig[p]
		src := s.orig[st.origin]
		if !st.exists || !st.renamed || st.origin == p || (o != nil && o.exists) || src == nil || claimed[st.origin] {
			continue
		}
		if fin := s.state[st.origin]; fin == nil || fin.exists {
			continue
		}
		claimed[st.origin] = true
		out = append(out, FileCommit{Path: p, OldPath: st.origin, Before: src.content, After: st.content,
			Mode: perm(st.exec), Hunks: hunks(st, src.content), Link: st.link, Whole: st.whole})
	}
	done := map[string]bool{}
	for _, fc := range out {
		done[fc.Path] = true
	}
	for _, p := range s.order {
		st, o := s.state[p], s.orig[p]
		if done[p] || claimed[p] {
			continue
		}
		switch {
		case !st.exists && o != nil && o.exists:
			out = append(out, FileCommit{Path: p, Delete: true, Before: o.content})
		case !st.exists:
		case o != nil && o.exists:
			if o.same(st) {
				continue
			}
			out = append(out, FileCommit{Path: p, Before: o.content, After: st.content, Mode: perm(st.exec), Hunks: hunks(st, o.content),
				Link: st.link, Whole: st.whole})
		default:
			out = append(out, FileCommit{Path: p, Create: true, After: st.content, Mode: perm(st.exec), Link: st.link, Whole: st.whole})
		}
	}
	return out
}

// notExist reports whether err says a path is not there: missing, or
// below a file (a file that a patch turns into a directory).
func notExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// deletesUnder reports whether deleted holds a path inside the directory
// dir.
func deletesUnder(deleted map[string]bool, dir string) bool {
	for p := range deleted {
		if strings.HasPrefix(p, dir+"/") {
			return true
		}
	}
	return false
}

// makeRoom prepares the tree, once a write set's deletions are done, for
// its new files: a directory where a new file goes, emptied by the
// deletions, is removed, and the directories the set needs are made
// (journal.Dirs). A directory is never removed unless empty.
func (dk *disk) makeRoom(j *journal) error {
	for _, e := range j.Changes {
		if fi, err := dk.root.Lstat(e.Path); !e.Delete && err == nil && fi.IsDir() {
			dk.removeEmptyTree(e.Path)
		}
	}
	for _, d := range j.Dirs {
		if fi, err := dk.root.Lstat(d); err == nil && fi.IsDir() {
			continue // made before a crash
		}
		if err := dk.root.Mkdir(d, 0o755); err != nil {
			return wrapEscape(d, err)
		}
		// Mkdir's mode is filtered by the umask.
		if err := dk.root.Chmod(d, 0o755); err != nil {
			return wrapEscape(d, err)
		}
	}
	return nil
}

// removeEmptyTree removes dir and the directories below it, as long as
// they hold no file.
func (dk *disk) removeEmptyTree(dir string) {
	f, err := dk.root.Open(dir)
	if err != nil {
		return
	}
	ents, _ := f.ReadDir(-1)
	f.Close()
	for _, e := range ents {
		if e.IsDir() {
			dk.removeEmptyTree(dir + "/" + e.Name())
		}
	}
	_ = dk.root.Remove(dir)
}

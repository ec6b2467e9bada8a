// plan.go: Place and PlaceWith, a patch's hunks placed on the files of the tree.

package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/pair-cli/pair/edit"
)

// ErrNoFileName is returned for hunks that no file header names.
var ErrNoFileName = errors.New("hunk has no file header naming its file")

// Place resolves the files a patch names inside the tree, reads them and
// places the patch's hunks against their content. A file named twice (even
// spelled differently) has its hunks placed together. Errors are for what
// makes the patch unusable as a whole (a path outside the tree, a missing
// file, a binary diff); hunks that cannot be placed are reported in each
// plan's Errors. The patch itself is not modified.
func (t *Tree) Place(p *edit.Patch) ([]*edit.FilePlan, error) {
	return t.PlaceWith(p, Access{})
}

// PlaceWith is Place with access to git-ignored or secret files (see
// Guard), which Place refuses.
func (t *Tree) PlaceWith(p *edit.Patch, access Access) ([]*edit.FilePlan, error) {
	w := newDirWalk(t)
	defer w.close()
	return t.placeWith(p, access, w)
}

// PlaceCached is PlaceWith for git apply --cached: the plans are placed
// again on the index's content (see FromIndex), and a binary patch is
// checked against the index's blob, not the working file.
func (t *Tree) PlaceCached(p *edit.Patch, access Access) ([]*edit.FilePlan, error) {
	w := newDirWalk(t)
	defer w.close()
	w.cached = true
	var err error
	if w.entries, w.unmerged, err = t.readEntries(); err != nil {
		return nil, err
	}
	plans, err := t.placeWith(p, access, w)
	if err != nil {
		return nil, err
	}
	if err := t.FromIndex(plans); err != nil {
		return nil, err
	}
	if w.cached {
		return plans, nil // checked on the index's content
	}
	if err := checkBinaryPlans(plans); err != nil {
		return nil, err
	}
	return plans, nil
}

// placeWith is PlaceWith, looking at the paths through the walk w.
func (t *Tree) placeWith(p *edit.Patch, access Access, w *dirWalk) ([]*edit.FilePlan, error) {
	type target struct {
		oldPath, newPath string
		fd               *edit.FileDiff
		after            int // the section whose result it changes, or -1 for the tree's file
	}
	var targets []*target
	p = joinTypechanges(p)
	seq := t.newSequence(p)
	// A submodule the patch deletes may give its place to a file or a
	// folder of the patch, if its folder is empty (see checkReplaced).
	defer t.submodules.leave(t.deletedGitlinks(p.Files))()
	links := t.linksOf(p)
	// A mode pair cannot write (a link, a submodule) is refused here, so
	// that a check says so, but after every path is looked at: a path
	// beyond a link the patch makes is refused as git words it.
	var modeErr error
	for _, fd := range p.Files {
		fd = t.withFullIndexBlob(t.withLinkModes(fd, w))
		if err := checkBinary(fd); err != nil {
			return nil, err
		}
		if err := t.submodules.checkGitlinkDiff(fd); err != nil {
			return nil, err
		}
		if fd.Path() == "" {
			if len(fd.Hunks) == 0 {
				continue
			}
			return nil, ErrNoFileName
		}
		oldPath, newPath, err := t.resolve(fd, links, w, seq)
		if err != nil {
			return nil, err
		}
		if _, err := modeOf(fd); err != nil && modeErr == nil {
			modeErr = err
		}
		for i, p := range []string{oldPath, newPath} {
			if p == "" || i == 1 && p == oldPath {
				continue
			}
			if err := t.guard(p, access, w); err != nil {
				return nil, err
			}
			// A link is judged by what it leads to: a link to .env is .env.
			// A link the patch changes is not followed: its folders are.
			linked := w.linked(linkFolder(p, i == 0 && linkSource(fd)))
			if i == 1 && seq.leavesAbove(p) {
				// Below a link the patch takes away (resolve's
				// checkPatchLinks saw no other): a folder by then.
				linked = false
			}
			if linked {
				if err := t.guardLinks(p, access); err != nil {
					return nil, err
				}
			}
			// Where the path lands on disk, through links too: never in
			// .git, a submodule or outside the tree. Write checks it again
			// under the writer lock.
			// A submodule's pointer is not written there (see submodule.go).
			if gl := i == 0 && gitlinkSource(fd) || i == 1 && gitlinkResult(fd); !gl {
				if err := t.preflight.checkPlacedPath(p, linked, w); err != nil {
					return nil, err
				}
			}
			// The path itself a link (its folders were looked at by
			// resolve): the write would refuse it, so a check does too;
			// unless an earlier section wrote or deleted the path (a link
			// turned into a file, then edited; a link deleted, then
			// created as a file), which the write replaces as a link.
			if _, ok := seq.known(p); ok {
				linked = false
			}
			if fi, err := w.lstat(p); linked && err == nil && fi.Mode()&fs.ModeSymlink != 0 {
				return nil, fmt.Errorf("%s: %w; pair does not write through links", p, ErrIsLink)
			}
		}
		if newPath != "" && !gitlinkResult(fd) {
			if err := t.checkReplaced(newPath); err != nil {
				return nil, err
			}
		}
		// Sections apply in order (see sequence): one that changes what
		// an earlier one wrote is placed on its result; a rename or a copy
		// reads the tree.
		tg := &target{oldPath, newPath, fd, -1}
		if at, ok := seq.known(oldPath); ok && oldPath != "" && !fd.Renamed && !fd.Copied {
			tg.after = at
		}
		seq.add(len(targets), fd, oldPath, newPath)
		targets = append(targets, tg)
	}
	if modeErr != nil {
		return nil, modeErr
	}
	if err := seq.finalConflicts(); err != nil {
		return nil, err
	}
	fl, err := t.placeFilters(w)
	if err != nil {
		return nil, err
	}
	var in []edit.PlanInput
	var first []int // the targets placed on the tree's files, together
	for i, tg := range targets {
		if tg.after >= 0 {
			continue
		}
		var old string
		if tg.oldPath != "" {
			var err error
			if old, err = w.readSource(tg.oldPath, tg.fd); err != nil {
				return nil, wrapEscape(tg.oldPath, err)
			}
			if !w.cached {
				t.readAsGit(tg.oldPath, old, tg.fd, fl != nil)
			}
		}
		in = append(in, edit.PlanInput{OldPath: tg.oldPath, NewPath: tg.newPath, Old: old, Diff: tg.fd})
		first = append(first, i)
	}
	plans := make([]*edit.FilePlan, len(targets))
	for k, pl := range edit.PlanFiles(in) {
		plans[first[k]] = fl.place(pl)
	}
	for i, tg := range targets {
		if tg.after < 0 {
			continue
		}
		// What the earlier section makes of the file, with the hunks it
		// could place.
		prev := plans[tg.after]
		old, err := prev.Result(nil) // a binary patch's too
		if err != nil {
			return nil, err
		}
		plans[i] = fl.place(edit.PlanFile(tg.oldPath, tg.newPath, old, tg.fd))
	}
	if w.cached {
		return plans, nil // checked on the index's content
	}
	if err := checkBinaryPlans(plans); err != nil {
		return nil, err
	}
	return plans, nil
}

// readAsGit sets fd.FileBlob where the index line of fd names another
// blob than old's bytes, the file at p, but git reads the file through
// a filter or an end-of-line conversion as another blob: that one, for
// placement to tell git's diff of this file from one of another version
// of it. A filter that fails leaves fd as it was. Only a filter (filtered:
// one is configured) or a CR's conversion makes git's blob differ from
// the bytes: without either, the file is not hashed here.
func (t *Tree) readAsGit(p, old string, fd *edit.FileDiff, filtered bool) {
	if !t.Git || !fd.Indexed || fd.OldID == "" || !filtered && !strings.Contains(old, "\r") {
		return
	}
	if strings.HasPrefix(edit.BlobID(old, fd.OldID), fd.OldID) {
		return
	}
	h, err := t.addBlob(nil, p, []byte(old), filemode.Regular)
	if err != nil || len(fd.OldID) > len(h.String()) {
		return
	}
	if id := h.String(); id != edit.BlobID(old, fd.OldID) {
		fd.FileBlob = id
	}
}

// linked reports whether p or a directory above it is a symbolic link,
// looking from the top down, each path once per walk (see dirWalk): a
// patch of many files in few directories would otherwise look at each
// directory once per file. When in doubt it reports true, and the caller
// looks closer.
func (w *dirWalk) linked(p string) bool {
	parts := strings.Split(p, "/")
	for i := 1; i <= len(parts); i++ {
		fi, err := w.lstat(strings.Join(parts[:i], "/"))
		switch {
		case notExist(err):
			return false // nothing below it exists either
		case err != nil || fi.Mode()&fs.ModeSymlink != 0:
			return true
		}
	}
	return false
}

// resolve finds the tree paths a file diff reads from and writes to: ""
// for a created file's source or a deleted file's destination. A path
// beyond a symbolic link, on disk or made by the patch (links), is
// refused before anything is looked at through the link. Paths are
// looked at through the placement's walk w.
//
// Earlier sections of the patch count (seq): a path one of them wrote
// exists, one it deleted or renamed away does not, except for a rename or
// a copy, which reads the tree; a path some section deletes or renames
// away may be created.
func (t *Tree) resolve(fd *edit.FileDiff, links patchLinks, w *dirWalk, seq *sequence) (oldPath, newPath string, err error) {
	// The source: the first candidate name that exists.
	stripped := false
	if src := fd.Source(); src != "" {
		// As git words it: a source that is written in place is an
		// "affected file", one only read (deleted, renamed, copied) is
		// "read from".
		op := LinkWrite
		if fd.Deleted || fd.Renamed || fd.Copied {
			op = LinkRead
		}
		// A file deleted in a folder that the patch then makes a link
		// (git's folder-to-link typechange) is deleted from the folder as
		// it is on disk, before the link is made: links on disk still
		// count.
		srcLinks := links
		if fd.Deleted {
			srcLinks.made = nil
		}
		cands := fd.Candidates(src)
		for i, c := range cands {
			cp, err := t.Clean(c)
			if err != nil {
				return "", "", err
			}
			if err := t.links.checkPatchLinks(cp, op, srcLinks, w.lstat); err != nil {
				return "", "", err
			}
			if at, ok := seq.known(cp); ok && !fd.Renamed && !fd.Copied {
				if at < 0 {
					return "", "", goneError(cp)
				}
				oldPath, stripped = cp, i > 0
				break
			}
			if w.cached {
				// git apply --cached looks in the index only.
				if w.inIndex(cp) {
					oldPath, stripped = cp, i > 0
					break
				}
				continue
			}
			if gitlinkSource(fd) {
				if ok, err := t.submodules.gitlinkAt(cp); err != nil || ok {
					oldPath, stripped = cp, i > 0
					if err != nil {
						return "", "", err
					}
					break
				}
				continue
			}
			fi, err := w.stat(cp)
			if linkSource(fd) {
				if fi, err = w.lstat(cp); err == nil {
					if err := checkLinkSource(cp, fi); err != nil {
						return "", "", err
					}
					oldPath, stripped = cp, i > 0
					break
				}
			}
			if err == nil && fi.Mode().IsRegular() {
				oldPath, stripped = cp, i > 0
				break
			}
			if err == nil {
				return "", "", fmt.Errorf("%s: not a regular file", cp)
			}
			if !errors.Is(err, fs.ErrNotExist) {
				return "", "", err
			}
		}
		if oldPath == "" && w.cached && !onlyAdds(fd) {
			cp, _ := t.Clean(cands[0])
			return "", "", indexError(cp, "does not exist in index")
		}
		// A missing file is fine only for hunks of added lines alone: the
		// author meant to create it.
		if oldPath == "" && gitlinkSource(fd) {
			cp, _ := t.Clean(cands[0])
			return "", "", fmt.Errorf("%s: %w: the index has no submodule there", cp, ErrGitlink)
		}
		if oldPath == "" && !onlyAdds(fd) {
			cp, _ := t.Clean(cands[0])
			return "", "", fmt.Errorf("%s: %w", cp, fs.ErrNotExist)
		}
	}
	if fd.Deleted {
		return oldPath, "", nil
	}
	np := fd.NewPath
	if np == "" || (oldPath != "" && !fd.Renamed && !fd.Copied) {
		// The same file, by the name that was found: only git's rename and
		// copy headers write elsewhere ("--- orig/f +++ new/f" does not).
		return oldPath, oldPath, nil
	}
	// A created or renamed file: strip its first directory only if the
	// source's name had to be stripped to be found.
	cands := fd.Candidates(np)
	if stripped && len(cands) > 1 {
		np = cands[1]
	}
	if newPath, err = t.Clean(np); err != nil {
		return "", "", err
	}
	if err := t.preflight.checkName(newPath); err != nil {
		return "", "", err
	}
	if err := t.links.checkPatchLinks(newPath, LinkWrite, links, w.lstat); err != nil {
		return "", "", err
	}
	// It must not exist yet (an empty file may be filled, unless the
	// patch's headers say it creates the file, as git holds them), and must not
	// lead outside the tree through a link; an earlier section may have
	// made it, or a section may take it away.
	if at, ok := seq.known(newPath); ok && at >= 0 {
		return "", "", fmt.Errorf("%s: %w: an earlier section of the patch writes it, and this one creates it", newPath, ErrConflict)
	} else if ok || seq.leaving[newPath] || seq.leavesAbove(newPath) {
		// Or a folder above it is a file or a link the patch takes away
		// (a link turned into a folder): nothing is there then.
		return oldPath, newPath, nil
	}
	if w.cached {
		// The index only, as git apply --cached looks: CheckIndex refuses
		// a path it has (but for an intent to add).
		return oldPath, newPath, nil
	}
	fi, err := w.stat(newPath)
	if gitlinkResult(fd) {
		return oldPath, newPath, t.submodules.checkNewGitlink(newPath, fi, err)
	}
	switch {
	case err == nil && fi.IsDir() && seq.leavesUnder(newPath):
		// A directory whose files the patch takes away becomes the file.
	case err == nil && (!fi.Mode().IsRegular() || fi.Size() > 0 || fd.CreatesOnly()):
		return "", "", fmt.Errorf("%s: the patch creates it, but it already exists", newPath)
	case errors.Is(err, syscall.ENOTDIR) && seq.leavesAbove(newPath):
		// A file the patch takes away becomes its directory.
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return "", "", err
	}
	return oldPath, newPath, nil
}

func onlyAdds(fd *edit.FileDiff) bool {
	for _, h := range fd.Hunks {
		if len(h.Pre()) > 0 {
			return false
		}
	}
	return len(fd.Hunks) > 0
}

// typechange.go: git's delete-then-create of one path joined into one change for links; a submodule and a file kept two, deletion first.

package repo

import (
	"slices"

	"github.com/pair-cli/pair/edit"
)

// gitlinkMode is git's mode of a submodule's pointer (a gitlink).
const gitlinkMode = "160000"

// joinTypechanges returns p with each typechange of a symbolic link or a
// submodule pointer as one section: git writes a file turned into a link
// (or back, or a submodule into a link) as a deletion of the path and a
// creation of it, and both apply to the one path. The section reads the
// old content and writes the new, with the modes of both. Other sections
// are kept as they are; p itself is not modified.
func joinTypechanges(p *edit.Patch) *edit.Patch {
	p = gitlinkDeletionsFirst(p)
	created := map[string]int{}
	for i, fd := range p.Files {
		if fd.New && fd.NewPath != "" && !fd.Binary {
			created[fd.NewPath] = i
		}
	}
	var out *edit.Patch
	drop := map[int]bool{}
	for i, del := range p.Files {
		if !del.Deleted || del.OldPath == "" || del.Binary {
			continue
		}
		j, ok := created[del.OldPath]
		if !ok || j < i {
			continue
		}
		add := p.Files[j]
		if !specialMode(del.OldMode) && !specialMode(add.NewMode) || fileAndGitlink(del.OldMode, add.NewMode) {
			continue
		}
		if out == nil {
			out = &edit.Patch{Files: append([]*edit.FileDiff(nil), p.Files...)}
		}
		out.Files[i] = joinSections(del, add)
		drop[j] = true
	}
	if out == nil {
		return p
	}
	files := out.Files[:0]
	for i, fd := range out.Files {
		if !drop[i] {
			files = append(files, fd)
		}
	}
	out.Files = files
	return out
}

func specialMode(m string) bool { return m == linkMode || m == gitlinkMode }

// fileAndGitlink reports whether a deletion of mode old and a creation of
// mode nw are a submodule turned into a file or back: they stay two
// sections, as git applies them, a pointer in the index and a file in the
// working tree, each reviewed on its own (see gitlinkTypechange).
func fileAndGitlink(old, nw string) bool {
	return (old == gitlinkMode) != (nw == gitlinkMode) && old != linkMode && nw != linkMode
}

// joinSections makes one section of a deletion and a creation of one
// path: a hunk that deletes every old line and adds every new one.
func joinSections(del, add *edit.FileDiff) *edit.FileDiff {
	h := &edit.Hunk{HasNumbers: true, OldStart: 1, NewStart: 1}
	var noNewline bool
	h.OldLines, noNewline = appendLines(h, del.Hunks, edit.Delete)
	h.OldNoNewline = noNewline
	h.NewLines, noNewline = appendLines(h, add.Hunks, edit.Add)
	h.NewNoNewline = noNewline
	fd := &edit.FileDiff{OldPath: del.OldPath, NewPath: add.NewPath, Stripped: del.Stripped && add.Stripped,
		OldMode: del.OldMode, NewMode: add.NewMode, Indexed: del.Indexed && add.Indexed, OldID: del.OldID, NewID: add.NewID}
	if len(h.Lines) > 0 {
		fd.Hunks = []*edit.Hunk{h}
	}
	return fd
}

// appendLines appends to h the lines of kind k of the hunks, and returns
// how many, and whether that side ends without a newline.
func appendLines(h *edit.Hunk, hunks []*edit.Hunk, k edit.Kind) (n int, noNewline bool) {
	for _, from := range hunks {
		for _, l := range from.Lines {
			if l.Kind == k {
				h.Lines = append(h.Lines, l)
				n++
			}
		}
		noNewline = noNewline || k == edit.Delete && from.OldNoNewline || k == edit.Add && from.NewNoNewline
	}
	return n, noNewline
}

// gitlinkDeletionsFirst returns p with the deletion of each submodule
// turned into a file, or of each file turned into a submodule, moved
// before the section that creates the path, where a reversed patch (-R)
// has it after: git deletes before it creates. p itself is not modified.
func gitlinkDeletionsFirst(p *edit.Patch) *edit.Patch {
	out := p
	for i := 0; i < len(out.Files); i++ {
		del := out.Files[i]
		if !del.Deleted || del.OldPath == "" || del.Binary {
			continue
		}
		j := slices.IndexFunc(out.Files[:i], func(fd *edit.FileDiff) bool {
			return fd.New && fd.NewPath == del.OldPath && fileAndGitlink(del.OldMode, fd.NewMode)
		})
		if j < 0 {
			continue
		}
		files := slices.Clone(out.Files)
		files = slices.Insert(slices.Delete(files, i, i+1), j, del)
		out = &edit.Patch{Files: files}
	}
	return out
}

// special.go: binary files, links and submodule pointers as one reviewable item each, in one line.

package review

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/safetext"
)

// gitlinkMode is git's mode of a submodule's pointer (a gitlink).
const gitlinkMode = "160000"

// subprojectPrefix starts the one line git writes for a gitlink's side.
const subprojectPrefix = "Subproject commit "

// whole reports whether the file's change is decided as one item, not
// hunk by hunk: a binary file, a symbolic link, a submodule pointer.
// Their lines are not lines of text that a person could split or edit.
func (f *File) whole() bool {
	d := f.Diff
	return d != nil && (d.Binary || isLinkOrGitlink(d.OldMode) || isLinkOrGitlink(d.NewMode))
}

func isLinkOrGitlink(mode string) bool { return mode == linkMode || mode == gitlinkMode }

// special describes, in one line for a person, a change that is not lines
// of text: "binary file logo.png: 1.2 KiB → 1.4 KiB", "link docs/x ->
// ../y (was ../z)", "submodule lib/dep: 1a2b3c4 → 5d6e7f8". It is "" for
// any other change. Names and targets are escaped for safetext.
func (f *File) special() string {
	s := f.describe()
	if s != "" && f.Action() == "rename" {
		s += " (renamed from " + safetext.Name(f.OldPath) + ")"
	}
	return s
}

// describe is special without the rename.
func (f *File) describe() string {
	d := f.Diff
	if d == nil {
		return ""
	}
	path := safetext.Name(f.Path())
	switch {
	case d.Binary:
		newSize := "?"
		if out, err := d.ApplyBinary(f.Old); err == nil {
			newSize = byteSize(len(out))
		}
		switch f.Action() {
		case "create":
			return fmt.Sprintf("new binary file %s: %s", path, newSize)
		case "delete":
			return fmt.Sprintf("delete binary file %s (%s)", path, byteSize(len(f.Old)))
		}
		return fmt.Sprintf("binary file %s: %s → %s", path, byteSize(len(f.Old)), newSize)
	case d.NewMode == gitlinkMode || d.OldMode == gitlinkMode:
		old, nw := f.gitlinks()
		switch {
		case (f.Action() == "create" || d.OldMode != gitlinkMode) && f.Typechange != "":
			return fmt.Sprintf("new submodule %s at %s, in place of the %s", path, short(nw), f.Typechange)
		case f.Action() == "create" || d.OldMode != gitlinkMode:
			return fmt.Sprintf("new submodule %s at %s", path, short(nw))
		case f.Action() == "delete" && f.Typechange != "":
			return fmt.Sprintf("delete submodule %s (at %s), for a %s in its place", path, short(old), f.Typechange)
		case f.Action() == "delete" || d.NewMode != "" && d.NewMode != gitlinkMode:
			return fmt.Sprintf("delete submodule %s (at %s)", path, short(old))
		}
		return fmt.Sprintf("submodule %s: %s → %s", path, short(old), short(nw))
	case d.NewMode == linkMode || d.OldMode == linkMode:
		old, nw := f.Old, f.result()
		switch {
		case f.Action() == "create":
			return fmt.Sprintf("link %s -> %s", path, safetext.Line(nw))
		case f.Action() == "delete":
			return fmt.Sprintf("delete link %s (-> %s)", path, safetext.Line(old))
		case d.OldMode != linkMode:
			return fmt.Sprintf("link %s -> %s (was a file)", path, safetext.Line(nw))
		case d.NewMode != linkMode:
			return fmt.Sprintf("file %s (was a link -> %s)", path, safetext.Line(old))
		case old == nw:
			return fmt.Sprintf("link %s -> %s", path, safetext.Line(nw))
		}
		return fmt.Sprintf("link %s -> %s (was %s)", path, safetext.Line(nw), safetext.Line(old))
	}
	return ""
}

// markTypechanges sets Typechange on each submodule pointer of files
// that a file or a folder of files replaces, or that replaces a file or
// a folder files delete: git writes such a typechange as a deletion and a
// creation of one path, which pair reviews as two items, each saying
// what it is part of.
func markTypechanges(files []File) {
	gitlink := func(f *File) bool {
		return f.Diff != nil && (f.Diff.OldMode == gitlinkMode || f.Diff.NewMode == gitlinkMode)
	}
	for i := range files {
		f := &files[i]
		if !gitlink(f) {
			continue
		}
		for j := range files {
			o := &files[j]
			if o.Diff == nil || gitlink(o) {
				continue
			}
			switch {
			case f.NewPath == "" && o.OldPath == "" && o.NewPath == f.OldPath:
				f.Typechange = "file"
			case f.NewPath == "" && o.OldPath == "" && strings.HasPrefix(o.NewPath, f.OldPath+"/") && f.Typechange == "":
				f.Typechange = "folder"
			case f.OldPath == "" && o.NewPath == "" && o.OldPath == f.NewPath:
				f.Typechange = "file"
			case f.OldPath == "" && o.NewPath == "" && strings.HasPrefix(o.OldPath, f.NewPath+"/") && f.Typechange == "":
				f.Typechange = "folder"
			}
		}
	}
}

// result is the file's content with every placed hunk applied, "" when
// they do not apply.
func (f *File) result() string {
	out, err := edit.Apply(f.Old, f.Hunks)
	if err != nil {
		return ""
	}
	return out
}

// gitlinks returns the commits a submodule pointer's change goes from and
// to, "" for a side without one.
func (f *File) gitlinks() (old, nw string) {
	find := func(lines []string) string {
		for _, l := range lines {
			if id, ok := strings.CutPrefix(l, subprojectPrefix); ok {
				return strings.TrimSuffix(strings.TrimSpace(id), "-dirty")
			}
		}
		return ""
	}
	if f.Diff != nil {
		for _, h := range f.Diff.Hunks {
			if old == "" {
				old = find(h.Pre())
			}
			if nw == "" {
				nw = find(h.Post())
			}
		}
	}
	return old, nw
}

// wholeHash is the hash the audit records for a whole item of a special
// file: of its blob ids (binary), its targets (link) or its commits
// (submodule), so that the record names the content decided on.
func (f *File) wholeHash() string {
	d := f.Diff
	var key string
	switch {
	case d == nil:
		return ""
	case d.Binary:
		key = "binary\x00" + d.OldID + "\x00" + d.NewID
	case d.NewMode == gitlinkMode || d.OldMode == gitlinkMode:
		old, nw := f.gitlinks()
		key = "submodule\x00" + old + "\x00" + nw
	case d.NewMode == linkMode || d.OldMode == linkMode:
		key = "link\x00" + f.Old + "\x00" + f.result()
	default:
		return ""
	}
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])[:12]
}

// short abbreviates a commit id as git shows it, to 7 digits.
func short(id string) string {
	if id == "" {
		return "nothing"
	}
	return id[:min(len(id), 7)]
}

// byteSize says a size for a person: "512 B", "1.2 KiB", "3.4 MiB".
func byteSize(n int) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1024*1024))
}

// printChange lists a file decided as one item: its description, and
// its decision once there is one.
func printChange(w io.Writer, f FileReport) {
	fmt.Fprintln(w, f.Change)
	for _, h := range f.Hunks {
		if h.Decision != "" {
			fmt.Fprintf(w, "%s\t%s\n", safetext.Name(f.Path), h.Decision)
		}
	}
}

// kind names a change of a binary file or of a submodule pointer, for
// File.Changes ("" otherwise; a link's is its mode change).
func (f *File) kind() string {
	switch d := f.Diff; {
	case d == nil:
	case d.Binary:
		return "binary file"
	case d.OldMode == gitlinkMode || d.NewMode == gitlinkMode:
		return "submodule pointer"
	}
	return ""
}

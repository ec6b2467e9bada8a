package apply

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/repo"
)

// Paths say how pair apply reads the paths a patch names, with git apply's
// options and their meaning.
type Paths struct {
	// Strip is -p N: the leading directories removed from every name of a
	// unified diff. Nil reads the names as git apply does by default (one
	// directory: a/ and b/), with pair's tolerance: a name found as written,
	// without its first directory, or by its other side's name (x.go.orig
	// for x.go), whichever exists first (see edit.FileDiff.Candidates).
	Strip *int
	// Root is --directory: prepended to every path, after -p.
	Root string
	// Filters are --include and --exclude, in the order given: a path is
	// applied or skipped by the first that matches it (git's wildmatch,
	// where * matches / too); a path none matches is applied unless an
	// --include was given.
	Filters []Filter
	// Reverse is -R: the patch is applied backwards, its added lines
	// removed and its removed lines added back.
	Reverse bool
}

// Filter is one --include (Include) or --exclude of pair apply.
type Filter struct {
	Glob    string
	Include bool
}

// ErrReverse is returned for -R on a patch that cannot be read backwards.
var ErrReverse = errors.New("-R reverses unified diffs only")

// name gives the files of the edits their paths in the tree: reversed
// (-R), stripped (-p), under Root, relative to the current directory for
// a traditional diff, and filtered. prefix is the current directory
// relative to the top of the tree ("" or "sub/dir/"). It returns the
// paths the filters left out.
func (ps Paths) name(e *edit.Edits, prefix string, exists func(string) bool) (skipped []string, err error) {
	unified := e.Form == edit.FormUnified
	if ps.Reverse {
		if !unified {
			return nil, fmt.Errorf("%w, not %s", ErrReverse, e.Form)
		}
		for _, fd := range e.Files {
			if err := reverse(fd); err != nil {
				return nil, err
			}
		}
	}
	root := ""
	if ps.Root != "" {
		root = strings.TrimSuffix(path.Clean(filepath.ToSlash(ps.Root)), "/") + "/"
	}
	stripped := false // a name was found only without its first directory
	var creations []*edit.FileDiff
	for _, fd := range e.Files {
		if fd.Path() == "" {
			continue
		}
		if ps.Strip != nil && unified {
			if err := fd.StripNames(*ps.Strip); err != nil {
				return nil, err
			}
		}
		if fd.Names == nil || !unified {
			// git's names are from the top of the tree; so are those of
			// the other forms, which have no -p.
			under(fd, root)
			continue
		}
		// A traditional diff names files from the current directory.
		if src := fd.Source(); src != "" {
			found, byStrip := findSource(fd, src, prefix, root, exists)
			stripped = stripped || byStrip
			keep(fd, found)
			continue
		}
		creations = append(creations, fd)
	}
	for _, fd := range creations {
		// A file the patch creates: its name is stripped like the names
		// found in the tree, as git decides -p once for a patch.
		if !fd.Stripped && stripped {
			_ = fd.StripNames(1) // a name without a directory keeps it
		}
		under(fd, prefix+root)
	}
	for i := range e.Whole {
		e.Whole[i].Path = root + e.Whole[i].Path
	}
	if len(ps.Filters) == 0 {
		return nil, nil
	}
	kept := e.Files[:0]
	for _, fd := range e.Files {
		if p := fd.Path(); p != "" && !ps.use(p) {
			skipped = append(skipped, p)
			continue
		}
		kept = append(kept, fd)
	}
	e.Files = kept
	whole := e.Whole[:0]
	for _, w := range e.Whole {
		if !ps.use(w.Path) {
			skipped = append(skipped, w.Path)
			continue
		}
		whole = append(whole, w)
	}
	e.Whole = whole
	return skipped, nil
}

// findSource returns the path of the file a traditional diff changes or
// deletes: the first of its candidate names, under prefix and root, that
// exists; else the first that exists under root from the top of the tree
// (a name a model wrote from the top); else the first name under prefix
// and root, for the error that it does not exist. byStrip reports a name
// found without its first directory.
func findSource(fd *edit.FileDiff, src, prefix, root string, exists func(string) bool) (found string, byStrip bool) {
	cands := fd.Candidates(src)
	dirs := []string{prefix + root}
	if prefix != "" {
		dirs = append(dirs, root)
	}
	for _, d := range dirs {
		for _, c := range cands {
			if exists(d + c) {
				return d + c, !fd.Stripped && strings.HasSuffix(src, "/"+c)
			}
		}
	}
	return prefix + root + cands[0], false
}

// keep names fd's file by the path found, as the only one to try.
func keep(fd *edit.FileDiff, p string) {
	switch {
	case fd.Deleted:
		fd.OldPath = p
	default:
		fd.OldPath, fd.NewPath = p, p
	}
	fd.Stripped = true
}

// under puts fd's paths under dir ("" or "d/"), as the only ones to try.
func under(fd *edit.FileDiff, dir string) {
	if dir == "" {
		return
	}
	if fd.OldPath != "" {
		fd.OldPath = dir + fd.OldPath
	}
	if fd.NewPath != "" {
		fd.NewPath = dir + fd.NewPath
	}
	fd.Stripped = true
}

// use reports whether the filters let p be applied, as git apply decides.
func (ps Paths) use(p string) bool {
	include := false
	for _, f := range ps.Filters {
		if repo.Wildmatch(f.Glob, p) {
			return f.Include
		}
		include = include || f.Include
	}
	return !include
}

// reverse turns fd around, as git apply -R reads it: what it adds it
// removes, a created file is deleted, a rename goes back.
func reverse(fd *edit.FileDiff) error {
	if fd.Copied {
		return fmt.Errorf("%w: %s is a copy, which has no way back", ErrReverse, fd.Path())
	}
	if fd.Binary {
		// A GIT binary patch carries both ways: its second hunk goes back.
		bp := fd.BinaryPatch
		if bp == nil || bp.Reverse == nil {
			return fmt.Errorf("%w: %s is binary, and the patch has no way back for it", ErrReverse, fd.Path())
		}
		fd.BinaryPatch = &edit.BinaryPatch{Forward: bp.Reverse, Reverse: bp.Forward}
	}
	fd.OldID, fd.NewID = fd.NewID, fd.OldID
	fd.OldPath, fd.NewPath = fd.NewPath, fd.OldPath
	fd.OldMode, fd.NewMode = fd.NewMode, fd.OldMode
	fd.New, fd.Deleted = fd.Deleted, fd.New
	if fd.Names != nil {
		fd.Names.Old, fd.Names.New = fd.Names.New, fd.Names.Old
	}
	for _, h := range fd.Hunks {
		h.OldStart, h.NewStart = h.NewStart, h.OldStart
		h.OldLines, h.NewLines = h.NewLines, h.OldLines
		h.OldNoNewline, h.NewNoNewline = h.NewNoNewline, h.OldNoNewline
		for i, l := range h.Lines {
			switch l.Kind {
			case edit.Add:
				h.Lines[i].Kind = edit.Delete
			case edit.Delete:
				h.Lines[i].Kind = edit.Add
			}
		}
	}
	return nil
}

// cwdPrefix is the directory pair runs in (dir, or the current one),
// relative to the top of the tree: "" at the top, else "sub/dir/".
func cwdPrefix(top, dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	if r, err := filepath.EvalSymlinks(top); err == nil {
		top = r
	}
	rel, err := filepath.Rel(top, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(os.PathSeparator)) {
		return "", nil
	}
	return filepath.ToSlash(rel) + "/", nil
}

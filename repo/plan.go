package repo

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/pair-cli/pair/edit"
)

// ErrNoFileName is returned for hunks that no file header names.
var ErrNoFileName = errors.New("hunk has no file header naming its file")

// Place resolves the files a patch names inside the tree, reads them and
// places the patch's hunks against their content. A file named twice has
// its hunks placed together. Errors are for what makes the patch unusable
// as a whole (a path outside the tree, a missing file, a binary diff);
// hunks that cannot be placed are reported in each plan's Errors.
func (t *Tree) Place(p *edit.Patch) ([]*edit.FilePlan, error) {
	var plans []*edit.FilePlan
	byPath := map[string]*edit.FileDiff{}
	var order []*edit.FileDiff
	for _, fd := range p.Files {
		if fd.Binary {
			return nil, fmt.Errorf("%s: binary diffs cannot be applied", fd.Path())
		}
		if fd.Path() == "" {
			if len(fd.Hunks) == 0 {
				continue
			}
			return nil, ErrNoFileName
		}
		k := fd.OldPath + "\x00" + fd.NewPath
		if prev, ok := byPath[k]; ok && !fd.New && !fd.Deleted && !fd.Renamed {
			prev.Hunks = append(prev.Hunks, fd.Hunks...)
			continue
		}
		byPath[k] = fd
		order = append(order, fd)
	}
	for _, fd := range order {
		plan, err := t.planFile(fd)
		if err != nil {
			return nil, err
		}
		plans = append(plans, plan)
	}
	return plans, nil
}

func (t *Tree) planFile(fd *edit.FileDiff) (*edit.FilePlan, error) {
	// The source: the first candidate name that exists.
	oldPath, newPath := "", ""
	if src := fd.Source(); src != "" {
		var tried []string
		for _, c := range fd.Candidates(src) {
			cp, err := t.Clean(c)
			if err != nil {
				return nil, err
			}
			tried = append(tried, cp)
			if fi, err := t.Stat(cp); err == nil && fi.Mode().IsRegular() {
				oldPath = cp
				break
			} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
		}
		if oldPath == "" {
			if !onlyAdds(fd) {
				return nil, fmt.Errorf("%s: %w", tried[0], fs.ErrNotExist)
			}
			// A hunk of added lines only, for a file that is not there:
			// the author meant to create it.
		}
	}
	if !fd.Deleted {
		np := fd.NewPath
		switch {
		case np == "" || (oldPath != "" && np == fd.Source()):
			newPath = oldPath // the same file: keep the name that was found
		default:
			// A created or renamed file: strip its first directory only if
			// the source's name had to be stripped to be found.
			cands := fd.Candidates(np)
			newPath = cands[0]
			if src := fd.Candidates(fd.Source()); oldPath != "" && len(src) > 1 && len(cands) > 1 && oldPath == src[1] {
				newPath = cands[1]
			}
			cp, err := t.Clean(newPath)
			if err != nil {
				return nil, err
			}
			newPath = cp
		}
	}
	var old string
	if oldPath != "" {
		b, err := t.ReadFile(oldPath)
		if err != nil {
			return nil, err
		}
		old = string(b)
	} else if newPath != "" {
		if fi, err := t.Stat(newPath); err == nil {
			if !fi.Mode().IsRegular() || fi.Size() > 0 {
				return nil, fmt.Errorf("%s: the patch creates it, but it already exists", newPath)
			}
		}
	}
	return edit.PlanFile(oldPath, newPath, old, fd), nil
}

func onlyAdds(fd *edit.FileDiff) bool {
	for _, h := range fd.Hunks {
		if len(h.Pre()) > 0 {
			return false
		}
	}
	return len(fd.Hunks) > 0
}

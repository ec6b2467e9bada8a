// threeway.go: ThreeWay, the hunks a patch could not place merged three-way with the preimage blob its index line names (git apply --3way).

package repo

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/repo/internal/gitobj"
)

// ErrNoPreimage means the object database lacks the blob a patch's index
// line names as the file's preimage: the three-way merge cannot be made.
var ErrNoPreimage = errors.New("repository lacks the necessary blob to perform 3-way merge")

// Merge is the three-way reading of one file of a patch (see ThreeWay).
type Merge struct {
	// Path is the file the plan writes.
	Path string
	// Base is the full id of the preimage blob; Missing reports that the
	// object database lacks it (ErrNoPreimage), and nothing was merged.
	Base    string
	Missing bool
	// Merged counts the hunks the merge placed cleanly, Conflicts those
	// it wrote with conflict markers (edit.PassConflict).
	Merged, Conflicts int
	// Theirs is the preimage with the patch applied: the third stage of a
	// conflicted file in the index, as git apply --3way records it.
	Theirs string
	// Added says the patch creates the file, which the index holds
	// already (git's add/add): the preimage is empty, and a conflict has
	// no first stage.
	Added bool
	// Filter is the content filter the file was merged through ("" for
	// none): the merge was made on the forms git stores (see
	// filteredThreeWay), and Ours is the file before the patch in that
	// form, the second stage of a conflict.
	Filter, Ours string
}

// ThreeWay merges, as git apply --3way does, each file whose hunks could
// not all be placed: the file as it is (ours), the preimage blob its
// index line names (base) and the preimage with the patch applied
// (theirs). The refused hunks are read again against the preimage (see
// edit.FilePlan.ThreeWay): those the file's own changes do not touch are
// placed, and those that overlap them are written with conflict markers
// (edit.FilePlan.Conflicts), for review. A file whose preimage the
// object database lacks keeps its refused hunks, with ErrNoPreimage in
// their detail; so does a binary file, a link or a submodule, which git
// does not merge either.
func (t *Tree) ThreeWay(plans []*edit.FilePlan) ([]Merge, error) {
	st, err := t.repo.gitStorage()
	if err != nil {
		return nil, fmt.Errorf("--3way: %w", err)
	}
	style, err := t.repo.conflictStyle()
	if err != nil {
		return nil, err
	}
	cfg, err := t.repo.loadConfig()
	if err != nil {
		return nil, err
	}
	fl := t.newFilters(context.Background(), cfg)
	var out []Merge
	for _, p := range plans {
		fd := p.Diff
		if len(p.Errors) == 0 || fd == nil || fd.Binary || p.OldPath == "" || linkSource(fd) || gitlinkSource(fd) {
			continue
		}
		m := Merge{Path: p.Path()}
		h, ok := findBlob(st, fd.OldID)
		if !ok {
			m.Missing = true
			for _, e := range p.Errors {
				e.Detail = strings.TrimSpace(e.Detail + "\n--3way: " + ErrNoPreimage.Error())
			}
			out = append(out, m)
			continue
		}
		b, err := gitobj.ReadBlob(st, h)
		if err != nil {
			return nil, fmt.Errorf("%s: read the preimage %s: %w", p.Path(), h, err)
		}
		base := string(b)
		if ok, err := t.filteredThreeWay(fl, p, h, base, style, &m); err != nil {
			return nil, err
		} else if ok {
			out = append(out, m)
			continue
		}
		before := len(p.Hunks)
		p.ThreeWay(edit.Seen{Start: 1, Text: base, Preimage: true})
		m.Conflicts = p.ConflictsIn(base, style)
		m.Base, m.Merged = h.String(), len(p.Hunks)-before-m.Conflicts
		if m.Conflicts > 0 {
			theirs := edit.PlanFile(p.OldPath, p.NewPath, base, fd)
			if len(theirs.Errors) == 0 {
				m.Theirs, _ = theirs.Result(nil)
			}
		}
		out = append(out, m)
	}
	return out, nil
}

// conflictStyle is the repository's merge.conflictStyle, as git apply
// --3way writes conflicts.
func (gr *gitRepo) conflictStyle() (edit.ConflictStyle, error) {
	cfg, err := gr.loadConfig()
	if err != nil {
		return edit.StyleMerge, err
	}
	style, _ := edit.ParseConflictStyle(cfg.get("merge", "conflictStyle"))
	return style, nil
}

// emptyBlob is the id of the empty blob, the preimage of a created file.
const emptyBlob = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"

// AddAdds takes out of p, for git apply --3way, the sections that create
// a file the index holds already, and merges each as git does (its
// add/add): against an empty preimage, the file (ours) and the patch's
// content (theirs) are both added, so that the lines where they differ
// go between conflict markers (edit.AddAdd), and the same content on
// both sides merges cleanly, into a plan without hunks. The file must
// hold what the index holds ("does not match index"), as git reads ours
// from it, with --cached too. The plans come with their merges, and p's
// other sections are left to place; a path another section also names,
// a link, a binary file or a submodule is left to them too.
func (t *Tree) AddAdds(p *edit.Patch, access Access) (*edit.Patch, []*edit.FilePlan, []Merge, error) {
	if p == nil || !t.Git {
		return p, nil, nil, nil
	}
	entries, _, err := t.readEntries()
	if err != nil {
		return nil, nil, nil, err
	}
	named := map[string]int{}
	for _, fd := range p.Files {
		for _, n := range []string{fd.OldPath, fd.NewPath} {
			if c, err := t.Clean(n); n != "" && err == nil {
				named[c]++
			}
		}
	}
	style, err := t.repo.conflictStyle()
	if err != nil {
		return nil, nil, nil, err
	}
	trust := t.repo.trustsFileMode()
	w := newDirWalk(t)
	defer w.close()
	rest := &edit.Patch{}
	var plans []*edit.FilePlan
	var merges []Merge
	for _, fd := range p.Files {
		path, err := t.Clean(fd.NewPath)
		e := entries[path]
		if fd.OldPath != "" || fd.NewPath == "" || err != nil || e == nil || named[path] > 1 || fd.Binary ||
			linkResult(fd) || gitlinkResult(fd) || e.Mode == filemode.Symlink || e.Mode == filemode.Submodule || w.linked(path) {
			rest.Files = append(rest.Files, fd)
			continue
		}
		if err := t.guard(path, access, w); err != nil {
			return nil, nil, nil, err
		}
		if !t.matchesEntry(path, e, trust) {
			return nil, nil, nil, indexError(path, "does not match index")
		}
		b, err := t.root.ReadFile(path)
		if err != nil {
			return nil, nil, nil, wrapEscape(path, err)
		}
		theirs, err := edit.PlanFile("", path, "", fd).Result(nil)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		// The plan changes the file the index holds: ours, with the
		// conflict, if any, as its hunk.
		as := *fd
		as.OldPath, as.New, as.OldMode, as.OldID = fd.NewPath, false, e.Mode.String(), e.Hash.String()
		plan := &edit.FilePlan{OldPath: path, NewPath: path, Diff: &as, Old: string(b)}
		m := Merge{Path: path, Base: emptyBlob, Added: true, Theirs: theirs}
		if c, ok := edit.AddAdd(plan.Old, theirs, 0, style); ok {
			plan.Hunks, m.Conflicts = []edit.Resolved{c}, 1
		}
		plans, merges = append(plans, plan), append(merges, m)
	}
	return rest, plans, merges, nil
}

// findBlob finds the blob an index line names by its id, abbreviated or
// not; an id that names no blob, or more than one, is not found.
func findBlob(st interface {
	HashesWithPrefix([]byte) ([]plumbing.Hash, error)
	HasEncodedObject(plumbing.Hash) error
}, id string) (plumbing.Hash, bool) {
	id = strings.ToLower(id)
	if len(id) < 4 || strings.Trim(id, "0") == "" {
		return plumbing.ZeroHash, false
	}
	if _, err := hex.DecodeString(id[:len(id)&^1]); err != nil {
		return plumbing.ZeroHash, false
	}
	if len(id) == 40 {
		h := plumbing.NewHash(id)
		return h, st.HasEncodedObject(h) == nil
	}
	prefix, _ := hex.DecodeString(id[:len(id)&^1])
	hashes, err := st.HashesWithPrefix(prefix)
	if err != nil {
		return plumbing.ZeroHash, false
	}
	var found []plumbing.Hash
	for _, h := range hashes {
		if strings.HasPrefix(h.String(), id) && !slices.Contains(found, h) {
			found = append(found, h)
		}
	}
	if len(found) != 1 {
		return plumbing.ZeroHash, false
	}
	return found[0], true
}

// filterplace.go: a patch of a filtered file placed on its clean form, as git apply places it.

package repo

import (
	"context"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/repo/internal/gitobj"
)

// cleanFormNote is the note on a hunk that was placed on the clean form
// of its file, then written back through the filter's smudge.
const cleanFormNote = "placed on the file as git stores it (through the filter %s), as git apply places it; written back as git checkout writes it"

// viaFilter returns the plan of fd for a file under a content filter
// (filter=<driver> with the driver configured), placed as git apply
// places it: git diff shows such a file as git stores it (its clean
// form), and git apply cleans the working file, applies the patch, and
// writes the result through the filter's smudge. p is fd placed on the
// working file, as a person or a model who read it writes a patch.
//
// The clean form is taken when the patch says it is its form (the index
// line's old blob is the working file's clean blob, or its new blob is a
// created file's content as the patch gives it), or when the patch
// places on it and not on the working file. The plan returned is then
// the working file changed into what git apply writes, hunk by hunk
// (edit.Diff), so that the review shows and the commit stores what git's
// would. Otherwise, or when the filter cannot be run, p is returned.
func (t *Tree) viaFilter(fl *filters, p *edit.FilePlan) *edit.FilePlan {
	fd := p.Diff
	if fd == nil || fd.Binary || p.NewPath == "" || linkSource(fd) || linkResult(fd) || gitlinkSource(fd) || gitlinkResult(fd) {
		return p
	}
	d, err := fl.driver(p.NewPath)
	if err != nil || d == "" || !fl.configured(d) {
		return p
	}
	if p.OldPath == "" {
		return t.createdViaFilter(fl, d, p)
	}
	od, err := fl.driver(p.OldPath)
	if err != nil || od == "" || !fl.configured(od) {
		return p
	}
	named := fd.OldID != "" && !sameBlob(fd.OldID, p.Old)
	if len(p.Errors) == 0 && !named {
		return p // placed on the working file, which the patch does not contradict
	}
	h, err := fl.clean(p.OldPath, od, []byte(p.Old), false)
	if err != nil || h == plumbing.ComputeHash(plumbing.BlobObject, []byte(p.Old)) {
		return p // the same bytes either way
	}
	if named && !strings.HasPrefix(h.String(), strings.ToLower(fd.OldID)) && len(p.Errors) == 0 {
		return p
	}
	b, err := t.cleanForm(fl, p.OldPath, od, p.Old, h)
	if err != nil {
		return p
	}
	pc := edit.PlanFile(p.OldPath, p.NewPath, string(b), fd)
	if len(pc.Errors) > 0 || len(pc.Hunks) == 0 {
		return p
	}
	clean, err := pc.Result(nil)
	if err != nil {
		return p
	}
	work, err := t.smudged(fl, p.NewPath, d, clean)
	if err != nil {
		return p
	}
	return &edit.FilePlan{OldPath: p.OldPath, NewPath: p.NewPath, Diff: fd, Old: p.Old,
		Hunks: noted(edit.Diff(p.Old, work), d), Skipped: pc.Skipped}
}

// createdViaFilter is viaFilter for a created file: its content is the
// clean form when the index line's new blob is that content's.
func (t *Tree) createdViaFilter(fl *filters, d string, p *edit.FilePlan) *edit.FilePlan {
	if p.Diff.NewID == "" || len(p.Errors) > 0 {
		return p
	}
	clean, err := p.Result(nil)
	if err != nil || !sameBlob(p.Diff.NewID, clean) {
		return p
	}
	work, err := t.smudged(fl, p.NewPath, d, clean)
	if err != nil || work == clean {
		return p
	}
	return &edit.FilePlan{OldPath: p.OldPath, NewPath: p.NewPath, Diff: p.Diff, Old: p.Old,
		Hunks: noted(edit.Diff("", work), d), Skipped: p.Skipped}
}

// smudged returns clean as git checkout writes it at p through the
// filter d.
func (t *Tree) smudged(fl *filters, p, d, clean string) (string, error) {
	st, err := t.repo.gitStorage()
	if err != nil {
		return "", err
	}
	h, err := storeBlob(st, clean)
	if err != nil {
		return "", err
	}
	b, err := fl.smudge(p, d, h)
	return string(b), err
}

// sameBlob reports whether id, an index line's blob id (perhaps
// abbreviated), names content.
func sameBlob(id, content string) bool {
	h := plumbing.ComputeHash(plumbing.BlobObject, []byte(content)).String()
	return len(id) >= 4 && strings.HasPrefix(h, strings.ToLower(id))
}

// noted gives each hunk the note that it was placed through the filter d.
func noted(rs []edit.Resolved, d string) []edit.Resolved {
	for i := range rs {
		rs[i].Notes = append(rs[i].Notes, fmt.Sprintf(cleanFormNote, d))
	}
	return rs
}

// placeFilter is what placeWith needs of the filters: nil (the working
// file is the only form) outside git and for --cached, which places on
// the index's blobs.
type placeFilter struct {
	t  *Tree
	fl *filters
}

// placeFilters returns the filters a placement through w goes by.
func (t *Tree) placeFilters(w *dirWalk) (*placeFilter, error) {
	if !t.Git || w.cached {
		return nil, nil
	}
	cfg, err := t.repo.loadConfig()
	if err != nil {
		return nil, err
	}
	if !cfg.anyFilter() {
		// No file can be filtered: its attributes need not be read.
		return nil, nil
	}
	return &placeFilter{t: t, fl: t.newFilters(context.Background(), cfg)}, nil
}

// place is viaFilter, or p itself without filters.
func (pf *placeFilter) place(p *edit.FilePlan) *edit.FilePlan {
	if pf == nil {
		return p
	}
	return pf.t.viaFilter(pf.fl, p)
}

// filteredThreeWay is ThreeWay's merge of p, placed on the working file,
// when its file is under a content filter whose forms differ: base, the
// preimage blob h, and the patch are of the clean form, the working file
// of the smudged one. As git apply --3way merges what git stores and
// writes the result through the smudge, the preimage and the preimage
// with the patch applied are smudged, and the patch between them, now of
// the working file's form, is placed and merged on the working file; the
// index's stages get the clean forms (m.Theirs, m.Ours). It reports
// false, with p and m untouched, where this does not apply.
func (t *Tree) filteredThreeWay(fl *filters, p *edit.FilePlan, h plumbing.Hash, base string, style edit.ConflictStyle, m *Merge) (bool, error) {
	od, err := fl.driver(p.OldPath)
	if err != nil || od == "" || !fl.configured(od) {
		return false, err
	}
	d, err := fl.driver(p.NewPath)
	if err != nil || d == "" || !fl.configured(d) {
		return false, err
	}
	theirs := edit.PlanFile(p.OldPath, p.NewPath, base, p.Diff)
	if len(theirs.Errors) > 0 {
		return false, nil
	}
	theirsClean, err := theirs.Result(nil)
	if err != nil {
		return false, nil
	}
	b, err := fl.smudge(p.OldPath, od, h)
	if err != nil || string(b) == base {
		return false, nil
	}
	baseWork := string(b)
	theirsWork, err := t.smudged(fl, p.NewPath, d, theirsClean)
	if err != nil || theirsWork == baseWork {
		return false, nil
	}
	oursID, err := fl.clean(p.OldPath, od, []byte(p.Old), false)
	if err != nil {
		return false, nil
	}
	ours, err := t.cleanForm(fl, p.OldPath, od, p.Old, oursID)
	if err != nil {
		return false, nil
	}
	rendered, err := edit.Render(p.OldPath, p.OldPath, "", baseWork, edit.Diff(baseWork, theirsWork))
	if err != nil {
		return false, nil
	}
	parsed, err := edit.Parse(rendered)
	if err != nil || len(parsed.Files) != 1 {
		return false, nil
	}
	fd := *p.Diff
	fd.Hunks = parsed.Files[0].Hunks
	np := edit.PlanFile(p.OldPath, p.NewPath, p.Old, &fd)
	before := len(np.Hunks)
	np.ThreeWay(edit.Seen{Start: 1, Text: baseWork, Preimage: true})
	m.Conflicts = np.ConflictsIn(baseWork, style)
	m.Base, m.Merged = h.String(), len(np.Hunks)-before-m.Conflicts
	m.Filter, m.Ours = d, string(ours)
	if m.Conflicts > 0 {
		m.Theirs = theirsClean
	}
	np.Hunks = noted(np.Hunks, d)
	*p = *np
	return true, nil
}

// cleanForm returns the clean form of work, the working file p under the
// filter d, whose blob is h: read from the object store when it is there
// (most often the blob of HEAD, or of the index), else stored from the
// filter's output.
func (t *Tree) cleanForm(fl *filters, p, d, work string, h plumbing.Hash) ([]byte, error) {
	st, err := t.repo.gitStorage()
	if err != nil {
		return nil, err
	}
	if st.HasEncodedObject(h) != nil {
		if h, err = fl.clean(p, d, []byte(work), true); err != nil {
			return nil, err
		}
	}
	return gitobj.ReadBlob(st, h)
}

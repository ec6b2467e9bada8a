// index.go: git apply's --index and --cached: the index checked as git checks it, patches placed on its content, and results staged.

package repo

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/repo/internal/gitobj"
)

// ErrIndex is the refusal of a patch that --index or --cached cannot
// apply as the index stands; the error names the path in git's words
// ("does not match index", "does not exist in index", "already exists in
// index").
var ErrIndex = errors.New("the index does not allow the patch")

// indexError is git apply's refusal of path, wrapping ErrIndex.
func indexError(path, what string) error {
	return fmt.Errorf("%s: %s: %w", path, what, ErrIndex)
}

// readEntries reads the index: its entries by path, at stage 0, and the
// paths with unmerged entries.
func (t *Tree) readEntries() (entries map[string]*index.Entry, unmerged map[string]bool, err error) {
	if err := t.repo.needGit(); err != nil {
		return nil, nil, err
	}
	idx, _, err := readIndex(filepath.Join(t.gitDir, "index"))
	if err != nil {
		return nil, nil, err
	}
	entries, unmerged = stageEntries(idx)
	return entries, unmerged, nil
}

// stageEntries returns the entries of idx by path, at stage 0, and the
// paths with unmerged entries.
func stageEntries(idx *index.Index) (entries map[string]*index.Entry, unmerged map[string]bool) {
	entries, unmerged = map[string]*index.Entry{}, map[string]bool{}
	for _, e := range idx.Entries {
		if e.Stage != 0 {
			unmerged[e.Name] = true
			continue
		}
		entries[e.Name] = e
	}
	return entries, unmerged
}

// earlier reports, for each plan, whether an earlier section of the patch
// wrote the path it reads: such a section is checked, and read, as that
// section left it (git apply's "previous" patch).
func earlier(plans []*edit.FilePlan) []bool {
	out := make([]bool, len(plans))
	written := map[string]bool{}
	for i, p := range plans {
		out[i] = p.OldPath != "" && written[p.OldPath] && !p.Diff.Renamed && !p.Diff.Copied
		if p.NewPath != "" {
			written[p.NewPath] = true
		}
	}
	return out
}

// CheckIndex checks the plans' paths against the index, as git apply
// --index (cached false) or --cached does before it applies anything: a
// file the patch reads is in the index ("does not exist in index") and,
// with --index, the working file holds what the index holds, mode
// included ("does not match index"), read as git add would store it
// (its content filter and line-ending conversion); a file the patch
// creates is not in the index ("already exists in index").
func (t *Tree) CheckIndex(plans []*edit.FilePlan, cached bool) error {
	entries, unmerged, err := t.readEntries()
	if err != nil {
		return err
	}
	trust := t.repo.trustsFileMode()
	prev := earlier(plans)
	// A path a section deletes or renames away may be created by another
	// (git's delete-then-create, as git diff -B writes it, or a swap).
	leaving := map[string]bool{}
	for _, p := range plans {
		if p.OldPath != "" && (p.NewPath == "" || p.Diff != nil && p.Diff.Renamed) {
			leaving[p.OldPath] = true
		}
	}
	for i, p := range plans {
		if prev[i] {
			continue
		}
		if p.OldPath != "" {
			if unmerged[p.OldPath] {
				return indexError(p.OldPath, "needs merge")
			}
			e := entries[p.OldPath]
			if e == nil {
				return indexError(p.OldPath, "does not exist in index")
			}
			// A submodule's folder is not compared: its pointer is in the
			// index only.
			if !cached && !gitlinkSource(p.Diff) && !t.matchesEntry(p.OldPath, e, trust) {
				return indexError(p.OldPath, "does not match index")
			}
		}
		if p.NewPath != "" && (p.OldPath == "" || p.NewPath != p.OldPath && (p.Diff.Renamed || p.Diff.Copied)) {
			// An intent to add (git add -N) is no entry yet for --cached,
			// as for git; --index takes it for one.
			e := entries[p.NewPath]
			if (e != nil && (!e.IntentToAdd || !cached) || unmerged[p.NewPath]) && !leaving[p.NewPath] {
				return indexError(p.NewPath, "already exists in index")
			}
		}
	}
	return nil
}

// matchesEntry reports whether the working file p holds what the index
// entry e holds: the same kind of file, and the blob git add would store
// (see addBlob); trust is core.fileMode (see recordedMode).
func (t *Tree) matchesEntry(p string, e *index.Entry, trust bool) bool {
	if e.Mode == filemode.Submodule {
		// A submodule: its folder, or nothing, which git checks out as
		// the empty folder.
		fi, err := t.root.Lstat(p)
		return err == nil && fi.IsDir() || gone(err)
	}
	b, mode, err := t.workEntry(p)
	if err != nil || recordedMode(mode, e, trust) != e.Mode {
		return false
	}
	// A size other than the one the entry records is a change, for git,
	// whatever the conversion would make of the content.
	if fi, err := t.root.Lstat(p); err != nil || e.Size != 0 && int64(e.Size) != fi.Size() {
		return false
	}
	if plumbing.ComputeHash(plumbing.BlobObject, b) == e.Hash {
		return true
	}
	h, err := t.addBlob(nil, p, b, mode)
	return err == nil && h == e.Hash
}

// KeepIndexModes gives each plan that changes a regular file's content
// but not its mode the index entry's mode, when core.fileMode is false
// and the working file's executable bit differs from the entry's: git
// apply --index then takes the entry's mode for the file it writes, as
// it does not trust the file's bit. Call it after CheckIndex.
func (t *Tree) KeepIndexModes(plans []*edit.FilePlan) error {
	entries, _, err := t.readEntries()
	if err != nil {
		return err
	}
	trust := t.repo.trustsFileMode()
	for _, p := range plans {
		e := entries[p.OldPath]
		if p.OldPath == "" || p.NewPath == "" || e == nil || p.Diff.ModeChange() {
			continue
		}
		_, work, err := t.workEntry(p.OldPath)
		if err != nil || work == e.Mode || recordedMode(work, e, trust) != e.Mode {
			continue
		}
		p.Diff.OldMode, p.Diff.NewMode = strings.TrimPrefix(work.String(), "0"), strings.TrimPrefix(e.Mode.String(), "0")
	}
	return nil
}

// recordedMode is the mode git records for a working file of mode work
// whose index entry is e (nil for none): with core.fileMode false (trust
// false), git does not trust a file's executable bit and keeps the
// entry's.
func recordedMode(work filemode.FileMode, e *index.Entry, trust bool) filemode.FileMode {
	regular := func(m filemode.FileMode) bool { return m == filemode.Regular || m == filemode.Executable }
	if trust || e == nil || !regular(work) || !regular(e.Mode) {
		return work
	}
	return e.Mode
}

// trustsFileMode reads core.fileMode, as git does (true when unset or
// unreadable): read once per operation, not once per file.
func (gr *gitRepo) trustsFileMode() bool {
	cfg, err := gr.loadConfig()
	if err != nil {
		return true
	}
	trust, err := cfg.boolean("core", "fileMode", true)
	return err != nil || trust
}

// workEntry reads the working file p as it is (see worktreeBlob), with
// the mode git records for it.
func (t *Tree) workEntry(p string) ([]byte, filemode.FileMode, error) {
	fi, err := t.root.Lstat(p)
	if err != nil {
		return nil, 0, wrapEscape(p, err)
	}
	link := fi.Mode()&fs.ModeSymlink != 0
	if !link && !fi.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("%s: not a regular file", p)
	}
	b, err := t.worktreeBlob(p, link)
	switch {
	case link:
		return b, filemode.Symlink, err
	case fi.Mode()&0o111 != 0:
		return b, filemode.Executable, err
	}
	return b, filemode.Regular, err
}

// addBlob is the blob git add stores for the working file p that holds
// b: a file's content through the content filter its attributes name,
// or else with git's line-ending conversion (core.autocrlf, the text and
// eol attributes); a link's target as it is. With st, the blob is
// written to it.
func (t *Tree) addBlob(st storer.EncodedObjectStorer, p string, b []byte, mode filemode.FileMode) (plumbing.Hash, error) {
	if mode != filemode.Symlink {
		cfg, err := t.repo.loadConfig()
		if err != nil {
			return plumbing.ZeroHash, err
		}
		fl := t.newFilters(context.Background(), cfg)
		d, err := fl.driver(p)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if d != "" {
			return fl.clean(p, d, b, st != nil)
		}
		eol, err := t.eolRules()
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if b, err = eol.clean(p, b); err != nil {
			return plumbing.ZeroHash, err
		}
	}
	if st == nil {
		return plumbing.ComputeHash(plumbing.BlobObject, b), nil
	}
	return storeBlob(st, string(b))
}

// FromIndex places the plans again on the index's content of their files,
// for git apply --cached: the working tree is neither read nor written.
// A section that reads what an earlier one wrote is placed on that
// one's result. A link is its target, as git stores it, a binary file
// its blob, and a submodule its pointer's line.
func (t *Tree) FromIndex(plans []*edit.FilePlan) error {
	st, err := t.repo.gitStorage()
	if err != nil {
		return err
	}
	entries, _, err := t.readEntries()
	if err != nil {
		return err
	}
	prev := earlier(plans)
	at := map[string]int{} // the plan that last wrote each path
	for i, p := range plans {
		fd := p.Diff
		if fd == nil {
			return fmt.Errorf("%s: --cached: a whole file without a diff", p.Path())
		}
		old := ""
		switch {
		case p.OldPath == "":
		case prev[i]:
			w := plans[at[p.OldPath]]
			if old, err = edit.Apply(w.Old, w.Hunks); err != nil {
				return fmt.Errorf("%s: %w", w.Path(), err)
			}
		default:
			e := entries[p.OldPath]
			if e == nil {
				return indexError(p.OldPath, "does not exist in index")
			}
			if old, err = readEntry(st, e); err != nil {
				return err
			}
		}
		plans[i] = edit.PlanFile(p.OldPath, p.NewPath, old, fd)
		if p.NewPath != "" {
			at[p.NewPath] = i
		}
	}
	return nil
}

// indexContent is what the index entry e holds, as a patch reads it
// (see readEntry); "" for none (an unmerged path, which CheckIndex
// refuses).
func (t *Tree) indexContent(e *index.Entry) (string, error) {
	if e == nil {
		return "", nil
	}
	st, err := t.repo.gitStorage()
	if err != nil {
		return "", err
	}
	return readEntry(st, e)
}

// readEntry is what the index entry e holds, as a patch reads it: a
// file's blob, a link's target, a binary file's bytes, a submodule's
// pointer line.
func readEntry(st storer.EncodedObjectStorer, e *index.Entry) (string, error) {
	if e.Mode == filemode.Submodule {
		return gitlinkText(e.Hash.String()), nil
	}
	b, err := gitobj.ReadBlob(st, e.Hash)
	if err != nil {
		return "", fmt.Errorf("%s: read from the index: %w", e.Name, err)
	}
	return string(b), nil
}

// Stage records written plans in the index, as git apply --index does
// after writing the working tree (cached false: each path as its working
// file now is), or as git apply --cached does without it (each path as
// its plan makes it). A path of conflicted, whose plan wrote conflict
// markers, is left unmerged as git leaves it: the preimage, ours and
// theirs at stages 1, 2 and 3, from its merge (see ThreeWay).
func (t *Tree) Stage(plans []*edit.FilePlan, merges []Merge, conflicted []string, cached bool) error {
	st, err := t.repo.gitStorage()
	if err != nil {
		return err
	}
	lock, idx, idxTime, err := t.lockedIndex()
	if err != nil {
		return err
	}
	defer lock.release()
	entries, _ := stageEntries(idx)
	trust := t.repo.trustsFileMode()
	changes := map[string]*treeChange{}
	committed := map[string]bool{}
	var stages []*index.Entry
	for _, p := range plans {
		if p.OldPath != "" && p.OldPath != p.NewPath && (p.NewPath == "" || p.Diff.Renamed) {
			changes[p.OldPath], committed[p.OldPath] = &treeChange{path: p.OldPath, delete: true}, true
		}
		if p.NewPath == "" {
			continue
		}
		mode := filemode.Regular
		if e := entries[p.OldPath]; e != nil {
			mode = e.Mode
		}
		if slices.Contains(conflicted, p.NewPath) {
			i := slices.IndexFunc(merges, func(m Merge) bool { return m.Path == p.Path() })
			if i < 0 {
				return fmt.Errorf("%s: conflicted without a three-way merge", p.Path())
			}
			es, err := conflictStages(st, p, merges[i], mode)
			if err != nil {
				return err
			}
			stages = append(stages, es...)
			changes[p.NewPath], committed[p.NewPath] = &treeChange{path: p.NewPath, delete: true}, true
			continue
		}
		var content []byte
		var h plumbing.Hash
		if gitlinkResult(p.Diff) {
			// A submodule's pointer: the commit it names, in the index
			// only (the working tree holds the submodule's own checkout).
			s, err := p.Result(nil)
			if err != nil {
				return err
			}
			id, err := gitlinkID(s)
			if err != nil {
				return fmt.Errorf("%s: %w", p.NewPath, err)
			}
			changes[p.NewPath] = &treeChange{path: p.NewPath, blob: plumbing.NewHash(id), mode: filemode.Submodule}
			committed[p.NewPath] = true
			continue
		}
		if cached {
			s, err := p.Result(nil)
			if err != nil {
				return err
			}
			content = []byte(s)
			// A mode that only repeats the old one (an index line's) keeps
			// the entry's, as git keeps it.
			if m, err := filemode.New(p.Diff.NewMode); err == nil && p.Diff.NewMode != "" && (p.Diff.NewMode != p.Diff.OldMode || entries[p.OldPath] == nil) {
				mode = m
			}
			if h, err = storeBlob(st, s); err != nil {
				return err
			}
		} else {
			if content, mode, err = t.workEntry(p.NewPath); err != nil {
				return fmt.Errorf("stage %s: %w", p.NewPath, err)
			}
			if p.Diff.OldMode == p.Diff.NewMode {
				mode = recordedMode(mode, entries[p.OldPath], trust)
			}
			// Stored as git add stores it; the stat data are the file's.
			if h, err = t.addBlob(st, p.NewPath, content, mode); err != nil {
				return fmt.Errorf("stage %s: %w", p.NewPath, err)
			}
		}
		changes[p.NewPath] = &treeChange{path: p.NewPath, content: string(content), blob: h, mode: mode}
		committed[p.NewPath] = true
	}
	next := t.nextIndex(idx, idxTime, changes, committed, nil)
	// nextIndex keeps the time and size of a file that holds its staged
	// blob: git also compares the rest of the stat data.
	for _, e := range next.Entries {
		if c := changes[e.Name]; c != nil && !c.delete && e.Size != 0 {
			if fi, err := t.root.Lstat(e.Name); err == nil && fi.Mode().IsRegular() {
				statEntry(e, fi)
			}
		}
	}
	next.Entries = append(next.Entries, stages...)
	sortEntries(next.Entries)
	if err := writeIndex(lock, next); err != nil {
		return fmt.Errorf("write the index: %w", err)
	}
	return nil
}

// sortEntries puts index entries in git's order: by name, then stage.
func sortEntries(es []*index.Entry) {
	slices.SortStableFunc(es, func(a, b *index.Entry) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), int(a.Stage)-int(b.Stage))
	})
}

// conflictStages are the unmerged entries of a conflicted plan, as git
// apply --3way writes them: the preimage (1), the file before the patch
// (2, ours) and the preimage with the patch applied (3, theirs).
func conflictStages(st storer.EncodedObjectStorer, p *edit.FilePlan, m Merge, mode filemode.FileMode) ([]*index.Entry, error) {
	ours, err := storeBlob(st, cmp.Or(m.Ours, p.Old))
	if err != nil {
		return nil, err
	}
	theirs, err := storeBlob(st, m.Theirs)
	if err != nil {
		return nil, err
	}
	es := []*index.Entry{
		{Name: p.NewPath, Hash: plumbing.NewHash(m.Base), Mode: mode, Stage: 1},
		{Name: p.NewPath, Hash: ours, Mode: mode, Stage: 2},
		{Name: p.NewPath, Hash: theirs, Mode: mode, Stage: 3},
	}
	if m.Added {
		es = es[1:] // no preimage: git's add/add
	}
	return es, nil
}

// IntendToAdd marks each file the plans create, once written to the
// working tree, as intended to be added (git add -N), as git apply -N
// does: an index entry with the empty blob, no stat data and the
// intent-to-add flag, of the mode the patch gives the file, so that git
// diff shows the file and git commit -a takes it. Other plans (a change,
// a deletion, a rename, a copy) leave the index alone, as newer git does
// (git 2.39 also stages their deletions and makes their entries
// intents to add). A path the index has already, or that it holds as a
// file where the path has a folder or the reverse, is left alone and
// returned in skipped, with why. It returns the paths marked.
func (t *Tree) IntendToAdd(plans []*edit.FilePlan) (marked []string, skipped []Uncommitted, err error) {
	if err := t.repo.needGit(); err != nil {
		return nil, nil, err
	}
	var created []*edit.FilePlan
	for _, p := range plans {
		if p.OldPath == "" && p.NewPath != "" && !gitlinkPlan(p) {
			created = append(created, p)
		}
	}
	if len(created) == 0 {
		return nil, nil, nil
	}
	lock, idx, _, err := t.lockedIndex()
	if err != nil {
		return nil, nil, err
	}
	defer lock.release()
	names := map[string]bool{}
	for _, e := range idx.Entries {
		names[e.Name] = true
	}
	for _, p := range created {
		why := ""
		switch np := p.NewPath; {
		case names[np]:
			why = "the index has it already"
		case belowAny(np, names):
			why = "the index has a file where its folder is"
		case slices.ContainsFunc(idx.Entries, func(e *index.Entry) bool { return strings.HasPrefix(e.Name, np+"/") }):
			why = "the index has files in a folder of that name"
		}
		if why != "" {
			skipped = append(skipped, Uncommitted{Path: p.NewPath, Reason: why})
			continue
		}
		// The patch's mode, as git canonicalizes it (100644 without one).
		mode := filemode.Regular
		if n, err := strconv.ParseUint(p.Diff.NewMode, 8, 32); linkResult(p.Diff) {
			mode = filemode.Symlink
		} else if err == nil && n&0o100 != 0 {
			mode = filemode.Executable
		}
		idx.Entries = append(idx.Entries, &index.Entry{Name: p.NewPath, Hash: plumbing.ComputeHash(plumbing.BlobObject, nil), Mode: mode, IntentToAdd: true})
		names[p.NewPath] = true
		marked = append(marked, p.NewPath)
	}
	if len(marked) == 0 {
		return nil, skipped, nil
	}
	slices.SortStableFunc(idx.Entries, func(a, b *index.Entry) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), int(a.Stage)-int(b.Stage))
	})
	idx.Version = max(idx.Version, 3) // the intent-to-add flag is an extended one
	// The cached trees are stale now; git rebuilds them.
	idx.Cache, idx.ResolveUndo, idx.EndOfIndexEntry = nil, nil, nil
	if err := writeIndex(lock, idx); err != nil {
		return nil, skipped, fmt.Errorf("write the index: %w", err)
	}
	return marked, skipped, nil
}

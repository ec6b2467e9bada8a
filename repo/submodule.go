// submodule.go: submodule pointers (gitlinks): the index's submodules, changed in the index and the commit, never the checkout.

package repo

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/repo/internal/gitobj"
)

// Submodule pointers (mode 160000, gitlinks): the patch's content is one
// line, "Subproject commit <id>". As git apply --index does, pair changes
// the pointer in the index and the commit, and leaves the submodule's
// working tree alone: it makes the empty folder of a new submodule, and
// removes the empty folder of a deleted one. A submodule turned into a
// file or a folder, or a file into a submodule (git's typechange: a
// deletion and a creation of one path), is two plans, each reviewed on
// its own: the file or the folder takes the place of the submodule's
// empty folder, never of a checkout (see checkReplaced).

// subprojectPrefix starts the one line git writes for a gitlink.
const subprojectPrefix = "Subproject commit "

// ErrGitlink is returned for a submodule pointer change pair cannot make.
var ErrGitlink = errors.New("cannot change the submodule pointer")

// gitlinkSource reports whether the diff reads a submodule pointer.
func gitlinkSource(fd *edit.FileDiff) bool {
	return fd.OldMode == gitlinkMode && !fd.New
}

// gitlinkResult reports whether the diff writes a submodule pointer.
func gitlinkResult(fd *edit.FileDiff) bool {
	return fd.NewMode == gitlinkMode && !fd.Deleted
}

// gitlinkPlan reports whether a plan changes a submodule pointer.
func gitlinkPlan(p *edit.FilePlan) bool {
	return p.Diff != nil && (gitlinkSource(p.Diff) || gitlinkResult(p.Diff))
}

// submodules is what the git index says of the tree's submodules: the
// pointer at a path, the submodule that holds a path, what a patch may
// do with them.
type submodules struct {
	// git says whether the tree is a repository's; gitDir is its git
	// directory (the index) and commonDir that of its configuration.
	git               bool
	gitDir, commonDir string
	// gitlinks caches the submodules of the git index during a check of
	// a write set (see gitlinkOf).
	gitlinks map[string]bool
	// leaving holds the submodules the patch being placed or written
	// deletes: a file or a folder of the patch may take the place of
	// their empty folders (see replacing).
	leaving map[string]bool
}

// checkGitlinkDiff refuses what pair does not do with submodules: a
// submodule turned into a file or a link, or back, and any submodule
// change outside a git repository.
func (sm *submodules) checkGitlinkDiff(fd *edit.FileDiff) error {
	src, res := gitlinkSource(fd), gitlinkResult(fd)
	switch {
	case !src && !res:
		return nil
	case !sm.git:
		return fmt.Errorf("%s: %w outside a git repository", fd.Path(), ErrGitlink)
	case !fd.New && !fd.Deleted && src != res:
		return fmt.Errorf("%s: %w: turning a submodule into a file or back is not supported", fd.Path(), ErrGitlink)
	}
	return nil
}

// indexGitlink returns the commit the index's submodule pointer at p
// names, or ok false when the index has no submodule there.
func (sm *submodules) indexGitlink(p string) (id string, ok bool, err error) {
	idx, _, err := readIndex(filepath.Join(sm.gitDir, "index"))
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	for _, e := range idx.Entries {
		if e.Name == p && e.Stage == 0 {
			return e.Hash.String(), e.Mode == filemode.Submodule, nil
		}
	}
	return "", false, nil
}

// gitlinkText is a submodule pointer as a patch writes it.
func gitlinkText(id string) string { return subprojectPrefix + id + "\n" }

// gitlinkID reads the commit of a submodule pointer's text.
func gitlinkID(text string) (string, error) {
	id, ok := strings.CutPrefix(strings.TrimSuffix(text, "\n"), subprojectPrefix)
	id = strings.TrimSuffix(id, "-dirty")
	if !ok || len(id) != 40 && len(id) != 64 || strings.Trim(strings.ToLower(id), "0123456789abcdef") != "" {
		return "", fmt.Errorf("%w: %q is not one line %q and a full commit id", ErrGitlink, text, subprojectPrefix)
	}
	return strings.ToLower(id), nil
}

// gitlinkAt reports whether the index holds a submodule at p.
func (sm *submodules) gitlinkAt(p string) (bool, error) {
	_, ok, err := sm.indexGitlink(p)
	return ok, err
}

// checkNewGitlink checks the path of a submodule the patch adds: not in
// the index yet, and on disk nothing or a folder (the submodule's own).
func (sm *submodules) checkNewGitlink(p string, fi fs.FileInfo, statErr error) error {
	if _, ok, err := sm.indexGitlink(p); err != nil {
		return err
	} else if ok {
		return fmt.Errorf("%s: the patch adds the submodule, but the index has it already", p)
	}
	switch {
	case statErr == nil && !fi.IsDir():
		return fmt.Errorf("%s: the patch adds a submodule there, but a file is in the way", p)
	case statErr != nil && !errors.Is(statErr, fs.ErrNotExist):
		return statErr
	}
	return nil
}

// gitlinkCommit fills in what a plan of a submodule pointer commits.
func gitlinkCommit(p *edit.FilePlan, fc FileCommit) (FileCommit, error) {
	fc.WasGitlink = p.OldPath != "" && gitlinkSource(p.Diff)
	if p.NewPath == "" {
		return fc, nil
	}
	after, err := p.Result(nil)
	if err != nil {
		return fc, err
	}
	if fc.Gitlink, err = gitlinkID(after); err != nil {
		return fc, fmt.Errorf("%s: %w", p.NewPath, err)
	}
	fc.After = after
	return fc, nil
}

// gitlinkChanges is fileChanges for a submodule pointer: the pointer is
// committed when HEAD holds the one the patch was placed against (the
// index's, see readSource), or, for a new one, nothing, or a file that
// the commit deletes (deleted: a file turned into a submodule).
func gitlinkChanges(st storer.EncodedObjectStorer, base *gitobj.Tree, f FileCommit, deleted bool) ([]*treeChange, string, error) {
	src := f.Path
	if f.OldPath != "" {
		src = f.OldPath
	}
	var head *gitobj.TreeEntry
	if base != nil {
		e, err := gitobj.Find(st, base, src)
		switch {
		case err == nil:
			head = &e
		case !errors.Is(err, gitobj.ErrNotFound):
			return nil, "", fmt.Errorf("read %s from HEAD: %w", src, err)
		}
	}
	switch {
	case f.Create && head != nil && (head.Mode == filemode.Submodule || !deleted):
		return nil, reasonInHead, nil
	case !f.Create && (head == nil || head.Mode != filemode.Submodule || gitlinkText(head.Hash.String()) != f.Before):
		return nil, reasonStagedGitlink, nil
	}
	var out []*treeChange
	if f.OldPath != "" && f.OldPath != f.Path || f.Delete {
		out = append(out, &treeChange{path: src, delete: true})
	}
	if !f.Delete {
		fc := f
		out = append(out, &treeChange{path: f.Path, mode: filemode.Submodule, blob: plumbing.NewHash(f.Gitlink), file: &fc})
	}
	return out, "", nil
}

// reasonStagedGitlink says why a submodule pointer is not committed.
const reasonStagedGitlink = "HEAD's submodule pointer is not the one in the index that the patch changes; it is not committed"

// gitlinkFolders makes the empty folder of each submodule the plans add
// and removes the empty folder of each they delete, as git apply does; a
// folder that holds anything is left alone.
func (dk *disk) gitlinkFolders(plans []*edit.FilePlan) {
	for _, p := range plans {
		if !gitlinkPlan(p) {
			continue
		}
		if p.OldPath != "" && p.OldPath != p.NewPath && gitlinkSource(p.Diff) {
			// Only an empty folder: not the file that took its place.
			if fi, err := dk.root.Lstat(p.OldPath); err == nil && fi.IsDir() {
				_ = dk.root.Remove(p.OldPath)
			}
		}
		if p.NewPath != "" && gitlinkResult(p.Diff) {
			if _, err := dk.root.Lstat(p.NewPath); errors.Is(err, fs.ErrNotExist) {
				_, _ = dk.mkdirs(p.NewPath)
			}
		}
	}
}

// withoutGitlinks returns the plans that write the working tree: all
// but the submodule pointers, which only the commit holds.
func withoutGitlinks(plans []*edit.FilePlan) []*edit.FilePlan {
	var out []*edit.FilePlan
	for _, p := range plans {
		if !gitlinkPlan(p) {
			out = append(out, p)
		}
	}
	return out
}

// readGitlink is the text of the index's submodule pointer at p.
func (sm *submodules) readGitlink(p string) (string, error) {
	id, ok, err := sm.indexGitlink(p)
	if err == nil && !ok {
		err = fmt.Errorf("%s: %w: the index has no submodule there", p, ErrGitlink)
	}
	return gitlinkText(id), err
}

// checkGitlinkPlans checks, before anything is written, that the plans
// of submodule pointers give a pointer each, and that they are to be
// committed or staged (kept): the pointer is in the index and the commit
// only.
func checkGitlinkPlans(plans []*edit.FilePlan, kept bool) error {
	for _, p := range plans {
		if !gitlinkPlan(p) {
			continue
		}
		if !kept {
			return fmt.Errorf("%s: %w without a commit: the pointer is kept in the index and the commit, not in the working tree", p.Path(), ErrGitlink)
		}
		if _, err := gitlinkCommit(p, FileCommit{}); err != nil {
			return err
		}
	}
	return nil
}

// gitlinkOf returns the submodule of the git index that holds p or real
// (the same path, followed through links), or "".
func (sm *submodules) gitlinkOf(paths ...string) string {
	if !sm.git {
		return ""
	}
	if sm.gitlinks == nil {
		sm.gitlinks = sm.readGitlinks()
	}
	for _, p := range paths {
		for d := p; d != "." && d != "/" && d != ""; d = path.Dir(d) {
			if sm.gitlinks[d] && !sm.leaving[d] {
				return d
			}
		}
	}
	return ""
}

// leave sets the submodules whose pointers the plans or sections being
// placed or written delete (nil: none), and returns a function that
// puts back those set before.
func (sm *submodules) leave(gone map[string]bool) func() {
	prev := sm.leaving
	sm.leaving = gone
	return func() { sm.leaving = prev }
}

// deletedGitlinks are the paths of the submodules fds delete or rename
// away, each under the names it may have (see edit.FileDiff.Candidates).
func (t *Tree) deletedGitlinks(fds []*edit.FileDiff) map[string]bool {
	var out map[string]bool
	for _, fd := range fds {
		if !gitlinkSource(fd) || !(fd.Deleted || fd.Renamed) || fd.Source() == "" {
			continue
		}
		for _, c := range fd.Candidates(fd.Source()) {
			if cp, err := t.Clean(c); err == nil {
				if out == nil {
					out = map[string]bool{}
				}
				out[cp] = true
			}
		}
	}
	return out
}

// replacing returns the submodule the patch deletes that p is, or lies
// in: a file or a folder of the patch takes its place ("" for none).
func (sm *submodules) replacing(p string) string {
	for d := p; d != "." && d != "/" && d != ""; d = path.Dir(d) {
		if sm.leaving[d] {
			return d
		}
	}
	return ""
}

// ErrCheckout is the refusal to put a file or a folder where a submodule
// the patch deletes has files: they belong to the submodule's checkout.
var ErrCheckout = errors.New("the submodule's folder is not empty")

// checkReplaced refuses a path p of the patch that takes the place of a
// submodule the patch deletes (a submodule turned into a file or a
// folder) unless the submodule's folder is empty or gone, as it is when
// the submodule is not checked out. git apply writes into a checkout's
// folder, or fails half-way; pair refuses before anything is written.
func (t *Tree) checkReplaced(p string) error {
	sub := t.submodules.replacing(p)
	if sub == "" {
		return nil
	}
	f, err := t.root.Open(sub)
	if gone(err) {
		return nil
	}
	if err != nil {
		return wrapEscape(sub, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: %w: the index has a submodule there, and the working tree a file", sub, ErrCheckout)
	}
	names, err := f.Readdirnames(1)
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	if len(names) > 0 {
		return fmt.Errorf("%s: %w: the patch deletes the submodule and puts %s there, but its folder holds files (the submodule's checkout, %s), which pair does not delete; remove the checkout first (git submodule deinit -f %s)",
			sub, ErrCheckout, p, names[0], sub)
	}
	return nil
}

// clearReplaced checks again each path of the plans that takes the place
// of a submodule they delete (see checkReplaced), and removes the empty
// folder of each such submodule that becomes a file, before the working
// tree is written: the file is written where the folder was. It returns a
// function that makes the folders again, for a write that failed.
func (t *Tree) clearReplaced(plans []*edit.FilePlan) (undo func(), err error) {
	var removed []string
	undo = func() {
		for _, d := range removed {
			_, _ = t.disk.mkdirs(d)
		}
	}
	for _, p := range plans {
		if p.NewPath == "" || gitlinkPlan(p) {
			continue
		}
		if err := t.checkReplaced(p.NewPath); err != nil {
			return undo, err
		}
		if !t.submodules.leaving[p.NewPath] {
			continue // a folder's file, written in the folder
		}
		fi, err := t.root.Lstat(p.NewPath)
		if gone(err) || err == nil && !fi.IsDir() {
			continue
		}
		if err := t.root.Remove(p.NewPath); err != nil && !gone(err) {
			return undo, fmt.Errorf("%s: remove the submodule's empty folder: %w", p.NewPath, err)
		}
		removed = append(removed, p.NewPath)
	}
	return undo, nil
}

// readGitlinks returns the submodules (gitlinks) of the git index. It
// reads only the mode and the name of each entry, and falls back to
// decoding the whole index when that index is one it does not know.
func (sm *submodules) readGitlinks() map[string]bool {
	if b, err := os.ReadFile(filepath.Join(sm.gitDir, "index")); err == nil && !sm.sha256() {
		if links, ok := indexGitlinks(b); ok {
			return links
		}
	}
	links := map[string]bool{}
	if idx, _, err := readIndex(filepath.Join(sm.gitDir, "index")); err == nil {
		for _, e := range idx.Entries {
			if e.Mode == filemode.Submodule {
				links[e.Name] = true
			}
		}
	}
	return links
}

// sha256 reports whether the repository's configuration may name another
// object format than SHA-1, whose longer object names an index entry
// would hold.
func (sm *submodules) sha256() bool {
	b, err := os.ReadFile(filepath.Join(sm.commonDir, "config"))
	return err != nil || bytes.Contains(bytes.ToLower(b), []byte("objectformat"))
}

// indexGitlinks returns the names of the gitlinks (mode 160000) of a git
// index of version 2, 3 or 4 with SHA-1 object names; ok is false for
// anything else, or anything it cannot follow.
func indexGitlinks(b []byte) (links map[string]bool, ok bool) {
	if len(b) < 12 || string(b[:4]) != "DIRC" {
		return nil, false
	}
	version := binary.BigEndian.Uint32(b[4:])
	count := binary.BigEndian.Uint32(b[8:])
	if version < 2 || version > 4 {
		return nil, false
	}
	links = map[string]bool{}
	pos := 12
	var prev []byte // the previous name, which version 4 names build on
	for range count {
		// 40 bytes of file data (the mode at 24), a 20-byte object name,
		// 2 bytes of flags (the name's length in the low 12 bits).
		start := pos
		if pos+62 > len(b) {
			return nil, false
		}
		mode := binary.BigEndian.Uint32(b[pos+24:])
		flags := binary.BigEndian.Uint16(b[pos+60:])
		pos += 62
		if flags&0x4000 != 0 { // extended flags
			if version < 3 {
				return nil, false
			}
			pos += 2
		}
		var name []byte
		if version == 4 {
			// How many bytes to drop from the end of the previous name (git's
			// offset varint), then the rest of this one, NUL-terminated.
			strip, n := 0, 0
			for {
				if pos+n >= len(b) || n > 4 {
					return nil, false
				}
				c := b[pos+n]
				strip = strip<<7 | int(c&0x7f)
				n++
				if c&0x80 == 0 {
					break
				}
				strip++
			}
			pos += n
			end := bytes.IndexByte(b[pos:], 0)
			if end < 0 || strip > len(prev) {
				return nil, false
			}
			name = append(prev[:len(prev)-strip:len(prev)-strip], b[pos:pos+end]...)
			pos += end + 1
		} else {
			end := bytes.IndexByte(b[pos:], 0)
			if end < 0 || int(flags&0xfff) != min(end, 0xfff) {
				return nil, false
			}
			name = b[pos : pos+end]
			// Padded with 1 to 8 NULs to a multiple of 8 bytes.
			next := start + (pos+end-start+8)&^7
			if next > len(b) || bytes.ContainsFunc(b[pos+end:next], func(r rune) bool { return r != 0 }) {
				return nil, false
			}
			pos = next
		}
		if mode&0o170000 == 0o160000 {
			links[string(name)] = true
		}
		prev = name
	}
	return links, true
}

// undo.go: Undo, pair's last commit taken back when nothing came after it, or UndoRefusal saying why not.

package repo

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/repo/internal/gitobj"
	"github.com/pair-cli/pair/repo/internal/gitstore"
)

// The rules by which Undo refuses, in the order it checks them.
const (
	// RuleInProgress: a merge, rebase, cherry-pick, revert or bisect is
	// in progress; HEAD is not the user's to move.
	RuleInProgress = "in-progress"
	// RuleHeadNotPair: HEAD is not a pair commit (or there is no commit).
	RuleHeadNotPair = "head-not-pair"
	// RuleNotMadeHere: HEAD carries pair's trailers, but this pair did
	// not make it (it is not in pair's record of its own commits): its
	// trailers are anyone's word.
	RuleNotMadeHere = "not-made-here"
	// RuleMerge: HEAD is a merge commit (more than one parent).
	RuleMerge = "merge"
	// RuleRoot: HEAD has no parent to go back to.
	RuleRoot = "root"
	// RulePushed: HEAD is reachable from the branch's upstream, or from
	// any other remote-tracking branch: someone may have it already.
	RulePushed = "pushed"
	// RuleFileType: the commit changes something other than a regular
	// file (a symbolic link, a submodule), which pair never writes.
	RuleFileType = "file-type"
	// RuleAmended: the commit changes something its trailers do not
	// record (a file added by git commit --amend, or another version of
	// a file): undoing it would take back work that is not pair's.
	RuleAmended = "amended"
	// RuleEditedAfter: a file of the commit differs, in the index or in
	// the working tree, from HEAD: undoing would lose those edits.
	RuleEditedAfter = "edited-after"
)

// UndoRefusal is the error Undo returns when a rule stops it. Nothing has
// been changed.
type UndoRefusal struct {
	Rule   string   // one of the Rule constants
	Detail string   // what was found, for a person
	Files  []string // the files concerned (edited-after, file-type)
}

func (e *UndoRefusal) Error() string {
	return fmt.Sprintf("refused by rule %s: %s", e.Rule, e.Detail)
}

// UndoFile is one file that Undo puts back as it was in the parent.
type UndoFile struct {
	Path string
	// Action is "restore" (the parent's content and mode are written to
	// the index and the working tree) or "remove" (the commit added the
	// file: it is removed from both).
	Action string
	Mode   string // the parent's git mode ("100644", "100755"), "" for remove
}

// UndoResult says what Undo did or, for a dry run, would do.
type UndoResult struct {
	DryRun bool
	Commit LogEntry // the pair commit undone
	Parent string   // the commit HEAD now points at (full hash)
	// Branch is the branch moved ("refs/heads/main"), or "" when HEAD is
	// detached and HEAD itself moved.
	Branch string
	Files  []UndoFile
}

// Undo takes back the last pair commit. It refuses, with an *UndoRefusal
// naming the rule, unless all hold: no merge, rebase, cherry-pick, revert
// or bisect is in progress; HEAD is a pair commit that this pair made
// (it is in the record Commit keeps); it has exactly one
// parent; it is not reachable from the branch's upstream nor from any
// remote-tracking branch; it changes only regular files; and none of
// those files differs from HEAD in the index or the working tree.
//
// Undo then moves the branch (or a detached HEAD) to the parent, and for
// the commit's files only sets the index entry and the working-tree file
// to the parent's version (removing those the commit added). Every other
// file and index entry is left as it was. The reflogs of HEAD and of the
// branch record the move, so "git reset <hash>" brings the commit back.
//
// With dryRun, Undo checks the rules and returns what it would do without
// changing anything. Everything is read from git, so undo works in any
// later process.
func (t *Tree) Undo(dryRun bool) (*UndoResult, error) {
	st, err := t.repo.gitStorage()
	if err != nil {
		return nil, err
	}
	gitDir, commonDir := t.gitDir, t.commonDir
	indexPath := filepath.Join(gitDir, "index")
	var indexLock *gitLock
	if !dryRun {
		if indexLock, err = lockIndex(indexPath); err != nil {
			return nil, err
		}
		defer indexLock.release()
	}
	p, err := t.undoPlan(st, gitDir)
	if err != nil {
		return nil, err
	}
	p.res.DryRun = dryRun
	if dryRun {
		return p.res, nil
	}

	refFile := filepath.Join(gitDir, "HEAD")
	if p.res.Branch != "" {
		refFile = filepath.Join(commonDir, filepath.FromSlash(p.res.Branch))
	}
	if err := os.MkdirAll(filepath.Dir(refFile), 0o755); err != nil { // a packed ref has no directory
		return nil, err
	}
	refLock, err := lockGitFile(refFile)
	if err != nil {
		return nil, err
	}
	defer refLock.release()
	// The ref may have moved between reading it and locking it.
	if cur, err := refHash(st, p.res.Branch); err != nil || cur != p.head {
		return nil, fmt.Errorf("HEAD moved while undoing; nothing was changed")
	}

	// The working tree first, all files or none.
	var changes, back []Change
	for _, f := range p.files {
		if f.parent == nil {
			changes = append(changes, Change{Path: f.path, Delete: true})
		} else {
			content := f.parent.content
			switch {
			case f.work != nil:
				content = f.work.parent
			case f.crlf && !looksBinary(content):
				content = toCRLF(content)
			}
			changes = append(changes, Change{Path: f.path, Content: content, Mode: f.parent.perm()})
		}
		if f.head == nil {
			back = append(back, Change{Path: f.path, Delete: true})
		} else {
			content := f.head.content
			switch {
			case f.work != nil:
				content = f.work.head
			case f.crlf:
				content = toCRLF(content)
			}
			back = append(back, Change{Path: f.path, Content: content, Mode: f.head.perm()})
		}
	}
	if err := t.Write(changes); err != nil {
		return nil, fmt.Errorf("restore files: %w", err)
	}
	// Then the index, then the ref; put the files back if either fails.
	if err := t.undo.undoIndex(indexLock, p); err != nil {
		_ = t.Write(back)
		return nil, fmt.Errorf("write index: %w", err)
	}
	if err := refLock.commit([]byte(p.parent.String() + "\n")); err != nil {
		_ = t.Write(back)
		if werr := restoreIndex(indexPath, p.raw); werr != nil {
			err = errors.Join(err, werr)
		}
		return nil, fmt.Errorf("move %s: %w", refLabel(p.res.Branch), err)
	}
	t.undo.undoReflog(gitDir, commonDir, p)
	return p.res, nil
}

// undoBlob is one side (HEAD or parent) of a file of the commit.
type undoBlob struct {
	hash    plumbing.Hash
	mode    filemode.FileMode
	content []byte
}

func (b *undoBlob) perm() fs.FileMode {
	if b.mode == filemode.Executable {
		return 0o755
	}
	return 0o644
}

type undoFilePlan struct {
	path         string
	head, parent *undoBlob // nil when absent
	// crlf: the working-tree file has CRLF line endings that git turns
	// into the LF of HEAD's blob; the parent's version is written back
	// with CRLF too.
	crlf bool
	// work holds, for a file whose attributes name a content filter, the
	// working-tree form of the parent's and HEAD's blobs (as git checkout
	// writes them through the filter).
	work *undoWork
}

type undoWork struct{ parent, head []byte }

type undoPlanned struct {
	res          *UndoResult
	head, parent plumbing.Hash
	files        []undoFilePlan
	index        *index.Index // the index as read
	raw          []byte       // the index file as read (nil if there was none)
}

// undoPlan checks every rule and works out the files to put back.
func (t *Tree) undoPlan(st *gitstore.Store, gitDir string) (*undoPlanned, error) {
	for _, name := range []string{"MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-merge", "rebase-apply", "BISECT_LOG"} {
		if _, err := os.Lstat(filepath.Join(gitDir, name)); err == nil {
			return nil, &UndoRefusal{Rule: RuleInProgress, Detail: fmt.Sprintf("a git operation is in progress (%s exists); finish or abort it first", name)}
		}
	}
	headRef, err := st.Reference(plumbing.HEAD)
	if err != nil {
		return nil, fmt.Errorf("read HEAD: %w", err)
	}
	branch := ""
	if headRef.Type() == plumbing.SymbolicReference {
		branch = headRef.Target().String()
	}
	head, err := refHash(st, branch)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, &UndoRefusal{Rule: RuleHeadNotPair, Detail: "there is no commit yet"}
	}
	if err != nil {
		return nil, fmt.Errorf("read HEAD: %w", err)
	}
	c, err := gitobj.ReadCommit(st, head)
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", head, err)
	}
	made, err := t.repo.readCommitRecord()
	if err != nil {
		return nil, err
	}
	entry, ok := logEntryOf(c, made)
	if !ok {
		return nil, &UndoRefusal{Rule: RuleHeadNotPair, Detail: fmt.Sprintf("HEAD %s (%q) is not a pair commit: it has no %s trailer", shortHash(head), subjectOf(c.Message), audit.TrailerSession)}
	}
	if !entry.MadeHere() {
		return nil, &UndoRefusal{Rule: RuleNotMadeHere, Detail: fmt.Sprintf("HEAD %s carries pair's trailers, but %s: pair undo takes back only its own commits; undo it with git instead", shortHash(head), entry.NotMadeHere)}
	}
	parents := c.Parents()
	switch len(parents) {
	case 0:
		return nil, &UndoRefusal{Rule: RuleRoot, Detail: fmt.Sprintf("HEAD %s is the first commit; there is no parent to go back to", shortHash(head))}
	case 1:
	default:
		return nil, &UndoRefusal{Rule: RuleMerge, Detail: fmt.Sprintf("HEAD %s is a merge commit (%d parents)", shortHash(head), len(parents))}
	}
	cfg, err := t.repo.loadConfig()
	if err != nil {
		return nil, err
	}
	if ref, err := pushedTo(st, cfg, branch, head); err != nil {
		return nil, err
	} else if ref != "" {
		return nil, &UndoRefusal{Rule: RulePushed, Detail: fmt.Sprintf("HEAD %s is already on %s; undoing it would rewrite published history (use git revert)", shortHash(head), ref)}
	}

	parent, err := gitobj.ReadCommit(st, parents[0])
	if err != nil {
		return nil, fmt.Errorf("read parent of %s: %w", shortHash(head), err)
	}
	files, err := undoFiles(st, parent, c)
	if err != nil {
		return nil, err
	}
	if ref := undoAmended(c.Message, files); ref != nil {
		ref.Detail = fmt.Sprintf("HEAD %s is not the commit pair made: %s; undo it with git instead", shortHash(head), ref.Detail)
		return nil, ref
	}

	fileMode, err := cfg.boolean("core", "fileMode", true)
	if err != nil {
		return nil, err
	}
	indexPath := filepath.Join(gitDir, "index")
	idx, _, err := readIndex(indexPath)
	if err != nil {
		return nil, err
	}
	// The bytes as read, to put back should the ref not move (the index
	// lock keeps them as they are).
	raw, err := os.ReadFile(indexPath)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read index: %w", err)
	}
	byName := map[string][]*index.Entry{}
	for _, e := range idx.Entries {
		byName[e.Name] = append(byName[e.Name], e)
	}
	eol, err := t.eolRules()
	if err != nil {
		return nil, err
	}
	fl := t.newFilters(context.Background(), cfg)
	var edited, details []string
	for i := range files {
		f := &files[i]
		var where []string
		if !undoIndexMatches(byName[f.path], f.head) {
			where = append(where, "index")
		}
		var same, crlf bool
		if f.work, err = undoSmudged(fl, f); err == nil && f.work != nil {
			same, err = t.undo.undoFilteredMatches(fl, f, fileMode)
		} else if err == nil {
			same, crlf, err = t.undo.undoWorktreeMatches(f.path, f.head, fileMode, eol)
		}
		f.crlf = crlf
		if err != nil {
			return nil, err
		}
		if !same {
			where = append(where, "working tree")
		}
		if len(where) > 0 {
			edited = append(edited, f.path)
			details = append(details, fmt.Sprintf("%s (%s)", f.path, strings.Join(where, ", ")))
		}
	}
	if len(edited) > 0 {
		have := "have"
		if len(edited) == 1 {
			have = "has"
		}
		return nil, &UndoRefusal{
			Rule:   RuleEditedAfter,
			Detail: fmt.Sprintf("%s %s uncommitted edits since HEAD %s: %s; commit, stash or discard them first", count(len(edited), "file"), have, shortHash(head), strings.Join(details, ", ")),
			Files:  edited,
		}
	}

	res := &UndoResult{Commit: entry, Parent: parent.Hash.String(), Branch: branch}
	for _, f := range files {
		uf := UndoFile{Path: f.path, Action: "remove"}
		if f.parent != nil {
			uf.Action, uf.Mode = "restore", strings.TrimPrefix(f.parent.mode.String(), "0")
		}
		res.Files = append(res.Files, uf)
	}
	return &undoPlanned{res: res, head: head, parent: parent.Hash, files: files, index: idx, raw: raw}, nil
}

// undoFiles lists the files the commit changed, with both versions; it
// refuses anything but regular files.
func undoFiles(st *gitstore.Store, parent, c *gitobj.Commit) ([]undoFilePlan, error) {
	pt, err := gitobj.ReadTree(st, parent.Tree())
	if err != nil {
		return nil, fmt.Errorf("read tree of %s: %w", shortHash(parent.Hash), err)
	}
	ct, err := gitobj.ReadTree(st, c.Tree())
	if err != nil {
		return nil, fmt.Errorf("read tree of %s: %w", shortHash(c.Hash), err)
	}
	changes, err := gitobj.Diff(st, pt, ct)
	if err != nil {
		return nil, fmt.Errorf("diff %s: %w", shortHash(c.Hash), err)
	}
	var out []undoFilePlan
	var odd []string
	for _, ch := range changes {
		f := undoFilePlan{path: ch.Path}
		for _, side := range []struct {
			e   *gitobj.TreeEntry
			dst **undoBlob
		}{{ch.From, &f.parent}, {ch.To, &f.head}} {
			if side.e == nil {
				continue
			}
			m := side.e.Mode
			if m != filemode.Regular && m != filemode.Executable {
				odd = append(odd, fmt.Sprintf("%s (mode %s)", f.path, side.e.Mode))
				continue
			}
			b := &undoBlob{hash: side.e.Hash, mode: m}
			b.content, err = gitobj.ReadBlob(st, b.hash)
			if err != nil {
				return nil, fmt.Errorf("read %s: %w", f.path, err)
			}
			*side.dst = b
		}
		out = append(out, f)
	}
	if len(odd) > 0 {
		var paths []string
		for _, o := range odd {
			paths = append(paths, o[:strings.LastIndex(o, " (")])
		}
		return nil, &UndoRefusal{Rule: RuleFileType, Detail: "the commit changes files pair does not write: " + strings.Join(odd, ", "), Files: paths}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out, nil
}

// undoAmended checks that the commit changes exactly what its trailers
// record: the Pair-Change trailers (path, mode and blob of each changed
// path) when it has them; for an older pair commit, only paths named by
// an applied Pair-Hunk trailer (or, for a rename, removed while a named
// path is added). It returns the refusal, or nil.
func undoAmended(msg string, files []undoFilePlan) *UndoRefusal {
	rec, _, _ := audit.ParseMessage(msg)
	var bad, paths []string
	if len(rec.Changes) > 0 {
		recorded := map[string]audit.ChangeRecord{}
		for _, c := range rec.Changes {
			recorded[c.Path] = c
		}
		changed := map[string]bool{}
		for _, f := range files {
			changed[f.path] = true
			c, ok := recorded[f.path]
			switch {
			case !ok:
				bad = append(bad, fmt.Sprintf("the commit changes %s, which its trailer does not record", f.path))
			case f.head == nil && c.Blob != "":
				bad = append(bad, fmt.Sprintf("the commit deletes %s, which its trailer records as changed", f.path))
			case f.head != nil && (c.Blob == "" || !strings.HasPrefix(f.head.hash.String(), c.Blob) || strings.TrimPrefix(f.head.mode.String(), "0") != c.Mode):
				bad = append(bad, fmt.Sprintf("the commit's %s is not the version its trailer records", f.path))
			default:
				continue
			}
			paths = append(paths, f.path)
		}
		for _, c := range rec.Changes {
			if !changed[c.Path] {
				bad = append(bad, fmt.Sprintf("its trailer records a change to %s that the commit does not make", c.Path))
				paths = append(paths, c.Path)
			}
		}
	} else {
		named := map[string]bool{}
		for _, h := range rec.Hunks {
			if h.Decision.Applies() {
				named[h.Path] = true
			}
		}
		added := false // a named path the commit adds: the other side of a rename
		for _, f := range files {
			if named[f.path] && f.parent == nil {
				added = true
			}
		}
		for _, f := range files {
			if !named[f.path] && !(added && f.head == nil) {
				bad = append(bad, fmt.Sprintf("the commit changes %s, which its trailer does not record", f.path))
				paths = append(paths, f.path)
			}
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return &UndoRefusal{Rule: RuleAmended, Detail: strings.Join(bad, "; "), Files: paths}
}

// undoIndexMatches reports whether the index entries of a path say the
// same as HEAD: one stage-0 entry with HEAD's blob and mode, or none when
// HEAD has no such file.
func undoIndexMatches(entries []*index.Entry, head *undoBlob) bool {
	if head == nil {
		return len(entries) == 0
	}
	if len(entries) != 1 {
		return false
	}
	e := entries[0]
	mode := e.Mode
	if mode == filemode.Deprecated {
		mode = filemode.Regular
	}
	// Stage 0 is a merged entry (go-git's index.Merged is 1, not what its
	// decoder reads).
	return e.Stage == 0 && !e.IntentToAdd && e.Hash == head.hash && mode == head.mode
}

// undoSteps are the steps of Undo that look at the working tree, the
// index and the reflog: whether each file still holds what the commit
// wrote, then the index and the reflog put back as they were.
type undoSteps struct {
	root *os.Root
	repo *gitRepo
}

// undoWorktreeMatches reports whether the working-tree file is HEAD's:
// same content as git reads it (after its line-ending conversion), and
// executable bit when git tracks it; or absent when HEAD has no such file.
// crlf says the match needed git's CRLF to LF conversion.
func (us *undoSteps) undoWorktreeMatches(p string, head *undoBlob, fileMode bool, eol *eolRules) (same, crlf bool, err error) {
	fi, err := us.root.Lstat(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return head == nil, false, nil
		}
		return false, false, wrapEscape(p, err)
	}
	if head == nil || !fi.Mode().IsRegular() {
		return false, false, nil
	}
	if fileMode && (fi.Mode().Perm()&0o100 != 0) != (head.mode == filemode.Executable) {
		return false, false, nil
	}
	b, err := us.root.ReadFile(p)
	if err != nil {
		return false, false, wrapEscape(p, err)
	}
	if plumbing.ComputeHash(plumbing.BlobObject, b) == head.hash {
		return true, false, nil
	}
	c, err := eol.clean(p, b)
	if err != nil {
		return false, false, err
	}
	same = plumbing.ComputeHash(plumbing.BlobObject, c) == head.hash
	return same, same, nil
}

// undoSmudged returns, for a file whose attributes name a content
// filter, the working-tree form of its parent's and HEAD's blobs; nil for
// a file without a filter. A filter that is not configured or fails is
// an error that names it: its file can't be put back as the person had it.
func undoSmudged(fl *filters, f *undoFilePlan) (*undoWork, error) {
	d, err := fl.driver(f.path)
	if err != nil || d == "" {
		return nil, err
	}
	w := &undoWork{}
	for _, side := range []struct {
		b   *undoBlob
		dst *[]byte
	}{{f.parent, &w.parent}, {f.head, &w.head}} {
		if side.b == nil {
			continue
		}
		if *side.dst, err = fl.smudge(f.path, d, side.b.hash); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// undoFilteredMatches is undoWorktreeMatches for a filtered file: the
// working-tree file is HEAD's when git add would store it as HEAD's blob.
func (us *undoSteps) undoFilteredMatches(fl *filters, f *undoFilePlan, fileMode bool) (bool, error) {
	fi, err := us.root.Lstat(f.path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return f.head == nil, nil
		}
		return false, wrapEscape(f.path, err)
	}
	if f.head == nil || !fi.Mode().IsRegular() {
		return false, nil
	}
	if fileMode && (fi.Mode().Perm()&0o100 != 0) != (f.head.mode == filemode.Executable) {
		return false, nil
	}
	b, err := us.root.ReadFile(f.path)
	if err != nil {
		return false, wrapEscape(f.path, err)
	}
	d, err := fl.driver(f.path)
	if err != nil {
		return false, err
	}
	h, err := fl.clean(f.path, d, b, false)
	if err != nil {
		return false, err
	}
	return h == f.head.hash, nil
}

// undoIndex writes the index with the commit's files set to the parent's
// version, through the index lock l.
func (us *undoSteps) undoIndex(l *gitLock, p *undoPlanned) error {
	idx := p.index
	touched := map[string]bool{}
	for _, f := range p.files {
		touched[f.path] = true
	}
	kept := idx.Entries[:0]
	for _, e := range idx.Entries {
		if !touched[e.Name] {
			kept = append(kept, e)
		}
	}
	idx.Entries = kept
	for _, f := range p.files {
		if f.parent == nil {
			continue
		}
		e := &index.Entry{Name: f.path, Hash: f.parent.hash, Mode: f.parent.mode, Size: uint32(len(f.parent.content))}
		if fi, err := us.root.Lstat(f.path); err == nil {
			e.ModifiedAt, e.Size = fi.ModTime(), uint32(fi.Size())
		}
		idx.Entries = append(idx.Entries, e)
	}
	for _, e := range idx.Entries {
		if idx.Version == 2 && (e.IntentToAdd || e.SkipWorktree) {
			idx.Version = 3 // extended flags need version 3
		}
	}
	// The cached trees are stale now; git rebuilds them. go-git writes no
	// extensions, which git accepts.
	idx.Cache, idx.ResolveUndo, idx.EndOfIndexEntry = nil, nil, nil
	return writeIndex(l, idx)
}

// restoreIndex puts back the index file at path as it was read: b, or
// no index when b is nil.
func restoreIndex(path string, b []byte) error {
	l, err := lockIndex(path)
	if err != nil {
		return err
	}
	if b == nil {
		l.release()
		return os.Remove(path)
	}
	return l.commit(b)
}

// refHash resolves a branch, or HEAD when branch is "".
func refHash(st *gitstore.Store, branch string) (plumbing.Hash, error) {
	name := plumbing.HEAD
	if branch != "" {
		name = plumbing.ReferenceName(branch)
	}
	ref, err := st.Resolve(name)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return ref.Hash(), nil
}

func refLabel(branch string) string {
	if branch == "" {
		return "HEAD"
	}
	return plumbing.ReferenceName(branch).Short()
}

// pushedTo returns the remote-tracking ref from which head is
// reachable, the branch's upstream first; "" when there is none.
func pushedTo(st *gitstore.Store, cfg gitConfig, branch string, head plumbing.Hash) (string, error) {
	var tips []*plumbing.Reference
	if branch != "" {
		short := plumbing.ReferenceName(branch).Short()
		remote, merge := cfg.getSub("branch", short, "remote"), cfg.getSub("branch", short, "merge")
		if remote != "" && merge != "" {
			up := upstreamRef(cfg, remote, plumbing.ReferenceName(merge))
			if ref, err := st.Resolve(up); err == nil {
				tips = append(tips, plumbing.NewHashReference(up, ref.Hash()))
			}
		}
	}
	refs, err := st.Refs("refs/remotes/")
	if err != nil {
		return "", err
	}
	for _, ref := range refs {
		if ref.Type() == plumbing.HashReference {
			tips = append(tips, ref)
		}
	}
	seen := map[plumbing.Hash]bool{}
	for _, tip := range tips {
		found, err := reaches(st, tip.Hash(), head, seen)
		if err != nil {
			return "", err
		}
		if found {
			return tip.Name().Short(), nil
		}
	}
	return "", nil
}

// upstreamRef is the remote-tracking ref of a branch's upstream, mapped
// through the remote's fetch refspecs as git does.
func upstreamRef(cfg gitConfig, remote string, merge plumbing.ReferenceName) plumbing.ReferenceName {
	if remote == "." {
		return merge
	}
	for _, spec := range cfg.all("remote", remote, "fetch") {
		if dst, ok := mapRefspec(spec, string(merge)); ok {
			return plumbing.ReferenceName(dst)
		}
	}
	return plumbing.NewRemoteReferenceName(remote, merge.Short())
}

// mapRefspec maps the ref name through a fetch refspec ("+src:dst", its
// source and destination each with at most one "*"), as git maps a
// branch to its remote-tracking ref; ok is false when the source does
// not match (or the refspec is negative, or has no destination).
func mapRefspec(spec, name string) (string, bool) {
	spec = strings.TrimPrefix(spec, "+")
	src, dst, ok := strings.Cut(spec, ":")
	if !ok || dst == "" || strings.HasPrefix(src, "^") {
		return "", false
	}
	pre, post, glob := strings.Cut(src, "*")
	if !glob {
		if src != name {
			return "", false
		}
		return dst, true
	}
	if len(name) < len(pre)+len(post) || !strings.HasPrefix(name, pre) || !strings.HasSuffix(name, post) {
		return "", false
	}
	return strings.Replace(dst, "*", name[len(pre):len(name)-len(post)], 1), true
}

// reaches reports whether target is from or an ancestor of it. Commits
// in seen were walked already (without finding target) and are skipped.
func reaches(st *gitstore.Store, from, target plumbing.Hash, seen map[plumbing.Hash]bool) (bool, error) {
	stack := []plumbing.Hash{from}
	for len(stack) > 0 {
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if h == target {
			return true, nil
		}
		if seen[h] {
			continue
		}
		seen[h] = true
		c, err := gitobj.ReadCommit(st, h)
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			continue // a shallow clone's boundary
		}
		if err != nil {
			return false, fmt.Errorf("read commit %s: %w", h, err)
		}
		stack = append(stack, c.Parents()...)
	}
	return false, nil
}

// undoReflog records the move in the reflogs of HEAD and of the branch,
// where they exist, as git reset would. It is best effort: the undo is
// done already.
func (us *undoSteps) undoReflog(gitDir, commonDir string, p *undoPlanned) {
	name, email := "pair", ""
	if cfg, err := us.repo.loadConfig(); err == nil {
		if n, e, err := cfg.ident("COMMITTER", "committer"); err == nil {
			name, email = n, e
		}
	}
	ref := plumbing.HEAD
	if p.res.Branch != "" {
		ref = plumbing.ReferenceName(p.res.Branch)
	}
	appendReflogs(gitDir, commonDir, ref, p.head, p.parent, name, email, time.Now(), "pair undo: "+strings.Join(strings.Fields(p.res.Commit.Subject), " "), false)
}

// shortHash is a commit hash as pair shows it: its first 12 hex digits.
func shortHash(h plumbing.Hash) string { return h.String()[:12] }

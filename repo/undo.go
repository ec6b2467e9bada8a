package repo

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/pair-cli/pair/internal/audit"
)

// The rules by which Undo refuses, in the order it checks them.
const (
	// RuleInProgress: a merge, rebase, cherry-pick, revert or bisect is
	// in progress; HEAD is not the user's to move.
	RuleInProgress = "in-progress"
	// RuleHeadNotPair: HEAD is not a pair commit (or there is no commit).
	RuleHeadNotPair = "head-not-pair"
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
// or bisect is in progress; HEAD is a pair commit; it has exactly one
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
	r, err := t.historyRepo()
	if err != nil {
		return nil, err
	}
	gitDir, commonDir := t.gitDir, t.commonDir
	var locks []*histLockFile
	defer func() {
		for _, l := range locks {
			l.release()
		}
	}()
	if !dryRun {
		l, err := histLock(filepath.Join(gitDir, "index"))
		if err != nil {
			return nil, err
		}
		locks = append(locks, l)
	}
	p, err := t.undoPlan(r, gitDir)
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
	refLock, err := histLock(refFile)
	if err != nil {
		return nil, err
	}
	locks = append(locks, refLock)
	// The ref may have moved between reading it and locking it.
	if cur, err := histRefHash(r, p.res.Branch); err != nil || cur != p.head {
		return nil, fmt.Errorf("HEAD moved while undoing; nothing was changed")
	}

	// The working tree first, all files or none.
	var changes, back []Change
	for _, f := range p.files {
		if f.parent == nil {
			changes = append(changes, Change{Path: f.path, Delete: true})
		} else {
			content := f.parent.content
			if f.crlf && !looksBinary(content) {
				content = toCRLF(content)
			}
			changes = append(changes, Change{Path: f.path, Content: content, Mode: f.parent.perm()})
		}
		if f.head == nil {
			back = append(back, Change{Path: f.path, Delete: true})
		} else {
			content := f.head.content
			if f.crlf {
				content = toCRLF(content)
			}
			back = append(back, Change{Path: f.path, Content: content, Mode: f.head.perm()})
		}
	}
	if err := t.Write(changes); err != nil {
		return nil, fmt.Errorf("restore files: %w", err)
	}
	// Then the index, then the ref; put the files back if either fails.
	if err := t.undoIndex(locks[0], p); err != nil {
		_ = t.Write(back)
		return nil, fmt.Errorf("write index: %w", err)
	}
	if err := refLock.commit([]byte(p.parent.String() + "\n")); err != nil {
		_ = t.Write(back)
		if werr := histRestoreIndex(gitDir, p.index); werr != nil {
			err = errors.Join(err, werr)
		}
		return nil, fmt.Errorf("move %s: %w", histRefLabel(p.res.Branch), err)
	}
	histReflog(r, gitDir, commonDir, p)
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
}

type undoPlanned struct {
	res          *UndoResult
	head, parent plumbing.Hash
	files        []undoFilePlan
	index        []byte // the index file as read (nil if there was none)
}

// undoPlan checks every rule and works out the files to put back.
func (t *Tree) undoPlan(r *git.Repository, gitDir string) (*undoPlanned, error) {
	for _, name := range []string{"MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-merge", "rebase-apply", "BISECT_LOG"} {
		if _, err := os.Lstat(filepath.Join(gitDir, name)); err == nil {
			return nil, &UndoRefusal{Rule: RuleInProgress, Detail: fmt.Sprintf("a git operation is in progress (%s exists); finish or abort it first", name)}
		}
	}
	headRef, err := r.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return nil, fmt.Errorf("read HEAD: %w", err)
	}
	branch := ""
	if headRef.Type() == plumbing.SymbolicReference {
		branch = headRef.Target().String()
	}
	head, err := histRefHash(r, branch)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, &UndoRefusal{Rule: RuleHeadNotPair, Detail: "there is no commit yet"}
	}
	if err != nil {
		return nil, fmt.Errorf("read HEAD: %w", err)
	}
	c, err := r.CommitObject(head)
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", head, err)
	}
	entry, ok := logEntryOf(c)
	if !ok {
		return nil, &UndoRefusal{Rule: RuleHeadNotPair, Detail: fmt.Sprintf("HEAD %s (%q) is not a pair commit: it has no %s trailer", histShort(head), histSubject(c.Message), audit.TrailerSession)}
	}
	switch c.NumParents() {
	case 0:
		return nil, &UndoRefusal{Rule: RuleRoot, Detail: fmt.Sprintf("HEAD %s is the first commit; there is no parent to go back to", histShort(head))}
	case 1:
	default:
		return nil, &UndoRefusal{Rule: RuleMerge, Detail: fmt.Sprintf("HEAD %s is a merge commit (%d parents)", histShort(head), c.NumParents())}
	}
	if ref, err := histPushedTo(r, branch, head); err != nil {
		return nil, err
	} else if ref != "" {
		return nil, &UndoRefusal{Rule: RulePushed, Detail: fmt.Sprintf("HEAD %s is already on %s; undoing it would rewrite published history (use git revert)", histShort(head), ref)}
	}

	parent, err := c.Parent(0)
	if err != nil {
		return nil, fmt.Errorf("read parent of %s: %w", histShort(head), err)
	}
	files, err := undoFiles(r, parent, c)
	if err != nil {
		return nil, err
	}
	if ref := undoAmended(c.Message, files); ref != nil {
		ref.Detail = fmt.Sprintf("HEAD %s is not the commit pair made: %s; undo it with git instead", histShort(head), ref.Detail)
		return nil, ref
	}

	cfg, err := r.Config()
	if err != nil {
		return nil, fmt.Errorf("read git config: %w", err)
	}
	fileMode := cfg.Raw.Section("core").Option("filemode") != "false"
	idxBytes, idx, err := histReadIndex(gitDir)
	if err != nil {
		return nil, err
	}
	byName := map[string][]*index.Entry{}
	for _, e := range idx.Entries {
		byName[e.Name] = append(byName[e.Name], e)
	}
	eol, err := t.eolRules(gitDir)
	if err != nil {
		return nil, err
	}
	var edited, details []string
	for i := range files {
		f := &files[i]
		var where []string
		if !undoIndexMatches(byName[f.path], f.head) {
			where = append(where, "index")
		}
		same, crlf, err := t.undoWorktreeMatches(f.path, f.head, fileMode, eol)
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
		return nil, &UndoRefusal{
			Rule:   RuleEditedAfter,
			Detail: fmt.Sprintf("%d %s %s uncommitted edits since HEAD %s: %s; commit, stash or discard them first", len(edited), histPlural(len(edited), "file", "files"), histPlural(len(edited), "has", "have"), histShort(head), strings.Join(details, ", ")),
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
	return &undoPlanned{res: res, head: head, parent: parent.Hash, files: files, index: idxBytes}, nil
}

func histPlural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// undoFiles lists the files the commit changed, with both versions; it
// refuses anything but regular files.
func undoFiles(r *git.Repository, parent, c *object.Commit) ([]undoFilePlan, error) {
	pt, err := parent.Tree()
	if err != nil {
		return nil, fmt.Errorf("read tree of %s: %w", histShort(parent.Hash), err)
	}
	ct, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("read tree of %s: %w", histShort(c.Hash), err)
	}
	changes, err := object.DiffTree(pt, ct)
	if err != nil {
		return nil, fmt.Errorf("diff %s: %w", histShort(c.Hash), err)
	}
	var out []undoFilePlan
	var odd []string
	for _, ch := range changes {
		f := undoFilePlan{path: ch.To.Name}
		if f.path == "" {
			f.path = ch.From.Name
		}
		for _, side := range []struct {
			e   object.ChangeEntry
			dst **undoBlob
		}{{ch.From, &f.parent}, {ch.To, &f.head}} {
			if side.e.Name == "" {
				continue
			}
			m := side.e.TreeEntry.Mode
			if m == filemode.Deprecated {
				m = filemode.Regular
			}
			if m != filemode.Regular && m != filemode.Executable {
				odd = append(odd, fmt.Sprintf("%s (mode %s)", f.path, side.e.TreeEntry.Mode))
				continue
			}
			b := &undoBlob{hash: side.e.TreeEntry.Hash, mode: m}
			blob, err := r.BlobObject(b.hash)
			if err != nil {
				return nil, fmt.Errorf("read %s: %w", f.path, err)
			}
			rd, err := blob.Reader()
			if err != nil {
				return nil, fmt.Errorf("read %s: %w", f.path, err)
			}
			b.content, err = io.ReadAll(rd)
			rd.Close()
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

// undoWorktreeMatches reports whether the working-tree file is HEAD's:
// same content as git reads it (after its line-ending conversion), and
// executable bit when git tracks it; or absent when HEAD has no such file.
// crlf says the match needed git's CRLF to LF conversion.
func (t *Tree) undoWorktreeMatches(p string, head *undoBlob, fileMode bool, eol *eolRules) (same, crlf bool, err error) {
	fi, err := t.root.Lstat(p)
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
	b, err := t.root.ReadFile(p)
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

// undoIndex writes the index with the commit's files set to the parent's
// version, through the index lock l.
func (t *Tree) undoIndex(l *histLockFile, p *undoPlanned) error {
	idx := &index.Index{Version: 2}
	if p.index != nil {
		if err := index.NewDecoder(bytes.NewReader(p.index)).Decode(idx); err != nil {
			return err
		}
	}
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
		if fi, err := t.root.Lstat(f.path); err == nil {
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
	var buf bytes.Buffer
	if err := index.NewEncoder(&buf).Encode(idx); err != nil {
		return err
	}
	return l.commit(buf.Bytes())
}

// histReadIndex reads the index file of the git directory; a missing
// index is an empty one.
func histReadIndex(gitDir string) ([]byte, *index.Index, error) {
	b, err := os.ReadFile(filepath.Join(gitDir, "index"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &index.Index{Version: 2}, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read index: %w", err)
	}
	idx := &index.Index{}
	if err := index.NewDecoder(bytes.NewReader(b)).Decode(idx); err != nil {
		return nil, nil, fmt.Errorf("read index: %w", err)
	}
	return b, idx, nil
}

// histRestoreIndex puts back the index bytes read before an undo.
func histRestoreIndex(gitDir string, b []byte) error {
	l, err := histLock(filepath.Join(gitDir, "index"))
	if err != nil {
		return err
	}
	defer l.release()
	if b == nil {
		l.release()
		return os.Remove(filepath.Join(gitDir, "index"))
	}
	return l.commit(b)
}

// histRefHash resolves a branch, or HEAD when branch is "".
func histRefHash(r *git.Repository, branch string) (plumbing.Hash, error) {
	name := plumbing.HEAD
	if branch != "" {
		name = plumbing.ReferenceName(branch)
	}
	ref, err := r.Reference(name, true)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return ref.Hash(), nil
}

func histRefLabel(branch string) string {
	if branch == "" {
		return "HEAD"
	}
	return plumbing.ReferenceName(branch).Short()
}

// histPushedTo returns the remote-tracking ref from which head is
// reachable, the branch's upstream first; "" when there is none.
func histPushedTo(r *git.Repository, branch string, head plumbing.Hash) (string, error) {
	cfg, err := r.Config()
	if err != nil {
		return "", fmt.Errorf("read git config: %w", err)
	}
	var tips []*plumbing.Reference
	if branch != "" {
		if b := cfg.Branches[plumbing.ReferenceName(branch).Short()]; b != nil && b.Remote != "" && b.Merge != "" {
			up := histUpstream(cfg, b)
			if ref, err := r.Reference(up, true); err == nil {
				tips = append(tips, plumbing.NewHashReference(up, ref.Hash()))
			}
		}
	}
	refs, err := r.References()
	if err != nil {
		return "", fmt.Errorf("list refs: %w", err)
	}
	var others []*plumbing.Reference
	err = refs.ForEach(func(ref *plumbing.Reference) error {
		if ref.Name().IsRemote() && ref.Type() == plumbing.HashReference {
			others = append(others, ref)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("list refs: %w", err)
	}
	sort.Slice(others, func(i, j int) bool { return others[i].Name() < others[j].Name() })
	tips = append(tips, others...)
	seen := map[plumbing.Hash]bool{}
	for _, tip := range tips {
		found, err := histReaches(r, tip.Hash(), head, seen)
		if err != nil {
			return "", err
		}
		if found {
			return tip.Name().Short(), nil
		}
	}
	return "", nil
}

// histUpstream is the remote-tracking ref of a branch's upstream, mapped
// through the remote's fetch refspecs as git does.
func histUpstream(cfg *config.Config, b *config.Branch) plumbing.ReferenceName {
	if b.Remote == "." {
		return b.Merge
	}
	if rc := cfg.Remotes[b.Remote]; rc != nil {
		for _, spec := range rc.Fetch {
			if spec.Match(b.Merge) {
				return spec.Dst(b.Merge)
			}
		}
	}
	return plumbing.NewRemoteReferenceName(b.Remote, b.Merge.Short())
}

// histReaches reports whether target is from or an ancestor of it. Commits
// in seen were walked already (without finding target) and are skipped.
func histReaches(r *git.Repository, from, target plumbing.Hash, seen map[plumbing.Hash]bool) (bool, error) {
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
		c, err := r.CommitObject(h)
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			continue // a shallow clone's boundary
		}
		if err != nil {
			return false, fmt.Errorf("read commit %s: %w", h, err)
		}
		stack = append(stack, c.ParentHashes...)
	}
	return false, nil
}

// histLockFile is git's lock on a file: "<file>.lock", created
// exclusively, written, then renamed over the file.
type histLockFile struct {
	path string
	f    *os.File
	done bool
}

func histLock(path string) (*histLockFile, error) {
	f, err := os.OpenFile(path+".lock", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("%s.lock exists: another git process seems to be running; if not, remove the file", path)
	}
	if err != nil {
		return nil, err
	}
	return &histLockFile{path: path, f: f}, nil
}

// commit writes b to the lock file and renames it over the file.
func (l *histLockFile) commit(b []byte) error {
	if l.done {
		return errors.New("lock already released")
	}
	_, err := l.f.Write(b)
	if err == nil {
		err = l.f.Sync()
	}
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(l.path+".lock", l.path)
	}
	if err != nil {
		l.release()
		return err
	}
	l.done = true
	return nil
}

// release removes the lock file unless commit renamed it.
func (l *histLockFile) release() {
	if l.done {
		return
	}
	l.done = true
	l.f.Close()
	os.Remove(l.path + ".lock")
}

// histReflog records the move in the reflogs of HEAD and of the branch,
// where they exist, as git reset would. It is best effort: the undo is
// done already.
func histReflog(r *git.Repository, gitDir, commonDir string, p *undoPlanned) {
	name, email := os.Getenv("GIT_COMMITTER_NAME"), os.Getenv("GIT_COMMITTER_EMAIL")
	if name == "" || email == "" {
		if cfg, err := r.ConfigScoped(config.GlobalScope); err == nil {
			if name == "" {
				name = cfg.User.Name
			}
			if email == "" {
				email = cfg.User.Email
			}
		}
	}
	if name == "" {
		name = "pair"
	}
	now := time.Now()
	line := fmt.Sprintf("%s %s %s <%s> %d %s\tpair undo: %s\n", p.head, p.parent, name, email, now.Unix(), now.Format("-0700"), strings.Join(strings.Fields(p.res.Commit.Subject), " "))
	logs := []string{filepath.Join(gitDir, "logs", "HEAD")}
	if p.res.Branch != "" {
		logs = append(logs, filepath.Join(commonDir, "logs", filepath.FromSlash(p.res.Branch)))
	}
	for _, lf := range logs {
		f, err := os.OpenFile(lf, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			continue // no reflog kept for this ref
		}
		_, _ = f.WriteString(line)
		f.Close()
	}
}

func histShort(h plumbing.Hash) string { return h.String()[:12] }

func histSubject(msg string) string {
	s, _, _ := strings.Cut(strings.TrimLeft(msg, "\n"), "\n")
	return s
}

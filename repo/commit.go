// commit.go: Commit, written files committed as git commits them: index, tree, hooks, signature, trailer.

package repo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/edit/mail"
	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/repo/internal/gitobj"
	"github.com/pair-cli/pair/repo/internal/gitstore"
)

// FileCommit is one file of an applied proposal, as pair apply wrote it.
type FileCommit struct {
	Path    string          // clean path the result is at (for a rename, the new path)
	OldPath string          // for a rename, the path that went away; else ""
	Before  string          // working-tree content the hunks were placed against ("" for a created file)
	After   string          // working-tree content written (ignored when Delete)
	Delete  bool            // the file was deleted
	Create  bool            // the file was created
	Mode    fs.FileMode     // permission bits written, 0 = unchanged
	Hunks   []edit.Resolved // the approved/edited hunks as placed against Before
	// Whole says the content is replaced as a whole (a binary patch): it
	// is committed only over a clean file, as no hunk can be placed again.
	Whole bool
	// Link says that After is the target of a symbolic link (mode 120000).
	Link bool
	// Gitlink is the commit a submodule pointer (mode 160000) is set to;
	// WasGitlink says the path held one (see submodule.go).
	Gitlink    string
	WasGitlink bool
}

// CommitOptions says how Commit writes its commit.
type CommitOptions struct {
	// Record is the commit message's content; its ReviewedBy is filled
	// from the git identity when empty.
	Record audit.Record
	// NoVerify skips the pre-commit and commit-msg hooks.
	NoVerify bool
	// HookOutput receives the hooks' standard output and error (nil:
	// discarded).
	HookOutput io.Writer
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Context stops the hooks and the signing when it is cancelled;
	// nothing is committed then (nil: never cancelled).
	Context context.Context
	// Author is the commit's author when it is not the person (a mailed
	// patch's, as git am takes it); the person stays the committer and
	// the reviewer.
	Author *Author
}

// Author is who wrote a change, and when, in its own time zone.
type Author struct {
	Name, Email string
	When        time.Time
}

// Uncommitted is a file that was applied but left out of the commit.
type Uncommitted struct{ Path, Reason string }

// CommitResult is what Commit did.
type CommitResult struct {
	Hash        string        // the new commit, "" if nothing was committed
	Committed   []string      // paths in the commit
	Uncommitted []Uncommitted // applied but left out of the commit, with the reason
	// StagedLost lists the committed files whose staged changes (staged
	// before pair committed another part of the file) could not be kept
	// in the index, with why: the index holds the committed version.
	StagedLost []Uncommitted
	// Warnings say what went wrong around the commit that was made (a
	// commit-msg hook that removed pair's trailers, which were added back).
	Warnings []string
	// HookChanged lists the committed files the pre-commit hook changed
	// (staged, or rewrote in the working tree): the commit holds the
	// hook's version.
	HookChanged []string
}

// The reasons a file is left out of a commit.
const (
	reasonOverlap   = "your uncommitted edits in this file overlap the approved hunks; it is applied but not committed"
	reasonDirtyDel  = "you have uncommitted edits in this file; it is deleted but the deletion is not committed"
	reasonUntrack   = "the file is not in HEAD (your own new file, not committed yet); it is applied but not committed"
	reasonInHead    = "the file is in HEAD but was missing from your working tree; it is created but not committed"
	reasonHookUndid = "the pre-commit hook took the change back; nothing was committed"
)

// Commit records the approved hunks of an applied proposal as a new
// commit on the current branch. The working tree already holds the
// result; the commit holds exactly the approved hunks on top of HEAD,
// whatever else the working tree and the index hold: where the person had
// uncommitted edits in a file, the hunks are placed on HEAD's version
// instead, and a file whose edits overlap them is left out (see
// CommitResult.Uncommitted). The index then holds the committed version of
// the committed paths; other paths' entries are left as they were.
//
// The pre-commit and commit-msg hooks run as git commit runs them, unless
// opts.NoVerify; a hook that fails returns a *HookError and nothing is
// committed. What pre-commit changes in the committed files is committed
// (CommitResult.HookChanged); trailers that commit-msg drops are added
// back (CommitResult.Warnings). When commit.gpgsign is set, the commit is
// signed as git signs it. Cancelling opts.Context stops a hook or the
// signing and commits nothing. The index lock is removed on every way
// out. CheckCommit checks beforehand what would stop Commit.
func (t *Tree) Commit(files []FileCommit, opts CommitOptions) (*CommitResult, error) {
	return t.commit(opts, func(c *commitRun, res *CommitResult) error { return c.collect(files, res) })
}

// commit makes a commit of what collect puts in c (its changes, tree,
// committed paths and next index), with the hooks, the message and the
// index as Commit describes them; nothing is committed when the tree is
// HEAD's.
func (t *Tree) commit(opts CommitOptions, collect func(c *commitRun, res *CommitResult) error) (*CommitResult, error) {
	c, err := t.startCommit(opts)
	if err != nil {
		return nil, err
	}
	// Take the index lock for the whole commit, as git commit does. It
	// is removed on every way out, a panic included; a lock left by a
	// killed pair names its process (see checkIndexLock).
	lock, err := lockIndex(filepath.Join(t.gitDir, "index"))
	if err != nil {
		return nil, err
	}
	defer lock.release()
	if c.idx, c.idxTime, err = readIndex(filepath.Join(t.gitDir, "index")); err != nil {
		return nil, err
	}
	if err := checkConflicts(c.idx.Entries); err != nil {
		return nil, err
	}
	if err := c.readHead(); err != nil {
		return nil, err
	}

	res := &CommitResult{}
	if err := collect(c, res); err != nil {
		return nil, err
	}
	if c.tree == c.baseHash {
		return res, nil // nothing to commit
	}
	var hooks *commitHooks
	if !opts.NoVerify {
		hooks, err = c.startHooks(opts.HookOutput)
		if err != nil {
			return nil, err
		}
		defer hooks.close()
		if err := c.preCommit(hooks, res); err != nil {
			return nil, err
		}
		if c.tree == c.baseHash { // the hook took every change back
			return res, nil
		}
	}
	msg, err := c.message(hooks, res)
	if err != nil {
		return nil, err
	}
	if err := c.write(msg, res); err != nil {
		return nil, err
	}
	if c.next == c.idx {
		return res, nil // the index holds the commit already
	}
	if err := writeIndex(lock, c.next); err != nil {
		return res, fmt.Errorf("commit %s made, but the index was not updated: %w", res.Hash[:12], err)
	}
	return res, nil
}

// commitRun is one Commit in progress: who commits and signs, the
// object storage, HEAD, the index, and the commit it builds.
type commitRun struct {
	t       *Tree
	opts    CommitOptions
	ctx     context.Context
	cfg     gitConfig
	aName   string
	aEmail  string
	cName   string
	cEmail  string
	sig     *signer
	st      *gitstore.Store
	fl      *filters
	idx     *index.Index // the index as Commit found it
	idxTime time.Time

	// HEAD: the branch to move, the parent and its tree.
	target   plumbing.ReferenceName
	oldRef   *plumbing.Reference // nil on an unborn branch
	parent   *gitobj.Commit
	base     *gitobj.Tree
	baseHash plumbing.Hash

	// The commit being built: the changes, the files that made them, the
	// paths that differ from HEAD, the tree, and the index after it.
	changes   map[string]*treeChange
	touched   []FileCommit
	committed map[string]bool
	tree      plumbing.Hash
	next      *index.Index
}

// startCommit checks what git commit checks before it reads the index:
// the identities, no operation in progress, the signing key.
func (t *Tree) startCommit(opts CommitOptions) (*commitRun, error) {
	if err := t.repo.needGit(); err != nil {
		return nil, err
	}
	c := &commitRun{t: t, opts: opts, ctx: opts.Context}
	if c.ctx == nil {
		c.ctx = context.Background()
	}
	var err error
	if c.cfg, err = t.repo.loadConfig(); err != nil {
		return nil, err
	}
	if c.aName, c.aEmail, err = c.cfg.ident("AUTHOR", "author"); err != nil {
		return nil, err
	}
	if c.cName, c.cEmail, err = c.cfg.ident("COMMITTER", "committer"); err != nil {
		return nil, err
	}
	if err := checkInProgress(t.gitDir); err != nil {
		return nil, err
	}
	if c.sig, err = c.cfg.signer(c.cName, c.cEmail); err != nil {
		return nil, err
	}
	if c.sig != nil {
		if err := c.sig.check(); err != nil {
			return nil, err
		}
	}
	if c.st, err = t.repo.gitStorage(); err != nil {
		return nil, err
	}
	c.fl = t.newFilters(c.ctx, c.cfg)
	return c, nil
}

// readHead reads HEAD: the branch to move, the parent and its tree.
func (c *commitRun) readHead() error {
	head, err := c.st.Reference(plumbing.HEAD)
	if err != nil {
		return fmt.Errorf("read HEAD: %w", err)
	}
	c.target = plumbing.HEAD // detached
	if head.Type() == plumbing.SymbolicReference {
		c.target = head.Target()
	}
	c.baseHash = plumbing.ComputeHash(plumbing.TreeObject, nil)
	ref, err := c.st.Resolve(plumbing.HEAD)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read HEAD: %w", err)
	}
	c.oldRef = ref
	if c.parent, err = gitobj.ReadCommit(c.st, ref.Hash()); err != nil {
		return fmt.Errorf("read HEAD commit: %w", err)
	}
	if c.base, err = gitobj.ReadTree(c.st, c.parent.Tree()); err != nil {
		return fmt.Errorf("read HEAD tree: %w", err)
	}
	c.baseHash = c.base.Hash
	return nil
}

// collect works out what each file puts in the commit, or why it is left
// out, then the tree and the index after the commit.
func (c *commitRun) collect(files []FileCommit, res *CommitResult) error {
	c.changes = map[string]*treeChange{}
	for _, f := range files {
		fcs, reason, err := c.fileChanges(f)
		if err != nil {
			return fmt.Errorf("commit %s: %w", f.Path, err)
		}
		if reason != "" {
			res.Uncommitted = append(res.Uncommitted, Uncommitted{Path: f.Path, Reason: reason})
			continue
		}
		for _, ch := range fcs {
			if prev, ok := c.changes[ch.path]; ok && !prev.delete && ch.delete {
				continue // a rename onto a path another file writes: keep the write
			}
			c.changes[ch.path] = ch
		}
		c.touched = append(c.touched, f)
	}
	var err error
	if c.tree, err = buildTree(c.st, c.base, c.changes); err != nil {
		return err
	}
	if c.tree == c.baseHash {
		return nil
	}
	c.committed = committedPaths(c.st, c.base, c.changes)
	res.Committed = committedFiles(c.touched, c.committed)
	return c.nextIndex(res)
}

// nextIndex works out the index after the commit, keeping what the
// person staged where it can.
func (c *commitRun) nextIndex(res *CommitResult) error {
	staged, lost, err := keepStaged(c.st, c.base, c.idx, c.changes, c.committed, c.fl)
	if err != nil {
		return err
	}
	res.StagedLost = lost
	c.next = c.t.nextIndex(c.idx, c.idxTime, c.changes, c.committed, staged)
	return nil
}

// preCommit runs the pre-commit hook. What it staged, or rewrote in a
// file that held the committed content, goes into the commit, as with
// git commit; when it took every change back, c.tree is HEAD's again.
func (c *commitRun) preCommit(hooks *commitHooks, res *CommitResult) error {
	clean := c.cleanInWorkTree()
	if err := hooks.run(c.ctx, "pre-commit"); err != nil {
		return err
	}
	hooked, err := c.hookChanges(hooks.index, clean)
	if err != nil || len(hooked) == 0 {
		return err
	}
	for _, ch := range hooked {
		c.changes[ch.path] = ch
		res.HookChanged = append(res.HookChanged, ch.path)
	}
	sort.Strings(res.HookChanged)
	if c.tree, err = buildTree(c.st, c.base, c.changes); err != nil {
		return err
	}
	planned := res.Committed
	c.committed = committedPaths(c.st, c.base, c.changes)
	res.Committed = committedFiles(c.touched, c.committed)
	if c.tree == c.baseHash {
		for _, p := range planned {
			res.Uncommitted = append(res.Uncommitted, Uncommitted{Path: p, Reason: reasonHookUndid})
		}
		res.Committed, res.HookChanged = nil, nil
		return nil
	}
	return c.nextIndex(res)
}

// message is the commit message, with what the commit changes, as the
// commit-msg hook leaves it (with pair's trailers kept).
func (c *commitRun) message(hooks *commitHooks, res *CommitResult) (string, error) {
	rec := c.opts.Record
	if strings.TrimSpace(rec.ReviewedBy) == "" {
		rec.ReviewedBy = fmt.Sprintf("%s <%s>", c.aName, c.aEmail)
	}
	rec.Changes = changeRecords(c.changes, c.committed)
	msg := rec.Message()
	editMsg := filepath.Join(c.t.gitDir, "COMMIT_EDITMSG")
	if hooks == nil {
		return msg, os.WriteFile(editMsg, []byte(msg), 0o644)
	}
	msg, err := hooks.commitMsg(c.ctx, editMsg, msg)
	if err != nil {
		return "", err
	}
	// The trailers are pair's record of what was reviewed (pair log and
	// pair undo read them): a hook that drops them does not get to, and
	// the person is told.
	if !sameTrailers(msg, rec) {
		msg = strings.TrimRight(msg, "\n") + "\n\n" + rec.Trailers()
		res.Warnings = append(res.Warnings, "the commit-msg hook removed or changed pair's audit trailers; pair added them back at the end of the message")
	}
	return msg, nil
}

// write writes the commit (signed when git would sign it), moves the
// branch, appends the reflogs and records the commit as pair's.
func (c *commitRun) write(msg string, res *CommitResult) error {
	now := time.Now
	if c.opts.Now != nil {
		now = c.opts.Now
	}
	when := now()
	var parents []plumbing.Hash
	if c.parent != nil {
		parents = []plumbing.Hash{c.parent.Hash}
	}
	author := gitobj.Signature{Name: c.aName, Email: c.aEmail, When: when}
	if a := c.opts.Author; a != nil {
		author = gitobj.Signature{Name: sanitizeIdent(a.Name), Email: sanitizeIdent(a.Email), When: a.When}
		if a.When.IsZero() {
			author.When = when
		}
	}
	obj := gitobj.NewCommit(c.tree, parents, author,
		gitobj.Signature{Name: c.cName, Email: c.cEmail, When: when}, msg)
	if c.sig != nil {
		signature, err := c.sig.sign(c.ctx, obj.Payload())
		if err != nil {
			return err
		}
		obj.Sign(signature)
	}
	// Stopped (Ctrl-C, a signal) during the hooks or the signing: commit
	// nothing.
	if err := c.ctx.Err(); err != nil {
		return fmt.Errorf("commit interrupted: %w", err)
	}
	hash, err := gitobj.WriteCommit(c.st, obj)
	if err != nil {
		return fmt.Errorf("write commit: %w", err)
	}
	var oldHash plumbing.Hash
	if c.oldRef != nil {
		oldHash = c.oldRef.Hash()
	}
	if err := c.st.SetRef(c.target, hash, oldHash); err != nil {
		return fmt.Errorf("update %s: %w", c.target, err)
	}
	subject, _, _ := strings.Cut(msg, "\n")
	kind := "commit"
	if oldHash.IsZero() {
		kind = "commit (initial)"
	}
	appendReflogs(c.t.gitDir, c.t.commonDir, c.target, oldHash, hash, c.cName, c.cEmail, when, kind+": "+subject, true)
	res.Hash = hash.String()
	// The id is final: hooks and signing are done. pair log and pair
	// undo believe the trailers of recorded commits only.
	if err := c.t.repo.recordCommit(res.Hash, msg); err != nil {
		_, shown := c.t.repo.recordPath()
		res.Warnings = append(res.Warnings, fmt.Sprintf("commit %s made, but pair could not record it in %s (%v): pair log shows it as not made here, and pair undo refuses it", res.Hash[:12], shown, err))
	}
	return nil
}

// sameTrailers reports whether msg ends with the trailers of rec.
func sameTrailers(msg string, rec audit.Record) bool {
	got, ok, err := audit.ParseMessage(msg)
	if !ok || err != nil {
		return false
	}
	want, _, _ := audit.ParseMessage(rec.Message())
	return got.Session == want.Session && got.Model == want.Model && got.ReviewedBy == want.ReviewedBy &&
		slices.Equal(got.Hunks, want.Hunks) && slices.Equal(got.Resolved, want.Resolved) && slices.Equal(got.Changes, want.Changes)
}

// committedPaths returns the paths whose change differs from HEAD.
func committedPaths(st storer.EncodedObjectStorer, base *gitobj.Tree, changes map[string]*treeChange) map[string]bool {
	out := map[string]bool{}
	for p, c := range changes {
		if changedEntry(st, base, p, c) {
			out[p] = true
		}
	}
	return out
}

// changeRecords describes the committed paths for the Pair-Change
// trailers, sorted by path.
func changeRecords(changes map[string]*treeChange, committed map[string]bool) []audit.ChangeRecord {
	var out []audit.ChangeRecord
	for _, p := range slices.Sorted(maps.Keys(committed)) {
		c := changes[p]
		if c.delete {
			out = append(out, audit.ChangeRecord{Path: p})
			continue
		}
		out = append(out, audit.ChangeRecord{Path: p, Mode: strings.TrimPrefix(c.mode.String(), "0"), Blob: c.blob.String()[:12]})
	}
	return out
}

// committedFiles lists the files that put a change in the commit.
func committedFiles(touched []FileCommit, committed map[string]bool) []string {
	var out []string
	for _, f := range touched {
		if committed[f.Path] || (f.OldPath != "" && committed[f.OldPath]) {
			out = append(out, f.Path)
		}
	}
	return out
}

// treeChange is one path of the new tree: a blob to write there, or a
// removal.
type treeChange struct {
	path    string
	delete  bool
	content string
	blob    plumbing.Hash
	mode    filemode.FileMode
	file    *FileCommit // the file whose hunks made the change (not for a removal)
	// filtered says that git add stores the path through a content
	// filter: work is then the working-tree form of content.
	filtered bool
	work     string
}

// worktree is what the working file holds when it holds the change.
func (c *treeChange) worktree() string {
	if c.filtered {
		return c.work
	}
	return c.content
}

// fileChanges works out what one file puts in the commit, or why it is
// left out. A path whose attributes name a content filter is compared
// with HEAD and stored as git add would: cleaned by the filter (see
// filters.clean); the hunks are placed on what the person sees, the
// working-tree form.
func (c *commitRun) fileChanges(f FileCommit) ([]*treeChange, string, error) {
	st, base, fl := c.st, c.base, c.fl
	if f.Gitlink != "" || f.WasGitlink {
		prev := c.changes[f.Path]
		return gitlinkChanges(st, base, f, prev != nil && prev.delete)
	}
	src := f.Path
	if f.OldPath != "" {
		src = f.OldPath
	}
	var headContent string
	headMode := filemode.Regular
	inHead := false
	if !f.Create {
		hc, m, ok, err := headFile(st, base, src)
		if err != nil {
			return nil, "", err
		}
		headContent, headMode, inHead = hc, m, ok
	} else if _, _, ok, err := headFile(st, base, f.Path); err != nil {
		return nil, "", err
	} else if ok {
		return nil, reasonInHead, nil
	}
	if !f.Create && !inHead {
		return nil, reasonUntrack, nil
	}
	driver, err := fl.driver(f.Path)
	if err != nil {
		return nil, "", err
	}
	srcDriver := driver
	if src != f.Path {
		if srcDriver, err = fl.driver(src); err != nil {
			return nil, "", err
		}
	}
	headBlob := plumbing.ComputeHash(plumbing.BlobObject, []byte(headContent))
	clean := headContent == f.Before
	if srcDriver != "" && inHead && !clean {
		h, err := fl.clean(src, srcDriver, []byte(f.Before), false)
		if err != nil {
			return nil, "", err
		}
		clean = h == headBlob
	}
	var out []*treeChange
	if f.OldPath != "" && f.OldPath != f.Path {
		out = append(out, &treeChange{path: f.OldPath, delete: true})
	}
	if f.Delete {
		if !clean {
			return nil, reasonDirtyDel, nil
		}
		if f.OldPath == "" || f.OldPath == f.Path {
			out = append(out, &treeChange{path: f.Path, delete: true})
		}
		return out, "", nil
	}
	content := f.After
	if !clean && f.Whole {
		return nil, reasonOverlap, nil
	}
	if !clean {
		onto := headContent
		if srcDriver != "" {
			b, err := fl.smudge(src, srcDriver, headBlob)
			if err != nil {
				return nil, "", err
			}
			onto = string(b)
		}
		var ok bool
		content, ok, err = reapply(f, onto)
		if err != nil {
			return nil, "", err
		}
		if !ok {
			return nil, reasonOverlap, nil
		}
	}
	mode := filemode.Regular
	switch {
	case f.Mode&0o111 != 0:
		mode = filemode.Executable
	case f.Mode == 0 && headMode == filemode.Executable:
		mode = filemode.Executable
	}
	if f.Link {
		mode = filemode.Symlink
	}
	fc := f
	ch := &treeChange{path: f.Path, mode: mode, file: &fc}
	if err := ch.store(st, fl, driver, content); err != nil {
		return nil, "", err
	}
	out = append(out, ch)
	return out, "", nil
}

// store sets the change's content and blob from work, what the working
// file holds: the same content, or, for a path with a filter driver, what
// the filter makes of it (see filters.clean).
func (c *treeChange) store(st storer.EncodedObjectStorer, fl *filters, driver, work string) error {
	if driver == "" {
		blob, err := storeBlob(st, work)
		c.content, c.blob = work, blob
		return err
	}
	blob, err := fl.clean(c.path, driver, []byte(work), true)
	if err != nil {
		return err
	}
	b, err := readBlob(st, blob)
	if err != nil {
		return fmt.Errorf("read the blob the filter %s made of %s: %w", driver, c.path, err)
	}
	c.content, c.blob, c.filtered, c.work = string(b), blob, true, work
	return nil
}

// reapply places the file's approved hunks, rendered against Before, on
// HEAD's version; ok is false unless every hunk places exactly.
func reapply(f FileCommit, head string) (string, bool, error) {
	if len(f.Hunks) == 0 {
		return head, true, nil
	}
	diff, err := edit.Render(f.Path, f.Path, "", f.Before, f.Hunks)
	if err != nil {
		return "", false, fmt.Errorf("render approved hunks: %w", err)
	}
	p, err := edit.Parse(diff)
	if err != nil {
		return "", false, fmt.Errorf("parse rendered hunks: %w", err)
	}
	if len(p.Files) == 0 || len(p.Files[0].Hunks) == 0 {
		return head, true, nil
	}
	if len(p.Files) != 1 {
		return "", false, fmt.Errorf("rendered hunks name %d files", len(p.Files))
	}
	// The rendered lines end as the working file's do; on HEAD's
	// version (LF where git converts CRLF, say), an added line takes the
	// ending of the line it replaces there, or HEAD's usual one.
	for _, h := range p.Files[0].Hunks {
		for i := range h.Lines {
			h.Lines[i].EOL = ""
		}
	}
	placed, errs := edit.Place(head, p.Files[0])
	if len(errs) > 0 || len(placed) != len(p.Files[0].Hunks) {
		return "", false, nil
	}
	for _, h := range placed {
		if h.Pass != edit.PassExact {
			return "", false, nil
		}
	}
	out, err := edit.Apply(head, placed)
	if err != nil {
		return "", false, nil
	}
	return out, true, nil
}

// headFile reads a file of HEAD's tree; ok is false when it is not there
// (or is not a regular file).
func headFile(st storer.EncodedObjectStorer, base *gitobj.Tree, p string) (content string, mode filemode.FileMode, ok bool, err error) {
	if base == nil {
		return "", 0, false, nil
	}
	e, err := gitobj.Find(st, base, p)
	if errors.Is(err, gitobj.ErrNotFound) {
		return "", 0, false, nil
	}
	if err != nil {
		return "", 0, false, fmt.Errorf("read %s from HEAD: %w", p, err)
	}
	if e.Mode != filemode.Regular && e.Mode != filemode.Executable && e.Mode != filemode.Symlink {
		return "", 0, false, nil
	}
	b, err := readBlob(st, e.Hash)
	if err != nil {
		return "", 0, false, fmt.Errorf("read %s from HEAD: %w", p, err)
	}
	return string(b), e.Mode, true, nil
}

// readBlob reads a blob's content.
func readBlob(st storer.EncodedObjectStorer, h plumbing.Hash) ([]byte, error) {
	return gitobj.ReadBlob(st, h)
}

func storeBlob(st storer.EncodedObjectStorer, content string) (plumbing.Hash, error) {
	h, err := gitobj.WriteObject(st, plumbing.BlobObject, []byte(content))
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("write blob: %w", err)
	}
	return h, nil
}

func storeTree(st storer.EncodedObjectStorer, entries []gitobj.TreeEntry) (plumbing.Hash, error) {
	h, err := gitobj.WriteTree(st, entries)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("write tree: %w", err)
	}
	return h, nil
}

// buildTree writes the tree that is base with changes made (paths are
// relative to base) and returns its hash; an empty tree is written too.
func buildTree(st storer.EncodedObjectStorer, base *gitobj.Tree, changes map[string]*treeChange) (plumbing.Hash, error) {
	h, _, err := buildSubtree(st, base, "", changes)
	return h, err
}

// buildSubtree builds the tree at dir (prefix "" for the root, else
// "a/b/"); n is its number of entries.
func buildSubtree(st storer.EncodedObjectStorer, base *gitobj.Tree, prefix string, changes map[string]*treeChange) (plumbing.Hash, int, error) {
	entries := map[string]gitobj.TreeEntry{}
	if base != nil {
		for _, e := range base.Entries {
			entries[e.Name] = e
		}
	}
	direct := map[string]*treeChange{}
	subdirs := map[string]bool{}
	for p, c := range changes {
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok {
			continue
		}
		if name, _, sub := strings.Cut(rest, "/"); sub {
			subdirs[name] = true
		} else {
			direct[rest] = c
		}
	}
	// Removals first, so that a file may replace a directory and the
	// other way round.
	for name, c := range direct {
		if c.delete {
			if e, ok := entries[name]; ok && e.Mode != filemode.Dir {
				delete(entries, name)
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(subdirs)) {
		var sub *gitobj.Tree
		if e, ok := entries[name]; ok {
			if e.Mode != filemode.Dir {
				if c, ok := direct[name]; !ok || !c.delete {
					return plumbing.ZeroHash, 0, fmt.Errorf("%s%s is a file in HEAD, not a directory", prefix, name)
				}
			} else {
				t, err := gitobj.ReadTree(st, e.Hash)
				if err != nil {
					return plumbing.ZeroHash, 0, fmt.Errorf("read tree %s%s: %w", prefix, name, err)
				}
				sub = t
			}
		}
		h, n, err := buildSubtree(st, sub, prefix+name+"/", changes)
		if err != nil {
			return plumbing.ZeroHash, 0, err
		}
		if n == 0 {
			delete(entries, name)
		} else {
			entries[name] = gitobj.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h}
		}
	}
	for name, c := range direct {
		if c.delete {
			continue
		}
		if e, ok := entries[name]; ok && e.Mode == filemode.Dir {
			return plumbing.ZeroHash, 0, fmt.Errorf("%s%s is a directory in HEAD, not a file", prefix, name)
		}
		entries[name] = gitobj.TreeEntry{Name: name, Mode: c.mode, Hash: c.blob}
	}
	if base != nil && len(direct) == 0 && len(subdirs) == 0 {
		return base.Hash, len(base.Entries), nil
	}
	if len(entries) == 0 && prefix != "" {
		return plumbing.ZeroHash, 0, nil // git keeps no empty directories
	}
	list := make([]gitobj.TreeEntry, 0, len(entries))
	for _, e := range entries {
		list = append(list, e)
	}
	h, err := storeTree(st, list)
	return h, len(list), err
}

// changedEntry reports whether a change differs from HEAD's entry.
func changedEntry(st storer.EncodedObjectStorer, base *gitobj.Tree, p string, c *treeChange) bool {
	var e *gitobj.TreeEntry
	if base != nil {
		if he, err := gitobj.Find(st, base, p); err == nil {
			e = &he
		}
	}
	if c.delete {
		return e != nil
	}
	return e == nil || e.Hash != c.blob || e.Mode != c.mode
}

// reasonStagedLost says why a file's staged changes were not kept.
const reasonStagedLost = "your staged changes in this file overlap the committed hunks; the index now holds the committed version (your edits are still in the working tree)"

// keepStaged works out the index entries of committed files that held
// staged changes of the person's (an index entry that is neither HEAD's
// nor the committed version): their staged version with the committed
// hunks placed on it, when they place exactly. Where they do not, the
// index takes the committed version and the file is listed in lost.
func keepStaged(st storer.EncodedObjectStorer, base *gitobj.Tree, idx *index.Index, changes map[string]*treeChange, committed map[string]bool, fl *filters) (map[string]*treeChange, []Uncommitted, error) {
	staged := map[string]*treeChange{}
	var lost []Uncommitted
	for _, e := range idx.Entries {
		c := changes[e.Name]
		if e.Stage != 0 || c == nil || !committed[e.Name] || c.delete || c.file == nil || c.file.OldPath != "" || e.Hash == c.blob {
			continue
		}
		var headHash plumbing.Hash
		if base != nil {
			if he, err := gitobj.Find(st, base, e.Name); err == nil {
				headHash = he.Hash
			}
		}
		if e.Hash == headHash || headHash.IsZero() {
			continue // nothing staged beyond HEAD
		}
		driver, err := fl.driver(e.Name)
		if err != nil {
			return nil, nil, err
		}
		var b []byte
		if driver != "" {
			b, err = fl.smudge(e.Name, driver, e.Hash)
		} else {
			b, err = readBlob(st, e.Hash)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("read the staged %s: %w", e.Name, err)
		}
		content, ok, err := reapply(*c.file, string(b))
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			lost = append(lost, Uncommitted{Path: e.Name, Reason: reasonStagedLost})
			continue
		}
		s := &treeChange{path: e.Name, mode: c.mode}
		if err := s.store(st, fl, driver, content); err != nil {
			return nil, nil, err
		}
		staged[e.Name] = s
	}
	return staged, lost, nil
}

// nextIndex returns the index after the commit: idx with the committed
// paths' entries set to the committed blobs (or removed), everything else
// as it was. The extensions (cached trees and the like) are dropped, as
// they may no longer match; git rebuilds them.
func (t *Tree) nextIndex(idx *index.Index, idxTime time.Time, changes map[string]*treeChange, committed map[string]bool, staged map[string]*treeChange) *index.Index {
	next := &index.Index{Version: idx.Version}
	if next.Version < 2 {
		next.Version = 2
	}
	for _, e := range idx.Entries {
		if _, ok := changes[e.Name]; ok && committed[e.Name] {
			continue
		}
		ne := *e
		// Entries the old index held as racily clean would look clean
		// forever under a newer index file: smudge them as git does, so
		// that git compares their content.
		if !idxTime.IsZero() && !ne.ModifiedAt.Before(idxTime) {
			ne.Size = 0
		}
		next.Entries = append(next.Entries, &ne)
	}
	for p, c := range changes {
		if c.delete || !committed[p] {
			continue
		}
		if s := staged[p]; s != nil {
			c = s
		}
		e := &index.Entry{Name: p, Hash: c.blob, Mode: c.mode}
		// Stat data only when the working file holds exactly the committed
		// content; otherwise git must compare, and sees the person's edits.
		if fi, err := os.Lstat(filepath.Join(t.Dir, filepath.FromSlash(p))); err == nil && fi.Mode().IsRegular() && fi.Size() == int64(len(c.worktree())) {
			if b, err := t.ReadFile(p); err == nil && string(b) == c.worktree() {
				e.ModifiedAt = fi.ModTime()
				e.Size = uint32(fi.Size())
			}
		}
		next.Entries = append(next.Entries, e)
	}
	sort.SliceStable(next.Entries, func(i, j int) bool { return next.Entries[i].Name < next.Entries[j].Name })
	for _, e := range next.Entries {
		if e.IntentToAdd || e.SkipWorktree {
			next.Version = max(next.Version, 3)
		}
	}
	return next
}

// commitHooks runs the commit's hooks against a temporary index that
// holds exactly the tree to commit.
type commitHooks struct {
	*hookRunner
	index string // the temporary index file
}

// startHooks writes the temporary index for the hooks.
func (c *commitRun) startHooks(output io.Writer) (*commitHooks, error) {
	t, st, cfg, gitDir, commonDir, tree, next := c.t, c.st, c.cfg, c.t.gitDir, c.t.commonDir, c.tree, c.next
	tmp, err := os.CreateTemp(gitDir, "pair-index-*.tmp")
	if err != nil {
		return nil, err
	}
	ti, err := treeIndex(st, tree, next)
	var b []byte
	if err == nil {
		b, err = encodeIndex(ti)
	}
	if err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, err
	}
	if err := writeDurably(tmp, b, nil); err != nil {
		os.Remove(tmp.Name())
		return nil, err
	}
	return &commitHooks{hookRunner: t.repo.newHookRunner(cfg, gitDir, commonDir, tmp.Name(), output), index: tmp.Name()}, nil
}

func (h *commitHooks) close() { os.Remove(h.index) }

// commitMsg runs commit-msg on msg and returns the message as the hook
// left it.
func (h *commitHooks) commitMsg(ctx context.Context, editMsg, msg string) (string, error) {
	if err := os.WriteFile(editMsg, []byte(msg), 0o644); err != nil {
		return "", err
	}
	if err := h.run(ctx, "commit-msg", editMsg); err != nil {
		return "", err
	}
	b, err := os.ReadFile(editMsg)
	if err != nil {
		return "", err
	}
	msg = cleanupMessage(string(b))
	if msg == "" {
		return "", errors.New("the commit-msg hook left an empty commit message")
	}
	return msg, nil
}

// cleanInWorkTree returns the committed paths whose working-tree file
// holds exactly the committed content.
func (c *commitRun) cleanInWorkTree() map[string]bool {
	out := map[string]bool{}
	for p, ch := range c.changes {
		if !c.committed[p] || ch.delete {
			continue
		}
		if b, err := c.t.ReadFile(p); err == nil && string(b) == ch.worktree() {
			out[p] = true
		}
	}
	return out
}

// hookChanges returns what the pre-commit hook changed in the committed
// paths: what it staged in the temporary index (taken first, as git
// commits what the hook staged), or else the working-tree content it
// wrote in a file that held the committed content before it ran (a
// formatter that does not stage).
func (c *commitRun) hookChanges(indexFile string, clean map[string]bool) ([]*treeChange, error) {
	t, st, changes, committed, fl := c.t, c.st, c.changes, c.committed, c.fl
	idx, _, err := readIndex(indexFile)
	if err != nil {
		return nil, fmt.Errorf("read the index the pre-commit hook left: %w", err)
	}
	staged := map[string]*index.Entry{}
	for _, e := range idx.Entries {
		if e.Stage == 0 {
			staged[e.Name] = e
		}
	}
	var out []*treeChange
	for _, p := range slices.Sorted(maps.Keys(committed)) {
		ch := changes[p]
		e, ok := staged[p]
		switch {
		case !ok && !ch.delete:
			out = append(out, &treeChange{path: p, delete: true}) // the hook unstaged it
			continue
		case ok && (ch.delete || e.Hash != ch.blob || e.Mode != ch.mode):
			if e.Mode != filemode.Regular && e.Mode != filemode.Executable {
				return nil, fmt.Errorf("the pre-commit hook staged %s as mode %s, which pair does not commit", p, e.Mode)
			}
			b, err := readBlob(st, e.Hash)
			if err != nil {
				return nil, fmt.Errorf("read %s as the pre-commit hook staged it: %w", p, err)
			}
			out = append(out, &treeChange{path: p, content: string(b), blob: e.Hash, mode: e.Mode})
			continue
		}
		if ch.delete || !clean[p] {
			continue
		}
		b, err := t.ReadFile(p)
		if err != nil || string(b) == ch.worktree() {
			continue // removed (it stays as staged) or unchanged
		}
		driver, err := fl.driver(p)
		if err != nil {
			return nil, err
		}
		hc := &treeChange{path: p, mode: ch.mode}
		if err := hc.store(st, fl, driver, string(b)); err != nil {
			return nil, err
		}
		out = append(out, hc)
	}
	return out, nil
}

// treeIndex builds an index holding exactly tree, with stat data copied
// from the entries of like that hold the same blob.
func treeIndex(st storer.EncodedObjectStorer, tree plumbing.Hash, like *index.Index) (*index.Index, error) {
	known := map[string]*index.Entry{}
	for _, e := range like.Entries {
		known[e.Name] = e
	}
	t, err := gitobj.ReadTree(st, tree)
	if err != nil {
		return nil, err
	}
	idx := &index.Index{Version: 2}
	err = gitobj.Files(st, t, func(name string, e gitobj.TreeEntry) error {
		ne := &index.Entry{Name: name, Hash: e.Hash, Mode: e.Mode}
		if k, ok := known[name]; ok && k.Hash == e.Hash && k.Mode == e.Mode {
			ne.CreatedAt, ne.ModifiedAt = k.CreatedAt, k.ModifiedAt
			ne.Dev, ne.Inode, ne.UID, ne.GID, ne.Size = k.Dev, k.Inode, k.UID, k.GID, k.Size
		}
		idx.Entries = append(idx.Entries, ne)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return idx, nil
}

// cleanupMessage tidies a message as git commit does for a message it did
// not open an editor for (mail.StripSpace), with a final newline.
func cleanupMessage(s string) string {
	if s = mail.StripSpace(s); s == "" {
		return ""
	}
	return s + "\n"
}

// appendReflogs records a move of ref (plumbing.HEAD when detached) from
// old to nw in the reflogs of ref and of HEAD, as git does, with the
// message what. With create, a missing reflog is created (as git commit
// does); without, only the reflogs that exist are written. A failure here
// loses no work, so it is ignored.
func appendReflogs(gitDir, commonDir string, ref plumbing.ReferenceName, old, nw plumbing.Hash, name, email string, when time.Time, what string, create bool) {
	line := fmt.Sprintf("%s %s %s <%s> %d %s\t%s\n", old, nw, name, email, when.Unix(), when.Format("-0700"), what)
	logs := []string{filepath.Join(gitDir, "logs", "HEAD")}
	if ref != plumbing.HEAD {
		logs = append(logs, filepath.Join(commonDir, "logs", filepath.FromSlash(path.Clean(ref.String()))))
	}
	flag := os.O_WRONLY | os.O_APPEND
	if create {
		flag |= os.O_CREATE
	}
	for _, p := range logs {
		if create {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				continue
			}
		}
		f, err := os.OpenFile(p, flag, 0o644)
		if err != nil {
			continue // no reflog kept for this ref
		}
		f.WriteString(line)
		f.Close()
	}
}

// blame.go: Blame, the commit that last changed each line of a file, found over history as git blame finds it.

package repo

import (
	"container/heap"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"github.com/pair-cli/pair/repo/internal/gitobj"
	"github.com/pair-cli/pair/repo/internal/gitstore"
)

// ErrNotInHead is returned by Blame for a path that HEAD does not hold
// (a file never committed, or one deleted and committed so).
var ErrNotInHead = errors.New("no such path in HEAD")

// BlameOptions say how far Blame looks for where a line came from.
type BlameOptions struct {
	// Copies also follows lines moved within the file and lines moved or
	// copied from the files changed by the same commit, as git blame -C
	// does (a block of more than 20 letters and digits moved within the
	// file, of more than 40 from another file).
	Copies bool
}

// BlameLine is one line of a blamed file and where it comes from.
type BlameLine struct {
	Line int    // 1-based, in the file as it is now
	Text string // the line, without its line end
	// Commit is the full hash of the commit that last changed the line;
	// "" for a line of the working tree not committed yet.
	Commit   string
	Path     string // the file's path in Commit (another after a rename or copy)
	OrigLine int    // the line's number, 1-based, in Commit's file
	Author   string // "Name <email>" of Commit
	When     time.Time
	// Pair is what pair's record says of the line, when Commit is a pair
	// commit that this pair made; nil otherwise.
	Pair *PairLine
}

// Blame is a file blamed line by line.
type Blame struct {
	Path  string // the file, relative to the root
	Lines []BlameLine
}

// Blame finds, for each line of the file p (named as Clean names it), the
// commit that last changed it, walking the history from HEAD as git blame
// does: each commit passes to its parents the lines its diff against
// them keeps, following the file across whole-file renames (a file added
// where a file of at least half the same content is removed). The file is
// the working tree's: lines it holds that HEAD does not are not
// committed yet (Commit ""). Lines of the commits this pair made carry
// their PairLine. A path HEAD does not hold is ErrNotInHead; binary
// content is ErrBinary (it has no lines to blame); a folder is refused.
func (t *Tree) Blame(p string, access Access, opts BlameOptions) (*Blame, error) {
	spec, err := t.Pathspec(p, access)
	if err != nil {
		return nil, err
	}
	if spec == "" {
		return nil, fmt.Errorf(".: %w", errFolder)
	}
	st, err := t.blameStorage()
	if err != nil {
		return nil, err
	}
	defer st.Close()
	head, err := headCommit(st)
	if err != nil {
		return nil, err
	}
	if head == nil {
		return nil, fmt.Errorf("%s: %w (the branch has no commit yet)", spec, ErrNotInHead)
	}
	b := newBlamer(st, opts)
	e, ok, err := b.entry(head.Tree(), spec)
	if err != nil {
		return nil, err
	}
	switch {
	case !ok:
		return nil, fmt.Errorf("%s: %w", spec, ErrNotInHead)
	case e.Mode == filemode.Dir:
		return nil, fmt.Errorf("%s: %w", spec, errFolder)
	case !blobMode(e.Mode):
		return nil, fmt.Errorf("%s: %w", spec, errSubmodule)
	}
	start := &blameOrigin{commit: head, path: spec, blob: e.Hash}
	if start.lines, err = b.lines(e.Hash); err != nil {
		return nil, err
	}
	// The working tree's file, when it differs from HEAD's, is blamed as
	// a commit of its own whose parent is HEAD.
	if work, err := t.ReadFile(spec); err == nil && string(work) != b.text[e.Hash] {
		if isBinary(work) {
			return nil, fmt.Errorf("%s: %w", spec, ErrBinary)
		}
		start = &blameOrigin{path: spec, lines: splitBlameLines(string(work)), parents: []*gitobj.Commit{head}}
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	lines, err := b.run(start)
	if err != nil {
		return nil, err
	}
	made, err := t.repo.readCommitRecord()
	if err != nil {
		return nil, err
	}
	if err := b.attribute(lines, made); err != nil {
		return nil, err
	}
	return &Blame{Path: spec, Lines: lines}, nil
}

// blameStorage is the tree's object storage for one Blame, which reads
// many objects: it keeps the pack files open between reads (the store
// otherwise opens a pack again for each object) until it is closed.
func (t *Tree) blameStorage() (*gitstore.Store, error) {
	return t.repo.openStore(true)
}

// errFolder refuses a folder where a file is needed; errSubmodule a
// submodule, which has no lines.
var (
	errFolder    = errors.New("is a folder; blame takes a file")
	errSubmodule = errors.New("is a submodule; blame takes a file")
)

// blameOrigin is a file in one commit: the suspect that lines are blamed
// on until a parent is found to hold them.
type blameOrigin struct {
	commit *gitobj.Commit // nil: the working tree's file
	// parents are the working tree's parent (HEAD); for a commit, its own.
	parents []*gitobj.Commit
	path    string
	blob    plumbing.Hash
	lines   []string // each with its line end, as git splits them
}

func (o *blameOrigin) key() string {
	if o.commit == nil {
		return "\x00" + o.path
	}
	return o.commit.Hash.String() + "\x00" + o.path
}

// blameRef is one line still looking for its commit: its number in the
// blamed file (final) and in the suspect's file (orig), both 0-based.
type blameRef struct{ final, orig int }

// blameSuspect is an origin with the lines that are, so far, blamed on it.
type blameSuspect struct {
	origin *blameOrigin
	refs   []blameRef
	when   int64 // committer time
	n      int   // order of arrival
}

// blamer holds one run of Blame: the object store, what it read, and
// the suspects waiting, newest commit first.
type blamer struct {
	st      storer.EncodedObjectStorer
	opts    BlameOptions
	text    map[plumbing.Hash]string
	split   map[plumbing.Hash][]string
	trees   map[plumbing.Hash]*gitobj.Tree
	commits map[plumbing.Hash]*gitobj.Commit
	waiting map[string]*blameSuspect
	queue   suspectQueue
	arrived int
	out     []BlameLine
	// firstAt, per final line blamed on a commit, is the line's place in
	// the commit's first parent's file (see blameDiff's at).
	firstAt []int
	indexes map[plumbing.Hash]map[string][]int
}

func newBlamer(st storer.EncodedObjectStorer, opts BlameOptions) *blamer {
	return &blamer{
		st: st, opts: opts,
		text: map[plumbing.Hash]string{}, split: map[plumbing.Hash][]string{},
		trees: map[plumbing.Hash]*gitobj.Tree{}, commits: map[plumbing.Hash]*gitobj.Commit{},
		waiting: map[string]*blameSuspect{},
	}
}

// splitBlameLines splits s after each "\n", as git blame counts lines:
// the last line may lack its line end.
func splitBlameLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// lines returns the lines of the blob h, read once.
func (b *blamer) lines(h plumbing.Hash) ([]string, error) {
	if l, ok := b.split[h]; ok {
		return l, nil
	}
	c, err := gitobj.ReadBlob(b.st, h)
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", h, err)
	}
	b.text[h] = string(c)
	l := splitBlameLines(string(c))
	b.split[h] = l
	return l, nil
}

// tree returns the tree h, read once.
func (b *blamer) tree(h plumbing.Hash) (*gitobj.Tree, error) {
	if t, ok := b.trees[h]; ok {
		return t, nil
	}
	t, err := gitobj.ReadTree(b.st, h)
	if err != nil {
		return nil, fmt.Errorf("read tree %s: %w", h, err)
	}
	b.trees[h] = t
	return t, nil
}

// commit returns the commit h, read once.
func (b *blamer) commit(h plumbing.Hash) (*gitobj.Commit, error) {
	if c, ok := b.commits[h]; ok {
		return c, nil
	}
	c, err := gitobj.ReadCommit(b.st, h)
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", h, err)
	}
	b.commits[h] = c
	return c, nil
}

// entry returns the entry at path p under the tree h; ok is false when
// a part of the path is missing. A folder's entry is returned with ok
// true and its mode.
func (b *blamer) entry(h plumbing.Hash, p string) (gitobj.TreeEntry, bool, error) {
	parts := strings.Split(p, "/")
	for i, name := range parts {
		t, err := b.tree(h)
		if err != nil {
			return gitobj.TreeEntry{}, false, err
		}
		e, ok := t.Entry(name)
		if !ok {
			return gitobj.TreeEntry{}, false, nil
		}
		if i == len(parts)-1 {
			return e, true, nil
		}
		if e.Mode != filemode.Dir {
			return gitobj.TreeEntry{}, false, nil
		}
		h = e.Hash
	}
	return gitobj.TreeEntry{}, false, nil
}

// blobMode reports whether an entry of mode m holds a blob blame reads:
// a file or a symbolic link.
func blobMode(m filemode.FileMode) bool {
	return m == filemode.Regular || m == filemode.Executable || m == filemode.Symlink
}

// run blames every line of start.
func (b *blamer) run(start *blameOrigin) ([]BlameLine, error) {
	n := len(start.lines)
	b.out = make([]BlameLine, n)
	b.firstAt = make([]int, n)
	refs := make([]blameRef, n)
	for i, l := range start.lines {
		refs[i] = blameRef{final: i, orig: i}
		l = strings.TrimSuffix(l, "\n")
		b.out[i] = BlameLine{Line: i + 1, Text: strings.TrimSuffix(l, "\r")}
	}
	if start.commit == nil && isBinary([]byte(strings.Join(start.lines, ""))) || start.commit != nil && isBinary([]byte(b.text[start.blob])) {
		return nil, fmt.Errorf("%s: %w", start.path, ErrBinary)
	}
	b.add(start, refs)
	for b.queue.Len() > 0 {
		s := heap.Pop(&b.queue).(*blameSuspect)
		delete(b.waiting, s.origin.key())
		if err := b.pass(s.origin, s.refs); err != nil {
			return nil, err
		}
	}
	return b.out, nil
}

// add blames refs on the origin o for now, to be passed on when o's
// commit comes out of the queue.
func (b *blamer) add(o *blameOrigin, refs []blameRef) {
	if len(refs) == 0 {
		return
	}
	k := o.key()
	if s, ok := b.waiting[k]; ok {
		s.refs = append(s.refs, refs...)
		return
	}
	when := int64(1<<63 - 1) // the working tree comes first
	if o.commit != nil {
		when = o.commit.Committer().When.Unix()
	}
	b.arrived++
	s := &blameSuspect{origin: o, refs: refs, when: when, n: b.arrived}
	b.waiting[k] = s
	heap.Push(&b.queue, s)
}

// parentsOf returns the commits the origin's lines may come from.
func (b *blamer) parentsOf(o *blameOrigin) ([]*gitobj.Commit, error) {
	if o.commit == nil {
		return o.parents, nil
	}
	var out []*gitobj.Commit
	for _, h := range o.commit.Parents() {
		c, err := b.commit(h)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// pass hands the lines refs of o to o's parents where they hold them,
// and blames the others on o, as git blame's pass_blame does: a parent
// with the same file takes them all; otherwise each parent in turn takes
// the lines its diff with o keeps; then, with Copies, blocks moved within
// the file, then blocks from the files the commit changed.
func (b *blamer) pass(o *blameOrigin, refs []blameRef) error {
	parents, err := b.parentsOf(o)
	if err != nil {
		return err
	}
	origins := make([]*blameOrigin, len(parents))
	for i, p := range parents {
		po, err := b.findOrigin(p, o)
		if err != nil {
			return err
		}
		if po == nil {
			continue
		}
		if o.commit != nil && po.blob == o.blob {
			b.add(po, refs)
			return nil
		}
		same := false
		for _, q := range origins[:i] {
			same = same || q != nil && q.blob == po.blob
		}
		if !same {
			origins[i] = po
		}
	}
	var at0 []int
	for i, po := range origins {
		if po == nil || len(refs) == 0 {
			continue
		}
		kept, at := blameDiff(po.lines, o.lines)
		if i == 0 {
			at0 = at
		}
		var passed, left []blameRef
		for _, r := range refs {
			if k := kept[r.orig]; k >= 0 {
				passed = append(passed, blameRef{final: r.final, orig: k})
			} else {
				left = append(left, r)
			}
		}
		b.add(po, passed)
		refs = left
	}
	if b.opts.Copies && len(refs) > 0 {
		if refs, err = b.copies(o, parents, origins, refs); err != nil {
			return err
		}
	}
	for _, r := range refs {
		l := &b.out[r.final]
		l.OrigLine, l.Path = r.orig+1, o.path
		if o.commit == nil {
			l.Author = "Not Committed Yet"
			continue
		}
		a := o.commit.Author()
		l.Commit, l.Author, l.When = o.commit.Hash.String(), fmt.Sprintf("%s <%s>", a.Name, a.Email), a.When
		if at0 != nil {
			b.firstAt[r.final] = at0[r.orig]
		}
	}
	return nil
}

// findOrigin returns o's file in the parent p: the same path, or, when p
// has no file there, the file o's commit renamed; nil when there is none.
func (b *blamer) findOrigin(p *gitobj.Commit, o *blameOrigin) (*blameOrigin, error) {
	e, ok, err := b.entry(p.Tree(), o.path)
	if err != nil {
		return nil, err
	}
	if ok && blobMode(e.Mode) {
		return b.origin(p, o.path, e.Hash)
	}
	if o.commit == nil {
		return nil, nil
	}
	return b.findRename(p, o)
}

func (b *blamer) origin(c *gitobj.Commit, p string, h plumbing.Hash) (*blameOrigin, error) {
	l, err := b.lines(h)
	if err != nil {
		return nil, err
	}
	return &blameOrigin{commit: c, path: p, blob: h, lines: l}, nil
}

// renameScore is the least similarity of a rename, as git's default
// (-M50%).
const renameScore = 0.5

// findRename returns the file of the parent p that o's commit renamed to
// o's path, as git's rename detection finds it: among the files the
// commit removes, one with the same content, else the most similar one,
// if at least renameScore of it is the same.
func (b *blamer) findRename(p *gitobj.Commit, o *blameOrigin) (*blameOrigin, error) {
	from, err := b.tree(p.Tree())
	if err != nil {
		return nil, err
	}
	to, err := b.tree(o.commit.Tree())
	if err != nil {
		return nil, err
	}
	changes, err := gitobj.Diff(b.st, from, to)
	if err != nil {
		return nil, err
	}
	var best *gitobj.Change
	bestScore := 0.0
	for i, c := range changes {
		if c.From == nil || c.To != nil || !blobMode(c.From.Mode) {
			continue
		}
		if c.From.Hash == o.blob && len(o.lines) > 0 {
			best = &changes[i]
			break
		}
		if _, err := b.lines(c.From.Hash); err != nil {
			return nil, err
		}
		if s := similarity(b.text[c.From.Hash], b.text[o.blob]); s >= renameScore && s > bestScore {
			best, bestScore = &changes[i], s
		}
	}
	if best == nil {
		return nil, nil
	}
	return b.origin(p, best.Path, best.From.Hash)
}

// similarity is the share of the larger of a and b that both hold: the
// bytes of the lines they share, counted once each, over the larger
// size, as git estimates the similarity of a rename. Empty files are
// like nothing.
func similarity(a, c string) float64 {
	if a == "" || c == "" {
		return 0
	}
	count := map[string]int{}
	for _, l := range splitBlameLines(a) {
		count[l]++
	}
	same := 0
	for _, l := range splitBlameLines(c) {
		if count[l] > 0 {
			count[l]--
			same += len(l)
		}
	}
	return float64(same) / float64(max(len(a), len(c)))
}

// blameDiff compares the lines of old and new, with their line ends, as
// git blame does (see gitDiff): kept[i] is the line of old that line i of
// new is kept from, or -1 for a line the change wrote; at[i] is the
// number of old lines before the place of line i.
func blameDiff(old, new []string) (kept, at []int) {
	return gitDiff(old, new)
}

// suspectQueue orders the suspects newest commit first, then first come,
// as git blame takes them.
type suspectQueue []*blameSuspect

func (q suspectQueue) Len() int { return len(q) }
func (q suspectQueue) Less(i, j int) bool {
	if q[i].when != q[j].when {
		return q[i].when > q[j].when
	}
	return q[i].n < q[j].n
}
func (q suspectQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *suspectQueue) Push(x any)   { *q = append(*q, x.(*blameSuspect)) }
func (q *suspectQueue) Pop() any {
	old := *q
	s := old[len(old)-1]
	*q = old[:len(old)-1]
	return s
}

// HeadFiles returns the files of HEAD under the path p (named as
// Pathspec names it; "" or "." is the whole tree), in git's order: the
// files blame can take (not symbolic links or submodules), leaving out
// those access refuses (secrets, unless allowed). A file path is itself
// when HEAD holds it.
func (t *Tree) HeadFiles(p string, access Access) ([]string, error) {
	spec, err := t.Pathspec(p, access)
	if err != nil {
		return nil, err
	}
	st, err := t.repo.gitStorage()
	if err != nil {
		return nil, err
	}
	head, err := headCommit(st)
	if head == nil || err != nil {
		return nil, err
	}
	root, err := gitobj.ReadTree(st, head.Tree())
	if err != nil {
		return nil, err
	}
	var out []string
	err = gitobj.Files(st, root, func(f string, e gitobj.TreeEntry) error {
		if inPathspec(f, spec) && (e.Mode == filemode.Regular || e.Mode == filemode.Executable) && t.Guard(f, access) == nil {
			out = append(out, f)
		}
		return nil
	})
	return out, err
}

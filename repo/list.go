package repo

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/pair-cli/pair/edit"
)

// This file holds the read-only views of the tree that the model's tools
// use: list, search and read files, git status, the diff against HEAD and
// the history. All of them stay inside the sandbox: paths go through Clean
// and Guard, links are not followed out of the tree (nor into .git), and
// nothing under .git is listed or read as a file.

// ErrBinary is returned by ReadText for a file that is not text.
var ErrBinary = errors.New("binary file")

// binarySniff is how much of a file is looked at for a NUL byte, the sign
// of a binary file (as git does).
const binarySniff = 8000

// isBinary reports whether b looks like the content of a binary file.
func isBinary(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), binarySniff)], 0) >= 0
}

// ListFiles returns the files of the working tree, tracked and untracked,
// that match glob: slash paths relative to the root, sorted, at most limit
// of them (all when limit <= 0); truncated reports that more matched.
// Directories are not listed, only the files in them; a symbolic link is
// listed as a file (as git does) and never followed. Skipped: .git, nested
// repositories and submodules (their files are theirs), and files that
// git ignores, unless access allows ignored files (a tracked file is never
// ignored). Files that look like secrets are listed: their names are not
// what is protected, their content is (see ReadText and SearchFiles).
//
// The glob is matched against the whole path, one path segment at a time,
// as in a shell: "*", "?" and "[...]" match within a segment ("*" matches
// a leading dot too), and a "**" segment matches any number of segments
// ("**/*.go" is every Go file, "cmd/**" everything under cmd). So "*.md"
// matches only at the top level. A glob without wildcards that names a
// directory ("cmd/pair"), or that ends with "/", matches everything under
// it. "" matches every file. A glob that leaves the tree ("../*",
// "/etc/*") is refused with ErrOutsideRepo.
//
// The .gitignore files are read afresh on each call.
func (t *Tree) ListFiles(glob string, access Access, limit int) (files []string, truncated bool, err error) {
	g, err := t.parseGlob(glob)
	if err != nil {
		return nil, false, err
	}
	files, err = t.walkFiles(g, access)
	if err != nil {
		return nil, false, err
	}
	if limit > 0 && len(files) > limit {
		return files[:limit], true, nil
	}
	return files, false, nil
}

// pathGlob is a parsed glob of ListFiles: its segments, and whether it is a
// literal path (no wildcards), which also matches everything under it.
type pathGlob struct {
	segs    []string
	literal bool
}

// parseGlob checks a glob and splits it into segments; nil means every
// file.
func (t *Tree) parseGlob(s string) (*pathGlob, error) {
	orig := s
	if path.IsAbs(s) || filepath.IsAbs(s) {
		rel, err := filepath.Rel(t.Dir, filepath.Clean(s))
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, fmt.Errorf("glob %q: %w", orig, ErrOutsideRepo)
		}
		s = filepath.ToSlash(rel)
		if strings.HasSuffix(orig, "/") {
			s += "/"
		}
	}
	dir := strings.HasSuffix(s, "/")
	var segs []string
	literal := true
	for _, seg := range strings.Split(s, "/") {
		switch {
		case seg == "" || seg == ".":
			continue
		case seg == "..":
			return nil, fmt.Errorf("glob %q: %w", orig, ErrOutsideRepo)
		case seg == "**":
			literal = false
			if len(segs) > 0 && segs[len(segs)-1] == "**" {
				continue
			}
		default:
			if _, err := path.Match(seg, ""); err != nil {
				return nil, fmt.Errorf("glob %q: bad pattern %q: %w", orig, seg, err)
			}
			if strings.ContainsAny(seg, `*?[\`) {
				literal = false
			}
		}
		segs = append(segs, seg)
	}
	if len(segs) == 0 || (len(segs) == 1 && segs[0] == "**") {
		return nil, nil
	}
	if dir && segs[len(segs)-1] != "**" {
		segs, literal = append(segs, "**"), false
	}
	return &pathGlob{segs: segs, literal: literal}, nil
}

// match reports whether the glob matches a file's path segments.
func (g *pathGlob) match(parts []string) bool {
	if matchSegs(g.segs, parts) {
		return true
	}
	return g.literal && len(parts) > len(g.segs) && matchSegs(g.segs, parts[:len(g.segs)])
}

// under reports whether the glob may match a file in the directory whose
// segments are dir.
func (g *pathGlob) under(dir []string) bool {
	if g.literal {
		n := min(len(dir), len(g.segs))
		return slices.Equal(dir[:n], g.segs[:n])
	}
	pat := g.segs
	for _, d := range dir {
		if len(pat) == 0 {
			return false
		}
		if pat[0] == "**" {
			return true
		}
		if ok, _ := path.Match(pat[0], d); !ok {
			return false
		}
		pat = pat[1:]
	}
	return len(pat) > 0
}

// matchSegs matches path segments against glob segments; "**" matches any
// number of segments, but at least one at the end of the glob.
func matchSegs(pat, parts []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			rest := pat[1:]
			if len(rest) == 0 {
				return len(parts) > 0
			}
			for i := 0; i < len(parts); i++ {
				if matchSegs(rest, parts[i:]) {
					return true
				}
			}
			return false
		}
		if len(parts) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], parts[0]); !ok {
			return false
		}
		pat, parts = pat[1:], parts[1:]
	}
	return len(parts) == 0
}

// fileWalk is one walk of the working tree.
type fileWalk struct {
	t      *Tree
	glob   *pathGlob
	ignore bool            // apply the gitignore rules
	index  map[string]bool // tracked paths: never ignored
	dirs   map[string]bool // directories holding tracked paths
	files  []string
}

// walkFiles lists the files of the tree that match g (nil: all), skipping
// .git, nested repositories and, unless access allows them, ignored files.
func (t *Tree) walkFiles(g *pathGlob, access Access) ([]string, error) {
	w := &fileWalk{t: t, glob: g, ignore: t.Git && !access.Ignored}
	var base []gitignore.Pattern
	if w.ignore {
		ig := &t.ignores
		ig.once.Do(func() { ig.err = t.loadBase(ig) })
		if ig.err != nil {
			return nil, ig.err
		}
		base = ig.base
		idx, _, err := t.readIndex()
		if err != nil {
			return nil, err
		}
		w.index, w.dirs = map[string]bool{}, map[string]bool{}
		for _, e := range idx.Entries {
			w.index[e.Name] = true
			for d := path.Dir(e.Name); d != "."; d = path.Dir(d) {
				w.dirs[d] = true
			}
		}
	}
	if err := w.dir("", nil, base, false); err != nil {
		return nil, err
	}
	sort.Strings(w.files)
	return w.files, nil
}

// dir walks a directory (parts are its segments); ps are the gitignore
// patterns of its parents, and ignored says whether one of them is
// ignored (which nothing inside can undo).
func (w *fileWalk) dir(dir string, parts []string, ps []gitignore.Pattern, ignored bool) error {
	name := dir
	if name == "" {
		name = "."
	}
	f, err := w.t.root.Open(name)
	if err != nil {
		if dir != "" && (errors.Is(err, fs.ErrPermission) || errors.Is(err, fs.ErrNotExist)) {
			return nil // unreadable, or gone since it was listed
		}
		return wrapEscape(name, err)
	}
	ents, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		if dir != "" {
			return nil
		}
		return err
	}
	if dir != "" {
		for _, e := range ents {
			if strings.EqualFold(e.Name(), ".git") {
				return nil // a nested repository or a submodule
			}
		}
	}
	if w.ignore {
		own, err := readIgnoreFile(w.t, dir, parts)
		if err != nil {
			return err
		}
		ps = append(ps[:len(ps):len(ps)], own...)
	}
	m := gitignore.NewMatcher(ps)
	for _, e := range ents {
		base := e.Name()
		if strings.EqualFold(base, ".git") || (dir == "" && !w.t.Git && strings.EqualFold(base, ".pair")) {
			continue
		}
		p := path.Join(dir, base)
		sub := append(parts[:len(parts):len(parts)], base)
		typ := e.Type()
		ig := ignored || (w.ignore && m.Match(sub, typ.IsDir()))
		switch {
		case typ.IsDir():
			if ig && !w.dirs[p] {
				continue
			}
			if w.glob != nil && !w.glob.under(sub) {
				continue
			}
			if err := w.dir(p, sub, ps, ig); err != nil {
				return err
			}
		case typ.IsRegular() || typ&fs.ModeSymlink != 0:
			if ig && !w.index[p] {
				continue
			}
			if w.glob != nil && !w.glob.match(sub) {
				continue
			}
			w.files = append(w.files, p)
		}
	}
	return nil
}

// readIndex reads the git index of the tree (empty when there is none).
func (t *Tree) readIndex() (*index.Index, time.Time, error) {
	return readIndex(filepath.Join(t.gitDir, "index"))
}

// Match is a line that SearchFiles found.
type Match struct {
	Path string // slash path relative to the root
	Line int    // 1-based line number
	Text string // the line without its terminator, clipped to maxMatchText bytes
}

// maxMatchText is the longest line text a Match holds; longer lines are
// clipped (on a character boundary) and end with "…".
const maxMatchText = 300

// maxSearchSize is the size of the largest file SearchFiles reads; larger
// files (data, generated code, logs) are skipped.
const maxSearchSize = 4 << 20

// SearchFiles finds the lines that match a regular expression (Go syntax,
// matched line by line) in the files that ListFiles lists for glob, in
// path then line order: at most limit matches (all when limit <= 0), and
// truncated says that there were more. Binary files (a NUL byte in their
// first 8000 bytes), symbolic links, files over 4 MiB and, unless access
// allows them, files that look like secrets and ignored files are not
// searched. A pattern that does not compile is an error that says why.
func (t *Tree) SearchFiles(pattern, glob string, access Access, limit int) (matches []Match, truncated bool, err error) {
	if pattern == "" {
		return nil, false, errors.New("empty search pattern")
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, false, fmt.Errorf("search pattern %q: %w", pattern, err)
	}
	files, _, err := t.ListFiles(glob, access, 0)
	if err != nil {
		return nil, false, err
	}
	for _, p := range files {
		if !access.Secrets && IsSecret(p) {
			continue
		}
		b, ok := t.readRegular(p, maxSearchSize)
		if !ok || isBinary(b) {
			continue
		}
		for n := 1; len(b) > 0; n++ {
			line := b
			if i := bytes.IndexByte(b, '\n'); i >= 0 {
				line, b = b[:i], b[i+1:]
			} else {
				b = nil
			}
			line = bytes.TrimSuffix(line, []byte("\r"))
			if !re.Match(line) {
				continue
			}
			if limit > 0 && len(matches) == limit {
				return matches, true, nil
			}
			matches = append(matches, Match{Path: p, Line: n, Text: clip(string(line), maxMatchText)})
		}
	}
	return matches, false, nil
}

// readRegular reads a regular file of the walk (not a link) of at most
// max bytes; ok is false for anything else, or a file that is gone.
func (t *Tree) readRegular(p string, max int64) (b []byte, ok bool) {
	fi, err := t.root.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > max {
		return nil, false
	}
	f, err := t.root.Open(p)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	b, err = io.ReadAll(io.LimitReader(f, max+1))
	if err != nil || int64(len(b)) > max {
		return nil, false
	}
	return b, true
}

// clip cuts s to at most n bytes on a character boundary, marking the cut
// with "…".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// ReadText reads a text file of the tree: at most maxChars characters
// (runes; all of it when maxChars <= 0), cut on a character boundary, and
// truncated says the file holds more. The path goes through Clean and
// Guard: escapes, .git, secrets and ignored files are refused with their
// errors unless access allows them; a symbolic link inside the tree is
// followed only to a file that the same rules allow. A directory is an
// error, and so is a binary file (ErrBinary).
func (t *Tree) ReadText(p string, access Access, maxChars int) (text string, truncated bool, err error) {
	cp, err := t.Clean(p)
	if err != nil {
		return "", false, err
	}
	if err := t.Guard(cp, access); err != nil {
		return "", false, err
	}
	if err := t.guardLinks(cp, access); err != nil {
		return "", false, err
	}
	f, err := t.root.Open(cp)
	if err != nil {
		return "", false, wrapEscape(cp, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", false, err
	}
	if fi.IsDir() {
		return "", false, fmt.Errorf("%s: is a directory", cp)
	}
	if !fi.Mode().IsRegular() {
		return "", false, fmt.Errorf("%s: not a regular file", cp)
	}
	var r io.Reader = f
	if maxChars > 0 && int64(maxChars) < fi.Size() {
		// Enough bytes for maxChars characters and one more.
		r = io.LimitReader(f, int64(maxChars)*utf8.UTFMax+1)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return "", false, fmt.Errorf("%s: %w", cp, err)
	}
	if isBinary(b) {
		return "", false, fmt.Errorf("%s: %w", cp, ErrBinary)
	}
	if maxChars <= 0 {
		return string(b), false, nil
	}
	i, n := 0, 0
	for i < len(b) && n < maxChars {
		_, size := utf8.DecodeRune(b[i:])
		i += size
		n++
	}
	return string(b[:i]), i < len(b), nil
}

// guardLinks checks where a clean path leads when it goes through
// symbolic links: the file it reaches must be inside the tree, outside
// .git, and allowed by Guard, so that a link cannot give what its target's
// name would not.
func (t *Tree) guardLinks(p string, access Access) error {
	link := false
	for d := p; d != "." && d != "/"; d = path.Dir(d) {
		fi, err := t.root.Lstat(d)
		if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			link = true
			break
		}
	}
	if !link {
		return nil
	}
	top, err := filepath.EvalSymlinks(t.Dir)
	if err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(filepath.Join(t.Dir, filepath.FromSlash(p)))
	if err != nil {
		return nil // a broken link: opening it says so
	}
	rel, err := filepath.Rel(top, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s: %w", p, ErrOutsideRepo)
	}
	target, err := t.Clean(filepath.ToSlash(rel))
	if err != nil {
		return fmt.Errorf("%s: link to %w", p, err)
	}
	if err := t.Guard(target, access); err != nil {
		return fmt.Errorf("%s: link to %w", p, err)
	}
	return nil
}

// StatusEntry is a path that git status shows, with the two letters of
// git status --porcelain: Staged compares the index with HEAD, Worktree
// the working tree with the index. The letters are ' ' (unchanged), 'M'
// (modified), 'A' (added), 'D' (deleted), 'T' (type changed: a file
// became a link or the other way), 'U' (unmerged), and '?' in both for an
// untracked file.
type StatusEntry struct {
	Path             string
	Staged, Worktree byte
}

// Status returns the changes of the tree as git status --porcelain
// --untracked-files=all -c status.renames=false shows them: the tracked
// paths that differ from HEAD or the index, sorted, then the untracked
// files (not ignored), sorted. It reads git with go-git and never runs
// git. Renames are shown as a deletion and an addition, untracked files
// one by one (no "dir/" entries), nested repositories not at all; content
// filters and line-ending conversions (.gitattributes, core.autocrlf) are
// not applied.
func (t *Tree) Status() ([]StatusEntry, error) {
	gs, err := t.loadGitState()
	if err != nil {
		return nil, err
	}
	var out []StatusEntry
	for _, p := range gs.paths() {
		e := StatusEntry{Path: p, Staged: ' ', Worktree: ' '}
		h, inHead := gs.head[p]
		ie, inIndex := gs.index[p]
		switch {
		case gs.unmerged[p]:
			e.Staged, e.Worktree = 'U', 'U'
		case !inIndex:
			e.Staged = 'D'
		default:
			switch {
			case ie.IntentToAdd:
				e.Worktree = 'A'
			case !inHead:
				e.Staged = 'A'
			case isLinkMode(h.mode) != isLinkMode(ie.Mode):
				e.Staged = 'T'
			case h.hash != ie.Hash || h.mode != ie.Mode:
				e.Staged = 'M'
			}
			if e.Worktree == ' ' {
				wt, err := t.worktreeState(ie, gs.indexTime)
				if err != nil {
					return nil, err
				}
				e.Worktree = wt
			}
		}
		if e.Staged != ' ' || e.Worktree != ' ' {
			out = append(out, e)
		}
	}
	files, err := t.walkFiles(nil, Access{})
	if err != nil {
		return nil, err
	}
	for _, p := range files {
		if !gs.tracked[p] {
			out = append(out, StatusEntry{Path: p, Staged: '?', Worktree: '?'})
		}
	}
	return out, nil
}

// headEntry is a file of HEAD's tree.
type headEntry struct {
	hash plumbing.Hash
	mode filemode.FileMode
}

// gitState is what Status and WorkDiff compare: HEAD's files, the index
// and when it was written.
type gitState struct {
	r         *git.Repository
	head      map[string]headEntry
	index     map[string]*index.Entry // stage 0 entries
	unmerged  map[string]bool         // paths with conflict stages
	tracked   map[string]bool         // every path of the index
	indexTime time.Time
}

func (t *Tree) loadGitState() (*gitState, error) {
	r, err := t.historyRepo()
	if err != nil {
		return nil, err
	}
	gs := &gitState{r: r, head: map[string]headEntry{}, index: map[string]*index.Entry{},
		unmerged: map[string]bool{}, tracked: map[string]bool{}}
	ref, err := r.Head()
	switch {
	case errors.Is(err, plumbing.ErrReferenceNotFound):
		// No commit yet: HEAD has no files.
	case err != nil:
		return nil, fmt.Errorf("read HEAD: %w", err)
	default:
		c, err := r.CommitObject(ref.Hash())
		if err != nil {
			return nil, fmt.Errorf("read HEAD commit: %w", err)
		}
		tree, err := c.Tree()
		if err != nil {
			return nil, fmt.Errorf("read HEAD tree: %w", err)
		}
		w := object.NewTreeWalker(tree, true, nil)
		defer w.Close()
		for {
			name, e, err := w.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("read HEAD tree: %w", err)
			}
			if e.Mode != filemode.Dir {
				gs.head[name] = headEntry{e.Hash, e.Mode}
			}
		}
	}
	idx, when, err := t.readIndex()
	if err != nil {
		return nil, err
	}
	gs.indexTime = when
	for _, e := range idx.Entries {
		gs.tracked[e.Name] = true
		if e.Stage != 0 { // (go-git's index.Merged is 1, but a merged entry's stage is 0)
			gs.unmerged[e.Name] = true
			continue
		}
		gs.index[e.Name] = e
	}
	return gs, nil
}

// paths returns every path of HEAD and the index, sorted.
func (gs *gitState) paths() []string {
	var ps []string
	for p := range gs.head {
		ps = append(ps, p)
	}
	for p := range gs.tracked {
		if _, ok := gs.head[p]; !ok {
			ps = append(ps, p)
		}
	}
	sort.Strings(ps)
	return ps
}

func isLinkMode(m filemode.FileMode) bool { return m == filemode.Symlink }

// worktreeState compares a file of the working tree with its index entry:
// ' ' unchanged, 'M' modified, 'D' deleted, 'T' type changed. As git
// does, a file whose size and modification time are those the index
// recorded is taken as unchanged, unless it was modified as late as the
// index was written (then it is hashed).
func (t *Tree) worktreeState(e *index.Entry, indexTime time.Time) (byte, error) {
	if e.Mode == filemode.Submodule || e.SkipWorktree {
		return ' ', nil
	}
	fi, err := t.root.Lstat(e.Name)
	if err != nil {
		if gone(err) {
			return 'D', nil
		}
		return 0, wrapEscape(e.Name, err)
	}
	link := fi.Mode()&fs.ModeSymlink != 0
	switch {
	case fi.IsDir():
		return 'D', nil
	case !link && !fi.Mode().IsRegular():
		return 'T', nil
	case link != isLinkMode(e.Mode):
		return 'T', nil
	}
	if !link && (fi.Mode()&0o111 != 0) != (e.Mode == filemode.Executable) {
		return 'M', nil
	}
	if int64(e.Size) == fi.Size()&0xffffffff && e.ModifiedAt.Equal(fi.ModTime()) && fi.ModTime().Before(indexTime) {
		return ' ', nil
	}
	b, err := t.worktreeBlob(e.Name, link)
	if err != nil {
		if gone(err) {
			return 'D', nil
		}
		return 0, err
	}
	if plumbing.ComputeHash(plumbing.BlobObject, b) != e.Hash {
		return 'M', nil
	}
	return ' ', nil
}

// worktreeBlob is what git would store for a file of the working tree:
// its content, or a link's target.
func (t *Tree) worktreeBlob(p string, link bool) ([]byte, error) {
	if link {
		target, err := t.root.Readlink(p)
		return []byte(filepath.ToSlash(target)), wrapEscape(p, err)
	}
	b, err := t.root.ReadFile(p)
	return b, wrapEscape(p, err)
}

// gone reports whether a working tree path is missing: the file, or a
// directory on its way.
func gone(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// WorkDiff returns the changes of the working tree against HEAD, as git
// diff HEAD shows them, for the files git tracks (in HEAD or in the
// index): a unified diff that git apply accepts, made with edit.Diff and
// edit.Render, sorted by path; "" when nothing changed. What it does not
// show as a diff, it says in a comment line that git apply skips: files
// that look like secrets and ignored files unless access allows them
// ("# skipped .env: secret"), binary files ("# Binary files a/x and b/x
// differ"), symbolic links, submodules and unmerged paths, and line
// ending changes (which a hunk does not carry). Renames show as a deletion
// and an addition.
func (t *Tree) WorkDiff(access Access) (string, error) {
	gs, err := t.loadGitState()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, p := range gs.paths() {
		if err := t.diffPath(&b, gs, p, access); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// diffPath writes the diff of one path of HEAD or the index to b.
func (t *Tree) diffPath(b *strings.Builder, gs *gitState, p string, access Access) error {
	h, inHead := gs.head[p]
	ie, inIndex := gs.index[p]
	if gs.unmerged[p] {
		fmt.Fprintf(b, "# skipped %s: unmerged\n", p)
		return nil
	}
	if (inHead && h.mode == filemode.Submodule) || (inIndex && ie.Mode == filemode.Submodule) {
		return nil // git diff shows a submodule's commit, not files
	}
	// The new side: none when the file is deleted from the index or from
	// the working tree.
	var newMode filemode.FileMode
	newLink := false
	if inIndex {
		wt, err := t.worktreeState(ie, gs.indexTime)
		if err != nil {
			return err
		}
		if wt != 'D' {
			fi, err := t.root.Lstat(p)
			if err != nil {
				return wrapEscape(p, err)
			}
			newLink = fi.Mode()&fs.ModeSymlink != 0
			if !newLink && !fi.Mode().IsRegular() {
				fmt.Fprintf(b, "# skipped %s: not a regular file\n", p)
				return nil
			}
			switch {
			case newLink:
				newMode = filemode.Symlink
			case fi.Mode()&0o111 != 0:
				newMode = filemode.Executable
			default:
				newMode = filemode.Regular
			}
			if inHead && wt == ' ' && !ie.IntentToAdd && h.hash == ie.Hash && h.mode == ie.Mode {
				return nil // HEAD, index and working tree agree
			}
		}
	}
	if !inHead && newMode == 0 {
		return nil // added to the index, then removed from the disk
	}
	var newBlob []byte
	if newMode != 0 {
		var err error
		if newBlob, err = t.worktreeBlob(p, newLink); err != nil {
			return err
		}
		if inHead && h.mode == newMode && plumbing.ComputeHash(plumbing.BlobObject, newBlob) == h.hash {
			return nil // changed in the index only, back as HEAD on disk
		}
	}
	if err := t.Guard(p, access); err != nil {
		reason := "not allowed"
		switch {
		case errors.Is(err, ErrSecret):
			reason = "secret"
		case errors.Is(err, ErrIgnored):
			reason = "ignored"
		}
		fmt.Fprintf(b, "# skipped %s: %s\n", p, reason)
		return nil
	}
	if (inHead && isLinkMode(h.mode)) || newLink {
		fmt.Fprintf(b, "# skipped %s: symbolic link\n", p)
		return nil
	}
	var old []byte
	if inHead {
		blob, err := gs.r.BlobObject(h.hash)
		if err != nil {
			return fmt.Errorf("read %s from HEAD: %w", p, err)
		}
		rd, err := blob.Reader()
		if err != nil {
			return fmt.Errorf("read %s from HEAD: %w", p, err)
		}
		old, err = io.ReadAll(rd)
		rd.Close()
		if err != nil {
			return fmt.Errorf("read %s from HEAD: %w", p, err)
		}
	}
	oldPath, newPath := p, p
	if !inHead {
		oldPath = ""
	}
	if newMode == 0 {
		newPath = ""
	}
	if isBinary(old) || isBinary(newBlob) {
		a, bp := "a/"+p, "b/"+p
		if oldPath == "" {
			a = "/dev/null"
		}
		if newPath == "" {
			bp = "/dev/null"
		}
		fmt.Fprintf(b, "# Binary files %s and %s differ\n", a, bp)
		return nil
	}
	hunks := edit.Diff(string(old), string(newBlob))
	modeChange := inHead && newMode != 0 && h.mode != newMode
	mode := ""
	switch {
	case oldPath == "":
		mode = modeString(newMode)
	case newPath == "":
		mode = modeString(h.mode)
	}
	if len(hunks) == 0 && !modeChange && oldPath != "" && newPath != "" {
		fmt.Fprintf(b, "# %s: only line endings differ (not shown)\n", p)
		return nil
	}
	d, err := edit.Render(oldPath, newPath, mode, string(old), hunks)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	header, rest, _ := strings.Cut(d, "\n")
	if len(hunks) == 0 {
		// No hunks: git writes no ---/+++ lines either.
		rest, _, _ = strings.Cut(rest, "--- ")
	}
	b.WriteString(header + "\n")
	if modeChange {
		fmt.Fprintf(b, "old mode %s\nnew mode %s\n", modeString(h.mode), modeString(newMode))
	}
	b.WriteString(rest)
	if got, err := edit.Apply(string(old), hunks); err == nil && got != string(newBlob) && newPath != "" {
		fmt.Fprintf(b, "# %s: line endings also differ (not shown)\n", p)
	}
	return nil
}

// modeString writes a file mode as git diff does: "100644".
func modeString(m filemode.FileMode) string { return fmt.Sprintf("%06o", uint32(m)) }

// Commit is a commit of the history, as History reads it.
type Commit struct {
	Hash    string    // full hash
	Author  string    // "Name <email>"
	Date    time.Time // author date
	Subject string    // first paragraph of the message, on one line
}

// History returns the last n commits reachable from HEAD (all of them when
// n <= 0), newest first by commit time, as git log lists them. A
// repository without commits has no history and no error; a tree that is
// not in a git repository is ErrNotGit.
func (t *Tree) History(n int) ([]Commit, error) {
	r, err := t.historyRepo()
	if err != nil {
		return nil, err
	}
	head, err := r.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read HEAD: %w", err)
	}
	it, err := r.Log(&git.LogOptions{From: head.Hash(), Order: git.LogOrderCommitterTime})
	if err != nil {
		return nil, fmt.Errorf("read history: %w", err)
	}
	defer it.Close()
	var out []Commit
	for n <= 0 || len(out) < n {
		c, err := it.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return out, fmt.Errorf("read history: %w", err)
		}
		out = append(out, Commit{
			Hash:    c.Hash.String(),
			Author:  fmt.Sprintf("%s <%s>", c.Author.Name, c.Author.Email),
			Date:    c.Author.When,
			Subject: subjectOf(c.Message),
		})
	}
	return out, nil
}

// subjectOf returns a commit message's subject as git log's %s does: its
// first paragraph, lines joined by spaces.
func subjectOf(msg string) string {
	var lines []string
	for _, l := range strings.Split(strings.ReplaceAll(msg, "\r\n", "\n"), "\n") {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			if len(lines) > 0 {
				break
			}
			continue // blank lines before the subject
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, " ")
}

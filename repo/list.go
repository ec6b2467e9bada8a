// list.go: ListFiles and its glob, and SimilarPaths, the files git tracks or would.

package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// ListFiles returns the files of the working tree, tracked and untracked,
// that match glob: slash paths relative to the root, sorted, at most limit
// of them (all when limit <= 0); truncated reports that more matched.
// Directories are not listed, only the files in them; a symbolic link is
// listed as a file (as git does) and never followed. Skipped: .git, nested
// repositories and submodules (their files are theirs), and files that
// git ignores, unless access allows ignored files (a tracked file is never
// ignored). A glob whose folders, up to its first wildcard, go through a
// symbolic link is refused with a *LinkError, as git refuses such a
// pathspec: the link is listed, not what it leads to. Files that look like secrets are listed: their names are not
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
	if err := t.links.checkGlobLinks(g); err != nil {
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
	var base ignoreRules
	if w.ignore {
		ig := &t.ignores
		ig.once.Do(func() { ig.err = ig.loadBase() })
		if ig.err != nil {
			return nil, ig.err
		}
		base = ig.base
		idx, _, err := t.repo.readIndex()
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

// dir walks a directory (parts are its segments); ps are the ignore
// rules of its parents, and ignored says whether one of them is ignored
// (which nothing inside can undo).
func (w *fileWalk) dir(dir string, parts []string, ps ignoreRules, ignored bool) error {
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
		own, err := w.t.ignores.readIgnoreFile(nil, dir)
		if err != nil {
			return err
		}
		ps = append(ps[:len(ps):len(ps)], own...)
	}
	for _, e := range ents {
		base := e.Name()
		if strings.EqualFold(base, ".git") || (dir == "" && !w.t.Git && strings.EqualFold(base, ".pair")) {
			continue
		}
		p := path.Join(dir, base)
		sub := append(parts[:len(parts):len(parts)], base)
		typ := e.Type()
		ig := ignored || (w.ignore && ps.excludes(p, typ.IsDir()))
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
func (gr *gitRepo) readIndex() (*index.Index, time.Time, error) {
	return readIndex(filepath.Join(gr.gitDir, "index"))
}

// checkGlobLinks refuses a glob whose literal leading folders (those
// before its first wildcard) hold a symbolic link.
func (lk *linkCheck) checkGlobLinks(g *pathGlob) error {
	if g == nil {
		return nil
	}
	n := len(g.segs)
	for i, seg := range g.segs {
		if seg == "**" || strings.ContainsAny(seg, `*?[\`) {
			n = i + 1
			break
		}
	}
	err := lk.checkLinks(strings.Join(g.segs[:n], "/"), LinkPathspec)
	var le *LinkError
	if errors.As(err, &le) {
		return lk.linkError(strings.Join(g.segs, "/"), le.Link, LinkPathspec)
	}
	return err
}

// SimilarPaths returns up to n files of the tree that a person or a model
// who named the missing path p may have meant: first those with p's base
// name in other folders, then those whose path is a few edits away from
// p's (at most a third of its length, and at least 2), nearest first.
// Only files that ListFiles lists and ReadText reads under access are
// suggested: never an ignored file, nor one that looks like a secret,
// unless access allows them.
func (t *Tree) SimilarPaths(p string, access Access, n int) ([]string, error) {
	files, err := t.walkFiles(nil, access)
	if err != nil {
		return nil, err
	}
	p = strings.ToLower(path.Clean(strings.TrimPrefix(filepath.ToSlash(p), "/")))
	base := path.Base(p)
	limit := max(2, len([]rune(p))/3)
	type near struct {
		path     string
		sameBase bool
		dist     int
	}
	var found []near
	for _, f := range files {
		if !access.Secrets && IsSecret(f) {
			continue
		}
		lf := strings.ToLower(f)
		if lf == p {
			continue
		}
		d := editDistance(p, lf)
		same := path.Base(lf) == base
		if same || d <= limit {
			found = append(found, near{f, same, d})
		}
	}
	sort.SliceStable(found, func(i, j int) bool {
		if found[i].sameBase != found[j].sameBase {
			return found[i].sameBase
		}
		return found[i].dist < found[j].dist
	})
	var out []string
	for _, f := range found[:min(n, len(found))] {
		out = append(out, f.path)
	}
	return out, nil
}

// editDistance is the Levenshtein distance of a and b in characters.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

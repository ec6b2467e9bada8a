// ignore.go: git's ignore stack: .gitignore, info/exclude and core.excludesFile parsed and matched; ignores, the tree's rules loaded when first needed.

package repo

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
)

// maxPatternFile bounds an ignore or attributes file that pair reads:
// git's own bound (PATTERN_MAX_FILE_SIZE), over which git ignores the
// file. pair refuses to go on instead, as it cannot know what the file
// hides.
const maxPatternFile = 100 << 20

// errPatternFileSize is returned for an ignore or attributes file over
// maxPatternFile.
var errPatternFileSize = errors.New("file too large for git to read as patterns")

// ignoreRule is one line of an ignore file, as git parses it.
type ignoreRule struct {
	pattern string // without its "!", its final "/" and (when anchored) its leading "/"
	base    string // directory of the .gitignore it is from, "" or "a/b/"
	negate  bool   // "!": the path is not ignored after all
	mustDir bool   // final "/": only a directory matches
	noDir   bool   // no "/" in the pattern: matched against the base name
	fold    bool   // core.ignoreCase: pattern and base are lowercase, the path is folded
}

// ignoreRules are rules in git's order of priority, lowest first:
// core.excludesFile, info/exclude, then each .gitignore from the top down.
type ignoreRules []ignoreRule

// parseIgnoreRules parses the content of an ignore file whose directory
// is base ("" for the top and the files outside the tree, else "a/b/").
// With fold (core.ignoreCase), the rules match whatever the case of
// ASCII letters, as git's do then.
func parseIgnoreRules(b []byte, base string, fold bool) ignoreRules {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if fold {
		b, base = []byte(lowerASCII(string(b))), lowerASCII(base)
	}
	var rs ignoreRules
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSuffix(l, "\r")
		if l == "" || l[0] == '#' {
			continue
		}
		l = trimTrailingSpaces(l)
		negate := l != "" && l[0] == '!'
		if negate {
			l = l[1:]
		}
		r := newPatternRule(l, base)
		if r.pattern == "" {
			continue
		}
		r.negate, r.fold = negate, fold
		rs = append(rs, r)
	}
	return rs
}

// newPatternRule parses a pattern of an ignore or attributes file (its
// "!" taken off) as git does: a final "/" only matches a directory, and a
// pattern without another "/" matches the base name at any depth.
func newPatternRule(pat, base string) ignoreRule {
	r := ignoreRule{base: base}
	if strings.HasSuffix(pat, "/") {
		r.mustDir = true
		pat = pat[:len(pat)-1]
	}
	r.noDir = !strings.Contains(pat, "/")
	if !r.noDir {
		pat = strings.TrimPrefix(pat, "/")
	}
	r.pattern = pat
	return r
}

// trimTrailingSpaces removes the spaces at the end of a line that no
// backslash quotes, as git does (tabs stay).
func trimTrailingSpaces(l string) string {
	last := -1
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case ' ':
			if last < 0 {
				last = i
			}
		case '\\':
			i++
			if i == len(l) {
				return l
			}
			last = -1
		default:
			last = -1
		}
	}
	if last >= 0 {
		return l[:last]
	}
	return l
}

// match returns the verdict of the rules for a path of the tree (slash
// separated, from the top): hit when a rule matches it, and then
// excluded unless the last matching rule is a negation.
func (rs ignoreRules) match(p string, isDir bool) (hit, excluded bool) {
	for i := len(rs) - 1; i >= 0; i-- {
		if rs[i].matches(p, isDir) {
			return true, !rs[i].negate
		}
	}
	return false, false
}

// matches reports whether the rule's pattern matches the path, as git
// matches it: only a path under the rule's base, only a directory for a
// pattern ending in "/", the base name for a pattern without "/", else
// the path from the base.
func (r *ignoreRule) matches(p string, isDir bool) bool {
	if r.mustDir && !isDir {
		return false
	}
	if r.fold {
		p = lowerASCII(p)
	}
	rest, ok := strings.CutPrefix(p, r.base)
	if !ok || rest == "" {
		return false
	}
	if r.noDir {
		return wildmatch(r.pattern, path.Base(rest), false)
	}
	return wildmatch(r.pattern, rest, true)
}

// excludes reports whether the rules exclude the path itself (not
// looking at its directories).
func (rs ignoreRules) excludes(p string, isDir bool) bool {
	_, ex := rs.match(p, isDir)
	return ex
}

// ignores is the tree's gitignore rules, loaded when first needed, and
// what they say of a path.
type ignores struct {
	repo    *gitRepo
	disk    *disk
	once    sync.Once
	err     error
	fold    bool                   // core.ignoreCase
	base    ignoreRules            // core.excludesFile and info/exclude
	dirs    map[string]ignoreRules // .gitignore rules by directory
	tracked map[string]bool        // paths in the index, read on first need
}

// ignored is Ignored, reading the .gitignore files through the walk w
// when it is not nil.
func (ig *ignores) ignored(p string, w *dirWalk) (bool, error) {
	if !ig.repo.git {
		return false, nil
	}
	ig.once.Do(func() { ig.err = ig.loadBase() })
	if ig.err != nil {
		return false, ig.err
	}
	parts := strings.Split(p, "/")
	rs := ig.base[:len(ig.base):len(ig.base)]
	hit := false
	// Each directory from the top, then the path: the rules of the
	// .gitignore files above it decide; a directory excluded excludes
	// all it holds, and its own .gitignore is not read.
	for i := 1; i <= len(parts) && !hit; i++ {
		dir := strings.Join(parts[:i-1], "/")
		drs, ok := ig.dirs[dir]
		if !ok {
			var err error
			if drs, err = ig.readIgnoreFile(w, dir); err != nil {
				return false, err
			}
			ig.dirs[dir] = drs
		}
		rs = append(rs, drs...)
		hit = rs.excludes(strings.Join(parts[:i], "/"), i < len(parts))
	}
	if !hit {
		return false, nil
	}
	if ig.tracked == nil {
		ig.tracked = map[string]bool{}
		if idx, _, err := ig.repo.readIndex(); err == nil {
			for _, e := range idx.Entries {
				ig.tracked[e.Name] = true
			}
		}
	}
	return !ig.tracked[p], nil
}

// loadBase reads the ignore rules that come before any .gitignore: the
// person's global file, then info/exclude (the common directory's, which
// linked worktrees share, as git reads it).
func (ig *ignores) loadBase() error {
	ig.dirs = map[string]ignoreRules{}
	if !ig.repo.git {
		return nil
	}
	cfg, err := ig.repo.loadConfig()
	if err != nil {
		return err
	}
	if ig.fold, err = configBool(cfg.get("core", "ignoreCase")); err != nil {
		return fmt.Errorf("read git config core.ignoreCase: %w", err)
	}
	for _, name := range []string{ig.excludesFile(cfg), filepath.Join(ig.repo.commonDir, "info", "exclude")} {
		if name == "" {
			continue
		}
		b, err := readPatternFile(name)
		if err != nil {
			return err
		}
		ig.base = append(ig.base, parseIgnoreRules(b, "", ig.fold)...)
	}
	return nil
}

// readIgnoreFile reads the .gitignore of a directory of the tree ("" for
// the top), through the walk w when it is not nil.
func (ig *ignores) readIgnoreFile(w *dirWalk, dir string) (ignoreRules, error) {
	b, err := ig.disk.readTreePatternFile(w, path.Join(dir, ".gitignore"))
	if err != nil || b == nil {
		return nil, err
	}
	base := ""
	if dir != "" {
		base = dir + "/"
	}
	return parseIgnoreRules(b, base, ig.fold), nil
}

// readPatternFile reads an ignore or attributes file of the person's (a
// global one, or one in the git directory), following links as git does.
// A file that is missing, unreadable or not a regular file (a device, a
// pipe) holds no patterns.
func readPatternFile(name string) ([]byte, error) {
	f, err := os.OpenFile(name, readFlags, 0) // a pipe does not block the open
	if err != nil && errors.Is(err, syscall.ENXIO) {
		return nil, nil // a socket, or a pipe that nothing writes
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) || isNotDir(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	defer f.Close()
	return readPatterns(f, name)
}

// readTreePatternFile reads a .gitignore or .gitattributes of the tree
// (p is clean, from the top) through the tree's root, or through the
// handle of its directory in the walk w when w is not nil, never
// following a symbolic link: git (2.32 on) does not read these files
// through a link. A missing file, a link or anything but a regular file
// holds no patterns.
func (dk *disk) readTreePatternFile(w *dirWalk, p string) ([]byte, error) {
	r, name := dk.root, p
	if w != nil {
		if d := w.dir(path.Dir(p)); d != nil {
			r, name = d, path.Base(p)
		}
	}
	if r == dk.root && beyondLink(r, p) {
		return nil, nil // no folder of the tree: git reads no patterns there
	}
	fi, err := r.Lstat(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) || isNotDir(err) {
			return nil, nil
		}
		return nil, wrapEscape(p, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, nil
	}
	f, err := r.OpenFile(name, readFlags, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
			return nil, nil
		}
		return nil, wrapEscape(p, err)
	}
	defer f.Close()
	// Replaced between the two looks: what it holds is not known.
	if now, err := f.Stat(); err != nil || !os.SameFile(fi, now) {
		return nil, fmt.Errorf("%s changed while pair read it", p)
	}
	return readPatterns(f, p)
}

// readPatterns reads an open pattern file up to maxPatternFile.
func readPatterns(f *os.File, name string) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, nil
	}
	if fi.Size() > maxPatternFile {
		return nil, fmt.Errorf("%s: %w (over %d MB)", name, errPatternFileSize, maxPatternFile>>20)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxPatternFile+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if len(b) > maxPatternFile {
		return nil, fmt.Errorf("%s: %w (over %d MB)", name, errPatternFileSize, maxPatternFile>>20)
	}
	return b, nil
}

// isNotDir reports a path whose leading part is a file, not a directory.
func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

// excludesFile returns the person's global ignore file as git finds it:
// core.excludesFile ("~/" is the home directory, a relative path is
// relative to the top of the tree), or else $XDG_CONFIG_HOME/git/ignore,
// or ~/.config/git/ignore; "" when there is none.
func (ig *ignores) excludesFile(cfg gitConfig) string {
	if p, ok := cfg.lookup("core", "excludesFile"); ok {
		if p == "" {
			return ""
		}
		return expandPath(p, ig.repo.top)
	}
	if xdg := os.Getenv("XDG_CONFIG_HOME"); xdg != "" {
		return filepath.Join(xdg, "git", "ignore")
	}
	if home := os.Getenv("HOME"); home != "" {
		return filepath.Join(home, ".config", "git", "ignore")
	}
	return ""
}

// lowerASCII lowers the ASCII letters of s, as git folds case.
func lowerASCII(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

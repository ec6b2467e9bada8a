// filter.go: content filters: which driver a path's attributes name, and running it as git does.

package repo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// ErrFilter is returned (wrapped in a *FilterError) for a path whose
// attributes name a content filter that pair cannot run: git add would
// store the file through that filter, and pair will not store it
// unfiltered.
var ErrFilter = errors.New("the content filter cannot be run")

// FilterError is a path whose filter cannot be run, with why.
type FilterError struct {
	Path, Filter string
	// Configured says that the filter is configured (filter.<name>.clean
	// or .process) and failed; else it is not configured here.
	Configured bool
	// Reason is what the filter, or git, said of the failure ("" when
	// nothing more than that it failed).
	Reason string
}

func (e *FilterError) Error() string {
	if !e.Configured {
		return fmt.Sprintf("%s: its attributes name the filter %s, which is not configured here; pair will not commit it unfiltered", e.Path, e.Filter)
	}
	if e.Reason == "" {
		return fmt.Sprintf("%s: the filter %s failed; pair will not commit it unfiltered", e.Path, e.Filter)
	}
	return fmt.Sprintf("%s: the filter %s failed (%s); pair will not commit it unfiltered", e.Path, e.Filter, e.Reason)
}

func (e *FilterError) Unwrap() error { return ErrFilter }

// attrRule is one line of an attributes file: a pattern and the
// attributes it gives.
type attrRule struct {
	ignoreRule
	attrs []string // "name", "-name", "!name" or "name=value", in order
}

// attrRules are the lines of the attributes files in git's order of
// priority, lowest first: core.attributesFile, each .gitattributes from
// the top down, then info/attributes; with the macros they define.
type attrRules struct {
	lines  []attrRule
	macros map[string][]string
}

// parseAttrLines adds the lines of an attributes file whose directory is
// base ("" for the top and the files outside the tree). Macros count
// only where git reads them: outside the tree and in the top
// .gitattributes.
func (a *attrRules) parse(b []byte, base string, macros bool) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(strings.TrimSuffix(l, "\r"))
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if name, ok := strings.CutPrefix(f[0], "[attr]"); ok {
			if macros {
				a.macros[name] = f[1:]
			}
			continue
		}
		pat := f[0]
		if strings.HasPrefix(pat, "!") {
			continue // git refuses negative patterns here
		}
		a.lines = append(a.lines, attrRule{ignoreRule: newPatternRule(pat, base), attrs: f[1:]})
	}
}

// value returns the state of the attribute name for the file p: "set",
// "unset", its value, or "" when unspecified. The highest-priority line
// that matches p and says something of name decides, a macro's
// attributes counting as said where the macro is.
func (a *attrRules) value(p, name string) string {
	for i := len(a.lines) - 1; i >= 0; i-- {
		r := &a.lines[i]
		if !r.matches(p, false) {
			continue
		}
		if v, ok := a.find(r.attrs, name, 0); ok {
			return v
		}
	}
	return ""
}

// find looks for name in attrs, the last saying first; a macro set
// there says what its definition says.
func (a *attrRules) find(attrs []string, name string, depth int) (string, bool) {
	for j := len(attrs) - 1; j >= 0; j-- {
		at := attrs[j]
		switch {
		case at == name:
			return "set", true
		case at == "-"+name:
			return "unset", true
		case at == "!"+name:
			return "", true
		case strings.HasPrefix(at, name+"="):
			return at[len(name)+1:], true
		}
		if def, ok := a.macros[at]; ok && depth < 8 {
			if v, ok := a.find(def, name, depth+1); ok {
				return v, true
			}
		}
	}
	return "", false
}

// readAttrRules reads the attributes files git reads for p: the global
// one, the .gitattributes of each directory from the top down to p's,
// and info/attributes. Those of the tree are never read through a link;
// each is bounded in size (see readPatternFile).
func (f *filters) readAttrRules(p string) (*attrRules, error) {
	t, cfg := f.t, f.cfg
	a := &attrRules{macros: map[string][]string{"binary": {"-diff", "-merge", "-text"}}}
	if g, ok := cfg.lookup("core", "attributesFile"); ok && g != "" {
		b, err := f.read(expandPath(g, t.Dir), false)
		if err != nil {
			return nil, err
		}
		a.parse(b, "", true)
	} else if !ok {
		if xdg := os.Getenv("XDG_CONFIG_HOME"); xdg != "" {
			g = filepath.Join(xdg, "git", "attributes")
		} else if home := os.Getenv("HOME"); home != "" {
			g = filepath.Join(home, ".config", "git", "attributes")
		}
		if g != "" {
			b, err := f.read(g, false)
			if err != nil {
				return nil, err
			}
			a.parse(b, "", true)
		}
	}
	dirs := strings.Split(p, "/")
	for i := 0; i < len(dirs); i++ {
		dir := strings.Join(dirs[:i], "/")
		b, err := f.read(path.Join(dir, ".gitattributes"), true)
		if err != nil {
			return nil, err
		}
		base := ""
		if dir != "" {
			base = dir + "/"
		}
		a.parse(b, base, i == 0)
	}
	b, err := f.read(filepath.Join(t.commonDir, "info", "attributes"), false)
	if err != nil {
		return nil, err
	}
	a.parse(b, "", true)
	return a, nil
}

// filters says which content filter git add runs on each path, and runs
// it through git itself.
type filters struct {
	t       *Tree
	ctx     context.Context
	cfg     gitConfig
	drivers map[string]string // by path
	files   map[string][]byte // attributes files read, by name
}

// newFilters reads the filters of the tree; ctx stops the filters it
// runs (nil: never).
func (t *Tree) newFilters(ctx context.Context, cfg gitConfig) *filters {
	if ctx == nil {
		ctx = context.Background()
	}
	return &filters{t: t, ctx: ctx, cfg: cfg, drivers: map[string]string{}, files: map[string][]byte{}}
}

// read reads an attributes file once: one of the tree (a clean path)
// when inTree, else one of the person's or the git directory's.
func (f *filters) read(name string, inTree bool) ([]byte, error) {
	key := name // absolute
	if inTree {
		key = "tree:" + name
	}
	if b, ok := f.files[key]; ok {
		return b, nil
	}
	var b []byte
	var err error
	if inTree {
		b, err = f.t.disk.readTreePatternFile(nil, name)
	} else {
		b, err = readPatternFile(name)
	}
	if err != nil {
		return nil, err
	}
	f.files[key] = b
	return b, nil
}

// driver returns the filter that p's attributes name ("" for none).
func (f *filters) driver(p string) (string, error) {
	if d, ok := f.drivers[p]; ok {
		return d, nil
	}
	a, err := f.readAttrRules(p)
	if err != nil {
		return "", err
	}
	d := a.value(p, "filter")
	if d == "set" || d == "unset" {
		d = "" // git runs a filter named by a value only
	}
	f.drivers[p] = d
	return d, nil
}

// configured reports whether git has a command to clean with for the
// filter: filter.<name>.clean or filter.<name>.process.
func (f *filters) configured(driver string) bool {
	if strings.ContainsAny(driver, "=\n\x00") {
		return false // not a name git can be given a setting for
	}
	for _, key := range []string{"clean", "process"} {
		if v, ok := f.cfg.lookupSub("filter", driver, key); ok && strings.TrimSpace(v) != "" {
			return true
		}
	}
	return false
}

// check refuses p, about to hold content, when its attributes name a
// filter that cannot be run: one that is not configured, or that fails on
// the content.
func (f *filters) check(p string, content []byte) error {
	d, err := f.driver(p)
	if err != nil || d == "" {
		return err
	}
	_, err = f.clean(p, d, content, false)
	return err
}

// clean returns the blob git add would store for p holding content in
// the working tree, through the filter driver, and writes it to the
// object store when write is set. git builds it (git hash-object
// --path), so that clean and process filters, their "%f", and the
// conversions git makes after them, are git's own; the filter is made
// required, so that a failure is an error and not the content unfiltered.
func (f *filters) clean(p, driver string, content []byte, write bool) (plumbing.Hash, error) {
	if !f.configured(driver) {
		return plumbing.ZeroHash, &FilterError{Path: p, Filter: driver}
	}
	args := []string{"-c", "filter." + driver + ".required=true", "hash-object"}
	if write {
		args = append(args, "-w")
	}
	out, err := f.git(p, driver, content, append(args, "--stdin", "--path="+p)...)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	h := strings.TrimSpace(string(out))
	if !plumbing.IsHash(h) {
		return plumbing.ZeroHash, &FilterError{Path: p, Filter: driver, Configured: true, Reason: fmt.Sprintf("git hash-object printed %q", h)}
	}
	return plumbing.NewHash(h), nil
}

// smudge returns the working-tree form of a blob at p, as git checkout
// writes it through the filter driver.
func (f *filters) smudge(p, driver string, blob plumbing.Hash) ([]byte, error) {
	if !f.configured(driver) {
		return nil, &FilterError{Path: p, Filter: driver}
	}
	return f.git(p, driver, nil, "-c", "filter."+driver+".required=true", "cat-file", "--filters", "--path="+p, blob.String())
}

// git runs git on the tree's repository for the filter of p.
func (f *filters) git(p, driver string, stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(f.ctx, "git", args...)
	cmd.Dir = f.t.Dir
	cmd.Env = append(os.Environ(), "GIT_DIR="+f.t.gitDir, "GIT_WORK_TREE="+f.t.Dir)
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if ctxErr := f.ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
		if errors.Is(err, exec.ErrNotFound) {
			return nil, &FilterError{Path: p, Filter: driver, Configured: true, Reason: "pair runs filters through git, which is not installed here"}
		}
		// git's verdict ("p: clean filter 'x' failed") says what the
		// error says already: the reason is the filter's own last word.
		reason := ""
		for _, l := range strings.Split(stderr.String(), "\n") {
			l = strings.TrimSpace(strings.TrimPrefix(l, "fatal: "))
			if l != "" && !strings.HasPrefix(l, p+": clean filter '") && !strings.HasPrefix(l, p+": smudge filter ") && !strings.HasPrefix(l, "error: external filter ") {
				reason = l
			}
		}
		return nil, &FilterError{Path: p, Filter: driver, Configured: true, Reason: shortLine(reason)}
	}
	return out, nil
}

// shortLine makes a line of a program's output fit in a message: no
// control characters, at most 200 bytes.
func shortLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return -1
		}
		return r
	}, s)
	if len(s) > 200 {
		s = strings.ToValidUTF8(s[:200], "") + "…"
	}
	return s
}

// lookupSub returns the last value of section "sub".key, and whether any
// file sets it; the subsection's name is matched exactly, as git does.
func (c gitConfig) lookupSub(section, sub, key string) (string, bool) {
	v, ok := "", false
	for _, s := range c {
		if !s.IsName(section) {
			continue
		}
		for _, ss := range s.Subsections {
			if ss.Name != sub {
				continue
			}
			for _, o := range ss.Options {
				if o.IsKey(key) {
					v, ok = o.Value, true
				}
			}
		}
	}
	return v, ok
}

// CheckFilters refuses, before a review, the paths whose attributes name
// a content filter that is not configured here: git add would store them
// through it, and pair cannot (see ErrFilter). Outside a git repository
// nothing is filtered.
func (t *Tree) CheckFilters(paths []string) error {
	if !t.Git {
		return nil
	}
	cfg, err := t.repo.loadConfig()
	if err != nil {
		return err
	}
	fl := t.newFilters(context.Background(), cfg)
	for _, p := range paths {
		d, err := fl.driver(p)
		if err != nil {
			return err
		}
		if d != "" && !fl.configured(d) {
			return &FilterError{Path: p, Filter: d}
		}
	}
	return nil
}

// checkFilters refuses a write set, before anything is written, when a
// file it writes has a filter driver that cannot be run on its new
// content (see filters.check).
func (t *Tree) checkFilters(ctx context.Context, changes []Change) error {
	cfg, err := t.repo.loadConfig()
	if err != nil {
		return err
	}
	fl := t.newFilters(ctx, cfg)
	for _, c := range changes {
		if c.Delete {
			continue
		}
		if err := fl.check(c.Path, c.Content); err != nil {
			return err
		}
	}
	return nil
}

// filter.go: content filters: which driver a path's attributes name, and running it as git does.

package repo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
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

// filters says which content filter git add runs on each path, and runs
// it through git itself.
type filters struct {
	t       *Tree
	ctx     context.Context
	cfg     gitConfig
	attrs   *attrSource
	drivers map[string]string // by path
}

// newFilters reads the filters of the tree; ctx stops the filters it
// runs (nil: never).
func (t *Tree) newFilters(ctx context.Context, cfg gitConfig) *filters {
	if ctx == nil {
		ctx = context.Background()
	}
	return &filters{t: t, ctx: ctx, cfg: cfg, attrs: t.attrSource(cfg), drivers: map[string]string{}}
}

// driver returns the filter that p's attributes name ("" for none).
func (f *filters) driver(p string) (string, error) {
	if d, ok := f.drivers[p]; ok {
		return d, nil
	}
	a, err := f.attrs.rules(p)
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

// anyFilter reports whether the configuration names a command for any
// filter (filter.<name>.clean or .process): without one, no file is
// filtered, whatever its attributes say.
func (c gitConfig) anyFilter() bool {
	for _, e := range c {
		if strings.EqualFold(e.Section, "filter") && e.HasSub && (strings.EqualFold(e.Key, "clean") || strings.EqualFold(e.Key, "process")) {
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

// checkout returns the working-tree form of a blob at p as git checkout
// writes it: through the content filter its attributes name (see
// smudge), and with git's line-ending conversion.
func (f *filters) checkout(p string, blob plumbing.Hash) ([]byte, error) {
	d, err := f.driver(p)
	if err != nil {
		return nil, err
	}
	if d != "" {
		return f.smudge(p, d, blob)
	}
	return f.git(p, "", nil, "cat-file", "--filters", "--path="+p, blob.String())
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

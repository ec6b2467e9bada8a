// reject.go: pair apply --reject's .rej files, and git apply's whitespace settings.

package repo

import (
	"fmt"
	"io/fs"
	"os"
)

// WriteReject writes text to the file p of the tree (a clean path): the
// hunks of a patch that could not be placed, as git apply --reject
// writes them next to their file. A file p holds is replaced; a link or
// a folder at p, or a link among its folders, is refused.
func (t *Tree) WriteReject(p, text string) error {
	if err := t.links.checkLinks(p, LinkWrite); err != nil {
		return err
	}
	if fi, err := t.root.Lstat(p); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: %w", p, fs.ErrExist)
	}
	f, err := t.root.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return wrapEscape(p, err)
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return wrapEscape(p, err)
	}
	return wrapEscape(p, f.Close())
}

// WhitespaceConfig returns git's apply.whitespace and core.whitespace
// settings, "" where unset or outside a
// git repository.
func (t *Tree) WhitespaceConfig() (apply, core string, err error) {
	if !t.Git {
		return "", "", nil
	}
	cfg, err := t.repo.loadConfig()
	if err != nil {
		return "", "", err
	}
	return cfg.get("apply", "whitespace"), cfg.get("core", "whitespace"), nil
}

// WhitespaceAttr returns the whitespace attribute of the file p
// (slash-separated) from the tree's attributes: "set", "unset", its
// value, or "" when unspecified.
func (t *Tree) WhitespaceAttr(p string) (string, error) {
	if !t.Git {
		return "", nil
	}
	e, err := t.eolRules()
	if err != nil {
		return "", err
	}
	return e.attr(p, "whitespace")
}

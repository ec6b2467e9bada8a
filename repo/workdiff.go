// workdiff.go: WorkDiff and Pathspec, the uncommitted changes as a diff, of the tree or of one path.

package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/repo/internal/gitobj"
)

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
	return t.WorkDiffOf("", access)
}

// ErrNoMatch is returned for a pathspec that names no file git knows,
// as git words it.
var ErrNoMatch = errors.New("did not match any file(s) known to git")

// WorkDiffOf is WorkDiff for the pathspec p only, as git diff HEAD -- p
// shows it: the file p, or every file under the folder p ("" is every
// file). The pathspec is checked as Pathspec checks it, and one that names
// no path of HEAD or the index is ErrNoMatch.
func (t *Tree) WorkDiffOf(p string, access Access) (string, error) {
	spec, err := t.Pathspec(p, access)
	if err != nil {
		return "", err
	}
	gs, err := t.loadGitState()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	matched := false
	for _, p := range gs.paths() {
		if !inPathspec(p, spec) {
			continue
		}
		matched = true
		if err := t.diffPath(&b, gs, p, access); err != nil {
			return "", err
		}
	}
	if !matched && spec != "" {
		return "", fmt.Errorf("pathspec '%s' %w", spec, ErrNoMatch)
	}
	return b.String(), nil
}

// Pathspec checks a path that names a file or a folder for the read tools
// (git diff, git log) and returns it clean; "" and "." are the whole tree
// (""). It goes through Clean and Guard: a path out of
// the tree, into .git, that looks like a secret or that git ignores is
// refused with their errors unless access allows it; one beyond a
// symbolic link is a *LinkError worded as git words a pathspec.
func (t *Tree) Pathspec(p string, access Access) (string, error) {
	if p == "" || path.Clean(p) == "." {
		return "", nil
	}
	cp, err := t.Clean(strings.TrimSuffix(p, "/"))
	if err != nil {
		return "", err
	}
	if err := t.links.checkLinks(cp, LinkPathspec); err != nil {
		return "", err
	}
	if err := t.Guard(cp, access); err != nil {
		return "", err
	}
	return cp, nil
}

// inPathspec reports whether the clean path p is the pathspec spec or
// under it ("" holds every path).
func inPathspec(p, spec string) bool {
	return spec == "" || p == spec || strings.HasPrefix(p, spec+"/")
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
		wt, err := t.worktreeState(ie, gs)
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
		var err error
		if old, err = gitobj.ReadBlob(gs.st, h.hash); err != nil {
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

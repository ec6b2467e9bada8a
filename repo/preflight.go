// preflight.go: names the file system cannot hold, submodules and nested repositories, checked before a write.

package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
)

// ErrSubmodule is returned for a path inside a submodule or a nested
// repository: its files belong to that repository, not to this one.
var ErrSubmodule = errors.New("path inside a submodule or nested repository")

// ErrBadPath is returned for a path that pair does not write: one with a
// control character (a tab, a newline, ...), or one longer than the
// system allows.
var ErrBadPath = errors.New("path cannot be written")

// The system's limits on names: nameMax bytes for one component of a
// path, pathMax bytes for a whole path (the terminating NUL included).
const nameMax = 255

func pathMax() int {
	switch runtime.GOOS {
	case "linux", "android":
		return 4096
	case "windows":
		return 260
	}
	return 1024 // the BSDs, macOS
}

// tempNameLen is the length of a temporary name (see tempName and
// randomHex's 6 bytes in hex): a path the write set creates has one beside
// it. A constant: computing it at init read crypto/rand for every command.
const tempNameLen = len(".pair-") + 2*6 + len(".tmp")

// isDotGit reports whether a path component names a git directory as a
// file system may see it: ".git" in any case (case-insensitive file
// systems), with trailing dots or spaces (Windows drops them), its
// Windows short name "git~1", or with characters that macOS ignores in
// names, as git's own protectHFS and protectNTFS checks do.
func isDotGit(name string) bool {
	name = strings.Map(func(r rune) rune {
		switch {
		case r >= 0x200c && r <= 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x206a && r <= 0x206f, r == 0xfeff:
			return -1
		}
		return r
	}, name)
	name = strings.TrimRight(name, ". ")
	return strings.EqualFold(name, ".git") || strings.EqualFold(name, "git~1")
}

// preflight checks, before anything is written, that a write set's paths
// can be written as git would: names the system can hold, outside any
// .git directory, submodule or nested repository, and not beyond a
// symbolic link.
type preflight struct {
	root *os.Root
	// git says whether the tree is a repository's; top is its root and
	// gitDir its git directory.
	git         bool
	top, gitDir string
	links       *linkCheck
	submodules  *submodules
	// gitDirInside says whether the git directory is inside the tree
	// under another name (0 not known yet, 1 yes, -1 no).
	gitDirInside int
}

// checkName refuses a clean path with a control character or longer than
// the system allows.
func (pf *preflight) checkName(p string) error {
	for _, r := range p {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("%q: %w: it holds a control character (%q)", p, ErrBadPath, r)
		}
	}
	short := p
	if len(short) > 80 {
		short = short[:40] + "..." + short[len(short)-30:]
	}
	for _, part := range strings.Split(p, "/") {
		if len(part) > nameMax {
			return fmt.Errorf("%s: %w: a name in it is %d bytes long, and the system allows %d", short, ErrBadPath, len(part), nameMax)
		}
	}
	// The temporary file beside it may be the longer of the two.
	n := len(filepath.Join(pf.top, filepath.FromSlash(p)))
	if m := len(filepath.Join(pf.top, filepath.FromSlash(path.Dir(p)))) + 1 + tempNameLen; m > n {
		n = m
	}
	if n >= pathMax() {
		return fmt.Errorf("%s: %w: the path is %d bytes long, and the system allows %d", short, ErrBadPath, n, pathMax()-1)
	}
	return nil
}

// checkWritePath checks a clean path that a write set creates, changes or
// removes, against what is on disk now: its name must be one the system
// and git can hold (see checkName), none of its directories may be a
// symbolic link (see checkLinks), and its directories must stay outside
// any .git directory (this repository's, or one that another spelling
// reaches), and outside any submodule or nested repository.
func (pf *preflight) checkWritePath(p string) error {
	if err := pf.checkName(p); err != nil {
		return err
	}
	if err := pf.links.checkLinks(p, LinkWrite); err != nil {
		return err
	}
	real, err := pf.realPath(p)
	if err != nil {
		return err
	}
	via := ""
	if real != p {
		via = " (through a symbolic link, it is " + real + ")"
	}
	parts := strings.Split(real, "/")
	for _, part := range parts {
		if isDotGit(part) {
			return fmt.Errorf("%s: %w%s", p, ErrGitInternal, via)
		}
	}
	if pf.git {
		if gd, err := filepath.EvalSymlinks(pf.gitDir); err == nil {
			if rr, err := filepath.EvalSymlinks(pf.top); err == nil {
				full := filepath.Join(rr, filepath.FromSlash(real))
				if rel, err := filepath.Rel(gd, full); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
					return fmt.Errorf("%s: %w%s", p, ErrGitInternal, via)
				}
			}
		}
	}
	// A directory of the path with a .git of its own is another
	// repository's work tree: a submodule, or a repository nested in this
	// one.
	for i := 1; i < len(parts); i++ {
		dir := strings.Join(parts[:i], "/")
		if _, err := pf.root.Lstat(path.Join(dir, ".git")); err == nil {
			return fmt.Errorf("%s: %w (%s has its own .git)%s", p, ErrSubmodule, dir, via)
		}
	}
	if sub := pf.submodules.gitlinkOf(p, real); sub != "" {
		return fmt.Errorf("%s: %w (%s is a submodule in the git index)%s", p, ErrSubmodule, sub, via)
	}
	return nil
}

// checkSetPath is checkWritePath for a path of a write set that deletes
// the symbolic links gone (see deletedLinks): below one of them the path
// is new, in folders the write makes after the deletions (a link become
// a folder), so only its name, its .git components and the submodules
// are looked at; nothing on disk is followed.
func (pf *preflight) checkSetPath(p string, gone map[string]bool) error {
	if !belowAny(p, gone) {
		return pf.checkWritePath(p)
	}
	if err := pf.checkName(p); err != nil {
		return err
	}
	for _, part := range strings.Split(p, "/") {
		if isDotGit(part) {
			return fmt.Errorf("%s: %w", p, ErrGitInternal)
		}
	}
	if sub := pf.submodules.gitlinkOf(p); sub != "" {
		return fmt.Errorf("%s: %w (%s is a submodule in the git index)", p, ErrSubmodule, sub)
	}
	return nil
}

// belowAny reports whether a leading folder of the clean path p is one
// of dirs.
func belowAny(p string, dirs map[string]bool) bool {
	for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
		if dirs[d] {
			return true
		}
	}
	return false
}

// checkPlacedPath is checkWritePath for a path that linked found free of
// symbolic links (linked false): the path lands where it says, so only its
// name, its .git components, the git directory and the submodules above
// it are looked at, each directory once per walk w. With linked set it is
// checkWritePath.
func (pf *preflight) checkPlacedPath(p string, linked bool, w *dirWalk) error {
	if linked {
		return pf.checkWritePath(p)
	}
	if err := pf.checkName(p); err != nil {
		return err
	}
	parts := strings.Split(p, "/")
	for _, part := range parts {
		if isDotGit(part) {
			return fmt.Errorf("%s: %w", p, ErrGitInternal)
		}
	}
	if pf.git && pf.gitDirInTree() {
		// Only a git directory inside the tree under another name (a
		// "gitdir:" line pointing there) can be reached without a link.
		if err := pf.checkWritePath(p); err != nil {
			return err
		}
	}
	for i := 1; i < len(parts); i++ {
		dir := strings.Join(parts[:i], "/")
		if _, err := w.lstat(dir + "/.git"); err == nil {
			return fmt.Errorf("%s: %w (%s has its own .git)", p, ErrSubmodule, dir)
		}
	}
	if sub := pf.submodules.gitlinkOf(p); sub != "" {
		return fmt.Errorf("%s: %w (%s is a submodule in the git index)", p, ErrSubmodule, sub)
	}
	return nil
}

// gitDirInTree reports whether the git directory is inside the tree by
// another name than .git, found once per tree.
func (pf *preflight) gitDirInTree() bool {
	if pf.gitDirInside == 0 {
		pf.gitDirInside = -1
		gd, err1 := filepath.EvalSymlinks(pf.gitDir)
		rr, err2 := filepath.EvalSymlinks(pf.top)
		if err1 != nil || err2 != nil {
			pf.gitDirInside = 1 // unknown: check every path in full
		} else if rel, err := filepath.Rel(rr, gd); err != nil || (rel != ".git" && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))) {
			pf.gitDirInside = 1
		}
	}
	return pf.gitDirInside == 1
}

// realPath returns where a clean path of the tree lands on disk, as a
// clean path relative to the tree's real root: the symbolic links among
// its existing directories are followed (the path's last component is
// not: the write set never writes through a link). A link that leads
// out of the tree, or that is broken, is refused.
func (pf *preflight) realPath(p string) (string, error) {
	dir, base := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		return p, nil
	}
	// The longest existing prefix of dir: the rest is created as plain
	// directories by the write.
	parts := strings.Split(dir, "/")
	n := len(parts)
	for ; n > 0; n-- {
		if _, err := pf.root.Lstat(strings.Join(parts[:n], "/")); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, errNotDir) {
			return "", pathErr("read", strings.Join(parts[:n], "/"), err)
		}
	}
	if n == 0 {
		return p, nil
	}
	rootReal, err := filepath.EvalSymlinks(pf.top)
	if err != nil {
		return "", err
	}
	existing := strings.Join(parts[:n], "/")
	got, err := filepath.EvalSymlinks(filepath.Join(pf.top, filepath.FromSlash(existing)))
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return "", fmt.Errorf("%s: %w: %s is a symbolic link that leads nowhere (%v)", p, ErrBadPath, existing, err)
	}
	rel, err := filepath.Rel(rootReal, got)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s: %w (%s is a symbolic link that leads out of it)", p, ErrOutsideRepo, existing)
	}
	rest := append([]string{filepath.ToSlash(rel)}, parts[n:]...)
	return path.Join(append(rest, base)...), nil
}

package repo

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// ErrIgnored is returned for a path that git ignores (and does not track),
// unless ignored files are explicitly allowed.
var ErrIgnored = errors.New("path is ignored by git")

// ErrSecret is returned for a path that looks like it holds secrets (.env
// files, keys, credential stores), unless secrets are explicitly allowed.
var ErrSecret = errors.New("path may hold secrets")

// secretNames are base names (lowercase) of credential stores.
var secretNames = map[string]bool{
	".git-credentials": true, ".netrc": true, "_netrc": true, ".npmrc": true,
	".pypirc": true, ".pgpass": true, ".htpasswd": true, "credentials": true,
	"credentials.json": true, "credentials.yml": true, "credentials.yaml": true,
	".dockercfg": true, "secrets.json": true, "secrets.yml": true, "secrets.yaml": true,
	"service-account.json": true,
}

var secretSuffixes = []string{".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".gpg", ".asc"}

var secretPrefixes = []string{".env", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"}

// IsSecret reports whether a path looks like it holds secrets: .env*,
// *.pem, *.key and other key files, ssh private keys (id_rsa*,
// id_ed25519*, ...), and credential stores (.netrc, .git-credentials,
// credentials files, ...).
func IsSecret(p string) bool {
	base := strings.ToLower(path.Base(p))
	if secretNames[base] {
		return true
	}
	for _, s := range secretSuffixes {
		if strings.HasSuffix(base, s) {
			return true
		}
	}
	for _, s := range secretPrefixes {
		if strings.HasPrefix(base, s) {
			return !strings.HasSuffix(base, ".pub") // a public key is no secret
		}
	}
	return false
}

// Access says which guarded paths may be used anyway.
type Access struct {
	Ignored bool // git-ignored files
	Secrets bool // files that look like secrets
}

// Guard checks a clean path against the sandbox's rules beyond Clean's:
// git-ignored files and secret files are refused unless access allows
// them.
func (t *Tree) Guard(p string, access Access) error {
	return t.guard(p, access, nil)
}

// guard is Guard, reading the .gitignore files through the walk w when it
// is not nil.
func (t *Tree) guard(p string, access Access, w *dirWalk) error {
	if !access.Secrets && IsSecret(p) {
		return fmt.Errorf("%s: %w (allow it explicitly to use it)", p, ErrSecret)
	}
	if !access.Ignored {
		ignored, err := t.ignored(p, w)
		if err != nil {
			return err
		}
		if ignored {
			return fmt.Errorf("%s: %w (allow ignored files explicitly to use it)", p, ErrIgnored)
		}
	}
	return nil
}

// ignores is the lazily loaded gitignore state of a tree.
type ignores struct {
	once    sync.Once
	err     error
	base    []gitignore.Pattern            // core.excludesFile and .git/info/exclude
	dirs    map[string][]gitignore.Pattern // .gitignore patterns by directory
	tracked map[string]bool                // paths in the index, read on first need
}

// Ignored reports whether git ignores the path: a .gitignore of one of
// its directories, .git/info/exclude or core.excludesFile matches it (or
// one of its directories), and it is not tracked. Outside a git
// repository nothing is ignored.
func (t *Tree) Ignored(p string) (bool, error) {
	return t.ignored(p, nil)
}

// ignored is Ignored, reading the .gitignore files through the walk w
// when it is not nil.
func (t *Tree) ignored(p string, w *dirWalk) (bool, error) {
	if !t.Git {
		return false, nil
	}
	ig := &t.ignores
	ig.once.Do(func() { ig.err = t.loadBase(ig) })
	if ig.err != nil {
		return false, ig.err
	}
	parts := strings.Split(p, "/")
	ps := append([]gitignore.Pattern(nil), ig.base...)
	for i := 0; i < len(parts); i++ { // the root's .gitignore, then each directory's
		dir := strings.Join(parts[:i], "/")
		dps, ok := ig.dirs[dir]
		if !ok {
			var err error
			if dps, err = readIgnoreFile(t, w, dir, parts[:i]); err != nil {
				return false, err
			}
			ig.dirs[dir] = dps
		}
		ps = append(ps, dps...)
	}
	m := gitignore.NewMatcher(ps)
	hit := false
	for i := 1; i <= len(parts) && !hit; i++ {
		hit = m.Match(parts[:i], i < len(parts))
	}
	if !hit {
		return false, nil
	}
	if ig.tracked == nil {
		ig.tracked = map[string]bool{}
		if idx, _, err := t.readIndex(); err == nil {
			for _, e := range idx.Entries {
				ig.tracked[e.Name] = true
			}
		}
	}
	return !ig.tracked[p], nil
}

func (t *Tree) loadBase(ig *ignores) error {
	ig.dirs = map[string][]gitignore.Pattern{}
	if home, err := os.UserHomeDir(); err == nil {
		if ps, err := gitignore.LoadGlobalPatterns(osfs.New(home)); err == nil {
			ig.base = append(ig.base, ps...)
		}
	}
	if !t.Git {
		return nil
	}
	// info/exclude is shared by the linked worktrees, as git reads it.
	b, err := os.ReadFile(filepath.Join(t.commonDir, "info", "exclude"))
	if err == nil {
		ig.base = append(ig.base, parseIgnore(string(b), nil)...)
	}
	return nil
}

// readIgnoreFile reads the .gitignore of a directory of the tree, through
// the walk w when it is not nil.
func readIgnoreFile(t *Tree, w *dirWalk, dir string, domain []string) ([]gitignore.Pattern, error) {
	name := path.Join(dir, ".gitignore")
	var b []byte
	var err error
	if w != nil {
		b, err = w.readFile(name)
	} else {
		b, err = t.root.ReadFile(name)
	}
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, wrapEscape(name, err)
	}
	return parseIgnore(string(b), domain), nil
}

func parseIgnore(text string, domain []string) []gitignore.Pattern {
	var ps []gitignore.Pattern
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSuffix(l, "\r")
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(l, append([]string(nil), domain...)))
	}
	return ps
}

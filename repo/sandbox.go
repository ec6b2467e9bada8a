// sandbox.go: Guard and Access: ignored files and secrets kept from the model unless allowed.

package repo

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"sync"
)

// ErrIgnored is returned for a path that git ignores (and does not track),
// unless ignored files are explicitly allowed.
var ErrIgnored = errors.New("path is ignored by git")

// ErrSecret is returned for a path that looks like it holds secrets (.env
// files, keys, credential stores), unless secrets are explicitly allowed.
var ErrSecret = errors.New("path may hold secrets")

// AccessError is a path that Guard refused because Access did not allow
// it: Err is ErrSecret or ErrIgnored. Flag names the option that would
// allow it; Allow, when set, says so in the person's terms ("--allow-secrets
// allows it") in place of the general advice (see Reword).
type AccessError struct {
	Path  string
	Err   error
	Allow string
}

func (e *AccessError) Error() string {
	hint := e.Allow
	switch {
	case hint != "":
	case e.Err == ErrSecret:
		hint = "allow it explicitly to use it"
	default:
		hint = "allow ignored files explicitly to use it"
	}
	return fmt.Sprintf("%s: %v (%s)", e.Path, e.Err, hint)
}

// Reword returns msg, the text of an error that wraps e, with e's text
// saying allow in place of its general advice.
func (e *AccessError) Reword(msg, allow string) string {
	with := *e
	with.Allow = allow
	return strings.Replace(msg, e.Error(), with.Error(), 1)
}

func (e *AccessError) Unwrap() error { return e.Err }

// Flag is the name of the option that sets the field of Access that
// allows the path: allow-secrets (Access.Secrets) or allow-ignored
// (Access.Ignored).
func (e *AccessError) Flag() string {
	if e.Err == ErrSecret {
		return "allow-secrets"
	}
	return "allow-ignored"
}

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
		return &AccessError{Path: p, Err: ErrSecret}
	}
	if !access.Ignored {
		ignored, err := t.ignored(p, w)
		if err != nil {
			return err
		}
		if ignored {
			return &AccessError{Path: p, Err: ErrIgnored}
		}
	}
	return nil
}

// ignores is the lazily loaded gitignore state of a tree.
type ignores struct {
	once    sync.Once
	err     error
	fold    bool                   // core.ignoreCase
	base    ignoreRules            // core.excludesFile and info/exclude
	dirs    map[string]ignoreRules // .gitignore rules by directory
	tracked map[string]bool        // paths in the index, read on first need
}

// Ignored reports whether git ignores the path and does not track it, as
// git check-ignore says: the last rule that matches the path, or one of
// its directories, excludes it. The rules are git's, lowest priority
// first: core.excludesFile (or $XDG_CONFIG_HOME/git/ignore, or
// ~/.config/git/ignore), info/exclude, then each directory's .gitignore
// from the top down; a negation ("!") takes a path back, except from a
// directory that is excluded. Outside a git repository nothing is
// ignored.
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
			if drs, err = readIgnoreFile(t, w, dir); err != nil {
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
		if idx, _, err := t.repo.readIndex(); err == nil {
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
func (t *Tree) loadBase(ig *ignores) error {
	ig.dirs = map[string]ignoreRules{}
	if !t.Git {
		return nil
	}
	cfg, err := t.repo.loadConfig()
	if err != nil {
		return err
	}
	if ig.fold, err = configBool(cfg.get("core", "ignoreCase")); err != nil {
		return fmt.Errorf("read git config core.ignoreCase: %w", err)
	}
	for _, name := range []string{t.excludesFile(cfg), filepath.Join(t.commonDir, "info", "exclude")} {
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
func readIgnoreFile(t *Tree, w *dirWalk, dir string) (ignoreRules, error) {
	b, err := t.readTreePatternFile(w, path.Join(dir, ".gitignore"))
	if err != nil || b == nil {
		return nil, err
	}
	base := ""
	if dir != "" {
		base = dir + "/"
	}
	return parseIgnoreRules(b, base, t.ignores.fold), nil
}

// sandbox.go: Guard and Access: ignored files and secrets kept from the model unless allowed.

package repo

import (
	"errors"
	"fmt"
	"path"
	"strings"
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
		ignored, err := t.ignores.ignored(p, w)
		if err != nil {
			return err
		}
		if ignored {
			return &AccessError{Path: p, Err: ErrIgnored}
		}
	}
	return nil
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
	return t.ignores.ignored(p, nil)
}

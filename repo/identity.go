// identity.go: git's configuration files read as git reads them, and the committer's identity from them.

package repo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pair-cli/pair/repo/internal/gitconfig"
)

// ErrNoIdentity is returned when git has no identity to write a commit
// with: neither the GIT_AUTHOR_*/GIT_COMMITTER_* variables nor user.name
// and user.email in git's configuration.
var ErrNoIdentity = errors.New("no git identity")

// Identity returns the user's git identity as git resolves an author:
// GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL first, then author.name/email and
// user.name/email from the repository's configuration, the global one
// ($GIT_CONFIG_GLOBAL, or ~/.gitconfig over $XDG_CONFIG_HOME/git/config)
// and the system one, then $EMAIL for the email.
func (t *Tree) Identity() (name, email string, err error) {
	cfg, err := t.repo.loadConfig()
	if err != nil {
		return "", "", err
	}
	return cfg.ident("AUTHOR", "author")
}

// ErrIgnoreWhitespace is returned for an apply.ignoreWhitespace that git
// does not know.
var ErrIgnoreWhitespace = errors.New("apply.ignoreWhitespace: unrecognized value")

// ApplyIgnoresWhitespace reports whether git's configuration makes git
// apply ignore whitespace when it is not told: apply.ignoreWhitespace
// set to change, as git apply --ignore-space-change. no, none, never,
// false or no value leave it off; any other value fails, as in git.
func (t *Tree) ApplyIgnoresWhitespace() (bool, error) {
	cfg, err := t.repo.loadConfig()
	if err != nil {
		return false, err
	}
	switch v := cfg.get("apply", "ignorewhitespace"); v {
	case "change":
		return true, nil
	case "", "no", "none", "never", "false":
		return false, nil
	default:
		return false, fmt.Errorf("%w %q: use change or no", ErrIgnoreWhitespace, v)
	}
}

// ident resolves the identity of one role ("AUTHOR" and "author", or
// "COMMITTER" and "committer").
func (c gitConfig) ident(envRole, cfgRole string) (name, email string, err error) {
	name = firstNonEmpty(os.Getenv("GIT_"+envRole+"_NAME"), c.get(cfgRole, "name"), c.get("user", "name"))
	email = firstNonEmpty(os.Getenv("GIT_"+envRole+"_EMAIL"), c.get(cfgRole, "email"), c.get("user", "email"), os.Getenv("EMAIL"))
	name, email = sanitizeIdent(name), sanitizeIdent(email)
	var missing []string
	if name == "" {
		missing = append(missing, `git config user.name "Your Name"`)
	}
	if email == "" {
		missing = append(missing, "git config user.email you@example.com")
	}
	if len(missing) > 0 {
		return "", "", fmt.Errorf("%w: set it with %s", ErrNoIdentity, strings.Join(missing, " and "))
	}
	return name, email, nil
}

// sanitizeIdent drops what git drops from a name or an email: the angle
// brackets and newlines that would break the commit header, and the
// surrounding spaces.
func sanitizeIdent(s string) string {
	s = strings.Map(func(r rune) rune {
		switch r {
		case '<', '>', '\n', '\r', 0:
			return -1
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// gitConfig is the variables of git's configuration files in the order
// git reads them, included files in place.
type gitConfig []gitconfig.Entry

// get returns the last value of section.key (no subsection) across the
// files, as git does: a later file, or a later line, wins.
func (c gitConfig) get(section, key string) string {
	v, _ := c.lookupSub(section, "", key)
	return v
}

// lookup returns the last value of section.key (no subsection), and
// whether any file sets it.
func (c gitConfig) lookup(section, key string) (string, bool) {
	return c.lookupSub(section, "", key)
}

// lookupSub returns the last value of section "sub".key, and whether any
// file sets it; the subsection's name is matched exactly, as git does.
func (c gitConfig) lookupSub(section, sub, key string) (string, bool) {
	for i := len(c) - 1; i >= 0; i-- {
		if c[i].Is(section, sub, key) {
			return c[i].Value, true
		}
	}
	return "", false
}

// getSub returns the last value of section.subsection.key.
func (c gitConfig) getSub(section, sub, key string) string {
	v, _ := c.lookupSub(section, sub, key)
	return v
}

// ConfigBool reads a boolean of git's configuration (am.threeWay, say)
// as git reads it: true, yes, on or a number other than 0; a key without
// a value is true too.
func (t *Tree) ConfigBool(section, key string) (bool, error) {
	cfg, err := t.repo.loadConfig()
	if err != nil {
		return false, err
	}
	return cfg.boolean(section, key, false)
}

// all returns every value of section "sub".key, in order.
func (c gitConfig) all(section, sub, key string) []string {
	var vs []string
	for _, e := range c {
		if e.Is(section, sub, key) {
			vs = append(vs, e.Value)
		}
	}
	return vs
}

// boolean reads section.key as a git boolean, def when it is not set.
func (c gitConfig) boolean(section, key string, def bool) (bool, error) {
	for i := len(c) - 1; i >= 0; i-- {
		if e := c[i]; e.Is(section, "", key) {
			v, err := gitconfig.Bool(e.Value, e.NoValue)
			if err != nil {
				return def, fmt.Errorf("%s: %w", e.Name(), err)
			}
			return v, nil
		}
	}
	return def, nil
}

// configFiles lists the configuration files git reads for a repository
// whose common directory is commonDir, lowest priority first.
func configFiles(commonDir string) []string {
	var files []string
	if os.Getenv("GIT_CONFIG_NOSYSTEM") == "" {
		if p := os.Getenv("GIT_CONFIG_SYSTEM"); p != "" {
			files = append(files, p)
		} else {
			files = append(files, "/etc/gitconfig")
		}
	}
	if p := os.Getenv("GIT_CONFIG_GLOBAL"); p != "" {
		files = append(files, p)
	} else {
		home := os.Getenv("HOME")
		xdg := os.Getenv("XDG_CONFIG_HOME")
		if xdg == "" && home != "" {
			xdg = filepath.Join(home, ".config")
		}
		if xdg != "" {
			files = append(files, filepath.Join(xdg, "git", "config"))
		}
		if home != "" {
			files = append(files, filepath.Join(home, ".gitconfig"))
		}
	}
	if commonDir != "" {
		files = append(files, filepath.Join(commonDir, "config"))
	}
	return files
}

// loadConfig reads git's configuration for the tree. Missing files are
// skipped; a file that does not parse is an error, as it is for git.
// include.path is followed, and includeIf "gitdir:" for a directory
// prefix.
func (gr *gitRepo) loadConfig() (gitConfig, error) {
	if err := gr.needGit(); err != nil {
		return nil, err
	}
	var cfg gitConfig
	var err error
	for _, p := range configFiles(gr.commonDir) {
		if cfg, err = readConfig(cfg, p, gr.gitDir, 0); err != nil {
			return nil, err
		}
	}
	return cfg, nil
}

func readConfig(cfg gitConfig, p, gitDir string, depth int) (gitConfig, error) {
	if p == os.DevNull || depth > 10 {
		return cfg, nil
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return cfg, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read git config: %w", err)
	}
	entries, err := gitconfig.Parse(b)
	if err != nil {
		return nil, fmt.Errorf("read git config %s: %w", p, err)
	}
	// An include takes effect where it is, as git reads it.
	for _, e := range entries {
		cfg = append(cfg, e)
		include := e.Is("include", "", "path") ||
			e.Section == "includeif" && e.Key == "path" && includeIfGitDir(e.Subsection, p, gitDir)
		if !include || e.NoValue || e.Value == "" {
			continue
		}
		if cfg, err = readConfig(cfg, expandPath(e.Value, filepath.Dir(p)), gitDir, depth+1); err != nil {
			return nil, err
		}
	}
	return cfg, nil
}

// matchDirPattern matches dir (ending in "/") against a directory, or a
// directory prefix when pat ends in "/".
func matchDirPattern(dir, pat string) bool {
	if strings.HasSuffix(pat, "/") {
		return strings.HasPrefix(dir, pat)
	}
	return dir == pat+"/"
}

// expandPath resolves a path named in a configuration file: ~ is HOME, a
// relative path is relative to the file's directory.
func expandPath(p, dir string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return filepath.Join(os.Getenv("HOME"), rest)
	}
	if !filepath.IsAbs(p) {
		return filepath.Join(dir, p)
	}
	return p
}

// includeIfGitDir reports whether an includeIf condition "gitdir:pattern"
// (or "gitdir/i:") holds; only directory prefixes ("~/work/") and exact
// directories are understood, other conditions are false.
func includeIfGitDir(cond, file, gitDir string) bool {
	fold := false
	pat, ok := strings.CutPrefix(cond, "gitdir:")
	if !ok {
		if pat, ok = strings.CutPrefix(cond, "gitdir/i:"); !ok {
			return false
		}
		fold = true
	}
	if strings.ContainsAny(pat, "*?[") {
		return false
	}
	dirs := []string{gitDir}
	if real, err := filepath.EvalSymlinks(gitDir); err == nil && real != gitDir {
		dirs = append(dirs, real)
	}
	dirPat := strings.HasSuffix(pat, "/")
	switch {
	case strings.HasPrefix(pat, "./"):
		pat = filepath.Join(filepath.Dir(file), pat[2:])
	case strings.HasPrefix(pat, "~/") || filepath.IsAbs(pat):
		pat = expandPath(pat, "/")
	default:
		pat = "**/" + strings.TrimSuffix(pat, "/") // anywhere
	}
	pat = strings.TrimSuffix(filepath.ToSlash(pat), "/")
	if dirPat {
		pat += "/"
	}
	if fold {
		pat = strings.ToLower(pat)
	}
	for _, d := range dirs {
		dir := filepath.ToSlash(d) + "/"
		if fold {
			dir = strings.ToLower(dir)
		}
		rest, anywhere := strings.CutPrefix(pat, "**/")
		if !anywhere {
			if matchDirPattern(dir, pat) {
				return true
			}
			continue
		}
		// The pattern may start at any directory of the path.
		for i := 0; i < len(dir); i++ {
			if (i == 0 || dir[i-1] == '/') && matchDirPattern(dir[i:], rest) {
				return true
			}
		}
	}
	return false
}

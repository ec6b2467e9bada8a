package repo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	gitconfig "github.com/go-git/go-git/v5/plumbing/format/config"
)

// ErrNoIdentity is returned when git has no identity to write a commit
// with: neither the GIT_AUTHOR_*/GIT_COMMITTER_* variables nor user.name
// and user.email in git's configuration.
var ErrNoIdentity = errors.New("no git identity")

// ErrNotGit is returned for a git operation on a tree that is not a git
// repository.
var ErrNotGit = errors.New("not a git repository")

// Identity returns the user's git identity as git resolves an author:
// GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL first, then author.name/email and
// user.name/email from the repository's configuration, the global one
// ($GIT_CONFIG_GLOBAL, or ~/.gitconfig over $XDG_CONFIG_HOME/git/config)
// and the system one, then $EMAIL for the email.
func (t *Tree) Identity() (name, email string, err error) {
	cfg, err := t.loadConfig()
	if err != nil {
		return "", "", err
	}
	return cfg.ident("AUTHOR", "author")
}

// ident resolves the identity of one role ("AUTHOR" and "author", or
// "COMMITTER" and "committer").
func (c gitConfig) ident(envRole, cfgRole string) (name, email string, err error) {
	name = firstNonEmpty(os.Getenv("GIT_"+envRole+"_NAME"), c.get(cfgRole, "name"), c.get("user", "name"))
	email = firstNonEmpty(os.Getenv("GIT_"+envRole+"_EMAIL"), c.get(cfgRole, "email"), c.get("user", "email"), os.Getenv("EMAIL"))
	name, email = strings.TrimSpace(name), strings.Trim(strings.TrimSpace(email), "<>")
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

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// gitConfig is git's configuration files, lowest priority first.
type gitConfig []*gitconfig.Config

// get returns the last value of section.key (no subsection) across the
// files, as git does: a later file, or a later line, wins.
func (c gitConfig) get(section, key string) string {
	v := ""
	for _, f := range c {
		for _, s := range f.Sections {
			if !s.IsName(section) {
				continue
			}
			for _, o := range s.Options {
				if o.IsKey(key) {
					v = o.Value
				}
			}
		}
	}
	return v
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
func (t *Tree) loadConfig() (gitConfig, error) {
	if !t.Git {
		return nil, ErrNotGit
	}
	_, common, err := t.gitDirs()
	if err != nil {
		return nil, err
	}
	var cfg gitConfig
	for _, p := range configFiles(common) {
		if p == os.DevNull {
			continue
		}
		f, err := os.Open(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read git config: %w", err)
		}
		c := gitconfig.New()
		err = gitconfig.NewDecoder(f).Decode(c)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("read git config %s: %w", p, err)
		}
		cfg = append(cfg, c)
	}
	return cfg, nil
}

// gitDirs returns the tree's git directory (HEAD, index) and its common
// directory (objects, refs, config, hooks); they differ for a linked
// worktree, whose .git is a file naming its git directory.
func (t *Tree) gitDirs() (gitDir, commonDir string, err error) {
	if !t.Git {
		return "", "", ErrNotGit
	}
	dot := filepath.Join(t.Dir, ".git")
	fi, err := os.Stat(dot)
	if err != nil {
		return "", "", fmt.Errorf("%w: %v", ErrNotGit, err)
	}
	gitDir = dot
	if !fi.IsDir() {
		b, err := os.ReadFile(dot)
		if err != nil {
			return "", "", err
		}
		rest, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
		if !ok {
			return "", "", fmt.Errorf("%s: %w: no gitdir line", dot, ErrNotGit)
		}
		gitDir = strings.TrimSpace(rest)
		if !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(t.Dir, gitDir)
		}
	}
	commonDir = gitDir
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		commonDir = strings.TrimSpace(string(b))
		if !filepath.IsAbs(commonDir) {
			commonDir = filepath.Join(gitDir, commonDir)
		}
	}
	return filepath.Clean(gitDir), filepath.Clean(commonDir), nil
}

package mcp

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"sync"
	"time"
)

// Entry is one server of mcp_servers in .pair.yml, as the file says it.
// Configs turns entries into the Config that Start takes.
type Entry struct {
	Name string `yaml:"name"`
	// A subprocess over stdio.
	Command string            `yaml:"command"`
	Args    []string          `yaml:"args"`
	Env     map[string]string `yaml:"env"`
	Dir     string            `yaml:"dir"`
	// A streamable HTTP endpoint.
	URL     string            `yaml:"url"`
	Headers map[string]string `yaml:"headers"`
	// Timeout bounds each call (default 30s), StartTimeout the start
	// (default 60s).
	Timeout      time.Duration `yaml:"timeout"`
	StartTimeout time.Duration `yaml:"start_timeout"`
	// Tools overrides tools' risk by their name on the server: allow,
	// review or deny; "*" for all the others.
	Tools map[string]string `yaml:"tools"`
	// Disabled turns off a server of the home directory's file in one
	// repository.
	Disabled bool `yaml:"disabled"`

	// Base is the directory of the file the entry comes from: a relative
	// Dir is relative to it. MergeEntries sets it.
	Base string `yaml:"-"`
}

// entryName is what a server's name may be: it prefixes its tools' names.
var entryName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$`)
})

// CheckEntries checks the mcp_servers of the file named file.
func CheckEntries(file string, list []Entry) error {
	seen := map[string]bool{}
	for i, s := range list {
		switch {
		case !entryName().MatchString(s.Name):
			return fmt.Errorf("%s: mcp_servers[%d]: name %q: use letters, digits, '-' and '_' (it prefixes the server's tools)", file, i, s.Name)
		case seen[s.Name]:
			return fmt.Errorf("%s: mcp_servers: %s is named twice", file, s.Name)
		case s.Disabled:
		case s.Command == "" && s.URL == "":
			return fmt.Errorf("%s: mcp server %s: give a command (a server over stdio) or a url (streamable HTTP)", file, s.Name)
		case s.Command != "" && s.URL != "":
			return fmt.Errorf("%s: mcp server %s: give a command or a url, not both", file, s.Name)
		case s.URL != "" && (len(s.Args) > 0 || len(s.Env) > 0 || s.Dir != ""):
			return fmt.Errorf("%s: mcp server %s: args, env and dir are for a command, not a url", file, s.Name)
		case s.Command != "" && len(s.Headers) > 0:
			return fmt.Errorf("%s: mcp server %s: headers are for a url, not a command", file, s.Name)
		case s.Timeout < 0 || s.Timeout > 0 && s.Timeout < time.Millisecond,
			s.StartTimeout < 0 || s.StartTimeout > 0 && s.StartTimeout < time.Millisecond:
			return fmt.Errorf("%s: mcp server %s: a timeout is a duration such as 30s or 2m", file, s.Name)
		}
		seen[s.Name] = true
		for tool, word := range s.Tools {
			if word != Allow && word != Review && word != Deny {
				return fmt.Errorf("%s: mcp server %s: tools: %s: %q is not allow, review or deny", file, s.Name, tool, word)
			}
		}
	}
	return nil
}

// MergeEntries lays the files' servers over each other: a server of an
// earlier file (the repository's) replaces a later file's (the home
// directory's) of the same name, and disabled servers are left out.
// lists[i] comes from the file paths[i].
func MergeEntries(lists [][]Entry, paths []string) []Entry {
	var out []Entry
	seen := map[string]bool{}
	for i, list := range lists {
		for _, s := range list {
			if seen[s.Name] {
				continue
			}
			seen[s.Name] = true
			s.Base = filepath.Dir(paths[i])
			if !s.Disabled {
				out = append(out, s)
			}
		}
	}
	return out
}

// Configs turns entries into the configuration of Start. Commands run in
// root unless their Dir says otherwise (relative to Base), with environ
// (pair's own without secrets: see proc.Env) and their Env added. expand replaces ${VAR} in the
// command, args, env, URL and headers.
func Configs(entries []Entry, root string, environ []string, expand func(string) string) []Config {
	var out []Config
	for _, s := range entries {
		c := Config{
			Name: s.Name, Command: expand(s.Command), URL: expand(s.URL),
			Timeout: s.Timeout, StartTimeout: s.StartTimeout, Tools: s.Tools,
		}
		for _, a := range s.Args {
			c.Args = append(c.Args, expand(a))
		}
		if s.Command != "" {
			c.Dir = root
			if s.Dir != "" {
				c.Dir = s.Dir
				if !filepath.IsAbs(c.Dir) {
					c.Dir = filepath.Join(s.Base, c.Dir)
				}
			}
			c.Env = append([]string(nil), environ...)
			keys := make([]string, 0, len(s.Env))
			for k := range s.Env {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				c.Env = append(c.Env, k+"="+expand(s.Env[k]))
			}
		}
		if len(s.Headers) > 0 {
			c.Headers = map[string]string{}
			for k, v := range s.Headers {
				c.Headers[k] = expand(v)
			}
		}
		out = append(out, c)
	}
	return out
}

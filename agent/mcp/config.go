package mcp

import (
	"path/filepath"
	"sort"

	"github.com/pair-cli/pair/internal/config"
)

// Configs turns the servers of .pair.yml into the configuration of Start. Commands run in
// root unless their Dir says otherwise (relative to Base), with environ
// (pair's own without secrets: see proc.Env) and their Env added. expand replaces ${VAR} in the
// command, args, env, URL and headers.
func Configs(entries []config.MCPServer, root string, environ []string, expand func(string) string) []Config {
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

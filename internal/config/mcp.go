package config

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sync"
	"time"
)

// The words of an MCP server's tools: entry, its risk for the tool's name.
const (
	ToolAllow  = "allow"  // run without asking
	ToolReview = "review" // ask the person first
	ToolDeny   = "deny"   // never run, never offer
)

// MCPServer is one server of mcp_servers in .pair.yml, as the file says
// it. The mcp package's Configs turns servers into what it starts.
type MCPServer struct {
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
	// Dir is relative to it. mergeMCPServers sets it.
	Base string `yaml:"-"`
}

// serverName is what a server's name may be: it prefixes its tools' names.
var serverName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$`)
})

// checkMCPServers checks the mcp_servers of the file named file.
func checkMCPServers(file string, list []MCPServer) error {
	seen := map[string]bool{}
	for i, s := range list {
		switch {
		case !serverName().MatchString(s.Name):
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
			if word != ToolAllow && word != ToolReview && word != ToolDeny {
				return fmt.Errorf("%s: mcp server %s: tools: %s: %q is not allow, review or deny", file, s.Name, tool, word)
			}
		}
	}
	return nil
}

// mergeMCPServers lays the files' servers over each other: a server of an
// earlier file (the repository's) replaces a later file's (the home
// directory's) of the same name, and disabled servers are left out.
// lists[i] comes from the file paths[i].
func mergeMCPServers(lists [][]MCPServer, paths []string) []MCPServer {
	var out []MCPServer
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

package mcpservers

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/pair-cli/pair/agent/mcp"
	"github.com/pair-cli/pair/internal/config"
	"github.com/pair-cli/pair/internal/proc"
)

// Configs turns the configured servers into the mcp package's
// configuration: commands run in root, with pair's environment without
// the model's API key and the usual secret variables (proc.Env: a server
// that needs one is given it by its env:); ${VAR} is pair's variable, and
// ${PAIR} is self, pair's own path (pair mcp example-server is a server
// pair itself provides), when the environment does not set PAIR.
func Configs(cfg config.Config, root, self string) []mcp.Config {
	expand := func(s string) string {
		return os.Expand(s, func(k string) string {
			if v, ok := os.LookupEnv(k); ok {
				return v
			}
			if k == "PAIR" {
				return self
			}
			return ""
		})
	}
	return mcp.Configs(cfg.MCPServers, root, proc.Env(os.Environ(), cfg.APIKey, cfg.KeyEnv), expand)
}

// Start starts the configured MCP servers. A server that does not start
// is reported on w and offers no tools; pair goes on without it. The
// caller closes the set (also on Ctrl-C).
func Start(ctx context.Context, cfg config.Config, root, self string, w io.Writer) *mcp.Set {
	configs := Configs(cfg, root, self)
	if len(configs) == 0 {
		return nil
	}
	set := mcp.Start(ctx, configs)
	for _, s := range set.Servers {
		if s.Err != nil {
			if ctx.Err() == nil {
				fmt.Fprintf(w, "pair: MCP server %s did not start: %v; its tools are not offered\n", s.Name(), s.Err)
			}
			continue
		}
		if u := s.Unmatched(); len(u) > 0 {
			fmt.Fprintf(w, "pair: MCP server %s has no tool %s, which .pair.yml names\n", s.Name(), strings.Join(u, ", "))
		}
	}
	return set
}

// Self is how pair names itself in .pair.yml (${PAIR}): arg0, the path it
// was started by, made absolute when it is a path, else its executable.
// A relative arg0 is taken against the current directory: call Self
// before changing it.
func Self(arg0 string) string {
	if filepath.IsAbs(arg0) {
		return arg0
	}
	if p, err := filepath.Abs(arg0); err == nil && strings.ContainsRune(arg0, filepath.Separator) {
		return p
	}
	if p, err := os.Executable(); err == nil {
		return p
	}
	return "pair"
}

// Package trust is pair trust without its flags: the repository's
// .pair.yml trusted as it is now, with what in it now counts shown
// (Trust), or no longer trusted (Revoke).
package trust

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/pair-cli/pair/internal/config"
	"github.com/pair-cli/pair/internal/console"
	"github.com/pair-cli/pair/internal/safetext"
	"github.com/pair-cli/pair/repo"
)

// Options are the options of pair trust.
type Options struct {
	Dir    string
	Revoke bool
	IO     console.IO
	// OpenTree opens the working tree that holds a directory.
	OpenTree func(dir string) (*repo.Tree, error)
}

// Run runs pair trust: it trusts the repository's .pair.yml as it is now
// and lists what in it takes effect, or with Revoke stops trusting it.
func Run(ctx context.Context, o Options) error {
	tree, err := o.OpenTree(o.Dir)
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	defer tree.Close()
	p := filepath.Join(tree.Dir, ".pair.yml")
	store := config.TrustStore{Dir: tree.StateDir()}
	if o.Revoke {
		if err := store.Revoke(); err != nil {
			return fmt.Errorf("trust: %w", err)
		}
		fmt.Fprintf(o.IO.Out, "%s is no longer trusted\n", p)
		return nil
	}
	fc, sum, err := config.ReadDigest(p)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("trust: %s does not exist: there is nothing to trust", p)
	}
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	// What is recorded is exactly what was read and is shown.
	if err := store.TrustDigest(sum); err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	fmt.Fprintf(o.IO.Out, "trusted %s as it is now\n", p)
	printTrusted(o.IO.Out, fc)
	return nil
}

// printTrusted lists what the trusted file sets that needed trust. The
// values are the repository's text: escaped.
func printTrusted(w io.Writer, fc config.File) {
	if fc.Model != "" {
		fmt.Fprintf(w, "  model: %s\n", safetext.Name(fc.Model))
	}
	if fc.APIBase != "" {
		fmt.Fprintf(w, "  api_base: %s (your code and key go there)\n", safetext.Line(fc.APIBase))
	}
	if fc.APIKeyEnv != "" {
		fmt.Fprintf(w, "  api_key_env: %s\n", safetext.Line(fc.APIKeyEnv))
	}
	if fc.TestCmd != "" {
		fmt.Fprintf(w, "  test_cmd: %s (runs after every change)\n", safetext.Line(fc.TestCmd))
	}
	if fc.Verify != nil && *fc.Verify {
		fmt.Fprintf(w, "  verify: true (the tests run on the approved hunks before every write)\n")
	}
	for _, a := range fc.AllowCommands {
		fmt.Fprintf(w, "  allow_commands: %s (runs without asking)\n", safetext.Line(a))
	}
	for _, s := range fc.MCPServers {
		what := s.URL
		if s.Command != "" {
			what = s.Command
		}
		fmt.Fprintf(w, "  mcp_servers: %s (%s)\n", safetext.Name(s.Name), safetext.Line(what))
	}
	if fc.MaxSteps > 0 {
		fmt.Fprintf(w, "  max_steps: %d (model calls per request)\n", fc.MaxSteps)
	}
	if fc.MaxRetries != nil {
		fmt.Fprintf(w, "  max_retries: %d\n", *fc.MaxRetries)
	}
	if fc.ContextChars > 0 {
		fmt.Fprintf(w, "  context_chars: %d\n", fc.ContextChars)
	}
	if fc.Timeout != "" {
		what := ""
		if strings.TrimSpace(fc.Timeout) == "0" {
			what = " (waits forever)"
		}
		fmt.Fprintf(w, "  timeout: %s%s\n", safetext.Name(fc.Timeout), what)
	}
}

package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoTestCodeInTheBinary: the release binary links neither the testing
// packages nor the test fakes (pair bench's stand-in model server is
// internal/replay), nor go-git's root package: repo reads git through
// go-git's plumbing packages only, and the root package would link its
// transports (ssh, http), whose package init every command pays for; nor
// go-git's storage, config and attributes packages (repo/internal/gitstore
// and gitconfig, repo/attr.go), which link gcfg, encoding/gob and URL
// regular expressions; nor
// go-git's plumbing/object (repo/internal/gitobj reads commits and trees),
// which links OpenPGP and its curves; nor the MCP SDK and what it brings
// (agent/mcp speaks MCP itself), whose package init is as heavy; nor, built
// as scripts/build.sh builds it (the tag urfave_cli_no_docs), urfave/cli's
// man-page generator and blackfriday.
func TestNoTestCodeInTheBinary(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	out, err := exec.Command("go", "list", "-deps", "-tags", "urfave_cli_no_docs", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		switch {
		case p == "testing", p == "net/http/httptest", strings.HasSuffix(p, "test") && strings.HasPrefix(p, "github.com/pair-cli/pair/"):
			t.Errorf("pair links %s", p)
		case p == "github.com/go-git/go-git/v5", strings.HasPrefix(p, "github.com/go-git/go-git/v5/plumbing/transport"),
			strings.HasPrefix(p, "github.com/go-git/go-git/v5/plumbing/object"),
			strings.HasPrefix(p, "github.com/go-git/go-git/v5/storage"), strings.HasPrefix(p, "github.com/go-git/go-git/v5/config"),
			strings.HasPrefix(p, "github.com/go-git/gcfg"), p == "encoding/gob", p == "github.com/go-git/go-git/v5/internal/url",
			p == "github.com/go-git/go-git/v5/plumbing/format/config", p == "github.com/go-git/go-git/v5/plumbing/format/gitattributes",
			strings.HasPrefix(p, "github.com/ProtonMail/go-crypto"), strings.HasPrefix(p, "github.com/cloudflare/circl"):
			t.Errorf("pair links %s", p)
		case strings.Contains(p, "modelcontextprotocol"), strings.Contains(p, "jsonschema-go"), strings.Contains(p, "segmentio"),
			strings.Contains(p, "go-json-experiment"), strings.Contains(p, "yosida95"), strings.Contains(p, "oauth2"):
			t.Errorf("pair links %s", p)
		case strings.Contains(p, "blackfriday"), strings.Contains(p, "go-md2man"):
			t.Errorf("pair built with -tags urfave_cli_no_docs links %s", p)
		}
	}
}

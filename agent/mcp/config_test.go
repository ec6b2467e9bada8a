package mcp_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/agent/mcp"
	"github.com/pair-cli/pair/internal/config"
)

func TestConfigs(t *testing.T) {
	repoFile, homeFile := filepath.Join("/r", ".pair.yml"), filepath.Join("/h", ".pair.yml")
	got := []config.MCPServer{
		{Name: "tracker", Command: "tracker-mcp", Base: filepath.Dir(repoFile)},
		{Name: "notes", Command: "n", Dir: "servers", Env: map[string]string{"B": "${X}", "A": "1"}, Base: filepath.Dir(homeFile)},
	}
	expand := func(s string) string { return strings.ReplaceAll(s, "${X}", "x") }
	cs := mcp.Configs(got, "/repo", []string{"PATH=/bin"}, expand)
	if cs[0].Dir != "/repo" || cs[1].Dir != filepath.Join("/h", "servers") {
		t.Errorf("dirs: got %q and %q", cs[0].Dir, cs[1].Dir)
	}
	if want := []string{"PATH=/bin", "A=1", "B=x"}; !slices.Equal(cs[1].Env, want) {
		t.Errorf("env: got %q, want %q", cs[1].Env, want)
	}
}

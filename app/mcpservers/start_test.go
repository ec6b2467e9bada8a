package mcpservers

import (
	"strings"
	"testing"
	"time"

	"github.com/pair-cli/pair/internal/config"
)

func TestConfigs(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-model-key")
	t.Setenv("OTHER_KEY_HOLDER", "sk-model-key")
	t.Setenv("TRACKER_TOKEN", "tok-123")
	t.Setenv("MY_PROVIDER", "sk-provider")
	cfg := config.Config{APIKey: "sk-model-key", KeyEnv: "MY_PROVIDER", MCPServers: []config.MCPServer{
		{Name: "tracker", Command: "tracker-mcp", Args: []string{"--token=${TRACKER_TOKEN}"}, Env: map[string]string{"TOKEN": "${TRACKER_TOKEN}"}, Dir: "tools", Base: "/home/me", Timeout: time.Second},
		{Name: "docs", URL: "https://docs.example/mcp", Headers: map[string]string{"Authorization": "Bearer ${TRACKER_TOKEN}"}},
	}}
	got := Configs(cfg, "/repo", "/bin/pair")
	if len(got) != 2 {
		t.Fatalf("got %d configs", len(got))
	}
	tr := got[0]
	if tr.Dir != "/home/me/tools" || tr.Args[0] != "--token=tok-123" || tr.Timeout != time.Second {
		t.Errorf("tracker: got %+v", tr)
	}
	env := strings.Join(tr.Env, "\n")
	if strings.Contains(env, "sk-model-key") || !strings.Contains(env, "\nTOKEN=tok-123") || !strings.Contains(env, "PATH=") {
		t.Errorf("tracker's environment: the model's key must be left out, TOKEN set, the rest kept:\n%s", env)
	}
	// The secrets of pair's environment reach a server only through its
	// env: entries.
	if strings.Contains(env, "TRACKER_TOKEN=") || strings.Contains(env, "MY_PROVIDER=") {
		t.Errorf("tracker's environment holds a secret variable it was not given:\n%s", env)
	}
	if got[1].Headers["Authorization"] != "Bearer tok-123" || got[1].Env != nil || got[1].Dir != "" {
		t.Errorf("docs: got %+v", got[1])
	}
	cfg.MCPServers[0].Dir = ""
	if d := Configs(cfg, "/repo", "/bin/pair")[0].Dir; d != "/repo" {
		t.Errorf("default dir: got %q, want the repository root", d)
	}
}

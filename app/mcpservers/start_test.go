package mcpservers

import (
	"os"
	"path/filepath"
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

// TestConfigsSelf checks that ${PAIR} is pair's own path as given, unless
// the environment sets PAIR, and that a relative path pair was started by
// is made absolute.
func TestConfigsSelf(t *testing.T) {
	cfg := config.Config{MCPServers: []config.MCPServer{{Name: "notebook", Command: "${PAIR}", Args: []string{"mcp", "example-server"}}}}
	t.Setenv("PAIR", "")
	os.Unsetenv("PAIR")
	if got := Configs(cfg, "/repo", "/opt/pair")[0].Command; got != "/opt/pair" {
		t.Errorf("${PAIR}: got %q, want /opt/pair", got)
	}
	t.Setenv("PAIR", "/usr/bin/pair")
	if got := Configs(cfg, "/repo", "/opt/pair")[0].Command; got != "/usr/bin/pair" {
		t.Errorf("${PAIR} with PAIR set: got %q, want the environment's", got)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Self(filepath.Join("bin", "pair")), filepath.Join(wd, "bin", "pair"); got != want {
		t.Errorf("Self(bin/pair) = %q, want %q", got, want)
	}
	if got := Self("/abs/pair"); got != "/abs/pair" {
		t.Errorf("Self(/abs/pair) = %q", got)
	}
}

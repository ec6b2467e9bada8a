package main

import (
	"encoding/json"
	"os"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/pair-cli/pair/agent/agenttest"
	scripted "github.com/pair-cli/pair/internal/replay"
)

// modelKey finds a script's model server among its values.
type modelKey struct{}

// scriptModel is the scripted model server of one script.
type scriptModel struct {
	srv  *scripted.Server
	mu   sync.Mutex
	errs []string
}

// cmdModel drives a scripted OpenAI-compatible server over a real socket:
//
//	model start [-no-tools] REPLIES.json
//	                           serve these replies (a JSON array of
//	                           agenttest.Reply) in order; set OPENAI_BASE_URL,
//	                           OPENAI_API_KEY and PAIR_MODEL for what follows,
//	                           and MODEL_ROOT to the base URL without /v1;
//	                           -no-tools refuses requests with tools, as
//	                           Ollama does for a model without tool support
//	model verify               fail if a reply is unused or a request was
//	                           unexpected
//	model requests FILE        write the requests' bodies to FILE, one per line
func cmdModel(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! model")
	}
	if len(args) == 0 {
		ts.Fatalf("usage: model start FILE | verify | requests FILE")
	}
	m, _ := ts.Value(modelKey{}).(*scriptModel)
	switch args[0] {
	case "start":
		noTools := len(args) == 3 && args[1] == "-no-tools"
		if noTools {
			args = append(args[:1], args[2])
		}
		if len(args) != 2 {
			ts.Fatalf("usage: model start [-no-tools] REPLIES.json")
		}
		var replies []agenttest.Reply
		if err := json.Unmarshal([]byte(ts.ReadFile(args[1])), &replies); err != nil {
			ts.Fatalf("model: %s: %v", args[1], err)
		}
		m.srv = scripted.New(func(msg string) {
			m.mu.Lock()
			defer m.mu.Unlock()
			m.errs = append(m.errs, msg)
		}, replies...)
		if noTools {
			m.srv.RefuseTools("")
		}
		ts.Setenv("OPENAI_BASE_URL", m.srv.URL())
		ts.Setenv("MODEL_ROOT", strings.TrimSuffix(m.srv.URL(), "/v1"))
		ts.Setenv("OPENAI_API_KEY", "test-key")
		ts.Setenv("PAIR_MODEL", "test-model")
	case "verify":
		if m.srv == nil {
			ts.Fatalf("model verify: no model started")
		}
		m.srv.Verify()
		m.mu.Lock()
		defer m.mu.Unlock()
		if len(m.errs) > 0 {
			ts.Fatalf("model: %s", strings.Join(m.errs, "\n"))
		}
	case "requests":
		if m.srv == nil || len(args) != 2 {
			ts.Fatalf("usage: model requests FILE (after model start)")
		}
		var b strings.Builder
		for _, r := range m.srv.Requests() {
			b.Write(r.Raw)
			b.WriteByte('\n')
		}
		if err := os.WriteFile(ts.MkAbs(args[1]), []byte(b.String()), 0o644); err != nil {
			ts.Fatalf("model requests: %v", err)
		}
	default:
		ts.Fatalf("model: unknown subcommand %q", args[0])
	}
}

// setupModel gives each script a place for its model server, closed when
// the script ends.
func setupModel(env *testscript.Env) {
	m := &scriptModel{}
	env.Values[modelKey{}] = m
	env.Defer(func() {
		if m.srv != nil {
			m.srv.Close()
		}
	})
}

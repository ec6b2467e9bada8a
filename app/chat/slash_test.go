package chat

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/agent/agenttest"
	"github.com/pair-cli/pair/internal/console"
	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

// chatRepo is a git repository holding app.go and notes.txt, committed.
func chatRepo(t *testing.T) *repo.Tree {
	t.Helper()
	dir := repotest.Init(t, map[string]string{"app.go": "package app\n", "notes.txt": "notes\n"})
	tree, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tree.Close() })
	return tree
}

// TestSlashCommands drives the chat's slash commands through its
// standard streams: each case types lines, then checks what the chat
// printed, the session's state, and what reached the model.
func TestSlashCommands(t *testing.T) {
	for _, tc := range []struct {
		name    string
		lines   []string
		files   []string // in context at the start
		testCmd string
		replies []agenttest.Reply
		// out and errOut must appear in the chat's output and errors.
		out, errOut []string
		wantFiles   []string
		check       func(t *testing.T, st *agent.State, srv *agenttest.Server, undone []string)
	}{{
		name: "add", lines: []string{"/add app.go notes.txt app.go"},
		out: []string{"files in context: app.go, notes.txt"}, wantFiles: []string{"app.go", "notes.txt"},
	}, {
		name: "add refuses a path outside the repository", lines: []string{"/add ../x.go"},
		errOut: []string{"pair: "}, wantFiles: nil,
	}, {
		name: "drop one", files: []string{"app.go", "notes.txt"}, lines: []string{"/drop app.go"},
		out: []string{"files in context: notes.txt"}, wantFiles: []string{"notes.txt"},
	}, {
		name: "drop all", files: []string{"app.go", "notes.txt"}, lines: []string{"/drop"},
		wantFiles: nil,
	}, {
		name: "clear", files: []string{"app.go"}, lines: []string{"/run echo hello", "/clear"},
		out: []string{"conversation cleared; the files stay in context"}, wantFiles: []string{"app.go"},
		check: func(t *testing.T, st *agent.State, _ *agenttest.Server, _ []string) {
			if len(st.Messages) != 0 {
				t.Errorf("got %d messages after /clear, want none", len(st.Messages))
			}
		},
	}, {
		name: "run", lines: []string{"/run echo hello; exit 3"},
		out: []string{"hello\n", "(exit code 3; the output goes with your next request)"},
		check: func(t *testing.T, st *agent.State, _ *agenttest.Server, _ []string) {
			if len(st.Messages) != 1 || !strings.Contains(st.Messages[0].Content, "I ran `echo hello; exit 3` (exit code 3). Output:\nhello") {
				t.Errorf("got messages %+v, want the command's output kept", st.Messages)
			}
		},
	}, {
		name: "run without a command", lines: []string{"/run"}, errOut: []string{"pair: /run COMMAND"},
	}, {
		name: "test", testCmd: "echo tests pass", lines: []string{"/test"},
		out: []string{"tests pass\n", "(exit code 0;"},
		check: func(t *testing.T, st *agent.State, _ *agenttest.Server, _ []string) {
			if len(st.Messages) != 1 || !strings.Contains(st.Messages[0].Content, "I ran `echo tests pass`") {
				t.Errorf("got messages %+v, want the test command's output kept", st.Messages)
			}
		},
	}, {
		name: "test without a test command", lines: []string{"/test"},
		errOut: []string{"pair: no test command: set test_cmd in .pair.yml or use --test-cmd"},
	}, {
		name: "undo", lines: []string{"/undo"},
		check: func(t *testing.T, _ *agent.State, _ *agenttest.Server, undone []string) {
			if len(undone) != 1 {
				t.Errorf("undo called %d times, want once", len(undone))
			}
		},
	}, {
		name: "ask", lines: []string{"/ask where is Greet?"}, replies: []agenttest.Reply{{Text: "nowhere yet"}},
		out: []string{"nowhere yet"},
		check: func(t *testing.T, st *agent.State, srv *agenttest.Server, _ []string) {
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			for _, tool := range reqs[0].Tools {
				if name := tool.Function.Name; name == "propose_diff" || name == "write_file" || name == "run_command" {
					t.Errorf("/ask offered the model %s", name)
				}
			}
			if st.Mode != "edit" {
				t.Errorf("the session's mode is %q after /ask, want edit", st.Mode)
			}
		},
	}, {
		name: "ask without a question", lines: []string{"/ask"}, errOut: []string{"pair: /ask QUESTION"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			tree := chatRepo(t)
			srv := agenttest.NewServer(t, tc.replies...)
			var out, errOut strings.Builder
			io := console.IO{In: strings.NewReader(strings.Join(tc.lines, "\n") + "\n"), Out: &out, Err: &errOut}
			var undone []string
			o := Options{Mode: "edit", IO: io, Undo: func(_ context.Context, dir string) error {
				undone = append(undone, dir)
				return nil
			}}
			st := agent.NewState("s", "m", "edit", slices.Clone(tc.files))
			show := &eventPrinter{io: io, st: st}
			a := &agent.Agent{Model: agent.NewClient(srv.Config()), Tree: tree, Emit: show.event,
				Settings: agent.Settings{MaxSteps: 3, TestCmd: tc.testCmd}}
			if err := chat(context.Background(), o, a, st, show); err != nil {
				t.Fatalf("chat: %v", err)
			}
			for _, want := range tc.out {
				if !strings.Contains(out.String(), want) {
					t.Errorf("output lacks %q:\n%s", want, out.String())
				}
			}
			for _, want := range tc.errOut {
				if !strings.Contains(errOut.String(), want) {
					t.Errorf("errors lack %q:\n%s", want, errOut.String())
				}
			}
			if tc.errOut == nil && errOut.Len() > 0 && tc.replies == nil {
				t.Errorf("unexpected errors:\n%s", errOut.String())
			}
			if tc.wantFiles != nil || strings.HasPrefix(tc.name, "drop all") {
				if !slices.Equal(st.Files, tc.wantFiles) {
					t.Errorf("files in context: got %v, want %v", st.Files, tc.wantFiles)
				}
			}
			if tc.check != nil {
				tc.check(t, st, srv, undone)
			}
		})
	}
}

// TestSlashRunCanceled: /run on a canceled context keeps nothing for the
// next request and says so with the context's error.
func TestSlashRunCanceled(t *testing.T) {
	tree := chatRepo(t)
	var out strings.Builder
	st := agent.NewState("s", "m", "edit", nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := slash(ctx, Options{IO: console.IO{Out: &out, Err: &out}}, &agent.Agent{Tree: tree}, st, "/run echo hello", nil)
	if err == nil || ctx.Err() == nil {
		t.Fatalf("got %v, want the context's error", err)
	}
	if len(st.Messages) != 0 || strings.Contains(out.String(), "exit code") {
		t.Errorf("a stopped command was kept: %+v\n%s", st.Messages, out.String())
	}
}

// TestSlashRunWithoutSecrets: /run and /test run without the key and the
// usual secret variables, and a key the command finds all the same (in a
// file) is neither shown nor kept for the model.
func TestSlashRunWithoutSecrets(t *testing.T) {
	const key = "sk-chat-0123456789"
	t.Setenv("OPENAI_API_KEY", key)
	t.Setenv("DEPLOY_TOKEN", "chat-deploy-token")
	tree := chatRepo(t)
	if err := os.WriteFile(filepath.Join(tree.Dir, "key.txt"), []byte(key+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := &agent.Agent{Tree: tree, Settings: agent.Settings{APIKey: key, TestCmd: "echo test=[$DEPLOY_TOKEN]"}}
	for _, line := range []string{"/run echo key=[$OPENAI_API_KEY] token=[$DEPLOY_TOKEN]; cat key.txt", "/test"} {
		var out strings.Builder
		st := agent.NewState("s", "m", "edit", nil)
		if _, err := slash(context.Background(), Options{IO: console.IO{Out: &out, Err: &out}}, a, st, line, nil); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		kept := st.Messages[len(st.Messages)-1].Content
		for _, text := range []string{out.String(), kept} {
			if strings.Contains(text, key) || strings.Contains(text, "chat-deploy-token") {
				t.Errorf("%s: a secret is shown or kept:\n%s", line, text)
			}
		}
		if line == "/test" && !strings.Contains(kept, "test=[]") || line != "/test" && !strings.Contains(kept, "key=[] token=[]\n[redacted]") {
			t.Errorf("%s: kept %q", line, kept)
		}
	}
}

// TestSlashTokensInstructions: /tokens names the files sent as the
// project's instructions, none, or that they are turned off.
func TestSlashTokensInstructions(t *testing.T) {
	tree := chatRepo(t)
	for _, c := range []struct {
		sent []string
		off  bool
		want string
	}{
		{[]string{"AGENTS.md", "svc/AGENTS.md"}, false, "project instructions: AGENTS.md, svc/AGENTS.md\n"},
		{nil, false, "project instructions: none sent\n"},
		{nil, true, "project instructions: off (.pair.yml instructions: false, or --no-instructions)\n"},
	} {
		var out strings.Builder
		st := agent.NewState("s", "m", "edit", nil)
		st.Instructions = c.sent
		a := &agent.Agent{Tree: tree, Settings: agent.Settings{NoInstructions: c.off}}
		if _, err := slash(context.Background(), Options{IO: console.IO{Out: &out, Err: &out}}, a, st, "/tokens", nil); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "tokens this session: ") || !strings.HasSuffix(out.String(), c.want) {
			t.Errorf("/tokens with %q (off %v): got %q, want it to end with %q", c.sent, c.off, out.String(), c.want)
		}
	}
}

package agent_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/agent/agenttest"
)

// reviewOf returns the message after the model's diff in a recorded
// request: the review outcome it was told, which must be a user message
// (an in-text diff has no tool call to answer).
func reviewOf(t *testing.T, req agenttest.Request, diffMark string) agenttest.Message {
	t.Helper()
	for i, m := range req.Messages {
		if m.Role == "assistant" && strings.Contains(m.Content, diffMark) {
			if i+1 == len(req.Messages) {
				t.Fatalf("nothing follows the model's diff in the request")
			}
			return req.Messages[i+1]
		}
	}
	t.Fatalf("the model's diff is not in the request")
	return agenttest.Message{}
}

// TestFencedReviewReachesModel: the outcome of the review of a diff in
// a reply's text (approved, rejected with a note, rejected without one)
// is in the next request, in tools mode and in text-only mode, as a user
// message right after the diff; the person's final output is a summary
// for them, not that message.
func TestFencedReviewReachesModel(t *testing.T) {
	for _, mode := range []string{"tools", "text-only"} {
		for _, c := range []struct {
			name, decisions, note string
			want                  []string
		}{
			{"applied", "y", "", []string{"app.go:3: applied", "Committed as "}},
			{"rejected with a note", "n", "keep the old wording", []string{`app.go:3: rejected by the person, who said: "keep the old wording"`, "Nothing was written.", "do what the note says"}},
			{"rejected without a note", "n", "", []string{"app.go:3: rejected by the person\n", "Nothing was written.", "do not propose it again"}},
		} {
			t.Run(mode+"/"+c.name, func(t *testing.T) {
				tree := newRepo(t, map[string]string{"app.go": appGo})
				srv := agenttest.NewServer(t,
					agenttest.Reply{Text: "Here is the change:\n\n```diff\n" + greetDiff + "```\n"},
					agenttest.Reply{Text: "Nothing else."},
				)
				client := agent.NewClient(srv.Config())
				client.Sleep = func(context.Context, time.Duration) error { return nil }
				st := agent.NewState("s", "m", "edit", nil)
				a := &agent.Agent{Model: client, Tree: tree, Reviewer: &reviewer{decisions: c.decisions, note: c.note},
					Settings: agent.Settings{Commit: true, MaxSteps: 6, MaxRetries: 2, NoTools: mode == "text-only"}}
				if err := a.Run(context.Background(), st, "make the greeting friendlier"); err != nil {
					t.Fatalf("first request: %v", err)
				}
				if strings.Contains(st.Turn.Final, "Review of your edit") || !strings.Contains(st.Turn.Final, "Here is the change") {
					t.Errorf("final output: got %q, want the reply and a summary for the person", st.Turn.Final)
				}
				if err := a.Run(context.Background(), st, "anything else?"); err != nil {
					t.Fatalf("second request: %v", err)
				}
				got := reviewOf(t, srv.Requests()[1], "```diff")
				if got.Role != "user" || !strings.HasPrefix(got.Content, "Review of your edit:\n") {
					t.Fatalf("after the diff: got %s %q, want the review's outcome as a user message", got.Role, got.Content)
				}
				for _, w := range c.want {
					if !strings.Contains(got.Content, w) {
						t.Errorf("the review's outcome %q lacks %q", got.Content, w)
					}
				}
			})
		}
	}
}

// TestFencedReviewAfterResume: a reply's diff whose review paused and was
// finished later reaches the model as well.
func TestFencedReviewAfterResume(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	store := agent.Sessions{Dir: filepath.Join(t.TempDir(), "sessions")}
	srv := agenttest.NewServer(t,
		agenttest.Reply{Text: "```diff\n" + greetDiff + "```\n"},
		agenttest.Reply{Text: "Nothing else."},
	)
	st := agent.NewState("s1", "m", "edit", nil)
	a := &agent.Agent{Model: agent.NewClient(srv.Config()), Tree: tree, Reviewer: &reviewer{needs: true},
		Settings: agent.Settings{Commit: true}, Checkpoint: store.Save}
	if err := a.Run(context.Background(), st, "change it"); !errors.Is(err, agent.ErrPaused) {
		t.Fatalf("Run: got %v, want ErrPaused", err)
	}
	loaded, err := store.Load("s1")
	if err != nil {
		t.Fatal(err)
	}
	b := &agent.Agent{Model: agent.NewClient(srv.Config()), Tree: tree, Reviewer: &reviewer{decisions: "n", note: "not now"},
		Settings: agent.Settings{Commit: true}, Checkpoint: store.Save}
	if err := b.Resume(context.Background(), loaded); err != nil {
		t.Fatalf("Resume: %v", err)
	}
	last := loaded.Messages[len(loaded.Messages)-1]
	if last.Role != agent.RoleUser || !strings.Contains(last.Content, `rejected by the person, who said: "not now"`) {
		t.Errorf("after the resumed review: last message %s %q, want its outcome", last.Role, last.Content)
	}
	if err := b.Run(context.Background(), loaded, "then what?"); err != nil {
		t.Fatal(err)
	}
	if got := reviewOf(t, srv.Requests()[1], "```diff"); !strings.Contains(got.Content, `who said: "not now"`) {
		t.Errorf("the next request after the diff: got %q", got.Content)
	}
}

// Two functions with the same body: a hunk of their lines without a line
// number fits both.
const twinsGo = `package app

func A() int {
	x := 1
	return x
}

func B() int {
	x := 1
	return x
}
`

// TestAdviceFitsTheFailure: each reason a hunk is not placed gets its own
// next step in the model's feedback, not "copy the context exactly" for
// all.
func TestAdviceFitsTheFailure(t *testing.T) {
	applied := strings.Replace(appGo, `"hello " + name`, `"hello, " + name + "!"`, 1)
	noMatch := strings.Replace(greetDiff, "-\treturn \"hello \" + name", "-\treturn \"hi \" + name", 1)
	badBye := "@@ -8,4 +8,4 @@\n // Bye returns a farewell.\n func Bye(n string) string {\n-\treturn \"bye \" + n\n+\treturn \"goodbye, \" + n\n }\n"
	for _, c := range []struct {
		name, file, diff string
		want, not        []string
	}{
		{
			name: "ambiguous", file: twinsGo,
			diff: "--- a/app.go\n+++ b/app.go\n@@ ... @@\n \tx := 1\n-\treturn x\n+\treturn x + 1\n }\n",
			want: []string{"app.go hunk 1: not placed: hunk matches more than one place", "found only at the place you mean", "@@ header that place's line number"},
			not:  []string{"copied exactly from"},
		},
		{
			name: "no match", file: appGo, diff: noMatch,
			want: []string{"app.go hunk 1 (@@ -3): not placed: hunk does not match the file", "copied exactly from the file's lines shown above, without their line numbers"},
		},
		{
			name: "mixed", file: appGo, diff: greetDiff + badBye,
			want: []string{"app.go:3: applied", "app.go hunk 2 (@@ -8): not placed", "Applied: app.go hunk 1 (@@ -3); do not send it again.",
				"Send only app.go hunk 2 (@@ -8), in a new diff against the file as it is now"},
		},
		{
			name: "overlap", file: appGo, diff: greetDiff + "@@ -4,3 +4,3 @@\n func Greet(name string) string {\n-\treturn \"hello \" + name\n+\treturn \"hi \" + name\n }\n",
			want: []string{"app.go hunk 2 (@@ -4): not placed: hunk overlaps another hunk", "Send one hunk for those lines, with every change to them in it."},
			not:  []string{"copied exactly"},
		},
		{
			name: "already applied", file: applied, diff: greetDiff,
			want: []string{"app.go hunk 1 (@@ -3): already in the file; nothing to do"},
			not:  []string{"not placed", "None of the hunks", "copied exactly"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			tree := newRepo(t, map[string]string{"app.go": c.file})
			st, srv, err := run(t, tree, &reviewer{}, "edit", nil, "change it",
				agenttest.Reply{ToolCalls: []agenttest.Call{call("propose_diff", map[string]any{"diff": c.diff})}},
				agenttest.Reply{Text: "ok"},
			)
			if err != nil {
				t.Fatal(err)
			}
			msgs := srv.Requests()[1].Messages
			got := msgs[len(msgs)-1].Content
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("feedback lacks %q:\n%s", w, got)
				}
			}
			for _, w := range c.not {
				if strings.Contains(got, w) {
					t.Errorf("feedback has %q:\n%s", w, got)
				}
			}
			if c.name == "already applied" && st.Turn.Retries != 0 {
				t.Errorf("an already applied hunk cost a retry: %d", st.Turn.Retries)
			}
		})
	}
}

// TestAlreadyAppliedCostsNoRetry: a reply whose diff is already in the
// file is done, with no retry left: nothing to do is not a failure.
func TestAlreadyAppliedCostsNoRetry(t *testing.T) {
	applied := strings.Replace(appGo, `"hello " + name`, `"hello, " + name + "!"`, 1)
	tree := newRepo(t, map[string]string{"app.go": applied})
	srv := agenttest.NewServer(t, agenttest.Reply{Text: "```diff\n" + greetDiff + "```\n"})
	st := agent.NewState("s", "m", "edit", nil)
	a := &agent.Agent{Model: agent.NewClient(srv.Config()), Tree: tree, Reviewer: &reviewer{},
		Settings: agent.Settings{Commit: true, MaxRetries: 0}}
	if err := a.Run(context.Background(), st, "change it"); err != nil {
		t.Fatal(err)
	}
	if st.Turn.Retries != 0 || st.Turn.Error != "" || st.Turn.Status != agent.StatusOK {
		t.Errorf("got retries %d, error %q, status %q; want 0, none, ok", st.Turn.Retries, st.Turn.Error, st.Turn.Status)
	}
	last := st.Messages[len(st.Messages)-1]
	if last.Role != agent.RoleUser || !strings.Contains(last.Content, "already in the file; nothing to do") {
		t.Errorf("the model was told %s %q", last.Role, last.Content)
	}
}

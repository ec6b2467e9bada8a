package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/agent/agenttest"
	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

const notesMD = `# Notes

one
two
three
four
five
six
seven
eight
`

// thinking is a model whose nth call (1-based) is preceded by before[n]:
// the person at work while the model thinks.
type thinking struct {
	agent.Completer
	calls  int
	before map[int]func()
}

func (m *thinking) Complete(ctx context.Context, msgs []agent.Message, tools []agent.ToolDef, onToken func(string)) (agent.Reply, error) {
	m.calls++
	if f := m.before[m.calls]; f != nil {
		f()
	}
	return m.Completer.Complete(ctx, msgs, tools, onToken)
}

// personWrites returns a hook that writes content to the file p of tree.
func personWrites(t *testing.T, tree *repo.Tree, p, content string) func() {
	return func() {
		if err := os.WriteFile(filepath.Join(tree.Dir, p), []byte(content), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// concurrent runs one request in which the model's calls are replies,
// and before its call n the person writes person to notes.md.
func concurrent(t *testing.T, tree *repo.Tree, rv agent.Reviewer, n int, person string, replies ...agenttest.Reply) (*agent.State, *agenttest.Server, error) {
	t.Helper()
	srv := agenttest.NewServer(t, replies...)
	model := &thinking{Completer: agent.NewClient(srv.Config()), before: map[int]func(){n: personWrites(t, tree, "notes.md", person)}}
	st := agent.NewState("s", "test-model", agent.ModeEdit, nil)
	a := &agent.Agent{Model: model, Tree: tree, Reviewer: rv, Settings: agent.Settings{Commit: true, MaxSteps: 6, MaxRetries: 1}}
	return st, srv, a.Run(context.Background(), st, "tidy the notes")
}

func lastFeedback(srv *agenttest.Server) string {
	reqs := srv.Requests()
	msgs := reqs[len(reqs)-1].Messages
	return msgs[len(msgs)-1].Content
}

var readNotes = agenttest.Reply{ToolCalls: []agenttest.Call{call("read_file", map[string]any{"path": "notes.md"})}}

// TestWholeFileKeepsConcurrentEdit: the model reads notes.md, the person
// changes line 9 while the model thinks, and the model's whole file
// (changing line 3) lands with the person's line kept, in each whole-file
// form and in a V4A update.
func TestWholeFileKeepsConcurrentEdit(t *testing.T) {
	model := strings.Replace(notesMD, "one\n", "ONE\n", 1)
	person := strings.Replace(notesMD, "seven\n", "seven, said the person\n", 1)
	want := strings.Replace(person, "one\n", "ONE\n", 1)
	for _, tc := range []struct {
		name  string
		reply agenttest.Reply
	}{
		{"write_file", agenttest.Reply{ToolCalls: []agenttest.Call{call("write_file", map[string]any{"path": "notes.md", "content": model, "message": "notes: shout"})}}},
		{"fenced reply", agenttest.Reply{Text: "notes.md\n```markdown\n" + model + "```\n"}},
		{"v4a update", agenttest.Reply{Text: "*** Begin Patch\n*** Update File: notes.md\n@@\n # Notes\n \n-one\n+ONE\n two\n three\n*** End Patch\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tree := newRepo(t, map[string]string{"notes.md": notesMD})
			replies := []agenttest.Reply{readNotes, tc.reply}
			if tc.name == "write_file" {
				replies = append(replies, agenttest.Reply{Text: "done"}) // a reply's edit ends the turn
			}
			st, srv, err := concurrent(t, tree, &reviewer{}, 2, person, replies...)
			if err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, tree, "notes.md"); got != want {
				t.Errorf("notes.md is\n%s\nwant\n%s", got, want)
			}
			if st.Turn.Applied != 1 {
				t.Errorf("applied %d, want 1", st.Turn.Applied)
			}
			if tc.name == "write_file" {
				if fb, w := lastFeedback(srv), "- notes.md: the person changed line 9 since you read it; your content was placed on it as it is now, as a change from what you read, and those lines are kept."; !strings.Contains(fb, w) {
					t.Errorf("feedback lacks %q:\n%s", w, fb)
				}
			}
		})
	}
}

// TestWholeFileConflictRefused: the person changes the line the model's
// whole file changes; nothing is shown or written, and the model is told
// which line.
func TestWholeFileConflictRefused(t *testing.T) {
	model := strings.Replace(notesMD, "three\n", "THREE\n", 1)
	person := strings.Replace(notesMD, "three\n", "three (checked)\n", 1)
	for _, tc := range []struct {
		name  string
		reply agenttest.Reply
	}{
		{"write_file", agenttest.Reply{ToolCalls: []agenttest.Call{call("write_file", map[string]any{"path": "notes.md", "content": model})}}},
		{"fenced reply", agenttest.Reply{Text: "notes.md\n```markdown\n" + model + "```\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tree := newRepo(t, map[string]string{"notes.md": notesMD})
			rv := &reviewer{}
			st, srv, err := concurrent(t, tree, rv, 2, person, readNotes, tc.reply, agenttest.Reply{Text: "I will leave it."})
			if err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, tree, "notes.md"); got != person {
				t.Errorf("notes.md is\n%s\nwant the person's\n%s", got, person)
			}
			if st.Turn.Applied != 0 || len(rv.proposals) != 0 {
				t.Errorf("applied %d, %d proposals shown; want none", st.Turn.Applied, len(rv.proposals))
			}
			want := `not placed: hunk changes lines that were changed since the model read the file (line 5 was "three" when the model read it, and is "three (checked)" (line 5) now; the hunk changes it)`
			if fb := lastFeedback(srv); !strings.Contains(fb, want) {
				t.Errorf("feedback lacks %q:\n%s", want, fb)
			}
		})
	}
}

// TestWriteFileUnreadKeepsUncommitted: the model never read notes.md,
// whose uncommitted line 9 is the person's; its whole file is a change
// from HEAD, and the line stays. The review pauses, the person commits
// meanwhile, and the resumed review places the change on the same base.
func TestWriteFileUnreadKeepsUncommitted(t *testing.T) {
	tree := newRepo(t, map[string]string{"notes.md": notesMD})
	person := strings.Replace(notesMD, "seven\n", "seven, said the person\n", 1)
	if err := os.WriteFile(filepath.Join(tree.Dir, "notes.md"), []byte(person), 0o644); err != nil {
		t.Fatal(err)
	}
	model := strings.Replace(notesMD, "one\n", "ONE\n", 1)
	store := agent.Sessions{Dir: filepath.Join(t.TempDir(), "sessions")}
	srv := agenttest.NewServer(t,
		agenttest.Reply{ToolCalls: []agenttest.Call{call("write_file", map[string]any{"path": "notes.md", "content": model})}},
		agenttest.Reply{Text: "done"},
	)
	newAgent := func(rv agent.Reviewer) *agent.Agent {
		return &agent.Agent{Model: agent.NewClient(srv.Config()), Tree: tree, Reviewer: rv,
			Settings: agent.Settings{Commit: true, MaxSteps: 6}, Checkpoint: store.Save}
	}
	st := agent.NewState("s", "test-model", agent.ModeEdit, nil)
	if err := newAgent(&reviewer{needs: true}).Run(context.Background(), st, "shout"); err != agent.ErrPaused {
		t.Fatalf("got %v, want a pause", err)
	}
	repotest.Git(t, tree.Dir, "commit", "-q", "-am", "the person's line")
	loaded, err := store.Load("s")
	if err != nil {
		t.Fatal(err)
	}
	if err := newAgent(&reviewer{}).Resume(context.Background(), loaded); err != nil {
		t.Fatal(err)
	}
	if got, want := readFile(t, tree, "notes.md"), strings.Replace(person, "one\n", "ONE\n", 1); got != want {
		t.Errorf("notes.md is\n%s\nwant\n%s", got, want)
	}
	if fb, w := lastFeedback(srv), "it has uncommitted changes you had not read (line 9)"; !strings.Contains(fb, w) {
		t.Errorf("feedback lacks %q:\n%s", w, fb)
	}
}

// TestWriteFileUnreadUntrackedRefused: a whole file over a file git does
// not have, that the model never read, is refused: nothing tells the
// person's lines from those the model drops.
func TestWriteFileUnreadUntrackedRefused(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": "package app\n"})
	if err := os.WriteFile(filepath.Join(tree.Dir, "notes.md"), []byte(notesMD), 0o644); err != nil {
		t.Fatal(err)
	}
	st, srv, err := run(t, tree, &reviewer{}, agent.ModeEdit, nil, "notes",
		agenttest.Reply{ToolCalls: []agenttest.Call{call("write_file", map[string]any{"path": "notes.md", "content": "# Notes\n"})}},
		agenttest.Reply{Text: "ok"},
	)
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, tree, "notes.md"); got != notesMD || st.Turn.Applied != 0 {
		t.Errorf("notes.md is\n%s(applied %d); want it untouched", got, st.Turn.Applied)
	}
	if fb, w := lastFeedback(srv), "error: notes.md: the file exists, is not committed, and you have not read all of it: read it with read_file, then send your change again"; fb != w {
		t.Errorf("feedback is %q, want %q", fb, w)
	}
}

// TestV4ADeleteGuarded: a V4A deletion of a file the person changed
// since the model read it, or that has changes git does not have, is
// offered with what it would lose, for a person only.
func TestV4ADeleteGuarded(t *testing.T) {
	del := agenttest.Reply{Text: "*** Begin Patch\n*** Delete File: notes.md\n*** End Patch\n"}
	person := notesMD + "nine\nten\n"
	for _, tc := range []struct {
		name    string
		replies []agenttest.Reply
		before  int // the call before which the person writes
		guard   string
	}{
		{"changed since read", []agenttest.Reply{readNotes, del, {Text: "done"}}, 2, "deleting it would lose 2 lines you changed since the model read it (lines 11-12)"},
		{"not committed", []agenttest.Reply{del, {Text: "done"}}, 1, "deleting it would lose 2 uncommitted lines (lines 11-12)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tree := newRepo(t, map[string]string{"notes.md": notesMD})
			rv := &reviewer{needs: true}
			_, _, err := concurrent(t, tree, rv, tc.before, person, tc.replies[:len(tc.replies)-1]...)
			if err != agent.ErrPaused {
				t.Fatalf("got %v, want a pause", err)
			}
			if got := readFile(t, tree, "notes.md"); got != person {
				t.Errorf("notes.md is\n%s", got)
			}
			p := rv.proposals[0].Plans[0]
			if p.NewPath != "" || len(p.Hunks) != 1 || p.Hunks[0].Guard != tc.guard || p.Hunks[0].OldCount() != 12 {
				t.Fatalf("plan %+v; want the deletion of all 12 lines, guarded by %q", p, tc.guard)
			}
		})
	}
	// The file as the model read it and as HEAD has it: not guarded.
	tree := newRepo(t, map[string]string{"notes.md": notesMD})
	rv := &reviewer{needs: true}
	if _, _, err := run(t, tree, rv, agent.ModeEdit, nil, "drop the notes", readNotes, del); err != agent.ErrPaused {
		t.Fatalf("got %v, want a pause", err)
	}
	if g := rv.proposals[0].Plans[0].Hunks[0].Guard; g != "" {
		t.Errorf("a clean deletion is guarded: %q", g)
	}
}

// TestWholeFileAfterDeletionRefused: the person deletes notes.md while
// the model, which read it, writes it whole: not created again.
func TestWholeFileAfterDeletionRefused(t *testing.T) {
	tree := newRepo(t, map[string]string{"notes.md": notesMD})
	srv := agenttest.NewServer(t, readNotes,
		agenttest.Reply{ToolCalls: []agenttest.Call{call("write_file", map[string]any{"path": "notes.md", "content": "# Notes\n"})}},
		agenttest.Reply{Text: "ok"},
	)
	var notices []string
	model := &thinking{Completer: agent.NewClient(srv.Config()), before: map[int]func(){2: func() {
		if err := os.Remove(filepath.Join(tree.Dir, "notes.md")); err != nil {
			t.Error(err)
		}
	}}}
	a := &agent.Agent{Model: model, Tree: tree, Reviewer: &reviewer{}, Settings: agent.Settings{MaxSteps: 6, MaxRetries: 1},
		Emit: func(e agent.Event) {
			if e.Kind == agent.EventNotice {
				notices = append(notices, e.Text)
			}
		}}
	if err := a.Run(context.Background(), agent.NewState("s", "m", agent.ModeEdit, nil), "shorter"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(tree.Dir, "notes.md")); !os.IsNotExist(err) {
		t.Errorf("notes.md was created again (%v)", err)
	}
	if fb, w := lastFeedback(srv), "error: notes.md: the file was deleted since the model read it"; fb != w {
		t.Errorf("feedback is %q, want %q", fb, w)
	}
	if w := "notes.md: the model's whole file was refused: you deleted the file since the model read it"; len(notices) != 1 || notices[0] != w {
		t.Errorf("notices %q, want %q", notices, w)
	}
}

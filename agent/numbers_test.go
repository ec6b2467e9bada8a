package agent_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/agent/agenttest"
	"github.com/pair-cli/pair/edit"
)

// numberedGreetDiff is greetDiff as a model writes it after copying
// read_file's output of app.go: each context and deleted line keeps its
// number and tab.
const numberedGreetDiff = "--- a/app.go\n+++ b/app.go\n@@ -3,4 +3,4 @@\n" +
	"  3\t// Greet returns a greeting.\n" +
	"  4\tfunc Greet(name string) string {\n" +
	"- 5\t\treturn \"hello \" + name\n" +
	"+\treturn \"hello, \" + name + \"!\"\n" +
	"  6\t}\n"

const greetedGo = `package app

// Greet returns a greeting.
func Greet(name string) string {
	return "hello, " + name + "!"
}

// Bye returns a farewell.
func Bye(name string) string {
	return "bye " + name
}
`

// TestNumberedDiffApplied: the model reads app.go and copies read_file's
// lines, numbers and all, into its diff, by propose_diff or in the text
// of its reply. The hunk places and is applied; the reviewer's hunk says
// the numbers were removed, and so does the model's feedback.
func TestNumberedDiffApplied(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replies []agenttest.Reply
	}{
		{"propose_diff", []agenttest.Reply{
			{ToolCalls: []agenttest.Call{call("propose_diff", map[string]any{"diff": numberedGreetDiff, "message": "app: a friendlier greeting"})}},
			{Text: "Done."},
		}},
		// A diff in the text of a reply that places ends the turn.
		{"fenced", []agenttest.Reply{{Text: "Here it is.\n\n```diff\n" + numberedGreetDiff + "```\n"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tree := newRepo(t, map[string]string{"app.go": appGo})
			rv := &reviewer{}
			replies := append([]agenttest.Reply{{ToolCalls: []agenttest.Call{call("read_file", map[string]any{"path": "app.go"})}}}, tc.replies...)
			st, srv, err := run(t, tree, rv, "edit", nil, "make the greeting friendlier", replies...)
			if err != nil {
				t.Fatal(err)
			}
			// The diff's lines are read_file's, as the model saw them.
			read := srv.Requests()[1].Messages
			shown := read[len(read)-1].Content
			for _, l := range strings.Split(strings.TrimSuffix(numberedGreetDiff, "\n"), "\n")[3:] {
				if l[0] != '+' && !strings.Contains(shown, "\n"+l[1:]+"\n") {
					t.Fatalf("read_file showed %q, not the diff's line %q", shown, l)
				}
			}
			if got := readFile(t, tree, "app.go"); got != greetedGo {
				t.Errorf("app.go: got\n%s\nwant\n%s", got, greetedGo)
			}
			if st.Turn.Applied != 1 || st.Turn.Retries != 0 {
				t.Errorf("got applied %d retries %d, want 1 and 0", st.Turn.Applied, st.Turn.Retries)
			}
			if len(rv.proposals) != 1 || len(rv.proposals[0].Plans[0].Hunks) != 1 {
				t.Fatalf("got %d proposals, want 1 of one hunk", len(rv.proposals))
			}
			if notes := rv.proposals[0].Plans[0].Hunks[0].Notes; len(notes) == 0 || notes[0] != edit.NumberedNote {
				t.Errorf("review notes: got %q, want %q", notes, edit.NumberedNote)
			}
			if tc.name == "propose_diff" {
				fb := srv.Requests()[2].Messages
				got := fb[len(fb)-1].Content
				want := "The lines of app.go hunk 1 carried read_file's line numbers (N<TAB>), which are not part of the file; pair removed them. Leave them out of diffs.\n"
				if !strings.Contains(got, want) {
					t.Errorf("feedback: got %q, want it to hold %q", got, want)
				}
			}
		})
	}
}

// TestNearestLinesAsReadFile: the nearest lines of a hunk that does not
// place are numbered as read_file numbers them, and are the lines it
// shows.
func TestNearestLinesAsReadFile(t *testing.T) {
	tree := newRepo(t, map[string]string{"app.go": appGo})
	bad := strings.Replace(greetDiff, " func Greet(name string) string {", " func Greet(who string) string {", 1)
	bad = strings.Replace(bad, "// Greet returns a greeting.", "// Greet welcomes someone.", 1)
	_, srv, err := run(t, tree, &reviewer{}, "edit", nil, "change the greeting",
		agenttest.Reply{ToolCalls: []agenttest.Call{call("read_file", map[string]any{"path": "app.go"})}},
		agenttest.Reply{ToolCalls: []agenttest.Call{call("propose_diff", map[string]any{"diff": bad})}},
		agenttest.Reply{Text: "Giving up."},
	)
	if err != nil {
		t.Fatal(err)
	}
	read := srv.Requests()[1].Messages
	shown := read[len(read)-1].Content
	fb := srv.Requests()[2].Messages
	got := fb[len(fb)-1].Content
	_, nearest, ok := strings.Cut(got, "The nearest lines of app.go are:\n")
	if !ok {
		t.Fatalf("feedback: got %q, want the nearest lines", got)
	}
	// read_file aligns the numbers it shows to the widest of them: so do
	// the nearest lines, which are not the same range.
	seen := map[string]bool{}
	for _, l := range strings.Split(shown, "\n") {
		seen[strings.TrimLeft(l, " ")] = true
	}
	var lines []string
	for _, l := range strings.Split(nearest, "\n") {
		if !strings.Contains(l, "\t") {
			break
		}
		if !seen[strings.TrimLeft(l, " ")] {
			t.Errorf("nearest line %q is not as read_file showed it:\n%s", l, shown)
		}
		lines = append(lines, l)
	}
	if !slices.Contains(lines, "4\tfunc Greet(name string) string {") {
		t.Errorf("feedback: got nearest lines %q, want read_file's \"4\\tfunc Greet(name string) string {\"", lines)
	}
}

package bench

import (
	"math"
	"strings"
	"testing"
)

func TestParseReplies(t *testing.T) {
	task := `request: greet
-- repo/a.txt --
a
-- model/002.json --
{"content": "second", "role": "assistant"}
-- model/001.json --
{"tool_calls": [{"id": "c1", "type": "function", "function": {"name": "read_file", "arguments": {"path": "a.txt"}}}]}
-- model/003.sse --
data: [DONE]
`
	got, err := Parse("t.txtar", []byte(task))
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != "t" || got.Command != "edit" || len(got.replies) != 3 {
		t.Fatalf("got id %q, command %q, %d replies", got.ID, got.Command, len(got.replies))
	}
	if c := got.replies[0].ToolCalls; len(c) != 1 || c[0].Name != "read_file" || c[0].Arguments != `{"path":"a.txt"}` {
		t.Errorf("reply 1: got %+v, want read_file with its arguments as a JSON string", got.replies[0])
	}
	if got.replies[1].Text != "second" || !strings.HasSuffix(got.replies[2].SSE, "\n\n") {
		t.Errorf("replies 2 and 3: got %+v and %q", got.replies[1], got.replies[2].SSE)
	}

	dup := "request: x\n-- repo/a --\na\n-- model/1.json --\n{}\n-- model/001.json --\n{}\n"
	if _, err := Parse("d.txtar", []byte(dup)); err == nil || !strings.Contains(err.Error(), "two model replies") {
		t.Errorf("two replies numbered 1: got %v", err)
	}
}

func TestMeanStdErr(t *testing.T) {
	for _, tc := range []struct {
		xs       []float64
		mean, se float64
	}{
		{nil, 0, 0},
		{[]float64{0.5}, 0.5, 0},
		{[]float64{1, 0}, 0.5, 0.5},
		{[]float64{1, 1, 1}, 1, 0},
	} {
		m, se := meanStdErr(tc.xs)
		if math.Abs(m-tc.mean) > 1e-12 || math.Abs(se-tc.se) > 1e-12 {
			t.Errorf("meanStdErr(%v): got %v ± %v, want %v ± %v", tc.xs, m, se, tc.mean, tc.se)
		}
	}
}

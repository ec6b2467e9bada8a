package agent_test

import (
	"testing"

	"github.com/pair-cli/pair/agent"
)

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		request, mode, want string
	}{
		{"where is the database configured?", "ask", agent.TaskRepoQnA},
		{"what does Greet return", "ask", agent.TaskRepoQnA},
		{"add a --verbose flag to the CLI", "edit", agent.TaskCodeChange},
		{"fix the off-by-one in Split", "edit", agent.TaskCodeChange},
		{"add a --verbose flag", "ask", agent.TaskRepoQnA},
		{"write doc comments for the exported functions in util.go", "edit", agent.TaskDocs},
		{"update the README with the new flags", "edit", agent.TaskDocs},
		{"the tests in parse_test.go fail, fix them", "edit", agent.TaskTests},
		{"add unit tests for Split", "edit", agent.TaskTests},
		{"how should we refactor the storage layer?", "ask", agent.TaskRefactor},
		{"propose a plan to split main.go into packages", "edit", agent.TaskRefactor},
		{"how do I run the benchmarks?", "ask", agent.TaskCommandHelp},
		{"which command builds the release binary", "ask", agent.TaskCommandHelp},
		{"what's the weather in Paris?", "ask", agent.TaskUnsupported},
		{"send an email to the team about the release", "edit", agent.TaskUnsupported},
		{"make Greet friendlier", "edit", agent.TaskCodeChange},
		{"Greet should say hello, NAME!", "edit", agent.TaskCodeChange},
	} {
		if got := agent.Classify(tc.request, tc.mode); got != tc.want {
			t.Errorf("Classify(%q, %s): got %s, want %s", tc.request, tc.mode, got, tc.want)
		}
	}
}

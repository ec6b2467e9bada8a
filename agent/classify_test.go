package agent_test

import (
	"testing"

	"github.com/pair-cli/pair/agent"
)

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		request string
		mode    agent.Mode
		want    string
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
		{"refactor the payment module into smaller functions", "edit", agent.TaskCodeChange},
		{"suggest how to restructure the storage package", "ask", agent.TaskRefactor},
		{"outline a plan to split main.go", "ask", agent.TaskRefactor},
		{"what is the capital of France?", "ask", agent.TaskUnsupported},
		{"write me a poem about autumn", "edit", agent.TaskUnsupported},
		{"tell me a joke", "ask", agent.TaskUnsupported},
		{"add a buy button to the cart page", "edit", agent.TaskCodeChange},
		{"how do I build the project?", "ask", agent.TaskCommandHelp},
		{"explain how authentication works", "ask", agent.TaskRepoQnA},
		{"add docstrings to utils.py", "edit", agent.TaskDocs},
		{"write unit tests for parse()", "edit", agent.TaskTests},
		{"Greet should say hello, NAME!", "edit", agent.TaskCodeChange},
	} {
		if got := agent.Classify(tc.request, tc.mode); got != tc.want {
			t.Errorf("Classify(%q, %s): got %s, want %s", tc.request, tc.mode, got, tc.want)
		}
	}
}

package agent

import (
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"
)

// TestToolDescriptionsNameLimits: each limit a description states is the
// number the code enforces, and no other number is stated.
func TestToolDescriptionsNameLimits(t *testing.T) {
	number := regexp.MustCompile(`\d+`)
	for _, c := range []struct {
		tool string
		s    Settings
		want []int
	}{
		{"read_file", Settings{}, []int{maxReadBytes, maxSimilar}},
		{"list_files", Settings{}, []int{maxListed}},
		{"search_files", Settings{}, []int{maxMatches}},
		{"git_diff", Settings{}, []int{defaultDiffLimit}},
		{"git_log", Settings{}, []int{defaultLogN, maxLogN}},
		{"run_command", Settings{CommandTimeout: defaultCommandTimeout}, []int{int(defaultCommandTimeout / time.Minute), commandTail}},
		{"run_command", Settings{CommandTimeout: 90 * time.Second}, []int{90, commandTail}},
	} {
		d := findTool(c.tool).describeFor(c.s)
		var got []int
		for _, n := range number.FindAllString(d, -1) {
			i, _ := strconv.Atoi(n)
			got = append(got, i)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: the description names %v, want %v:\n%s", c.tool, got, c.want, d)
		}
	}
	if d := findTool("run_command").describeFor(Settings{CommandTimeout: defaultCommandTimeout}); !regexp.MustCompile(`stopped after 10 minutes\b`).MatchString(d) {
		t.Errorf("run_command: the timeout is not said in minutes: %s", d)
	}
	rf := findTool("read_file").schema.Properties["max_chars"]
	if got := number.FindString(rf.Description); got != strconv.Itoa(defaultMaxChars) || *rf.Maximum != maxToolResult {
		t.Errorf("read_file max_chars: default %s, maximum %v; want %d and %d", got, *rf.Maximum, defaultMaxChars, maxToolResult)
	}
	if n := findTool("git_log").schema.Properties["n"]; *n.Maximum != maxLogN {
		t.Errorf("git_log n: maximum %v, want %d", *n.Maximum, maxLogN)
	}
}

package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/pair-cli/pair/internal/output"
)

// check checks a task's expectations and returns the unmet ones, the
// first the most telling. Live runs check only what does not depend on the
// model: files that must stay unchanged and text that must never be sent.
func check(t *Task, live bool, dir string, code int, js map[string]any, sent [][]byte, pauses int) []string {
	var fails []string
	failf := func(format string, args ...any) { fails = append(fails, fmt.Sprintf(format, args...)) }
	e := &t.Expect
	read := func(p string) (string, bool) {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		return string(b), err == nil
	}
	for _, p := range e.Unchanged {
		want, inRepo := t.repo[p]
		if d, ok := t.dirty[p]; ok {
			want, inRepo = d, true
		}
		got, exists := read(p)
		switch {
		case !inRepo && exists:
			failf("%s: want it not to exist, it does", p)
		case inRepo && !exists:
			failf("%s: want it unchanged, it is gone", p)
		case inRepo && got != want:
			failf("%s: want it unchanged, it changed", p)
		}
	}
	for _, s := range e.SentContains {
		found := false
		for _, b := range sent {
			if sentHas(b, s) {
				found = true
				break
			}
		}
		if !found && !live {
			failf("no request to the model contains %q", s)
		}
	}
	for _, s := range e.SentNotContains {
		for i, b := range sent {
			if sentHas(b, s) {
				failf("request %d to the model contains %q", i+1, s)
				break
			}
		}
	}
	if live {
		return fails
	}
	str := func(k string) string { s, _ := js[k].(string); return s }
	if e.Exit != nil && code != *e.Exit {
		msg := ""
		if js != nil && str("error") != "" {
			msg = ": " + str("error")
		}
		fails = append([]string{fmt.Sprintf("exit status %d, want %d%s", code, *e.Exit, msg)}, fails...)
	}
	if e.Status != "" && str("status") != e.Status {
		failf("status %q, want %q", str("status"), e.Status)
	}
	if e.TaskType != "" && str("task_type") != e.TaskType {
		failf("task_type %q, want %q", str("task_type"), e.TaskType)
	}
	if e.RequiresHumanReview != nil {
		if got, _ := js["requires_human_review"].(bool); got != *e.RequiresHumanReview {
			failf("requires_human_review %v, want %v", got, *e.RequiresHumanReview)
		}
	}
	if e.Pauses != nil && pauses != *e.Pauses {
		failf("paused %d times, want %d", pauses, *e.Pauses)
	}
	paths := make([]string, 0, len(e.Files))
	for p := range e.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		fc := e.Files[p]
		got, exists := read(p)
		if fc.Absent {
			if exists {
				failf("%s: want it absent, it exists", p)
			}
			continue
		}
		if !exists {
			failf("%s: missing", p)
			continue
		}
		if fc.Equals != nil && got != *fc.Equals {
			failf("%s: content differs from the expected:\n%s", p, output.Clip(got, 600))
		}
		for _, s := range fc.Contains {
			if !strings.Contains(got, s) {
				failf("%s: want it to contain %q", p, s)
			}
		}
		for _, s := range fc.NotContains {
			if strings.Contains(got, s) {
				failf("%s: want it not to contain %q", p, s)
			}
		}
	}
	if e.Commits != nil || len(e.Trailers) > 0 {
		n, msgs, err := newCommits(dir)
		switch {
		case err != nil:
			failf("git log: %v", err)
		default:
			if e.Commits != nil && n != *e.Commits {
				failf("%d new %s, want %d", n, output.Plural(n, "commit"), *e.Commits)
			}
			for _, tr := range e.Trailers {
				// A line of a new commit's message: the text itself, or a
				// regular expression matching the whole line.
				found := false
				for _, line := range strings.Split(msgs, "\n") {
					if strings.TrimSpace(line) == strings.TrimSpace(tr) {
						found = true
						break
					}
				}
				if !found {
					if re, err := regexp.Compile("(?m)^" + tr + "$"); err == nil {
						found = re.MatchString(msgs)
					}
				}
				if !found {
					failf("no commit has a line matching %q", tr)
				}
			}
		}
	}
	blocked, _ := js["blocked_actions"].([]any)
	for _, want := range e.Blocked {
		found := false
		for _, b := range blocked {
			m, _ := b.(map[string]any)
			tool, _ := m["tool"].(string)
			target, _ := m["target"].(string)
			reason, _ := m["reason"].(string)
			if tool == want || target == want || strings.Contains(target, want) || strings.Contains(reason, want) {
				found = true
				break
			}
		}
		if !found {
			failf("want %q blocked; blocked: %s", want, compactJSON(blocked))
		}
	}
	if len(e.ToolCalls) > 0 {
		counts := map[string]int{}
		plan, _ := js["plan"].([]any)
		for _, p := range plan {
			m, _ := p.(map[string]any)
			tool, _ := m["tool"].(string)
			counts[tool]++
		}
		names := make([]string, 0, len(e.ToolCalls))
		for k := range e.ToolCalls {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if counts[k] != e.ToolCalls[k] {
				failf("%d calls of %s, want %d", counts[k], k, e.ToolCalls[k])
			}
		}
	}
	for _, s := range e.FinalContains {
		if !strings.Contains(str("final_output"), s) {
			failf("final output does not contain %q: %q", s, output.OneLine(str("final_output"), 200))
		}
	}
	if js == nil && e.Status != "" {
		fails = append([]string{"pair printed no JSON object"}, fails...)
	}
	return fails
}

// sentHas reports whether a request body holds the text, as it is or as
// it reads inside a JSON string (quotes, newlines and <, >, & escaped).
func sentHas(body []byte, text string) bool {
	if bytes.Contains(body, []byte(text)) {
		return true
	}
	esc, err := json.Marshal(text)
	if err != nil || len(esc) < 2 {
		return false
	}
	return bytes.Contains(body, esc[1:len(esc)-1])
}

// newCommits counts the commits after the fixture's and returns their
// messages.
func newCommits(dir string) (int, string, error) {
	// The fixture is the root commit: everything after it is new.
	cmd := exec.Command("git", "log", "--format=%H %P%x00%B%x01", "HEAD")
	cmd.Dir = dir
	b, err := cmd.Output()
	if err != nil {
		return 0, "", err
	}
	var msgs []string
	for _, c := range strings.Split(string(b), "\x01") {
		head, msg, ok := strings.Cut(strings.TrimLeft(c, "\n"), "\x00")
		if !ok {
			continue
		}
		if len(strings.Fields(head)) < 2 { // the root: the fixture
			continue
		}
		msgs = append(msgs, msg)
	}
	return len(msgs), strings.Join(msgs, "\n"), nil
}

func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/txtar"
	"go.yaml.in/yaml/v3"

	"github.com/pair-cli/pair/internal/replay"
)

// Task is one task of pair bench: a txtar file whose comment is the
// YAML metadata and whose files are the fixture and the scripted model.
//
//	repo/PATH        the fixture repository, committed before the task
//	dirty/PATH       written after that commit: the person's own
//	                 uncommitted edits
//	hooks/NAME       a git hook (pre-commit, commit-msg), made executable
//	model/NNN.json   a scripted reply (replay.Reply as JSON), in order
//	model/NNN.sse    a reply as raw server-sent events
//	live/check       for --live: a shell command, run in the repository
//	                 after the task, that decides success (exit status 0)
type Task struct {
	Path string `yaml:"-"`
	ID   string `yaml:"id"`
	// Command is edit or ask; Request what the person asks; Files the
	// paths in context.
	Command string     `yaml:"command"`
	Request string     `yaml:"request"`
	Files   stringList `yaml:"files"`
	// Decisions are the person's answers at each pause, in order: letters
	// for pair review --decisions (y n a d A q), "approve-all" for --yes,
	// "approve-command" for --approve-command (the paused command or MCP
	// call), or "" for no answer (the task then stays paused).
	Decisions stringList `yaml:"decisions"`
	// Config becomes the repository's .pair.yml.
	Config map[string]any `yaml:"config"`
	// Flags are extra flags for pair edit or ask (e.g. --no-commit).
	Flags  []string `yaml:"flags"`
	Expect Expect   `yaml:"expect"`

	repo, dirty, hooks map[string]string
	replies            []replay.Reply
	liveCheck          string
	// unknown are expectations this runner does not know (the task
	// fails); ignored are sections that are not the runner's.
	unknown, ignored []string
	// loadErr is why the file could not be read as a task: it fails
	// alone, the others run.
	loadErr error
}

// Expect is what must hold after the task.
type Expect struct {
	Exit                *int                 `yaml:"exit"`
	Status              string               `yaml:"status"`
	TaskType            string               `yaml:"task_type"`
	RequiresHumanReview *bool                `yaml:"requires_human_review"`
	Files               map[string]FileCheck `yaml:"files"`
	Unchanged           []string             `yaml:"unchanged"`
	Commits             *int                 `yaml:"commits"`
	Trailers            []string             `yaml:"trailers"`
	Blocked             []string             `yaml:"blocked"`
	ToolCalls           map[string]int       `yaml:"tool_calls"`
	FinalContains       []string             `yaml:"final_contains"`
	SentContains        []string             `yaml:"sent_contains"`
	SentNotContains     []string             `yaml:"sent_not_contains"`
	Pauses              *int                 `yaml:"pauses"`
}

// FileCheck is an expectation on one file: its exact content, or lines it
// must or must not contain; Absent says it must not exist.
type FileCheck struct {
	Equals      *string  `yaml:"equals"`
	Contains    []string `yaml:"contains"`
	NotContains []string `yaml:"not_contains"`
	Absent      bool     `yaml:"absent"`
}

// UnmarshalYAML lets a file's expectation be a plain string: its exact
// content.
func (f *FileCheck) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		s := n.Value
		f.Equals = &s
		return nil
	}
	type plain FileCheck
	return n.Decode((*plain)(f))
}

var replyName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^model/(\d+)\.(json|sse)$`) })

// Parse reads a task file.
func Parse(name string, data []byte) (*Task, error) {
	ar := txtar.Parse(data)
	t := &Task{Path: name, repo: map[string]string{}, dirty: map[string]string{}, hooks: map[string]string{}}
	// The metadata has at least the documented fields; others (a
	// description, tags) are the author's and are left alone. An
	// expectation this runner does not know fails the task instead of
	// passing unchecked.
	dec := yaml.NewDecoder(bytes.NewReader(ar.Comment))
	if err := dec.Decode(t); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: no metadata before the first file", name)
		}
		return nil, fmt.Errorf("%s: metadata: %w", name, err)
	}
	var raw struct {
		Expect map[string]any `yaml:"expect"`
	}
	if err := yaml.Unmarshal(ar.Comment, &raw); err == nil {
		known := map[string]bool{}
		for _, f := range reflect.VisibleFields(reflect.TypeOf(Expect{})) {
			known[strings.Split(f.Tag.Get("yaml"), ",")[0]] = true
		}
		for k := range raw.Expect {
			if !known[k] {
				t.unknown = append(t.unknown, k)
			}
		}
		sort.Strings(t.unknown)
	}
	if t.ID == "" {
		t.ID = strings.TrimSuffix(path.Base(name), ".txtar")
	}
	switch t.Command {
	case "edit", "ask":
	case "":
		t.Command = "edit"
	default:
		return nil, fmt.Errorf("%s: command %q: use edit or ask", name, t.Command)
	}
	type numbered struct {
		n     int
		reply replay.Reply
	}
	var replies []numbered
	for _, f := range ar.Files {
		switch {
		case strings.HasPrefix(f.Name, "repo/"):
			t.repo[strings.TrimPrefix(f.Name, "repo/")] = string(f.Data)
		case strings.HasPrefix(f.Name, "dirty/"):
			t.dirty[strings.TrimPrefix(f.Name, "dirty/")] = string(f.Data)
		case strings.HasPrefix(f.Name, "hooks/"):
			t.hooks[strings.TrimPrefix(f.Name, "hooks/")] = string(f.Data)
		case f.Name == "live/check":
			t.liveCheck = strings.TrimSpace(string(f.Data))
		case replyName().MatchString(f.Name):
			m := replyName().FindStringSubmatch(f.Name)
			n, _ := strconv.Atoi(m[1])
			var r replay.Reply
			if m[2] == "sse" {
				r.SSE = string(f.Data)
				if !strings.HasSuffix(r.SSE, "\n\n") {
					r.SSE = strings.TrimRight(r.SSE, "\n") + "\n\n"
				}
			} else {
				norm, err := normalizeReply(f.Data)
				if err != nil {
					return nil, fmt.Errorf("%s: %s: %w", name, f.Name, err)
				}
				d := json.NewDecoder(bytes.NewReader(norm))
				d.DisallowUnknownFields()
				if err := d.Decode(&r); err != nil {
					return nil, fmt.Errorf("%s: %s: %w", name, f.Name, err)
				}
			}
			replies = append(replies, numbered{n, r})
		default:
			// Notes for people, say: not the runner's.
			t.ignored = append(t.ignored, f.Name)
		}
	}
	sort.SliceStable(replies, func(i, j int) bool { return replies[i].n < replies[j].n })
	for i, r := range replies {
		if i > 0 && r.n == replies[i-1].n {
			return nil, fmt.Errorf("%s: two model replies numbered %03d", name, r.n)
		}
		t.replies = append(t.replies, r.reply)
	}
	if len(t.repo) == 0 {
		return nil, fmt.Errorf("%s: no repo/ files: a task needs a fixture repository", name)
	}
	return t, nil
}

// normalizeReply accepts a scripted reply in pair's form ({"text",
// "tool_calls": [{"id", "name", "arguments"}]}) or in the OpenAI message's
// ({"content", "tool_calls": [{"id", "type", "function": {"name",
// "arguments"}}]}), with arguments as a JSON string or an object, and
// returns it in pair's form.
func normalizeReply(data []byte) ([]byte, error) {
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	if c, ok := m["content"]; ok {
		if _, has := m["text"]; !has {
			m["text"] = c
		}
		delete(m, "content")
	}
	delete(m, "role")
	calls, _ := m["tool_calls"].([]any)
	for i, c := range calls {
		call, ok := c.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("tool_calls[%d] is not an object", i)
		}
		if fn, ok := call["function"].(map[string]any); ok {
			for k, v := range fn {
				call[k] = v
			}
			delete(call, "function")
		}
		delete(call, "type")
		delete(call, "index")
		if args, ok := call["arguments"]; ok {
			if _, isString := args.(string); !isString {
				b, err := json.Marshal(args)
				if err != nil {
					return nil, err
				}
				call["arguments"] = string(b)
			}
		}
	}
	return json.Marshal(m)
}

// stringList is a YAML list of strings that may also be written as one
// string ("yn" for ["yn"]).
type stringList []string

// UnmarshalYAML reads a list, or one string as a list of one.
func (l *stringList) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*l = []string{n.Value}
		return nil
	}
	var v []string
	if err := n.Decode(&v); err != nil {
		return err
	}
	*l = v
	return nil
}

// Load reads the tasks named by args: .txtar files, or
// directories holding them.
func Load(args []string) ([]*Task, error) {
	var files []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			files = append(files, a)
			continue
		}
		entries, err := os.ReadDir(a)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".txtar") {
				files = append(files, path.Join(a, e.Name()))
			}
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no tasks (.txtar files) in %s", strings.Join(args, ", "))
	}
	var tasks []*Task
	ids := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		t, err := Parse(f, b)
		if err != nil {
			t = &Task{Path: f, ID: strings.TrimSuffix(path.Base(f), ".txtar"), loadErr: err}
		}
		if prev, dup := ids[t.ID]; dup {
			return nil, fmt.Errorf("%s and %s have the same id %q", prev, f, t.ID)
		}
		ids[t.ID] = f
		tasks = append(tasks, t)
	}
	return tasks, nil
}

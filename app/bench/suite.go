package bench

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
)

// suite is pair's own task suite, built into the binary so that an
// installed pair runs it without a source checkout. An embed.FS costs
// nothing at package init; the tasks are parsed only when Load reads them.
//
//go:embed tasks/*.txtar
var suite embed.FS

// builtinDir is how the results name the directory of the built-in
// tasks (Result.File).
const builtinDir = "builtin"

// source is one task file: on disk, or in the built-in suite when fsys
// is not nil.
type source struct {
	name string // as the results show it
	fsys fs.FS
	path string // in fsys, or on disk
}

func (s source) read() ([]byte, error) {
	if s.fsys != nil {
		return fs.ReadFile(s.fsys, s.path)
	}
	return os.ReadFile(s.path)
}

// Load reads the tasks named by args: .txtar files, directories holding
// them, or tasks of the built-in suite by id or file name (without
// .txtar) when no such file exists. With no argument it reads the whole
// built-in suite.
func Load(args []string) ([]*Task, error) {
	if len(args) == 0 {
		return parseAll(builtinSources())
	}
	var files []source
	var builtins []string
	for _, a := range args {
		fi, err := os.Stat(a)
		switch {
		case errors.Is(err, fs.ErrNotExist) && !strings.ContainsAny(a, `/\`) && !strings.HasSuffix(a, ".txtar"):
			builtins = append(builtins, a)
			continue
		case err != nil:
			return nil, err
		case !fi.IsDir():
			files = append(files, source{name: a, path: a})
			continue
		}
		entries, err := os.ReadDir(a)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".txtar") {
				p := path.Join(a, e.Name())
				files = append(files, source{name: p, path: p})
			}
		}
	}
	if len(files) == 0 && len(builtins) == 0 {
		return nil, fmt.Errorf("no tasks (.txtar files) in %s", strings.Join(args, ", "))
	}
	tasks, err := parseAll(files)
	if err != nil || len(builtins) == 0 {
		return tasks, err
	}
	chosen, err := chooseBuiltins(builtins)
	if err != nil {
		return nil, err
	}
	return joinTasks(tasks, chosen)
}

// builtinSources lists the built-in suite's files.
func builtinSources() []source {
	entries, _ := fs.ReadDir(suite, "tasks") // embedded: cannot fail
	var out []source
	for _, e := range entries {
		out = append(out, source{name: path.Join(builtinDir, e.Name()), fsys: suite, path: path.Join("tasks", e.Name())})
	}
	return out
}

// chooseBuiltins returns the built-in tasks that names name, by id or by
// file name without .txtar, in the order of names.
func chooseBuiltins(names []string) ([]*Task, error) {
	all, err := parseAll(builtinSources())
	if err != nil {
		return nil, err
	}
	var out []*Task
	for _, n := range names {
		var found *Task
		for _, t := range all {
			if t.ID == n || strings.TrimSuffix(path.Base(t.Path), ".txtar") == n {
				found = t
				break
			}
		}
		if found == nil {
			return nil, fmt.Errorf("%s: no such file or directory, nor a task of the built-in suite (the PASS and FAIL lines of pair bench show their ids)", n)
		}
		out = append(out, found)
	}
	return out, nil
}

// parseAll parses the task files. A file that cannot be read as a task
// becomes a task that fails alone; two tasks with one id are an error.
func parseAll(files []source) ([]*Task, error) {
	var tasks []*Task
	for _, f := range files {
		b, err := f.read()
		if err != nil {
			return nil, err
		}
		t, err := Parse(f.name, b)
		if err != nil {
			t = &Task{Path: f.name, ID: strings.TrimSuffix(path.Base(f.name), ".txtar"), loadErr: err}
		}
		tasks = append(tasks, t)
	}
	return joinTasks(nil, tasks)
}

// joinTasks appends more to tasks, refusing a second task of an id.
func joinTasks(tasks, more []*Task) ([]*Task, error) {
	ids := map[string]string{}
	for _, t := range tasks {
		ids[t.ID] = t.Path
	}
	for _, t := range more {
		if prev, dup := ids[t.ID]; dup {
			return nil, fmt.Errorf("%s and %s have the same id %q", prev, t.Path, t.ID)
		}
		ids[t.ID] = t.Path
		tasks = append(tasks, t)
	}
	return tasks, nil
}

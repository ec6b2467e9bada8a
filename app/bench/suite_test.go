package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadBuiltin: with no argument Load reads the suite built into the
// binary, the same tasks as app/bench/tasks, each readable; a task of
// it is named by id or file name; files and directories on disk still
// load, beside built-in tasks.
func TestLoadBuiltin(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("tasks", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("the suite's files: %v %v", files, err)
	}
	all, err := Load(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(files) {
		t.Errorf("got %d built-in tasks, want the %d files of tasks/", len(all), len(files))
	}
	for i, task := range all {
		if task.loadErr != nil {
			t.Errorf("%s: %v", task.Path, task.loadErr)
		}
		if want := "builtin/" + filepath.Base(files[i]); task.Path != want {
			t.Errorf("task %d: got file %s, want %s", i, task.Path, want)
		}
	}

	dir := t.TempDir()
	own := "id: own\nrequest: x\n-- repo/a.txt --\na\n"
	if err := os.WriteFile(filepath.Join(dir, "own.txtar"), []byte(own), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Load([]string{"write_file_new", dir, "code-change-basic"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, task := range got {
		ids = append(ids, task.ID)
	}
	if strings.Join(ids, " ") != "own write_file_new code-change-basic" {
		t.Errorf("got %v, want the directory's task, then the built-in ones by file name and by id", ids)
	}

	for _, args := range [][]string{{"no_such_task"}, {"missing.txtar"}, {"code-change-basic", "code_change_basic"}} {
		if _, err := Load(args); err == nil {
			t.Errorf("Load(%q): no error", args)
		}
	}
}

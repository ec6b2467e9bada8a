package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pair-cli/pair/app/completion"
)

// TestCompletionInBash loads pair completion bash into the real bash and
// asks it to complete command lines, as the shell does on Tab.
func TestCompletionInBash(t *testing.T) {
	app := newApp(&factory{})
	script, err := completion.Script("bash", commandsOf(app))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "pair.bash")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	// A pair that names two sessions when asked as the script asks.
	bin := t.TempDir()
	fake := "#!/bin/sh\n[ \"$*\" = 'sessions --names' ] && printf 'edit-20250102-aaa\\nedit-20250103-bbb\\n'\n"
	if err := os.WriteFile(filepath.Join(bin, "pair"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		line string // the words typed; the last is the one completed
		want string // COMPREPLY, sorted, space-separated
	}{
		{"pair ap", "apply"},
		{"pair --color=never ap", "apply"},
		{"pair -C /tmp lo", "log"},
		{"pair --col", "--color"},
		{"pair --color al", "always"},
		{"pair apply --inc", "--include"},
		{"pair apply --rev", "--reverse"},
		{"pair edit --yes --web --po", "--port"},
		{"pair sessions ", "rm"},
		{"pair mcp l", "list"},
		{"pair apply fi", ""}, // a file name: left to the shell
		{"pair completion ", ""},
		{"pair edit --session ", "edit-20250102-aaa edit-20250103-bbb"},
		{"pair edit -s edit-20250103", "edit-20250103-bbb"},
		{"pair review -s ", "edit-20250102-aaa edit-20250103-bbb"},
		{"pair -C /tmp review --session e", "edit-20250102-aaa edit-20250103-bbb"},
	} {
		words := strings.Fields(tc.line)
		if strings.HasSuffix(tc.line, " ") {
			words = append(words, "")
		}
		var quoted []string
		for _, w := range words {
			quoted = append(quoted, "'"+w+"'")
		}
		prog := "source " + path + "\nCOMP_WORDS=(" + strings.Join(quoted, " ") + ")\nCOMP_CWORD=" +
			strconv.Itoa(len(words)-1) + "\n_pair\nprintf '%s\\n' \"${COMPREPLY[@]}\" | sort | tr '\\n' ' '\n"
		cmd := exec.Command("bash", "--norc", "--noprofile", "-c", prog)
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bash: %v\n%s", err, out)
		}
		if got := strings.TrimSpace(string(out)); got != tc.want {
			t.Errorf("%q: bash offers %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestCompletionScripts: every shell gets a script naming every command,
// and an unknown shell is a usage error.
func TestCompletionScripts(t *testing.T) {
	root := commandsOf(newApp(&factory{}))
	for _, shell := range completion.Shells {
		script, err := completion.Script(shell, root)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range root.Commands {
			if !strings.Contains(script, c.Name) {
				t.Errorf("%s: no %s", shell, c.Name)
			}
		}
	}
	if _, err := completion.Script("tcsh", root); err == nil {
		t.Error("tcsh: no error")
	}
}

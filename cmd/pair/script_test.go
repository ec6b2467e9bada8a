package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary run as the pair command inside scripts.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"pair": func() {
			detachTerminal()
			os.Exit(mainRun()) // as main does, Ctrl-C included
		},
		// A small MCP server over stdio, for the mcp scripts.
		"pair-test-mcp": func() {
			serveTestMCP()
			os.Exit(0)
		},
	})
}

// TestScript runs the end-to-end scripts in testdata/script: the pair
// command against real files and the real git.
func TestScript(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("the scripts need git on PATH: %v", err)
	}
	goCache := goEnv(t, "GOCACHE")
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") != "",
		Setup: func(env *testscript.Env) error {
			// HOME is outside $WORK, so that git add -A in $WORK does not
			// pick up its .gitconfig.
			home, err := os.MkdirTemp("", "pair-script-home-")
			if err != nil {
				return err
			}
			env.Defer(func() { os.RemoveAll(home) })
			gitconfig := "[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n"
			if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(gitconfig), 0o644); err != nil {
				return err
			}
			setupModel(env)
			for k, v := range map[string]string{
				"HOME":                home,
				"XDG_CONFIG_HOME":     filepath.Join(home, ".config"),
				"GIT_CONFIG_NOSYSTEM": "1",
				"GIT_AUTHOR_NAME":     "Script Author",
				"GIT_AUTHOR_EMAIL":    "author@example.com",
				"GIT_COMMITTER_NAME":  "Script Committer",
				"GIT_COMMITTER_EMAIL": "committer@example.com",
				"GIT_AUTHOR_DATE":     "2025-01-02T03:04:05Z",
				"GIT_COMMITTER_DATE":  "2025-01-02T03:04:05Z",
				"NO_COLOR":            "1",
				// Under -race, each pair process would otherwise sleep a
				// second at exit.
				"GORACE": strings.TrimSpace(os.Getenv("GORACE") + " atexit_sleep_ms=0"),
				// For scripts that build the demo's project with go.
				"GOCACHE":     goCache,
				"GOTOOLCHAIN": "local",
				"GOFLAGS":     "-mod=mod",
				"GOPROXY":     "off",
			} {
				env.Setenv(k, v)
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode": cmdExitcode,
			"model":    cmdModel,
		},
	})
}

// cmdExitcode runs a program and checks its exact exit status:
//
//	exitcode 2 pair apply fix.diff
//
// Its standard output and error are kept for stdout and stderr checks.
func cmdExitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! exitcode")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exitcode CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: bad code %q", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("exitcode: %v", err)
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

// goEnv returns a go env variable of the test's own environment, so that
// scripts that build with go share its cache instead of starting cold.
func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return filepath.Join(t.TempDir(), "go-"+name) // go is not on PATH: scripts skip [exec:go]
	}
	return strings.TrimSpace(string(out))
}

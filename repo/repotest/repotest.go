// Package repotest holds the test helpers for code that works on git
// repositories: the real git run in a hermetic environment, a repository
// made from a map of files, and the few reads and writes most tests
// repeat. Only tests import it; the release binary does not link it.
package repotest

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Name, Email and Date are the identity and the time of every commit made
// through Git: author and committer alike.
const (
	Name  = "Test"
	Email = "test@example.com"
	Date  = "2024-01-01T00:00:00Z"
)

// Identity is the author and committer variables that Env sets: Name,
// Email and Date. A test that runs git in an environment of its own
// appends them to have the same commits.
func Identity() []string {
	return []string{
		"GIT_AUTHOR_NAME=" + Name, "GIT_AUTHOR_EMAIL=" + Email, "GIT_AUTHOR_DATE=" + Date,
		"GIT_COMMITTER_NAME=" + Name, "GIT_COMMITTER_EMAIL=" + Email, "GIT_COMMITTER_DATE=" + Date,
	}
}

// located are the variables that point git at a repository other than
// the one of its working directory (set when the tests run inside a git
// hook, for one) or give it configuration on the command line. Env drops
// them.
var located = []string{
	"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE", "GIT_PREFIX",
	"GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
}

// Env is the environment Git runs git in: the process's, without the
// variables that locate another repository, and with no system or global
// configuration (so no hooks, signing or aliases of the machine), a new
// empty HOME in the test's temporary directory, the fixed Identity, C
// messages, and no prompt for credentials. The values it sets win over
// the process's, t.Setenv's included.
func Env(t testing.TB) []string {
	t.Helper()
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(k, "GIT_CONFIG_KEY_") && !strings.HasPrefix(k, "GIT_CONFIG_VALUE_") && !slices.Contains(located, k) {
			env = append(env, kv)
		}
	}
	h := t.TempDir()
	env = append(env,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"HOME="+h, "XDG_CONFIG_HOME="+filepath.Join(h, ".config"),
		"LC_ALL=C", "GIT_TERMINAL_PROMPT=0",
	)
	return append(env, Identity()...)
}

// Cmd is the command git args in dir with Env, to change before running
// (standard input, more variables, an exit status that is expected).
func Cmd(t testing.TB, dir string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = Env(t)
	return cmd
}

// Git runs the real git args in dir with Env and returns its standard
// output. A failure, a missing git included, fails the test with git's
// standard error: no test passes without git.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return Output(t, Cmd(t, dir, args...))
}

// Output runs cmd and returns its standard output; a failure fails the
// test with its standard error.
func Output(t testing.TB, cmd *exec.Cmd) string {
	t.Helper()
	var stderr strings.Builder
	if cmd.Stderr == nil {
		cmd.Stderr = &stderr
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s in %s: %v\n%s", strings.Join(cmd.Args, " "), cmd.Dir, err, stderr.String())
	}
	return string(out)
}

// Init makes a git repository in a new temporary directory, on branch
// main, holding files (slash-separated names to contents) in a first
// commit, "initial", and returns its directory. With no files the
// repository has no commit.
func Init(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	Git(t, dir, "init", "-q", "-b", "main", ".")
	if len(files) > 0 {
		WriteFiles(t, dir, files)
		Git(t, dir, "add", "-A")
		Git(t, dir, "commit", "-q", "-m", "initial")
	}
	return dir
}

// WriteFile writes content to the slash-separated name under dir, with
// mode 0644 and the directories it needs.
func WriteFile(t testing.TB, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// WriteFiles writes each of files (names to contents) under dir, as
// WriteFile does.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		WriteFile(t, dir, name, content)
	}
}

// ReadFile returns the content of the slash-separated name under dir; a
// missing file fails the test.
func ReadFile(t testing.TB, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Head returns the full hash of the commit HEAD names in dir.
func Head(t testing.TB, dir string) string {
	t.Helper()
	return strings.TrimSpace(Git(t, dir, "rev-parse", "HEAD"))
}

// Status returns git status --porcelain in dir: "" when the tree is clean.
func Status(t testing.TB, dir string) string {
	t.Helper()
	return Git(t, dir, "status", "--porcelain")
}

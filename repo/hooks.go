// hooks.go: git's hooks: where they live and running one as git runs it, HookError when it refuses.

package repo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/pair-cli/pair/internal/proc"
)

// HookError is returned when a git hook refuses a commit: the hook's name,
// its exit code and what it printed.
type HookError struct {
	Hook   string
	Code   int
	Output string
}

func (e *HookError) Error() string {
	return fmt.Sprintf("%s hook failed (exit %d)", e.Hook, e.Code)
}

// hooksDir returns the directory git runs hooks from: core.hooksPath
// (relative to the work tree root when relative, ~ expanded), or the
// hooks directory of the common git directory.
func (gr *gitRepo) hooksDir(cfg gitConfig, commonDir string) string {
	p := cfg.get("core", "hooksPath")
	if p == "" {
		return filepath.Join(commonDir, "hooks")
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		p = filepath.Join(os.Getenv("HOME"), rest)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(gr.top, p)
	}
	return p
}

// hookRunner runs a tree's git hooks as git commit does.
type hookRunner struct {
	dir    string   // hooks directory
	work   string   // work tree root, the hooks' working directory
	env    []string // environment of every hook
	output io.Writer
}

// newHookRunner prepares hooks that see indexFile as the index.
func (gr *gitRepo) newHookRunner(cfg gitConfig, gitDir, commonDir, indexFile string, output io.Writer) *hookRunner {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX", "GIT_EDITOR":
			continue
		}
		env = append(env, kv)
	}
	env = append(env,
		"GIT_DIR="+gitDir,
		"GIT_WORK_TREE="+gr.top,
		"GIT_INDEX_FILE="+indexFile,
		"GIT_PREFIX=",
		"GIT_EDITOR=:",
	)
	if output == nil {
		output = io.Discard
	}
	return &hookRunner{dir: gr.hooksDir(cfg, commonDir), work: gr.top, env: env, output: output}
}

// run runs the named hook with args when it exists and is executable. A
// non-zero exit is a *HookError holding the hook's combined output, which
// is also copied to the runner's output. The hook runs in a process group
// of its own; when ctx is cancelled the whole group is killed and run
// returns ctx's error.
func (h *hookRunner) run(ctx context.Context, name string, args ...string) error {
	p := filepath.Join(h.dir, name)
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return nil // git ignores a missing or non-executable hook
	}
	var out bytes.Buffer
	for attempt := 0; ; attempt++ {
		out.Reset()
		cmd := exec.CommandContext(ctx, p, args...)
		proc.OwnGroup(cmd)
		// A process the hook left behind may hold its output open: do not
		// wait for it once the hook is gone.
		cmd.WaitDelay = time.Second
		cmd.Dir = h.work
		cmd.Env = h.env
		w := io.MultiWriter(&out, h.output)
		cmd.Stdout, cmd.Stderr = w, w
		err = cmd.Run()
		// A hook written a moment ago can still be open for writing in a
		// child that another goroutine is starting: wait and try again.
		if errors.Is(err, syscall.ETXTBSY) && attempt < 20 {
			time.Sleep(time.Duration(attempt+1) * 5 * time.Millisecond)
			continue
		}
		break
	}
	if cerr := ctx.Err(); cerr != nil {
		return fmt.Errorf("%s hook interrupted: %w", name, cerr)
	}
	if err == nil || errors.Is(err, exec.ErrWaitDelay) {
		return nil
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code := ee.ExitCode()
		if code < 0 {
			code = 128 // killed by a signal
		}
		return &HookError{Hook: name, Code: code, Output: out.String()}
	}
	return fmt.Errorf("run %s hook: %w", name, err)
}

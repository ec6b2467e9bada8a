package agent

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"time"

	"github.com/pair-cli/pair/internal/proc"
)

// Shell runs command with sh -c in dir, in the environment env (see
// Settings.CommandEnv), with a time limit, and returns its exit code and
// combined output.
func Shell(ctx context.Context, dir, command string, env []string, timeout time.Duration) (CommandResult, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Dir = dir
	cmd.Env = env
	proc.OwnGroup(cmd)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 2 * time.Second
	err := cmd.Run()
	res := CommandResult{Output: out.String()}
	var ee *exec.ExitError
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		res.ExitCode = -1
		res.Output += "\n(stopped: it ran longer than " + timeout.String() + ")"
		return res, nil
	case errors.As(err, &ee):
		res.ExitCode = ee.ExitCode()
		return res, nil
	case err != nil:
		return res, err
	}
	return res, nil
}

// CommandEnv is the environment of the commands and tests run for the
// model: pair's own without the API key, the variable that holds it, and
// the usual secret variables (see proc.Env).
func (s Settings) CommandEnv() []string {
	return proc.Env(os.Environ(), s.APIKey, s.KeyEnv)
}
